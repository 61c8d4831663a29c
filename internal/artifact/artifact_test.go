package artifact

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/orc-state/orc-state/internal/state"
)

// A NAME is a clean relative path inside files/ ending in .json, .md or
// .txt, never a file another verb writes (any case), never hidden.
func TestCheckName(t *testing.T) {
	for _, tt := range []struct {
		name  string
		write bool
		want  string // "" accepts; else a part of the message
	}{
		{"plan.md", true, ""},
		{"notes/diagnosis.txt", true, ""},
		{"review.json", true, ""},
		{"plan.pdf", true, "must end in .json"},
		{"", true, "1..240 bytes"},
		{strings.Repeat("a", 238) + ".md", true, "1..240 bytes"},
		{"/abs.md", true, "clean relative path"},
		{"a/../b.md", true, "clean relative path"},
		{"../up.md", true, "leaves files/"},
		{".hidden.md", true, "hidden or parent"},
		{"a\\b.md", true, "not allowed"},
		{"line\nbreak.md", true, "not allowed"},
		{"slices.json", true, "not by artifact put"},
		{"Slices.json", true, "not by artifact put"},
		{"checkpoint.md", false, "not by artifact put"},
	} {
		err := CheckName(tt.name, tt.write)
		switch {
		case tt.want == "" && err != nil:
			t.Errorf("CheckName(%q) = %v, want it accepted", tt.name, err)
		case tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want)):
			t.Errorf("CheckName(%q) = %v, want %q", tt.name, err, tt.want)
		}
	}
}

// Text is stored as given with its stamp in the journal line; a JSON
// object gets headSha and generatedAt added.
func TestStamped(t *testing.T) {
	text, stamp, err := Stamped("plan.md", []byte("# plan\n"), nil, "abc", "2026-01-01T00:00:00Z")
	if err != nil || string(text) != "# plan\n" || stamp["headSha"] != "abc" || stamp["generatedAt"] == "" || stamp["sha256"] == "" {
		t.Fatalf("text: %q %v %v", text, stamp, err)
	}
	obj, err := Parse("r.json", []byte(`{"a":1}`))
	if err != nil {
		t.Fatal(err)
	}
	data, stamp, err := Stamped("r.json", nil, obj, "abc", "2026-01-01T00:00:00Z")
	want := "{\n  \"a\": 1,\n  \"generatedAt\": \"2026-01-01T00:00:00Z\",\n  \"headSha\": \"abc\"\n}\n"
	if err != nil || string(data) != want || stamp["generatedAt"] != "" {
		t.Fatalf("json: %q %v %v", data, stamp, err)
	}
	for in, msg := range map[string]string{`[1]`: "JSON object", `{"a":`: "not valid JSON", "": "not valid JSON"} {
		if _, err := Parse("r.json", []byte(in)); err == nil || !strings.Contains(err.Error(), msg) {
			t.Errorf("Parse(%q) = %v, want %q", in, err, msg)
		}
	}
	if _, err := Parse("p.md", nil); err == nil || !strings.Contains(err.Error(), "stdin is empty") {
		t.Errorf("empty text: %v", err)
	}
}

// A JSON artifact is fresh when its headSha is HEAD, stale when another
// or none, missing when absent; only the verdicts other than fresh carry
// an error.
func TestJudgeAJSONArtifact(t *testing.T) {
	d := &state.Dir{Path: filepath.Join(t.TempDir(), ".orc")}
	files := d.FilesDir("main")
	if err := os.MkdirAll(files, 0o755); err != nil {
		t.Fatal(err)
	}
	head := strings.Repeat("a", 40)
	for name, body := range map[string]string{
		"at-head.json": `{"headSha":"` + head + `"}`, "behind.json": `{"headSha":"` + strings.Repeat("b", 40) + `"}`, "bare.json": `{}`,
	} {
		if err := os.WriteFile(filepath.Join(files, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, tt := range []struct{ name, state, stamp string }{
		{"at-head.json", "fresh", head}, {"behind.json", "stale", strings.Repeat("b", 40)},
		{"bare.json", "stale", "-"}, {"absent.json", "missing", "-"},
	} {
		v, err := Judge(d, "main", tt.name, head)
		if err != nil || v.State != tt.state || v.Stamp != tt.stamp || (v.Err == nil) != (tt.state == "fresh") {
			t.Errorf("%s: %+v, %v; want %s %s", tt.name, v, err, tt.state, tt.stamp)
		}
	}
}
