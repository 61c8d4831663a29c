package checkpoint

import (
	"bytes"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"
)

func typical() Frontmatter {
	return Frontmatter{
		Schema:      1,
		Command:     "flow",
		Branch:      "feat-142-notifs",
		GitBranch:   "feat/142-notifs",
		Phase:       "5",
		PhaseLabel:  "implement",
		TotalPhases: 9,
		Status:      "in_progress",
		UpdatedAt:   "2026-08-20T18:11:00Z",
	}
}

func TestRenderGolden(t *testing.T) {
	got, err := Render(typical(), []byte("\nbody\n"))
	if err != nil {
		t.Fatal(err)
	}
	want := `---
schema: 1
command: flow
branch: feat-142-notifs
gitBranch: feat/142-notifs
phase: 5
phaseLabel: implement
totalPhases: 9
status: in_progress
updatedAt: "2026-08-20T18:11:00Z"
---

body
`
	if string(got) != want {
		t.Errorf("Render:\n%s\nwant:\n%s", got, want)
	}
}

func TestRenderOptionalFieldsAndDone(t *testing.T) {
	fm := typical()
	fm.PhaseLabel = ""
	fm.Phase = "done"
	fm.JiraTicket = "ABC-12"
	got, err := Render(fm, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := "---\nschema: 1\ncommand: flow\nbranch: feat-142-notifs\ngitBranch: feat/142-notifs\n" +
		"phase: done\ntotalPhases: 9\nstatus: in_progress\njiraTicket: ABC-12\n" +
		"updatedAt: \"2026-08-20T18:11:00Z\"\n---\n"
	if string(got) != want {
		t.Errorf("Render:\n%s\nwant:\n%s", got, want)
	}
}

var trickyValues = []string{
	"yes", "no", "on", "true", "null", "~", "", "0123", "1e3", "0x10", "1234567", "1_000", ".inf",
	"a: b", "- x", "#x", "x #y", "'q'", `"q"`, "*a", "&a", "!x", "%x", "@x", "`x", "{a}", "[a]", "|", ">",
	"é ü 日本 🚀", " lead", "trail ", "  ", "---", "...", "--- x", "2026-08-20", "2026-08-20T18:11:00Z", "12:30",
	"\ufeffbom", "x\u00a0", "\uFFFE", "ab:", "a:", `back\slash`, strings.Repeat("long word ", 40),
}

var trickyBodies = []string{
	"", "\n", "no trailing newline", "a\r\nb\r\n", "\r\n", "---\n", "x\n---\ny\n---\n", "\n\n\nthree blank lines first\n",
	"  \n\t\nwhitespace lines\n", "{\n\"json\": 1\n}\n", "+++\ntoml\n+++\n", ";;;\n", "---\nschema: 2\n---\n",
	string(DefaultBody()), "\xff\xfe invalid utf-8\n",
}

// textFields set each of the frontmatter's free-text fields, for the
// tests that try every value in every field.
var textFields = []func(*Frontmatter, string){
	func(f *Frontmatter, v string) { f.Command = v },
	func(f *Frontmatter, v string) { f.Branch = v },
	func(f *Frontmatter, v string) { f.GitBranch = v },
	func(f *Frontmatter, v string) { f.PhaseLabel = v },
	func(f *Frontmatter, v string) { f.Status = v },
	func(f *Frontmatter, v string) { f.JiraTicket = v },
	func(f *Frontmatter, v string) { f.UpdatedAt = v },
}

func TestRenderParseRoundTrip(t *testing.T) {
	for _, v := range trickyValues {
		for i, setField := range textFields {
			for _, body := range trickyBodies {
				fm := typical()
				setField(&fm, v)
				out, err := Render(fm, []byte(body))
				if err != nil {
					t.Fatalf("Render(field %d = %q): %v", i, v, err)
				}
				doc := Parse(out)
				if doc.Front == nil {
					t.Fatalf("Parse(Render(field %d = %q)): %v\n%s", i, v, doc.FrontErr, out)
				}
				if *doc.Front != fm {
					t.Errorf("field %d = %q: got %+v, want %+v", i, v, *doc.Front, fm)
				}
				if !bytes.Equal(doc.Body, []byte(body)) {
					t.Errorf("field %d = %q: body %q, want %q", i, v, doc.Body, body)
				}
			}
		}
	}
}

// The YAML must read back as the same strings to any yaml.v3 reader, not
// only to our typed decoder.
func TestRenderedValuesStayStringsInAny(t *testing.T) {
	for _, v := range trickyValues {
		if v == "" {
			continue // omitted for phaseLabel
		}
		fm := typical()
		fm.PhaseLabel, fm.Branch, fm.GitBranch = v, v, v
		out, err := Render(fm, nil)
		if err != nil {
			t.Fatal(err)
		}
		yml := bytes.TrimSuffix(bytes.TrimPrefix(out, []byte("---\n")), []byte("---\n"))
		var m map[string]any
		if err := yaml.Unmarshal(yml, &m); err != nil {
			t.Fatalf("%q: %v", v, err)
		}
		for _, k := range []string{"phaseLabel", "branch", "gitBranch", "updatedAt"} {
			want := v
			if k == "updatedAt" {
				want = fm.UpdatedAt
			}
			if s, ok := m[k].(string); !ok || s != want {
				t.Errorf("%q: key %s decodes into any as %T %v", v, k, m[k], m[k])
			}
		}
		if m["phase"] != 5 {
			t.Errorf("%q: phase decodes as %T %v, want int 5", v, m["phase"], m["phase"])
		}
	}
}

func TestRenderRefuses(t *testing.T) {
	cases := []struct {
		name string
		edit func(*Frontmatter)
		want string
	}{
		{"label injection", func(f *Frontmatter) { f.PhaseLabel = "impl\n---\nstatus: completed" }, "phaseLabel contains a line break"},
		{"command newline", func(f *Frontmatter) { f.Command = "a\nb" }, "command contains a line break"},
		{"branch cr", func(f *Frontmatter) { f.Branch = "a\rb" }, "branch contains a line break"},
		{"gitBranch newline", func(f *Frontmatter) { f.GitBranch = "x\n" }, "gitBranch contains a line break"},
		{"status newline", func(f *Frontmatter) { f.Status = "in_progress\n" }, "status contains a line break"},
		{"jira newline", func(f *Frontmatter) { f.JiraTicket = "A-1\nB-2" }, "jiraTicket contains a line break"},
		{"updatedAt newline", func(f *Frontmatter) { f.UpdatedAt = "x\ny" }, "updatedAt contains a line break"},
		{"line separator", func(f *Frontmatter) { f.PhaseLabel = "a\u2028b" }, "phaseLabel contains a line break"},
		{"nel", func(f *Frontmatter) { f.PhaseLabel = "a\u0085b" }, "phaseLabel contains a line break"},
		{"nul", func(f *Frontmatter) { f.Command = "a\x00b" }, "command contains a control character (U+0000)"},
		{"tab", func(f *Frontmatter) { f.Command = "a\tb" }, "command contains a control character (U+0009)"},
		{"invalid utf-8", func(f *Frontmatter) { f.PhaseLabel = "\xff" }, "phaseLabel is not valid UTF-8"},
		{"phase empty", func(f *Frontmatter) { f.Phase = "" }, `phase "" is neither done nor an integer ≥ 1`},
		{"phase zero", func(f *Frontmatter) { f.Phase = "0" }, `phase "0" is`},
		{"phase leading zero", func(f *Frontmatter) { f.Phase = "03" }, `phase "03" is`},
		{"phase negative", func(f *Frontmatter) { f.Phase = "-1" }, `phase "-1" is`},
		{"phase float", func(f *Frontmatter) { f.Phase = "3.5" }, `phase "3.5" is`},
		{"phase word", func(f *Frontmatter) { f.Phase = "Done" }, `phase "Done" is`},
		{"phase too long", func(f *Frontmatter) { f.Phase = "1234567890" }, `phase "1234567890" is`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			fm := typical()
			c.edit(&fm)
			out, err := Render(fm, []byte("body\n"))
			if err == nil {
				t.Fatalf("Render accepted it:\n%s", out)
			}
			if !strings.Contains(err.Error(), c.want) {
				t.Errorf("error %q, want it to contain %q", err, c.want)
			}
			if strings.Contains(err.Error(), "\n") {
				t.Errorf("error is not one line: %q", err)
			}
		})
	}
}

