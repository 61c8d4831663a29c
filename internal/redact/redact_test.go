package redact

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/orc-state/orc-state/checkpoint"
	"github.com/orc-state/orc-state/internal/journal"
	"github.com/orc-state/orc-state/internal/secrets"
	"github.com/orc-state/orc-state/internal/state"
	"github.com/orc-state/orc-state/registry"
)

// Fake credentials, assembled so that no literal one sits in the file.
var (
	token  = "gh" + "p_" + strings.Repeat("R3dact", 6)
	awsKey = "AK" + "IA" + strings.Repeat("R7", 8)
)

func session() registry.Session {
	phase, _ := registry.ParsePhase("1")
	return registry.Session{SessionID: "s", Branch: "s", GitBranch: "s", Command: "flow", Phase: phase,
		TotalPhases: 3, Status: "in_progress", LinkedPRs: []registry.PR{}, StartedAt: "2026-01-01T00:00:00Z", UpdatedAt: "2026-01-01T00:00:00Z"}
}

// journalOf chains lines with these args as the binary writes them.
func journalOf(t *testing.T, args ...string) []byte {
	var data []byte
	for _, a := range args {
		line, _, err := journal.TailOf(data).Next(journal.Entry{At: "2026-01-01T00:00:00Z", Actor: "cli", Verb: "v", Args: json.RawMessage(a)})
		if err != nil {
			t.Fatal(err)
		}
		data = append(data, line...)
	}
	return data
}

