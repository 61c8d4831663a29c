package registry

import (
	"path/filepath"
	"strings"
	"testing"
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
	for _, name := range []string{"orc.json", "knowledge", "project-context.md", "planning-calibration.json", "pr-budget.json", "removed.jsonl"} {
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
