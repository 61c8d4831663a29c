package archive

import (
	"github.com/orc-state/orc-state/internal/gitx"
	"strings"
	"testing"
	"time"
)

func TestComponent(t *testing.T) {
	for _, c := range []struct {
		id   string
		same bool
	}{
		{"feat-x", true},
		{"v1.2_rc-3", true},
		{"a..b", false},       // git refuses ".." in a ref name
		{"topic.lock", false}, // and a component ending ".lock"
		{"trailing.", false},
		{".hidden", false},
		{"o$(touch PWNED)", false}, // an orphan folder may be named anything
		{"with space", false},
		{"x-0123456789abcdef", false}, // never taken for a hashed name
		{"", false},
	} {
		got := Component(c.id)
		if (got == c.id) != c.same {
			t.Errorf("Component(%q) = %q; want the id itself: %v", c.id, got, c.same)
		}
		if !c.same && (!strings.HasPrefix(got, "x-") || len(got) != 18) {
			t.Errorf("Component(%q) = %q; want x- and 16 hex digits", c.id, got)
		}
	}
	if Component("a..b") == Component("a..c") {
		t.Error("two names share a component")
	}
}

func TestMessageRoundTrip(t *testing.T) {
	m := Meta{Session: "feat-x", Kind: KindLedger, Verb: "slice init", Actor: "agent:1", At: "2026-01-02T03:04:05Z", Files: 2, Size: 99}
	msg := message(m)
	if !strings.HasPrefix(msg, "orc-state archive: feat-x before slice init\n\n{") {
		t.Fatalf("message: %q", msg)
	}
	got, ok := parseMessage(msg + "\n")
	if !ok || got != m {
		t.Fatalf("parseMessage(message(m)) = %+v, %v; want %+v", got, ok, m)
	}
	for _, other := range []string{"orc-state sync: feat-x\n", "", "{not json}\n", "subject\n\n{\"session\":\"x\"}\n"} {
		if _, ok := parseMessage(other); ok {
			t.Errorf("parseMessage(%q) found a Meta", other)
		}
	}
}

func TestNamesOrder(t *testing.T) {
	at := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	if got := baseName("feat-x", at, 1); got != "feat-x/20260102T030405Z" {
		t.Errorf("baseName: %q", got)
	}
	if got := baseName("feat-x", at, 12); got != "feat-x/20260102T030405Z-12" {
		t.Errorf("baseName n=12: %q", got)
	}
	// List orders by time, then by the suffix as a number: -2 before -10.
	order := []string{"20260102T030405Z", "20260102T030405Z-2", "20260102T030405Z-10", "20260102T030406Z"}
	for i := 1; i < len(order); i++ {
		if timeKey(order[i-1]) >= timeKey(order[i]) {
			t.Errorf("%s does not sort before %s", order[i-1], order[i])
		}
	}
}

func TestPick(t *testing.T) {
	all := []Archive{
		{Meta: Meta{Session: "a", Kind: KindDigest}, Time: "20260101T000000Z"},
		{Meta: Meta{Session: "a", Kind: KindSession}, Time: "20260101T000001Z"},
		{Meta: Meta{Session: "a", Kind: KindDigest}, Time: "20260101T000002Z"},
		{Meta: Meta{Session: "b", Kind: KindDigest}, Time: "20260101T000003Z"},
		{Meta: Meta{Session: "a", Kind: KindSync}, Time: "20260101T000004Z"},
	}
	for _, c := range []struct {
		id, at string
		kinds  []string
		want   string // the time picked, "" for none
	}{
		{"a", "", []string{KindDigest}, "20260101T000002Z"}, // the newest
		{"a", "20260101T000000Z", []string{KindDigest}, "20260101T000000Z"},
		{"a", "20260101T000001Z", []string{KindDigest}, ""}, // that time is another kind
		{"a", "", []string{KindSession, KindOrphan}, "20260101T000001Z"},
		{"b", "", []string{KindLedger}, ""},
		{"c", "", []string{KindDigest}, ""},
	} {
		got, ok := Pick(all, c.id, c.at, c.kinds...)
		if ok != (c.want != "") || ok && got.Time != c.want {
			t.Errorf("Pick(%s, %q, %v) = %q, %v; want %q", c.id, c.at, c.kinds, got.Time, ok, c.want)
		}
	}
}