func checkpointOf(t *testing.T, s registry.Session, body string) []byte {
	out, err := checkpoint.Render(state.Frontmatter(&s), []byte(body))
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestSessionEachFileKind plants a credential in one place of a session
// at a time and checks the plan: that place is named (file, line, kind),
// its new content holds no credential and keeps its format, and nothing
// else is touched.
func TestSessionEachFileKind(t *testing.T) {
	body := "\n## Resume digest\n- Done: x\n- Next: y\n- Open decisions: none\n- Artifacts: none\n- Suite: unknown\n"
	labelled := session()
	labelled.PhaseLabel = registry.Str("build " + token)
	described := session()
	described.Description = "keeps " + awsKey
	tests := []struct {
		name    string
		entry   registry.Session
		files   map[string]string
		hit     Hit    // the first hit
		file    string // the file written ("" for none)
		want    string // a substring of it
		removes []string
	}{
		{name: "progress.md", files: map[string]string{"progress.md": "# Progress\n\n## CI\nthe token is " + awsKey + "\n"},
			hit: Hit{File: "files/progress.md", Line: 4, Kind: secrets.KindAWSAccessKey}, file: "progress.md", want: "the token is [redacted AWS access key]\n"},
		{name: "decisions.json", files: map[string]string{"decisions.json": "{\n  \"schema\": 1,\n  \"decisions\": {\"t\": {\"value\": \"" + token + "\"}}\n}\n"},
			hit: Hit{File: "files/decisions.json", Line: 3, Kind: secrets.KindGitHub}, file: "decisions.json", want: `{"value": "[redacted GitHub token]"}`},
		{name: "slices.json, escaped", files: map[string]string{"slices.json": `{"slices": [{"id": 1, "title": "\u0067` + token[1:] + `"}]}`},
			hit: Hit{File: "files/slices.json", Line: 1, Kind: secrets.KindGitHub}, file: "slices.json", want: `"title": "[redacted GitHub token]"`},
		{name: "an artifact", files: map[string]string{"qa/report.json": "{\n  \"log\": \"Authorization: Bearer " + token + "\"\n}\n"},
			hit: Hit{File: "files/qa/report.json", Line: 2, Kind: secrets.KindAuthHeader}, file: "qa/report.json", want: `"log": "[redacted Authorization header]"`},
		{name: "checkpoint body (auto section)", files: map[string]string{"checkpoint.md": string(checkpointOf(t, session(), body+"\n## Auto\n- trigger: "+token+"\n"))},
			hit: Hit{File: "files/checkpoint.md", Line: -1, Kind: secrets.KindGitHub}, file: "checkpoint.md", want: "- trigger: [redacted GitHub token]\n"},
		{name: "checkpoint frontmatter mirrors the entry", entry: labelled, files: map[string]string{"checkpoint.md": string(checkpointOf(t, labelled, body))},
			hit: Hit{File: "entry", Kind: secrets.KindGitHub}, file: "checkpoint.md", want: "phaseLabel: build [redacted GitHub token]\n"},
		{name: "the entry alone", entry: described, hit: Hit{File: "entry", Kind: secrets.KindAWSAccessKey}},
		{name: "journal arguments", files: map[string]string{journal.FileName: string(journalOf(t, `{"a":1}`, `{"v":"`+token+`"}`, `{"a":3}`))},
			hit: Hit{File: "files/journal.jsonl", Line: 2, Kind: secrets.KindGitHub}, file: journal.FileName, want: `{"v":"[redacted GitHub token]"}`},
		{name: "an artifact's name", files: map[string]string{"reviews/" + token + ".json": "{}\n"},
			hit: Hit{File: "files/reviews/redacted.json", Kind: secrets.KindGitHub, Name: true}, file: "reviews/redacted.json", want: "{}\n",
			removes: []string{"reviews/" + token + ".json"}},
		{name: "a folder's name", files: map[string]string{token + "/a.json": "{}\n", "redacted/a.json": "{\"taken\": 1}\n"},
			hit: Hit{File: "files/redacted/a-2.json", Kind: secrets.KindGitHub, Name: true}, file: "redacted/a-2.json", want: "{}\n",
			removes: []string{token + "/a.json", token}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.entry.SessionID == "" {
				tt.entry = session()
			}
			dir := t.TempDir()
			for name, data := range tt.files {
				p := filepath.Join(dir, filepath.FromSlash(name))
				if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			f, err := Read(dir)
			if err != nil {
				t.Fatal(err)
			}
			p, err := Session(tt.entry, f)
			if err != nil {
				t.Fatal(err)
			}
			if tt.hit.Line < 0 { // the line the credential is on
				for name, data := range tt.files {
					if i := strings.Index(data, token); i >= 0 && tt.hit.File == "files/"+name {
						tt.hit.Line = 1 + strings.Count(data[:i], "\n")
					}
				}
			}
			if len(p.Hits) == 0 || p.Hits[0] != tt.hit {
				t.Fatalf("hits %#v; want first %#v", p.Hits, tt.hit)
			}
			written := map[string][]byte{}
			for name, data := range p.Writes {
				written[name] = data
			}
			if p.Journal != nil {
				written[journal.FileName] = p.Journal
			}
			if tt.file != "" {
				got, ok := written[tt.file]
				if !ok || !bytes.Contains(got, []byte(tt.want)) {
					t.Errorf("%s = %q; want it to hold %q", tt.file, got, tt.want)
				}
				if strings.HasSuffix(tt.file, ".json") && !json.Valid(got) {
					t.Errorf("%s is no longer JSON: %s", tt.file, got)
				}
			}
			for name, data := range written {
				if m := secrets.All(data); len(m) > 0 {
					t.Errorf("%s still holds a %s", name, m[0].Kind)
				}
				if name != tt.file {
					t.Errorf("%s written too", name)
				}
			}
			if strings.Join(p.Removes, ",") != strings.Join(tt.removes, ",") {
				t.Errorf("removes %q; want %q", p.Removes, tt.removes)
			}
			if (p.Entry != nil) != (tt.hit.File == "entry") {
				t.Errorf("entry redacted: %v", p.Entry != nil)
			}
			if p.Entry != nil {
				if m := secrets.All(p.Entry.Canonical()); len(m) > 0 {
					t.Errorf("the entry still holds a %s", m[0].Kind)
				}
				if err := p.Entry.Validate(); err != nil {
					t.Errorf("the redacted entry is invalid: %v", err)
				}
			}
			if got := p.Args(); strings.Contains(mustJSON(t, got), token) || strings.Contains(mustJSON(t, got), awsKey) {
				t.Errorf("the journal arguments hold the credential")
			}
		})
	}
}

func TestSessionCleanChangesNothing(t *testing.T) {
	s := session()
	f := &Files{Data: map[string][]byte{
		"checkpoint.md":    checkpointOf(t, s, "\n## Resume digest\n- Done: 4b825dc642cb6eb9a060e54bf8d69288fbee4904\n"),
		"progress.md":      []byte("Authorization is required; see AKIA docs\n"),
		journal.FileName:   journalOf(t, `{"a":1}`, `{"b":"AIza is a prefix"}`),
		journal.AnchorName: []byte(`{"seq":2}` + "\n"),
	}}
	p, err := Session(s, f)
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Hits) != 0 || len(p.Writes) != 0 || p.Journal != nil || len(p.Removes) != 0 || p.Entry != nil {
		t.Fatalf("a clean session planned changes: %+v", p)
	}
	if want := journal.Sum(bytes.Split(f.Data[journal.FileName], []byte("\n"))[1]); p.OldTip != want {
		t.Errorf("old tip %s; want the last line's sha256 %s", p.OldTip, want)
	}
}

func mustJSON(t *testing.T, v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