const validFront = "---\nschema: 1\ncommand: flow\nbranch: b\ngitBranch: b\nphase: 3\ntotalPhases: 9\nstatus: in_progress\nupdatedAt: 2026-08-20T18:11:00Z\n---\n"

func TestParseValid(t *testing.T) {
	want := Frontmatter{Schema: 1, Command: "flow", Branch: "b", GitBranch: "b", Phase: "3", TotalPhases: 9, Status: "in_progress", UpdatedAt: "2026-08-20T18:11:00Z"}
	cases := []struct {
		name, file, body string
		edit             func(*Frontmatter)
	}{
		{"unquoted time stays a string", validFront + "body\n", "body\n", nil},
		{"crlf body", validFront + "a\r\nb\r\n", "a\r\nb\r\n", nil},
		{"crlf file is one frontmatter block", strings.ReplaceAll(validFront+"a\nb\n", "\n", "\r\n"), "a\r\nb\r\n", nil},
		{"crlf frontmatter, lf body", strings.ReplaceAll(validFront, "\n", "\r\n") + "## Resume digest\n", "## Resume digest\n", nil},
		{"body with delimiters", validFront + "---\nx: y\n---\n", "---\nx: y\n---\n", nil},
		{"leading blank lines kept", validFront + "\n\n## Resume digest\n", "\n\n## Resume digest\n", nil},
		{"closing at eof", strings.TrimSuffix(validFront, "\n"), "", nil},
		{"phase done", strings.Replace(validFront, "phase: 3", "phase: done", 1), "", func(f *Frontmatter) { f.Phase = "done" }},
		{"phase quoted done", strings.Replace(validFront, "phase: 3", `phase: "done"`, 1), "", func(f *Frontmatter) { f.Phase = "done" }},
		{"comments and null label", strings.Replace(validFront, "phase: 3", "# note\nphase: 3 # x\nphaseLabel: null\njiraTicket: ~", 1), "", nil},
		{"quoted yes", strings.Replace(validFront, "command: flow", `command: "yes"`, 1), "", func(f *Frontmatter) { f.Command = "yes" }},
		{"plain yes is a string", strings.Replace(validFront, "command: flow", `command: yes`, 1), "", func(f *Frontmatter) { f.Command = "yes" }},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			doc := Parse([]byte(c.file))
			if doc.Front == nil {
				t.Fatalf("Front nil: %v", doc.FrontErr)
			}
			w := want
			if c.edit != nil {
				c.edit(&w)
			}
			if *doc.Front != w {
				t.Errorf("got %+v\nwant %+v", *doc.Front, w)
			}
			if string(doc.Body) != c.body {
				t.Errorf("body %q, want %q", doc.Body, c.body)
			}
		})
	}
}