// An archive is validated as a whole whatever its metadata claims: its
// kind, its name, its time and its content must be what a verb made.
func TestCheckValidatesTheWholeArchive(t *testing.T) {
	orphan := func(name, kind, at, tm string, files gitx.Tree) (Archive, gitx.Tree) {
		return Archive{Meta: Meta{Session: name, Kind: kind, At: at}, Name: ".archive/" + name + "/" + tm, Time: tm}, files
	}
	plain := gitx.Tree{"files/plan.md": {Data: []byte("plan\n")}}
	for _, c := range []struct {
		name string
		a    Archive
		tree gitx.Tree
		want string // "" when it is restorable
	}{
		{name: "orphan", want: ""},
		{name: "reserved sync.jsonl", want: "it names no orphan folder"},
		{name: "reserved in another case", want: "it names no orphan folder"},
		{name: "kind forged", want: "none orc-state makes"},
		{name: "time forged", want: "does not parse"},
		{name: "name time forged", want: "does not parse"},
		{name: "temp path", want: "unsafe path"},
		{name: "hidden part", want: "a hidden name"},
		{name: "symlink", want: "has a symlink"},
		{name: "ledger with more", want: "a ledger archive holds"},
		{name: "orphan holding an entry", want: "holds an entry"},
	} {
		a, tree := orphan("feat-o", KindOrphan, "2026-01-02T03:04:05Z", "20260102T030405Z", plain)
		switch c.name {
		case "reserved sync.jsonl":
			a.Session = "sync.jsonl"
		case "reserved in another case":
			a.Session = "Worktrees.JSON."
		case "kind forged":
			a.Kind = "orphan\x1b[31m"
		case "time forged":
			a.At = "yesterday"
		case "name time forged":
			a.Time = "2026-x"
		case "temp path":
			tree = gitx.Tree{"files/.slices.json.tmp-12": {Data: []byte("x")}}
		case "hidden part":
			tree = gitx.Tree{"files/.git/config": {Data: []byte("[core]\n\tfsmonitor = touch /tmp/x\n")}}
		case "symlink":
			tree = gitx.Tree{"files/link": {Data: []byte("/etc/passwd"), Mode: "symlink"}}
		case "ledger with more":
			a.Kind = KindLedger
			tree = gitx.Tree{EntryFile: {Data: []byte("{}")}, "files/slices.json": {Data: []byte("{}")}, "files/x.md": {Data: []byte("x")}}
		case "orphan holding an entry":
			tree = gitx.Tree{EntryFile: {Data: []byte("{}")}}
		}
		_, err := Check(a, tree)
		if c.want == "" && err != nil || c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)) {
			t.Errorf("%s: Check = %v; want %q", c.name, err, c.want)
		}
	}
}

func TestCredential(t *testing.T) {
	token := "gh" + "p_" + strings.Repeat("F4ult", 8)
	if where, ok := Credential(Snapshot{"entry.json": []byte(`{}`), "files/progress.md": []byte("a\nkey " + token + "\n")}); !ok || where != "files/progress.md line 2 (GitHub token)" || strings.Contains(where, token) {
		t.Errorf("Credential = %q, %v", where, ok)
	}
	if _, ok := Credential(Snapshot{"files/" + token + ".json": []byte("{}")}); !ok {
		t.Error("a credential in a file name is not found")
	}
	if where, ok := Credential(Snapshot{"files/progress.md": []byte("nothing here\n")}); ok {
		t.Errorf("Credential found %q in clean content", where)
	}
}

// No name the state dir owns, in any spelling macOS or Windows would take
// for it, is ever an orphan folder.
func TestOrphanNameProblemRefusesOwnedNames(t *testing.T) {
	for name, ok := range map[string]bool{
		"stray": true, "feat-x": true, "sync": true, "orc.json2": true,
		"sync.jsonl": false, "worktrees.json": false, "orc.json": false, "removed.jsonl": false, "knowledge": false,
		"SYNC.JSONL": false, "Orc.Json.": false, "worktrees.json ": false, "Knowledge..": false,
		".lock": false, ".archive": false, ".orc.json.proof": false, ".transaction.json": false,
		"": false, ".": false, "..": false, "a/b": false, `a\b`: false,
	} {
		if got := OrphanNameProblem(name) == ""; got != ok {
			t.Errorf("OrphanNameProblem(%q) = %q; want ok %v", name, OrphanNameProblem(name), ok)
		}
	}
}

// An archive's <time> is YYYYMMDDTHHMMSSZ, optionally -N (N from 2, no
// leading zero).
func TestTimeName(t *testing.T) {
	for tm, ok := range map[string]bool{
		"20260102T030405Z": true, "20260102T030405Z-2": true, "20260102T030405Z-128": true,
		"20260102T030405Z-": false, "20260102T030405Z-02": false, "20260102T030405Z-x": false,
		"2026-01-02": false, "20261302T030405Z": false, "": false,
	} {
		if got := timeName(tm); got != ok {
			t.Errorf("timeName(%q) = %v, want %v", tm, got, ok)
		}
	}
}

// A restore's ID@TIME splits at the last @ only when what follows is an
// archive time: an @ elsewhere belongs to the ID.
func TestSplitArgTakesOnlyATime(t *testing.T) {
	for _, c := range []struct{ arg, id, at string }{
		{"feat-x", "feat-x", ""},
		{"feat-x@20260102T030405Z", "feat-x", "20260102T030405Z"},
		{"feat-x@20260102T030405Z-2", "feat-x", "20260102T030405Z-2"},
		{"a@b@20260102T030405Z", "a@b", "20260102T030405Z"},
		{"user@host", "user@host", ""},
		{"feat-x@2026-01-02", "feat-x@2026-01-02", ""},
		{"feat-x@20260102T030405Z-", "feat-x@20260102T030405Z-", ""},
	} {
		if id, at := SplitArg(c.arg); id != c.id || at != c.at {
			t.Errorf("SplitArg(%q) = %q, %q; want %q, %q", c.arg, id, at, c.id, c.at)
		}
	}
}
