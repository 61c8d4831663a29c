package refsync

import (
	"strings"
	"testing"
	"time"

	"github.com/orc-state/orc-state/internal/fault"
	"github.com/orc-state/orc-state/internal/gitx"
	"github.com/orc-state/orc-state/internal/journal"
	"github.com/orc-state/orc-state/internal/state"
)

func tree(files map[string]string) gitx.Tree {
	t := gitx.Tree{}
	for p, b := range files {
		t[p] = gitx.Blob{ID: "x", Data: []byte(b)}
	}
	return t
}

func TestSameContent(t *testing.T) {
	line := func(seq int, verb string) string {
		return `{"seq":` + string(rune('0'+seq)) + `,"prev":"","at":"2026-01-01T00:00:0` + string(rune('0'+seq)) + `Z","actor":"cli","verb":"` + verb + `","digests":{"entry":"","checkpoint":"","ledger":"","decisions":""}}` + "\n"
	}
	remote := tree(map[string]string{"entry.json": "{}", "files/journal.jsonl": line(1, "init") + line(2, "sync pull")})
	tests := []struct {
		name  string
		local map[string]string
		want  bool
	}{
		{"equal", map[string]string{"entry.json": "{}", "files/journal.jsonl": line(1, "init") + line(2, "sync pull")}, true},
		{"a legacy import line more", map[string]string{"entry.json": "{}", "files/journal.jsonl": line(1, "init") + line(2, "sync pull") + line(3, "sync pull")}, true},
		{"two legacy import lines more", map[string]string{"entry.json": "{}", "files/journal.jsonl": line(1, "init") + line(2, "sync pull") + line(3, "sync pull") + line(4, "sync pull")}, true},
		{"a change after an import line", map[string]string{"entry.json": "{}", "files/journal.jsonl": line(1, "init") + line(2, "sync pull") + line(3, "phase set") + line(4, "sync pull")}, false},
		{"the remote's own import line is not stripped", map[string]string{"entry.json": "{}", "files/journal.jsonl": line(1, "init")}, false},
		{"another entry", map[string]string{"entry.json": "{ }", "files/journal.jsonl": line(1, "init") + line(2, "sync pull")}, false},
		{"an extra file", map[string]string{"entry.json": "{}", "files/journal.jsonl": line(1, "init") + line(2, "sync pull"), "files/x": ""}, false},
		{"a missing file", map[string]string{"entry.json": "{}"}, false},
		{"no journal", map[string]string{"entry.json": "{}", "files/x": ""}, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			local := gitx.Snapshot{}
			for p, b := range tc.local {
				local[p] = []byte(b)
			}
			if got := sameContent(local, remote); got != tc.want {
				t.Fatalf("sameContent = %v, want %v", got, tc.want)
			}
		})
	}
}

func TestIdentityIsTheLastChange(t *testing.T) {
	j := `{"seq":1,"at":"2026-01-02T03:04:05Z","verb":"init"}` + "\n" + `{"seq":2,"at":"2026-02-03T04:05:06Z","verb":"phase set"}` + "\n"
	who := identity(gitx.Snapshot{"files/journal.jsonl": []byte(j), EntryFile: []byte(`{"updatedAt":"2020-01-01T00:00:00Z"}`)})
	if want := time.Date(2026, 2, 3, 4, 5, 6, 0, time.UTC); !who.When.Equal(want) || who.Name != "orc-state" {
		t.Fatalf("identity = %+v, want %v", who, want)
	}
	who = identity(gitx.Snapshot{EntryFile: []byte(`{"updatedAt":"2020-01-01T00:00:00Z"}`)})
	if want := time.Date(2020, 1, 1, 0, 0, 0, 0, time.UTC); !who.When.Equal(want) {
		t.Fatalf("identity without a journal = %v, want %v", who.When, want)
	}
	if who := identity(gitx.Snapshot{}); who.When.Unix() != 0 {
		t.Fatalf("identity of nothing = %v", who.When)
	}
}

