package safetext

import "testing"

// Width counts terminal columns: CJK and emoji two, combining marks and
// zero-width format characters none, everything else one.
func TestWidthCountsColumns(t *testing.T) {
	for s, want := range map[string]int{"": 0, "main": 4, "機能/決済": 9, "e\u0301": 1, "🚀x": 3, "a\u200db": 2, "Ａ": 2} {
		if got := Width(s); got != want {
			t.Errorf("Width(%q) = %d, want %d", s, got, want)
		}
	}
}
