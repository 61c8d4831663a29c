package suggest

import (
	"slices"
	"testing"
)

func TestDistance(t *testing.T) {
	for _, c := range []struct {
		a, b string
		want int
	}{
		{"", "", 0}, {"a", "", 1}, {"", "abc", 3}, {"kitten", "sitting", 3},
		{"feat-x", "feat-y", 1}, {"s1", "s10", 1}, {"äb", "ab", 1},
	} {
		if got := Distance(c.a, c.b); got != c.want {
			t.Errorf("Distance(%q, %q) = %d, want %d", c.a, c.b, got, c.want)
		}
	}
}

func TestNearSuggestsCloseNamesNearestFirst(t *testing.T) {
	for _, c := range []struct {
		name, word string
		names      []string
		want       []string
	}{
		{"one typo", "feat-lgoin", []string{"main", "feat-logout", "feat-login"}, []string{"feat-login", "feat-logout"}},
		{"nearest first", "abcdefgh", []string{"abcdefxx", "abcdefgx"}, []string{"abcdefgx", "abcdefxx"}},
		{"ties as given", "s10", []string{"s20", "s1", "x", "s100"}, []string{"s20", "s1", "s100"}},
		{"a prefix", "auth", []string{"auth-api", "billing"}, []string{"auth-api"}},
		{"nothing close", "zzz", []string{"alpha", "beta"}, nil},
		{"never the word itself", "sl1", []string{"sl1", "sl2"}, []string{"sl2"}},
		{"at most three", "sl", []string{"sl1", "sl2", "sl3", "sl4"}, []string{"sl1", "sl2", "sl3"}},
		{"a short word is no typo of another", "9", []string{"1", "2", "19"}, nil},
		{"two characters: prefixes only", "s1", []string{"s2", "s10"}, []string{"s10"}},
		{"duplicates once", "fix", []string{"fox", "fox"}, []string{"fox"}},
	} {
		if got := Near(c.word, c.names); !slices.Equal(got, c.want) {
			t.Errorf("%s: Near(%q) = %q, want %q", c.name, c.word, got, c.want)
		}
	}
}
