package registry

import (
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/orc-state/orc-state/internal/portable"
)

func TestSanitize(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{"empty", "", ""},
		{"plain", "main", "main"},
		{"allowed punctuation kept", "A-z_0.9", "A-z_0.9"},
		{"slash", "feat/x", "feat-x"},
		{"several slashes", "user/feat/x", "user-feat-x"},
		{"space", "a b", "a-b"},
		{"tab", "a\tb", "a-b"},
		{"newline", "a\nb", "a-b"},
		{"NUL", "a\x00b", "a-b"},
		{"DEL", "a\x7fb", "a-b"},
		{"two-byte rune is two dashes", "é", "--"},
		{"three-byte rune", "€", "---"},
		{"four-byte rune", "😀", "----"},
		{"byte-wise, not character-wise (B13)", "feat/café x", "feat-caf---x"},
		{"invalid UTF-8 byte is one dash", "a\xffb", "a-b"},
		{"dot dot", "..", ".."},
		{"traversal", "../x", "..-x"},
		{"absolute path", "/etc/passwd", "-etc-passwd"},
		{"backslash", `a\b`, "a-b"},
		{"shell metacharacters", "a;b|c&d$e`f'g\"h", "a-b-c-d-e-f-g-h"},
		{"colon and tilde", "a:b~c^d", "a-b-c-d"},
		{"plus and at", "v1+build@x", "v1-build-x"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Sanitize(tt.in); got != tt.want {
				t.Errorf("Sanitize(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}

// TestSanitizeEveryByte pins the rule byte by byte: exactly [A-Za-z0-9._-]
// survives, every other byte becomes one '-'.
func TestSanitizeEveryByte(t *testing.T) {
	for i := 0; i < 256; i++ {
		c := byte(i)
		want := "-"
		if keyByte(c) {
			want = string([]byte{c})
		}
		if got := Sanitize(string([]byte{c})); got != want {
			t.Errorf("Sanitize(%#x) = %q, want %q", c, got, want)
		}
	}
}

// keyByte reports whether c may appear in a sessionId: [A-Za-z0-9._-].
func keyByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '.' || c == '_' || c == '-'
}

func TestSanitizeDoesNotAlias(t *testing.T) {
	in := "feat/x"
	_ = Sanitize(in)
	if in != "feat/x" {
		t.Fatalf("Sanitize modified its input: %q", in)
	}
}

func TestCheckKey(t *testing.T) {
	tests := []struct {
		name    string
		id      string
		wantErr string // "" means accepted
	}{
		{"plain", "main", ""},
		{"sanitized branch", "feat-x", ""},
		{"dots inside", "release-1.2.3", ""},
		{"double dot inside", "a..b", ""},
		{"traversal inside a name", "a-..-x", ""},
		{"leading dash", "-x", ""},
		{"underscore", "_x", ""},
		{"200 bytes", strings.Repeat("a", MaxKeyBytes), ""},
		{"empty", "", "empty"},
		{"dot", ".", "traversal"},
		{"dot dot", "..", "traversal"},
		{"hidden", ".hidden", "dot"},
		{"sanitized traversal", "..-x", "dot"},
		{"lock file", ".lock", "dot"},
		{"worktrees folder", ".worktrees", "dot"},
		{"201 bytes", strings.Repeat("a", MaxKeyBytes+1), "201 bytes"},
		{"reserved orc.json", "orc.json", "reserved"},
		{"reserved knowledge", "knowledge", "reserved"},
		{"reserved project-context.md", "project-context.md", "reserved"},
		{"reserved planning-calibration.json", "planning-calibration.json", "reserved"},
		{"reserved pr-budget.json", "pr-budget.json", "reserved"},
		{"reserved removed.jsonl", "removed.jsonl", "reserved"},
		{"reserved worktrees.json", "worktrees.json", "reserved"},
		{"slash", "feat/x", "outside"},
		{"space", "a b", "outside"},
		{"unicode", "café", "outside"},
		{"separator only", "/", "outside"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := CheckKey(tt.id)
			if tt.wantErr == "" {
				if err != nil {
					t.Fatalf("CheckKey(%q) = %v, want nil", tt.id, err)
				}
				return
			}
			if err == nil {
				t.Fatalf("CheckKey(%q) = nil, want an error containing %q", tt.id, tt.wantErr)
			}
			if !strings.Contains(err.Error(), tt.wantErr) {
				t.Fatalf("CheckKey(%q) = %q, want it to contain %q", tt.id, err, tt.wantErr)
			}
			if strings.Contains(err.Error(), "\n") {
				t.Fatalf("CheckKey(%q) error spans lines: %q", tt.id, err)
			}
		})
	}
}

func TestIsReserved(t *testing.T) {
	for _, name := range []string{"orc.json", "knowledge", "project-context.md", "planning-calibration.json", "pr-budget.json", "removed.jsonl", "worktrees.json"} {
		if !IsReserved(name) {
			t.Errorf("IsReserved(%q) = false, want true", name)
		}
	}
	for _, name := range []string{"", "main", "orc-json", "knowledge-base", "orc.json.bak"} {
		if IsReserved(name) {
			t.Errorf("IsReserved(%q) = true, want false", name)
		}
	}
}

func TestKeyFor(t *testing.T) {
	tests := []struct {
		name, branch string
		want         string // "" means refused
	}{
		{"plain", "main", "main"},
		{"slash", "feat/x", "feat-x"},
		{"space", "feat/sso login", "feat-sso-login"},
		{"unicode", "é", "--"},
		{"unicode in a name (B13)", "feat/café x", "feat-caf---x"},
		{"traversal inside stays one name", "a/../x", "a-..-x"},
		{"absolute", "/x", "-x"},
		{"200 bytes", strings.Repeat("b", MaxKeyBytes), strings.Repeat("b", MaxKeyBytes)},
		{"200 bytes after sanitizing", strings.Repeat("é", MaxKeyBytes/2), strings.Repeat("-", MaxKeyBytes)},
		{"empty", "", ""},
		{"dot", ".", ""},
		{"dot dot (B12)", "..", ""},
		{"leading traversal sanitizes to a leading dot", "../x", ""},
		{"dot slash", "./x", ""},
		{"hidden", ".hidden", ""},
		{"201 bytes", strings.Repeat("b", MaxKeyBytes+1), ""},
		{"201 bytes after sanitizing", "é" + strings.Repeat("b", MaxKeyBytes-1), ""},
		{"reserved orc.json", "orc.json", ""},
		{"reserved knowledge (B12)", "knowledge", ""},
		{"reserved project-context.md", "project-context.md", ""},
		{"reserved planning-calibration.json", "planning-calibration.json", ""},
		{"reserved pr-budget.json", "pr-budget.json", ""},
		{"reserved removed.jsonl", "removed.jsonl", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := KeyFor(tt.branch)
			if tt.want == "" {
				if err == nil {
					t.Fatalf("KeyFor(%q) = %q, want a refusal", tt.branch, got)
				}
				if got != "" {
					t.Fatalf("KeyFor(%q) returned %q alongside error %v", tt.branch, got, err)
				}
				return
			}
			if err != nil {
				t.Fatalf("KeyFor(%q) = %v, want %q", tt.branch, err, tt.want)
			}
			if got != tt.want {
				t.Fatalf("KeyFor(%q) = %q, want %q", tt.branch, got, tt.want)
			}
			if got != Sanitize(tt.branch) {
				t.Fatalf("KeyFor(%q) = %q differs from Sanitize = %q", tt.branch, got, Sanitize(tt.branch))
			}
		})
	}
}

// TestKeyForStaysInside checks that every accepted key names exactly one
// entry directly under the state directory.
func TestKeyForStaysInside(t *testing.T) {
	root := filepath.Join("/tmp", "repo", ".orc")
	branches := []string{
		"../x", "../../etc", "a/../../x", "a/..", "..", ".", "/", "//", "./", "x/.", "x/./y",
		`..\x`, "a\x00b", "~/x", "$HOME", "feat/../..", "-", "--", "...",
	}
	for _, b := range branches {
		id, err := KeyFor(b)
		if err != nil {
			continue
		}
		p := filepath.Join(root, id)
		if filepath.Dir(p) != root || filepath.Base(p) != id {
			t.Errorf("KeyFor(%q) = %q resolves to %q, outside %q", b, id, p, root)
		}
		if strings.ContainsAny(id, `/\`) || id == "." || id == ".." {
			t.Errorf("KeyFor(%q) = %q is not a single safe name", b, id)
		}
		if err := CheckKey(id); err != nil {
			t.Errorf("KeyFor(%q) = %q but CheckKey refuses it: %v", b, id, err)
		}
	}
}

// TestKeyCollisions documents that distinct branches can share a key (B12);
// the registry refuses the second one because its gitBranch differs.
func TestKeyCollisions(t *testing.T) {
	pairs := [][2]string{{"feat/x", "feat-x"}, {"a b", "a-b"}, {"é", "--"}}
	for _, p := range pairs {
		k1, err1 := KeyFor(p[0])
		k2, err2 := KeyFor(p[1])
		if err1 != nil || err2 != nil {
			t.Fatalf("KeyFor(%q), KeyFor(%q): %v, %v", p[0], p[1], err1, err2)
		}
		if k1 != k2 {
			t.Fatalf("KeyFor(%q) = %q, KeyFor(%q) = %q; want one key", p[0], k1, p[1], k2)
		}
	}
}

// TestSanitizePortable pins the mapping of the names Windows cannot use as
// a folder, and that every other name keeps the original tool's key.
func TestSanitizePortable(t *testing.T) {
	tests := []struct{ branch, want string }{
		{"con", "con-"},
		{"CON", "CON-"},
		{"Con", "Con-"},
		{"prn", "prn-"},
		{"aux", "aux-"},
		{"nul", "nul-"},
		{"com1", "com1-"},
		{"COM9", "COM9-"},
		{"lpt1", "lpt1-"},
		{"LpT9", "LpT9-"},
		{"con.txt", "con-.txt"},
		{"aux.a.b", "aux-.a.b"},
		{"nul.x/y", "nul-.x-y"},
		{"trail.", "trail.-"},
		{"a/b.", "a-b.-"},
		{"a..", "a..-"},
		{"con.", "con-.-"},
		{"nul/", "nul-"}, // the original rule makes "nul-", already usable
		// Names the original rule already made usable are untouched.
		{"com0", "com0"},
		{"lpt10", "lpt10"},
		{"console", "console"},
		{"con-x", "con-x"},
		{"x.con", "x.con"},
		{"feat/con", "feat-con"},
		{"a.b", "a.b"},
		{"com¹", "com--"}, // two bytes outside [A-Za-z0-9._-]
		{"con ", "con-"},  // the space is a '-' already
		// A leading dot is CheckKey's refusal, not a mapping.
		{"..", ".."},
		{".", "."},
		{".con.", ".con."},
		{"", ""},
	}
	for _, tt := range tests {
		if got := Sanitize(tt.branch); got != tt.want {
			t.Errorf("Sanitize(%q) = %q, want %q", tt.branch, got, tt.want)
		}
	}
}

// TestSanitizeKeepsEveryUsableName: for names of up to four bytes over an
// alphabet of the interesting bytes, Sanitize is the original rule
// whenever that rule's key is a name Windows can use, and a usable name
// otherwise.
func TestSanitizeKeepsEveryUsableName(t *testing.T) {
	alphabet := []string{"c", "o", "n", "N", "u", "l", "1", "0", ".", "-", "/", " ", "x"}
	var walk func(prefix string, depth int)
	n := 0
	walk = func(prefix string, depth int) {
		if prefix != "" {
			n++
			orig, got := OriginalKey(prefix), Sanitize(prefix)
			if orig[0] == '.' || portable.Problem(orig) == "" {
				if got != orig {
					t.Errorf("Sanitize(%q) = %q, want the original %q", prefix, got, orig)
				}
			} else if p := portable.Problem(got); p != "" {
				t.Errorf("Sanitize(%q) = %q: %s", prefix, got, p)
			}
		}
		if depth == 4 {
			return
		}
		for _, c := range alphabet {
			walk(prefix+c, depth+1)
		}
	}
	walk("", 0)
	if n < 30000 {
		t.Fatalf("walked %d names; the table is smaller than intended", n)
	}
}

func TestCheckPortable(t *testing.T) {
	tests := []struct {
		id, wantErr string // "" means accepted
	}{
		{"main", ""},
		{"con-", ""},
		{"aux-.v2", ""},
		{"trail.-", ""},
		{"knowledge-base", ""},
		{"Orc.json.bak", ""},
		{"con", "device name"},
		{"NUL", "device name"},
		{"aux.v2", "device name"},
		{"com1", "device name"},
		{"lpt9.x", "device name"},
		{"trail.", "ends with a dot"},
		{"a..", "ends with a dot"},
		{"Knowledge", `per-repository file "knowledge"`},
		{"ORC.JSON", `per-repository file "orc.json"`},
		{"Removed.jsonl", `per-repository file "removed.jsonl"`},
		{"Pr-Budget.json", `per-repository file "pr-budget.json"`},
		{"Worktrees.JSON", `per-repository file "worktrees.json"`},
		// CheckKey's refusals come first.
		{"knowledge", "reserved"},
		{"..", "traversal"},
		{".con", "begins with a dot"},
		{"a/b", "outside"},
		{"", "empty"},
	}
	for _, tt := range tests {
		err := CheckPortable(tt.id)
		switch {
		case tt.wantErr == "" && err != nil:
			t.Errorf("CheckPortable(%q) = %v, want nil", tt.id, err)
		case tt.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tt.wantErr)):
			t.Errorf("CheckPortable(%q) = %v, want an error containing %q", tt.id, err, tt.wantErr)
		}
	}
	// The names an earlier version could store stay acceptable to CheckKey:
	// they exist, and are found.
	for _, id := range []string{"con", "aux.v2", "trail.", "Knowledge", "COM1"} {
		if err := CheckKey(id); err != nil {
			t.Errorf("CheckKey(%q) = %v; an existing folder of that name must stay usable", id, err)
		}
	}
}

func TestKeyForPortable(t *testing.T) {
	for branch, want := range map[string]string{"con": "con-", "feat/nul": "feat-nul", "AUX.md": "AUX-.md", "x.": "x.-"} {
		got, err := KeyFor(branch)
		if err != nil || got != want {
			t.Errorf("KeyFor(%q) = %q, %v; want %q", branch, got, err, want)
		}
	}
	for _, branch := range []string{"Knowledge", "ORC.json", "Removed.JSONL"} {
		if got, err := KeyFor(branch); err == nil {
			t.Errorf("KeyFor(%q) = %q, want a refusal (a per-repository name on macOS and Windows)", branch, got)
		}
	}
}

func TestKeys(t *testing.T) {
	tests := []struct {
		branch string
		want   []string
	}{
		{"main", []string{"main"}},
		{"feat/x", []string{"feat-x"}},
		{"con", []string{"con-", "con"}},
		{"nul.a/b", []string{"nul-.a-b", "nul.a-b"}},
		{"v1.", []string{"v1.-", "v1."}},
	}
	for _, tt := range tests {
		if got := Keys(tt.branch); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("Keys(%q) = %q, want %q", tt.branch, got, tt.want)
		}
	}
}