func TestParseAbsent(t *testing.T) {
	for _, file := range []string{
		"", "plain text\n", "## Resume digest\n- Done: x\n", "\n" + validFront, " ---\n", "--- \nschema: 1\n---\n",
		"\ufeff" + validFront, "----\n", "---yaml\n---\n", "{\n}\n", "+++\n+++\n",
	} {
		doc := Parse([]byte(file))
		if doc.Front != nil || doc.FrontErr != nil || string(doc.Body) != file {
			t.Errorf("Parse(%q) = %+v, want no frontmatter and the whole text as body", file, doc)
		}
	}
}

func TestParseInvalidKeepsWholeText(t *testing.T) {
	swap := func(old, new string) string { return strings.Replace(validFront, old, new, 1) + "body\n" }
	cases := []struct{ name, file, want string }{
		{"unterminated", "---\nschema: 1\n", `frontmatter has no closing "---" line`},
		{"only opening", "---\n", `frontmatter has no closing "---" line`},
		{"crlf, a key missing", "---\r\nschema: 1\r\n---\r\n", "frontmatter key command is missing or null"},
		{"crlf unterminated", "---\r\nschema: 1\r\n", `frontmatter has no closing "---" line`},
		{"unknown key", swap("status: in_progress", "status: in_progress\nbogus: x"), "field bogus not found"},
		{"legacy key", swap("phase: 3", "phase: 3\ncurrent_phase: 3"), "field current_phase not found"},
		{"duplicate key", swap("status: in_progress", "status: in_progress\nstatus: completed"), `mapping key "status" already defined`},
		{"wrong type", swap("totalPhases: 9", "totalPhases: nine"), "cannot unmarshal"},
		{"yaml error", swap("command: flow", "command: [flow"), "invalid frontmatter yaml"},
		{"not a mapping", "---\njust text\n---\n", "cannot unmarshal"},
		{"empty", "---\n---\nbody\n", "frontmatter key schema is missing or null"},
		{"missing key", swap("gitBranch: b\n", ""), "frontmatter key gitBranch is missing or null"},
		{"null key", swap("status: in_progress", "status: null"), "frontmatter key status is missing or null"},
		{"missing phase", swap("phase: 3\n", ""), "frontmatter key phase is missing or null"},
		{"phase float", swap("phase: 3", "phase: 3.5"), `phase "3.5" is neither done nor an integer ≥ 1`},
		{"phase word", swap("phase: 3", "phase: x"), `phase "x" is neither`},
		{"phase negative", swap("phase: 3", "phase: -1"), `phase "-1" is neither`},
		{"phase zero", swap("phase: 3", "phase: 0"), `phase "0" is neither`},
		{"phase octal", swap("phase: 3", "phase: 03"), `phase "03" is neither`},
		{"phase hex", swap("phase: 3", "phase: 0x3"), `phase "0x3" is neither`},
		{"phase quoted number", swap("phase: 3", `phase: "3"`), `phase "3" is neither`},
		{"phase list", swap("phase: 3", "phase: [3]"), "is neither"},
		{"newline in value", swap("command: flow", `command: "a\nb"`), "command contains a line break"},
		{"two documents", swap("updatedAt: 2026-08-20T18:11:00Z", "updatedAt: x\n...\n--- y"), "more than one yaml document"},
		{"indented delimiter", swap("command: flow", "command: flow\n ---"), `frontmatter line 4 looks like a "---" delimiter`},
		{"delimiter with trailing space", swap("command: flow", "command: flow\n--- "), `looks like a "---" delimiter`},
		{"b8 injection from the original", "---\nschema: 1\ncommand: flow\nbranch: b\ngitBranch: b\nphase: 3\nphaseLabel: impl\n---\nstatus: completed\ntotalPhases: 9\nstatus: in_progress\nupdatedAt: x\n---\nbody\n", "frontmatter key totalPhases is missing or null"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			doc := Parse([]byte(c.file))
			if doc.Front != nil {
				t.Fatalf("accepted: %+v", *doc.Front)
			}
			if doc.FrontErr == nil {
				t.Fatal("FrontErr is nil")
			}
			if msg := doc.FrontErr.Error(); !strings.Contains(msg, c.want) || strings.Contains(msg, "\n") {
				t.Errorf("FrontErr %q, want one line containing %q", msg, c.want)
			}
			if string(doc.Body) != c.file {
				t.Errorf("body %q, want the whole file", doc.Body)
			}
		})
	}
}
