package schema

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/orc-state/orc-state/internal/lock"
	"github.com/orc-state/orc-state/internal/refsync"
	"github.com/orc-state/orc-state/internal/selection"
	"github.com/orc-state/orc-state/internal/state"
)

// protocolPath is docs/protocol.md, the protocol the schemas belong to.
const protocolPath = "../docs/protocol.md"

// readProtocol returns docs/protocol.md's text.
func readProtocol(t *testing.T) string {
	t.Helper()
	data, err := os.ReadFile(protocolPath)
	if err != nil {
		t.Fatalf("the protocol document: %v", err)
	}
	return string(data)
}

// section returns the text of the protocol's section "## N. ..." up to the
// next "## " heading.
func section(t *testing.T, doc string, n int) string {
	t.Helper()
	re := regexp.MustCompile(`(?m)^## ` + strconv.Itoa(n) + `\. .*$`)
	loc := re.FindStringIndex(doc)
	if loc == nil {
		t.Fatalf("docs/protocol.md has no section \"## %d. ...\"", n)
	}
	rest := doc[loc[1]:]
	if end := strings.Index(rest, "\n## "); end >= 0 {
		rest = rest[:end]
	}
	return rest
}

// properties returns every property name a schema defines, anywhere in it,
// each with the JSON pointer of its first definition.
func properties(t *testing.T, file string) map[string]string {
	t.Helper()
	var doc any
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatalf("%s: %v", file, err)
	}
	out := map[string]string{}
	var walk func(v any, at string)
	walk = func(v any, at string) {
		switch v := v.(type) {
		case map[string]any:
			if props, ok := v["properties"].(map[string]any); ok {
				for name := range props {
					if _, seen := out[name]; !seen {
						out[name] = at + "/properties/" + name
					}
				}
			}
			for k, c := range v {
				walk(c, at+"/"+k)
			}
		case []any:
			for i, c := range v {
				walk(c, at+"/"+strconv.Itoa(i))
			}
		}
	}
	walk(doc, "#")
	return out
}

// TestProtocolNamesEverySchemaField: every field a schema defines is named
// in docs/protocol.md (as `field`), so the protocol cannot fall behind the
// formats. The protocol names fields and the rules between files; the
// schemas and the skill's file reference hold each field's type.
func TestProtocolNamesEverySchemaField(t *testing.T) {
	doc := readProtocol(t)
	for _, k := range kinds {
		props := properties(t, k.schema)
		names := make([]string, 0, len(props))
		for name := range props {
			names = append(names, name)
		}
		sort.Strings(names)
		for _, name := range names {
			if !strings.Contains(doc, "`"+name+"`") {
				t.Errorf("docs/protocol.md does not name the field %s that schema/%s defines at %s; name it (as `%s`) where the protocol describes that file",
					name, k.schema, props[name], name)
			}
		}
	}
}

// TestProtocolLayout: the layout table of docs/protocol.md §2 names every
// file orc-state owns under .orc/ (by the constants the code writes them
// with), links each JSON Schema of this folder, and links no schema that
// does not exist.
func TestProtocolLayout(t *testing.T) {
	layout := section(t, readProtocol(t), 2)
	owned := []string{
		state.RegistryFile, lock.FileName, state.ProofFile, state.IntentFile, state.RemovedFile,
		selection.LinkFile, refsync.LogFile,
	}
	for _, f := range state.SessionFiles {
		owned = append(owned, f.Name)
	}
	for _, name := range owned {
		if !strings.Contains(layout, name+"`") {
			t.Errorf("docs/protocol.md §2 (the state dir's layout) does not list %s, a file orc-state writes; add a row for it", name)
		}
	}
	linked := map[string]bool{}
	for _, m := range regexp.MustCompile(`\(\.\./schema/([^)]+)\)`).FindAllStringSubmatch(layout, -1) {
		linked[m[1]] = true
		if _, err := os.Stat(m[1]); err != nil {
			t.Errorf("docs/protocol.md §2 links ../schema/%s, which does not exist", m[1])
		}
	}
	schemas, err := filepath.Glob("*.schema.json")
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range schemas {
		if !linked[s] {
			t.Errorf("docs/protocol.md §2 does not link schema/%s from the row of the file it describes", s)
		}
	}
}