func TestSafeRel(t *testing.T) {
	for rel, want := range map[string]bool{
		"journal.jsonl": true, "qa/report.json": true, "a b/c.json": true,
		"": false, "../x": false, "a/../b": false, "/abs": false, "a//b": false, "./a": false,
		"a\\b": false, "a/": false, ".journal.jsonl.tmp-123": false, "qa/.x.tmp-9": false, "nul\x00": false,
	} {
		if got := state.SafeRel(rel); got != want {
			t.Errorf("state.SafeRel(%q) = %v, want %v", rel, got, want)
		}
	}
}

func TestRefName(t *testing.T) {
	for id, ok := range map[string]bool{
		"feat-x": true, "a.b": true, "v1.2.3": true, "x.locks": true, "lock": true,
		"x.lock": false, "a..b": false, "trailing.": false,
	} {
		if got := refName(id) == ""; got != ok {
			t.Errorf("refName(%q) = %q; want ok=%v", id, refName(id), ok)
		}
	}
}

func TestNamespace(t *testing.T) {
	for remote, want := range map[string]string{
		"origin":              "refs/orc/remotes/origin/",
		"back-up.2":           "refs/orc/remotes/back-up.2/",
		"../remote.git":       "refs/orc/remotes/url-",
		"/srv/remote.git":     "refs/orc/remotes/url-",
		"file:///srv/r.git":   "refs/orc/remotes/url-",
		".hidden":             "refs/orc/remotes/url-",
		"git@host:owner/repo": "refs/orc/remotes/url-",
	} {
		got := Namespace(remote)
		if !strings.HasPrefix(got, want) || !strings.HasSuffix(got, "/") {
			t.Errorf("Namespace(%q) = %q, want %q...", remote, got, want)
		}
	}
	if Namespace("../a.git") == Namespace("../b.git") {
		t.Error("two paths share a namespace")
	}
}

func TestSummaryExitCodes(t *testing.T) {
	r := func(o Outcome) Result { return Result{Session: "s" + string(o), Outcome: o} }
	tests := []struct {
		results []Result
		code    int
		hint    string
	}{
		{[]Result{r(Pushed), r(UpToDate), r(Imported), r(IsAhead), r(Resolved)}, fault.OK, ""},
		{[]Result{r(Pushed), r(IsBehind)}, fault.NotFound, "sync pull"},
		{[]Result{r(IsDiverged), r(IsBehind)}, fault.NotFound, "sync resolve"},
		{[]Result{r(Rejected)}, fault.NotFound, "remote refused"},
		{[]Result{r(Failed)}, fault.NotFound, "again"},
		{[]Result{r(IsBehind), r(Refused), r(IsDiverged)}, fault.Usage, "credential"},
		{[]Result{r(Refused), r(IsBehind)}, fault.Usage, "credential"},
	}
	for _, tc := range tests {
		err := Summary("push", "origin", tc.results)
		if got := fault.Code(err); got != tc.code {
			t.Errorf("%v: exit %d, want %d (%v)", tc.results, got, tc.code, err)
		}
		if tc.hint != "" && !strings.Contains(hintOf(err), tc.hint) {
			t.Errorf("%v: hint %q, want one naming %q", tc.results, hintOf(err), tc.hint)
		}
	}
}

// hintOf is the hint the CLI would print for err.
func hintOf(err error) string {
	_, _, hint := fault.Explain(err)
	return hint
}

func TestValidateTreeRefusesLinks(t *testing.T) {
	entry := `{"sessionId":"s","branch":"s","gitBranch":"s","command":"flow","status":"in_progress","phase":1,"totalPhases":3,"linkedPRs":[],"startedAt":"2026-01-02T03:04:05Z","updatedAt":"2026-01-02T03:04:05Z"}`
	base := gitx.Tree{EntryFile: {ID: "e", Data: []byte(entry)}}
	if _, err := validateTree("s", base, "remote"); err != nil {
		t.Fatalf("a plain state is refused: %v", err)
	}
	for _, tc := range []struct {
		path string
		blob gitx.Blob
		want string
	}{
		{"files/link", gitx.Blob{ID: "l", Data: []byte("../.."), Mode: "symlink"}, "has a symlink files/link"},
		{"files/sub", gitx.Blob{ID: "c", Mode: "gitlink"}, "has a gitlink files/sub"},
		{"files/.git/config", gitx.Blob{ID: "x", Data: []byte("[core]\n\tfsmonitor = x\n")}, "has a file files/.git/config: a hidden name"},
		{"files/a/\x1b[31m.json", gitx.Blob{ID: "x"}, `files/a/\x1b[31m.json`},
		{".git/config", gitx.Blob{ID: "x"}, "has a file .git/config: a hidden name"},
	} {
		tree := gitx.Tree{EntryFile: base[EntryFile], tc.path: tc.blob}
		_, err := validateTree("s", tree, "remote")
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v; want an error naming %q", tc.path, err, tc.want)
		}
	}
}

