package environ

import (
	"runtime"
	"testing"
)

func TestLookup(t *testing.T) {
	l := List{"A=1", "B=", "A=2", "NOEQUALS", "C=x=y"}
	for _, tc := range []struct {
		key   string
		value string
		set   bool
	}{
		{"A", "2", true}, // the later entry wins, as for a child process
		{"B", "", true},  // set but empty
		{"C", "x=y", true},
		{"D", "", false},
		{"NOEQUALS", "", false},
		{"", "", false},
	} {
		v, ok := l.Lookup(tc.key)
		if v != tc.value || ok != tc.set {
			t.Errorf("Lookup(%q) = %q, %v; want %q, %v", tc.key, v, ok, tc.value, tc.set)
		}
		if got := l.Get(tc.key); got != tc.value {
			t.Errorf("Get(%q) = %q, want %q", tc.key, got, tc.value)
		}
	}
	if v, ok := l.Lookup("a"); ok != (runtime.GOOS == "windows") || ok && v != "2" {
		t.Errorf("Lookup(a) = %q, %v: names differ by case only on Windows", v, ok)
	}
}

func TestWithWithout(t *testing.T) {
	base := List{"A=1", "B=2"}
	more := base.With("A=3")
	if more.Get("A") != "3" || base.Get("A") != "1" || len(base) != 2 {
		t.Fatalf("With changed the base or lost the override: %q, %q", base, more)
	}
	less := more.Without(func(k string) bool { return k == "A" })
	if _, ok := less.Lookup("A"); ok || less.Get("B") != "2" || len(more) != 3 {
		t.Fatalf("Without: %q from %q", less, more)
	}
}