// TestProtocolSessionFiles holds docs/protocol.md §2's table of session
// files to state.SessionFiles, the one table the code reads: the same
// names, in the same order, then the artifact row, each with the
// properties the code gives it. The layout table above it lists no file
// of files/ by a fixed name that the code does not know, and §12 names
// every file artifact put refuses.
func TestProtocolSessionFiles(t *testing.T) {
	doc := readProtocol(t)
	sec := section(t, doc, 2)
	start := strings.Index(sec, "\n| file | written by |")
	if start < 0 {
		t.Fatal("docs/protocol.md §2 has no table of session files (header \"| file | written by | ...\")")
	}
	var rows [][]string
	for _, line := range strings.Split(sec[start+1:], "\n") {
		if !strings.HasPrefix(line, "|") {
			break
		}
		if strings.HasPrefix(line, "|---") {
			continue
		}
		cells := strings.Split(strings.Trim(line, "|"), "|")
		for i := range cells {
			cells[i] = strings.TrimSpace(cells[i])
		}
		rows = append(rows, cells)
	}
	header, rows := rows[0], rows[1:]
	want := []string{"file", "written by", "journal digest", "checked on import and restore", "travels", "archived", "redaction"}
	if strings.Join(header, "|") != strings.Join(want, "|") {
		t.Fatalf("the session files table's columns are %q; the test reads %q", header, want)
	}
	code := append(append([]state.SessionFile(nil), state.SessionFiles...), state.Artifact)
	if len(rows) != len(code) {
		var names []string
		for _, r := range rows {
			names = append(names, r[0])
		}
		t.Fatalf("docs/protocol.md §2 lists %d session files (%q); state.SessionFiles has %d rows and the artifact row", len(rows), names, len(state.SessionFiles))
	}
	yesNo := func(b bool) string {
		if b {
			return "yes"
		}
		return "no"
	}
	for i, f := range code {
		r := rows[i]
		if len(r) != len(want) {
			t.Errorf("row %q has %d cells, want %d", r[0], len(r), len(want))
			continue
		}
		name, writer, digest := "`"+f.Name+"`", f.Writer, "`"+f.Digest+"`"
		if f.Name == "" { // the artifact row
			name, writer = "any other name: an artifact (§12)", "artifact put"
		}
		if f.Digest == "" {
			digest = "no"
		}
		checked, _, _ := strings.Cut(r[3], ",")
		checked, _, _ = strings.Cut(checked, ":")
		for _, c := range []struct{ what, doc, code string }{
			{"file", r[0], name},
			{"written by", r[1], writer},
			{"journal digest", r[2], digest},
			{"checked on import and restore", checked, yesNo(f.Validate != nil)},
			{"travels", r[4], yesNo(f.Travels)},
			{"archived", r[5], yesNo(f.Archived)},
			{"redaction", r[6], f.Redact.String()},
		} {
			if c.doc != c.code {
				t.Errorf("docs/protocol.md §2, session files, row %d (%s), %s: the document says %q, state.SessionFiles %q", i+1, r[0], c.what, c.doc, c.code)
			}
		}
	}
	known := map[string]bool{}
	for _, f := range state.SessionFiles {
		known[f.Name] = true
	}
	for _, m := range regexp.MustCompile("(?m)^\\| `<sessionId>/files/([^`<]+)`").FindAllStringSubmatch(sec, -1) {
		if !known[m[1]] {
			t.Errorf("docs/protocol.md §2's layout lists files/%s, which state.SessionFiles lacks", m[1])
		}
	}
	artifacts := section(t, doc, 12)
	for _, f := range state.SessionFiles {
		if f.Writer != "" && !strings.Contains(artifacts, "`"+f.Name+"`") {
			t.Errorf("docs/protocol.md §12 does not name %s among the files artifact put refuses", f.Name)
		}
	}
}

// TestProtocolReferencesResolve: every citation of the protocol in the
// repository ("docs/protocol.md §N", a link to protocol.md#anchor) names a
// section that exists, and nothing cites the old out-of-tree contract.
func TestProtocolReferencesResolve(t *testing.T) {
	doc := readProtocol(t)
	sections := map[string]bool{} // "4"
	anchors := map[string]bool{}  // "4-integrity-rules"
	for _, m := range regexp.MustCompile(`(?m)^## (([0-9]+)\. .*)$`).FindAllStringSubmatch(doc, -1) {
		sections[m[2]] = true
		anchors[slug(m[1])] = true
	}
	cite := regexp.MustCompile(`protocol\.md[^§#\n]{0,40}(?:\n[#/ ]*)?§([0-9]+)`)
	link := regexp.MustCompile(`protocol\.md#([A-Za-z0-9-]+)`)
	old := regexp.MustCompile(`(?i)contract ?§|contract\.md`)
	out, err := exec.Command("git", "-C", "..", "ls-files", "-z", "--cached", "--others", "--exclude-standard").Output()
	if err != nil {
		t.Fatalf("git ls-files: %v", err)
	}
	checked := 0
	for _, rel := range strings.Split(strings.TrimRight(string(out), "\x00"), "\x00") {
		switch filepath.Ext(rel) {
		case ".go", ".md", ".txtar", ".json", ".txt":
		default:
			continue
		}
		if rel == "schema/protocol_test.go" {
			continue // the patterns themselves
		}
		data, err := os.ReadFile(filepath.Join("..", rel))
		if err != nil {
			continue // deleted in the work tree
		}
		text := string(data)
		lineOf := func(i int) int { return strings.Count(text[:i], "\n") + 1 }
		for _, m := range cite.FindAllStringSubmatchIndex(text, -1) {
			checked++
			if n := text[m[2]:m[3]]; !sections[n] {
				t.Errorf("%s:%d cites docs/protocol.md §%s, which has no such section", rel, lineOf(m[0]), n)
			}
		}
		for _, m := range link.FindAllStringSubmatchIndex(text, -1) {
			checked++
			if a := text[m[2]:m[3]]; !anchors[a] {
				t.Errorf("%s:%d links protocol.md#%s, which is no heading of docs/protocol.md", rel, lineOf(m[0]), a)
			}
		}
		for _, m := range old.FindAllStringIndex(text, -1) {
			t.Errorf("%s:%d cites the contract, which is not part of this repository; cite a section of docs/protocol.md instead", rel, lineOf(m[0]))
		}
	}
	if checked < 100 {
		t.Errorf("found only %d citations of docs/protocol.md; the pattern has stopped matching them", checked)
	}
}

// slug is the anchor GitHub gives a Markdown heading.
func slug(heading string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(heading) {
		switch {
		case r == ' ':
			b.WriteRune('-')
		case r == '-' || r == '_' || r >= 'a' && r <= 'z' || r >= '0' && r <= '9':
			b.WriteRune(r)
		}
	}
	return b.String()
}
