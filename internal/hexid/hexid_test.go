package hexid

import (
	"strings"
	"testing"
)

func TestValid(t *testing.T) {
	for _, tt := range []struct {
		s        string
		min, max int
		want     bool
	}{
		{"abcdef0", 7, 40, true},
		{"ABCDEF0", 7, 40, true},
		{"abcdef", 7, 40, false},
		{strings.Repeat("a", 40), 7, 40, true},
		{strings.Repeat("a", 41), 7, 40, false},
		{strings.Repeat("f", 64), 40, 64, true},
		{"abcdefg", 7, 40, false},
		{"abc def", 7, 40, false},
		{"", 0, 40, true},
		{"", 1, 40, false},
		{"0123456789abcdef", 16, 16, true},
		{"é123456", 7, 40, false},
	} {
		if got := Valid(tt.s, tt.min, tt.max); got != tt.want {
			t.Errorf("Valid(%q, %d, %d) = %v, want %v", tt.s, tt.min, tt.max, got, tt.want)
		}
	}
}

// A message shows a sha's first 12 digits, a shorter one whole.
func TestShort(t *testing.T) {
	for in, want := range map[string]string{
		"": "", "abc1234": "abc1234", "0123456789ab": "0123456789ab",
		"0123456789abcdef0123456789abcdef01234567": "0123456789ab",
	} {
		if got := Short(in); got != want {
			t.Errorf("Short(%q) = %q, want %q", in, got, want)
		}
	}
}
