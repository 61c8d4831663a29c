package state

import (
	"reflect"
	"strings"
	"testing"

	"github.com/orc-state/orc-state/checkpoint"
	"github.com/orc-state/orc-state/internal/journal"
	"github.com/orc-state/orc-state/internal/portable"
)

// The rows of SessionFiles agree with each other and with the journal's
// digests: one row per name (also where case is ignored), every member of
// journal.Digests but the entry's recorded for exactly one row, a verify
// code only for a file with a validator, a stamp only on a file a verb
// owns.
func TestSessionFilesTable(t *testing.T) {
	digests := map[string]string{} // digest member → row
	for i, f := range SessionFiles {
		if f.Name == "" || strings.Contains(f.Name, "/") {
			t.Errorf("row %d: name %q is not one plain name", i, f.Name)
		}
		for _, g := range SessionFiles[:i] {
			if portable.Same(f.Name, g.Name) || f.Name == g.Name {
				t.Errorf("%s and %s are one file on macOS and Windows", f.Name, g.Name)
			}
		}
		if f.Digest != "" {
			var dg journal.Digests
			if dg.Field(f.Digest) == nil || f.Digest == "entry" {
				t.Errorf("%s: digest %q is no member of journal.Digests for a file", f.Name, f.Digest)
			}
			if other, ok := digests[f.Digest]; ok {
				t.Errorf("%s and %s both record digest %q", f.Name, other, f.Digest)
			}
			digests[f.Digest] = f.Name
		}
		if f.Invalid != "" && f.Validate == nil {
			t.Errorf("%s: verify reports %s, but the row has no validator", f.Name, f.Invalid)
		}
		if f.Stamped && f.Writer == "" {
			t.Errorf("%s: stamped, but no verb owns it", f.Name)
		}
		if f.Redact == RedactByName {
			t.Errorf("%s: a named file says how it is redacted; by its ending is for artifacts", f.Name)
		}
		if got := SessionFileOf(f.Name); got.Name != f.Name || got.Writer != f.Writer || got.Digest != f.Digest {
			t.Errorf("SessionFileOf(%q) = %+v, not its row", f.Name, got)
		}
	}
	typ := reflect.TypeOf(journal.Digests{})
	for i := 0; i < typ.NumField(); i++ {
		member, _, _ := strings.Cut(typ.Field(i).Tag.Get("json"), ",")
		var dg journal.Digests
		if p := dg.Field(member); p == nil {
			t.Errorf("journal.Digests.Field(%q) is nil; it must reach the member %s", member, typ.Field(i).Name)
		} else if *p = "x"; reflect.ValueOf(dg).Field(i).String() != "x" {
			t.Errorf("journal.Digests.Field(%q) reaches another member than %s", member, typ.Field(i).Name)
		}
		if _, ok := digests[member]; !ok && member != "entry" {
			t.Errorf("journal.Digests has %q, which no row of SessionFiles records", member)
		}
	}
}

// An artifact is any other name: nobody but artifact put owns it, nothing
// checks its content on import, and it travels and is archived.
func TestSessionFileOfAnArtifact(t *testing.T) {
	for _, name := range []string{"review.json", "plan.md", "qa/report.json", "sub/checkpoint.md", "Checkpoint.md", "journal.jsonl.bak"} {
		f := SessionFileOf(name)
		if f.Name != name || f.Writer != "" || f.Digest != "" || f.Validate != nil || !f.Travels || !f.Archived || f.Redact != RedactByName {
			t.Errorf("SessionFileOf(%q) = %+v; want the artifact row", name, f)
		}
	}
	for rel, kept := range map[string]bool{
		"files/checkpoint.md": true, "files/journal.anchor": true, "files/qa/x.json": true,
		"workspace-link.json": true, // beside files/, not a session file
	} {
		if Kept(rel) != kept {
			t.Errorf("Kept(%q) = %v, want %v", rel, !kept, kept)
		}
	}
}

// ValidateSessionFile applies each row's validator: what the verbs write
// passes, a broken file of each kind is refused, and an artifact or a file
// without a validator is taken as it is.
func TestValidateSessionFile(t *testing.T) {
	cp, err := checkpoint.Render(checkpoint.Frontmatter{Schema: 1, Command: "flow", Branch: "main", GitBranch: "main",
		Phase: "1", TotalPhases: 3, Status: "in_progress", UpdatedAt: "2026-01-02T03:04:05Z"}, []byte("# body\n"))
	if err != nil {
		t.Fatal(err)
	}
	j := journal.Tail{EndsClean: true}
	line1, _, err := j.Next(journal.Entry{At: "2026-01-02T03:04:05Z", Actor: "agent", Verb: "init"})
	if err != nil {
		t.Fatal(err)
	}
	j = journal.TailOf(line1)
	line2, _, err := j.Next(journal.Entry{At: "2026-01-02T03:04:06Z", Actor: "agent", Verb: "phase set"})
	if err != nil {
		t.Fatal(err)
	}
	bad := func(after journal.Tail, edit func(e *journal.Entry)) []byte {
		e := journal.Entry{At: "2026-01-02T03:04:06Z", Actor: "agent", Verb: "phase set"}
		edit(&e)
		line, _, err := after.Next(e)
		if err != nil {
			t.Fatal(err)
		}
		return line
	}
	for _, tc := range []struct {
		name, data string
		want       string // "" when it passes; else in the error
	}{
		{CheckpointFile, string(cp), ""},
		{CheckpointFile, "# no frontmatter\n", "no valid frontmatter"},
		{CheckpointFile, "---\nschema: 1\n---\n", "no valid frontmatter"},
		{LedgerFile, `{"slices": [{"id": 1, "title": "one", "status": "pending"}]}`, ""},
		{LedgerFile, `{"slices": [{"id": 1, "title": "one", "status": "bogus"}]}`, "bogus"},
		{LedgerFile, `{"slices": [{"id": 1, "title": "one"}, {"id": 1, "title": "two"}]}`, "duplicate slice id"},
		{DecisionsFile, `{"schema": 1, "decisions": {}}`, ""},
		{DecisionsFile, `{"schema": 1, "decisions": {}, "bogus": true}`, "bogus"},
		{journal.FileName, string(line1) + string(line2), ""},
		{journal.FileName, string(line2), "does not follow"},
		{journal.FileName, string(line1) + `{"seq":2,"prev":"`, "torn"},
		{journal.FileName, "not json\n", "not a journal entry"},
		{journal.FileName, string(line1) + string(bad(j, func(e *journal.Entry) { e.Actor = "a\nb" })), "line 2: actor contains a line break"},
		{journal.FileName, string(line1) + string(bad(j, func(e *journal.Entry) { e.Verb = "x\x1b[2J" })), "line 2: verb contains a control character"},
		{ProgressFile, "anything\x00at all", ""},
		{journal.AnchorName, "not an anchor", ""}, // checked against the journal (journal.CheckAnchor)
		{ReadinessFile, "not json", ""},
		{"review.json", "not json", ""},
	} {
		err := ValidateSessionFile(tc.name, []byte(tc.data))
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("%s %q: refused (%v); want it taken", tc.name, tc.data, err)
		case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
			t.Errorf("%s %q: %v; want an error naming %q", tc.name, tc.data, err, tc.want)
		}
	}
}
