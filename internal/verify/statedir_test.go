package verify

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/orc-state/orc-state/internal/selection"
	"github.com/orc-state/orc-state/internal/state"
)

// TestStateDirNamesLeftoversByTheirShape: with no registry and no git,
// StateDir names temp files outside the per-repository folders, and as
// orphans only the folders shaped like a session's (an empty files/ one
// as removable), never a workspace link folder or a folder of the
// repository's own.
func TestStateDirNamesLeftoversByTheirShape(t *testing.T) {
	type file struct{ path, body string }
	tests := []struct {
		name  string
		files []file
		dirs  []string
		links []string
		want  []string // code and, after a space, a fragment of the message
	}{
		{name: "empty", dirs: []string{"."}},
		{name: "temp files, per-repo ones left alone",
			files: []file{{".orc.json.tmp-12", "x"}, {"knowledge/.a.md.tmp-3", "x"}, {"zz/files/.checkpoint.md.tmp-9", "x"}},
			want:  []string{"temp.stale .orc.json.tmp-12", "temp.stale " + filepath.Join("zz", "files", ".checkpoint.md.tmp-9")}},
		{name: "an empty files folder is a removable orphan", dirs: []string{"feat-x/files"},
			want: []string{"folder.orphan holds only an empty files/ folder"}},
		{name: "a session-shaped folder is an orphan to adopt", files: []file{{"feat-y/files/checkpoint.md", "# c\n"}},
			want: []string{"folder.orphan folder feat-y has no registry entry"}},
		{name: "a folder whose name is no key cannot be adopted", files: []file{{"Bad Name/files/journal.jsonl", "\n"}},
			want: []string{"folder.orphan no session key"}},
		{name: "a workspace link folder is no orphan", files: []file{{"linked/files/checkpoint.md", "# c\n"}}, links: []string{"linked"}},
		{name: "a folder of the repository is not orc-state's", files: []file{{"src/main.go", "package main\n"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root := filepath.Join(t.TempDir(), ".orc")
			if err := os.MkdirAll(root, 0o755); err != nil {
				t.Fatal(err)
			}
			for _, d := range tt.dirs {
				if err := os.MkdirAll(filepath.Join(root, d), 0o755); err != nil {
					t.Fatal(err)
				}
			}
			for _, f := range tt.files {
				p := filepath.Join(root, f.path)
				if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(p, []byte(f.body), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			for _, l := range tt.links {
				link := `{"scope":"workspace-member","workspaceRoot":"/elsewhere","sessionId":"ws","branch":"b"}`
				if err := os.WriteFile(filepath.Join(root, l, selection.LinkFile), []byte(link), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			got := StateDir(&state.Dir{Path: root}, time.Now(), nil)
			if len(got) != len(tt.want) {
				t.Fatalf("findings %+v, want %d: %q", got, len(tt.want), tt.want)
			}
			for i, w := range tt.want {
				code, frag, _ := strings.Cut(w, " ")
				if got[i].Code != code || !strings.Contains(got[i].Message, frag) || got[i].Next == "" {
					t.Errorf("finding %d = %+v, want code %s with %q and a next step", i, got[i], code, frag)
				}
			}
		})
	}
}

// TestStateDirOfNothingOrAFile: a state dir that does not exist has no
// findings; one that is a file is named, and nothing else is read.
func TestStateDirOfNothingOrAFile(t *testing.T) {
	dir := t.TempDir()
	if got := StateDir(&state.Dir{Path: filepath.Join(dir, "missing")}, time.Now(), nil); got != nil {
		t.Errorf("missing state dir: %+v, want none", got)
	}
	file := filepath.Join(dir, "file")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	got := StateDir(&state.Dir{Path: file}, time.Now(), nil)
	if len(got) != 1 || got[0].Code != "statedir.not-a-directory" {
		t.Errorf("state dir that is a file: %+v, want one statedir.not-a-directory", got)
	}
}

// TestArchivesThreshold: a threshold that is no number is named with how
// to fix it; an empty state dir's archives pass any threshold.
func TestArchivesThreshold(t *testing.T) {
	d := &state.Dir{Path: t.TempDir()}
	for _, tt := range []struct {
		warn, want string
	}{
		{"", ""},
		{"0", ""},
		{"12", ""},
		{"ten", "archive.threshold"},
		{"-1", "archive.threshold"},
	} {
		got := Archives(d, tt.warn)
		switch {
		case tt.want == "" && len(got) != 0:
			t.Errorf("Archives(%q) = %+v, want none", tt.warn, got)
		case tt.want != "" && (len(got) != 1 || got[0].Code != tt.want):
			t.Errorf("Archives(%q) = %+v, want %s", tt.warn, got, tt.want)
		}
	}
}
