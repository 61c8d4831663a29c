package portable

import (
	"strings"
	"testing"
)

func TestDeviceStem(t *testing.T) {
	tests := []struct {
		name string
		want int
	}{
		{"con", 3}, {"CON", 3}, {"Con", 3}, {"prn", 3}, {"aux", 3}, {"nul", 3}, {"NuL", 3},
		{"com1", 4}, {"COM9", 4}, {"lpt1", 4}, {"LpT9", 4},
		{"com¹", 5}, {"lpt³", 5}, // superscript digits are two bytes
		{"conin$", 6}, {"CONOUT$", 7},
		{"con.txt", 3}, {"nul.tar.gz", 3}, {"aux.", 3}, {"con .md", 3}, {"con  ", 3},
		{"", 0}, {"co", 0}, {"cons", 0}, {"console", 0}, {"con-", 0}, {"con_x", 0}, {"xcon", 0},
		{"com0", 0}, {"lpt0", 0}, {"com10", 0}, {"com", 0}, {"lpt", 0}, {"coma", 0}, {"com⁴", 0},
		{".con", 0}, {"a.con", 0}, {"nul-x.json", 0}, {" con", 0},
	}
	for _, tt := range tests {
		if got := DeviceStem(tt.name); got != tt.want {
			t.Errorf("DeviceStem(%q) = %d, want %d", tt.name, got, tt.want)
		}
	}
}

func TestProblem(t *testing.T) {
	tests := []struct {
		name string
		want string // a fragment of the reason; "" means usable everywhere
	}{
		{"main", ""}, {"feat-x", ""}, {"a..b", ""}, {"v1.2", ""}, {"con-", ""}, {"aux-.v2", ""},
		{"com0", ""}, {"report.json", ""}, {"a b.json", ""}, {" lead", ""}, {"é.json", ""},
		{".", ""}, {"..", ""}, // path traversal is the callers' rule
		{"con", "device name"}, {"NUL.json", "device name"}, {"Aux.a.b", "device name"},
		{"lpt9", "device name"}, {"conout$", "device name"}, {"com².json", "device name"},
		{"trail.", "ends with a dot"}, {"a..", "ends with a dot"},
		{"trail ", "ends with a space"}, {"a.json ", "ends with a space"},
		{"a:b.json", `':'`}, {"a<b", `'<'`}, {"a>b", `'>'`}, {`a"b`, `'"'`}, {"a|b", `'|'`},
		{"a?b", `'?'`}, {"a*b", `'*'`}, {`a\b`, `'\\'`}, {"a/b", `'/'`},
		{"a\tb", "control character"}, {"a\x01b", "control character"}, {"a\x1fb", "control character"},
	}
	for _, tt := range tests {
		got := Problem(tt.name)
		switch {
		case tt.want == "" && got != "":
			t.Errorf("Problem(%q) = %q, want usable", tt.name, got)
		case tt.want != "" && !strings.Contains(got, tt.want):
			t.Errorf("Problem(%q) = %q, want it to contain %q", tt.name, got, tt.want)
		case strings.Contains(got, "\n"):
			t.Errorf("Problem(%q) spans lines: %q", tt.name, got)
		}
	}
}

// TestFold is the case-folding name table: the pairs macOS (APFS, HFS+)
// and Windows (NTFS) store as one name, and the pairs they keep apart.
func TestFold(t *testing.T) {
	same := [][2]string{
		{"feat-x", "Feat-X"},
		{"feat-x", "FEAT-X"},
		{"release-1.2", "RELEASE-1.2"},
		{"orc.json", "Orc.JSON"},
		{"knowledge", "Knowledge"},
		{"trail", "trail."},            // Windows drops a trailing dot
		{"trail", "trail.."},           // and several
		{"trail", "Trail. "},           // and spaces after them
		{"slices.json", "ſlices.json"}, // long s folds to s
		{"kilo", "\u212Ailo"},          // Kelvin sign folds to k
		{"straße", "Straße"},
		{"Ωmega", "ωmega"},
		{"ǅ", "ǆ"}, // title case folds with upper and lower
		{"ǅ", "Ǆ"},
		{"ÉTÉ.json", "été.json"},
	}
	for _, p := range same {
		if !Same(p[0], p[1]) && p[0] != p[1] {
			t.Errorf("Same(%q, %q) = false; macOS and Windows store them as one name", p[0], p[1])
		}
		if Fold(p[0]) != Fold(p[1]) {
			t.Errorf("Fold(%q) = %q, Fold(%q) = %q; want one", p[0], Fold(p[0]), p[1], Fold(p[1]))
		}
	}
	apart := [][2]string{
		{"feat-x", "feat_x"},
		{"feat-x", "feat-x-"},
		{"a.b", "ab"},
		{"trail", ".trail"},
		{"straße", "strasse"}, // full folding (ß→ss) is not what NTFS does
		{"e.json", "é.json"},
		{"i", "ı"}, // dotless i is its own letter outside Turkish rules
	}
	for _, p := range apart {
		if Same(p[0], p[1]) {
			t.Errorf("Same(%q, %q) = true; they are two names everywhere", p[0], p[1])
		}
	}
	if Same("feat-x", "feat-x") {
		t.Error("Same(x, x) = true; a name does not collide with itself")
	}
}
