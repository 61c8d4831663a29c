package state

import (
	"strings"
	"testing"

	"github.com/orc-state/orc-state/internal/gitx"
)

// Every name the artifact rules refuse is refused in content from
// elsewhere (import, push, restore), whatever spelling git or a platform
// would take for .git.
func TestNameProblemRefusesEverySpellingOfGit(t *testing.T) {
	for el, refused := range map[string]bool{
		"journal.jsonl": false, "qa": false, "report.json": false, "git": false, "a.git": false, "gitx~1": false, "git~": false,
		".git": true, ".GIT": true, ".Git": true, ".git.": true, ".git ": true, ".gitmodules": true,
		".cache": true, ".x.tmp-123": true, ".": true,
		"git~1": true, "GIT~1": true, "git~1.": true, "git~1 ": true, "git~2": true, "Gi7eBa~1": true,
		".g\u200cit": true, "\u200c.git": true, "\ufeff.git": true, ".g\u206ait": true,
		"con.json": true, "a:b": true, "trail.": true, "tab\tname": true, "NUL": true,
	} {
		if got := NameProblem(el) != ""; got != refused {
			t.Errorf("NameProblem(%q) = %q; refused %v, want %v", el, NameProblem(el), got, refused)
		}
	}
}

// CheckIncoming refuses, in an orphan's files too, what no verb writes:
// links, hidden parts, files over their cap, a broken journal, a file
// outside files/; and a restore's content must be a whole session.
func TestCheckIncomingRefusesWhatNoVerbWrites(t *testing.T) {
	big := strings.Repeat("x", MaxFileBytes+1)
	for _, tc := range []struct {
		name string
		in   Incoming
		tree gitx.Tree
		want string
	}{
		{"symlink", Incoming{ID: "o", Side: "archived", Orphan: true}, gitx.Tree{"files/l": {Data: []byte("/etc"), Mode: "symlink"}}, "has a symlink files/l"},
		{"gitlink", Incoming{ID: "o", Side: "archived", Orphan: true}, gitx.Tree{"files/sub": {Mode: "gitlink"}}, "has a gitlink files/sub"},
		{"git config", Incoming{ID: "o", Side: "archived", Orphan: true}, gitx.Tree{"files/.git/config": {Data: []byte("[core]\n")}}, "a hidden name"},
		{"short git", Incoming{ID: "o", Side: "archived", Orphan: true}, gitx.Tree{"files/GIT~1/config": {Data: []byte("[core]\n")}}, "the name Windows gives .git"},
		{"device", Incoming{ID: "o", Side: "archived", Orphan: true}, gitx.Tree{"files/aux.md": {Data: []byte("x")}}, "Windows device name"},
		{"over cap", Incoming{ID: "o", Side: "archived", Orphan: true}, gitx.Tree{"files/big.md": {Data: []byte(big)}}, "over its cap of 1048576"},
		{"broken journal", Incoming{ID: "o", Side: "archived", Orphan: true}, gitx.Tree{"files/journal.jsonl": {Data: []byte("{not json\n")}}, "journal.jsonl of o is invalid"},
		{"outside files", Incoming{ID: "o", Side: "archived", Orphan: true}, gitx.Tree{"notes.txt": {Data: []byte("x")}}, "which this orc-state does not know"},
		{"no entry", Incoming{ID: "s", Side: "archived", Whole: true}, gitx.Tree{"files/slices.json": {Data: []byte("{}")}}, "has no entry.json"},
	} {
		_, err := CheckIncoming(tc.in, tc.tree)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want an error naming %q", tc.name, err, tc.want)
		}
	}
	if _, err := CheckIncoming(Incoming{ID: "o", Side: "archived", Orphan: true}, gitx.Tree{"files/plan.md": {Data: []byte("plan\n")}}); err != nil {
		t.Errorf("a plain orphan file: %v", err)
	}
}

// SizeProblem refuses, by the size alone, what CheckStrays refuses by the
// bytes: a file over the cap of its name (a larger one for the
// append-only files), with the same message; a name outside files/ has
// the cap of one input.
func TestSizeProblemIsCheckStraysBySize(t *testing.T) {
	in := Incoming{ID: "feat", Side: "archived"}
	for _, tc := range []struct {
		name string
		size int64
		over bool
	}{
		{"files/notes.md", MaxFileBytes, false},
		{"files/notes.md", MaxFileBytes + 1, true},
		{"files/journal.jsonl", MaxAppendBytes, false},
		{"files/journal.jsonl", MaxAppendBytes + 1, true},
		{"files/progress.md", MaxFileBytes + 1, false},
		{"entry.json", MaxFileBytes + 1, true},
		{"worktrees.json", 10, false},
	} {
		err := SizeProblem(in, tc.name, tc.size)
		if (err != nil) != tc.over {
			t.Errorf("SizeProblem(%s, %d) = %v; want over=%v", tc.name, tc.size, err, tc.over)
		}
		if !tc.over || !strings.HasPrefix(tc.name, "files/") || tc.size > MaxFileBytes+1 {
			continue // (no 64 MiB buffer for the append-only cap)
		}
		strays := CheckStrays(in, gitx.Tree{tc.name: {Data: make([]byte, tc.size)}})
		if strays == nil || strays.Error() != err.Error() {
			t.Errorf("%s: CheckStrays says %v, SizeProblem %v", tc.name, strays, err)
		}
	}
}
