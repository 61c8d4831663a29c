package slices

import "testing"

func TestIntegerLiterals(t *testing.T) {
	for _, c := range []struct {
		in           string
		integer, nat bool
	}{
		{"0", true, true}, {"42", true, true}, {"-7", true, false}, {"", false, false}, {"-", false, false},
		{"1.0", false, false}, {"1e3", false, false}, {"+1", false, false}, {"--1", false, false},
		{" 1", false, false}, {"1 ", false, false}, {"0x1", false, false}, {"١", false, false},
	} {
		if got := integerLit([]byte(c.in)); got != c.integer {
			t.Errorf("integerLit(%q) = %v", c.in, got)
		}
		if got := naturalLit([]byte(c.in)); got != c.nat {
			t.Errorf("naturalLit(%q) = %v", c.in, got)
		}
	}
}