// A journal line from another machine whose actor, verb or time is not
// one line (a line break, a terminal's escape, a Unicode separator) is
// refused for its content, like any other invalid file, on import and on
// push alike; a good journal passes.
func TestValidateRefusesJournalText(t *testing.T) {
	entry := `{"sessionId":"s","branch":"s","gitBranch":"s","command":"flow","status":"in_progress","phase":1,"totalPhases":3,"linkedPRs":[],"startedAt":"2026-01-02T03:04:05Z","updatedAt":"2026-01-02T03:04:05Z"}`
	good := journal.Entry{At: "2026-01-02T03:04:05Z", Actor: "José (agent)", Verb: "phase set"}
	journalOf := func(lines ...journal.Entry) []byte {
		tail := journal.Tail{EndsClean: true}
		var out []byte
		for _, e := range lines {
			line, _, err := tail.Next(e)
			if err != nil {
				t.Fatal(err)
			}
			out = append(out, line...)
			tail = journal.TailOf(out)
		}
		return out
	}
	with := func(f func(e *journal.Entry)) journal.Entry {
		e := good
		f(&e)
		return e
	}
	for _, tc := range []struct {
		name  string
		lines []journal.Entry
		want  string // "" when it passes
	}{
		{"good", []journal.Entry{good, good}, ""},
		{"actor with a line feed", []journal.Entry{good, with(func(e *journal.Entry) { e.Actor = "agent\nphase set" })}, "line 2: actor contains a line break (U+000A)"},
		{"verb with a terminal escape", []journal.Entry{with(func(e *journal.Entry) { e.Verb = "\x1b[2Jphase set" }), good}, "line 1: verb contains a control character (U+001B)"},
		{"verb with a line separator", []journal.Entry{good, with(func(e *journal.Entry) { e.Verb = "phase\u2028set" })}, "line 2: verb contains a line break (U+2028)"},
		{"actor with a carriage return", []journal.Entry{with(func(e *journal.Entry) { e.Actor = "agent\rroot" })}, "line 1: actor contains a line break (U+000D)"},
		{"verb with NEL", []journal.Entry{good, good, with(func(e *journal.Entry) { e.Verb = "init\u0085" })}, "line 3: verb contains a line break (U+0085)"},
		{"actor with DEL", []journal.Entry{with(func(e *journal.Entry) { e.Actor = "a\x7fb" })}, "line 1: actor contains a control character (U+007F)"},
		{"time with a tab", []journal.Entry{with(func(e *journal.Entry) { e.At = "2026-01-02\t03:04:05Z" })}, "line 1: at contains a control character (U+0009)"},
	} {
		files := gitx.Snapshot{EntryFile: []byte(entry), "files/journal.jsonl": journalOf(tc.lines...)}
		tree := gitx.Tree{}
		for p, b := range files {
			tree[p] = gitx.Blob{ID: "x", Data: b}
		}
		_, errRemote := validateTree("s", tree, "remote")
		errLocal := validateLocal("s", files)
		for side, err := range map[string]error{"remote": errRemote, "local": errLocal} {
			switch {
			case tc.want == "" && err != nil:
				t.Errorf("%s (%s): refused: %v", tc.name, side, err)
			case tc.want != "" && (err == nil || !strings.Contains(err.Error(), "the "+side+" journal.jsonl of s is invalid: "+tc.want)):
				t.Errorf("%s (%s): %v; want an error naming %q", tc.name, side, err, tc.want)
			}
		}
	}
}
