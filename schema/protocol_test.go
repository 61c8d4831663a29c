package schema

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/orc-state/orc-state/internal/cli"
	"github.com/orc-state/orc-state/internal/journal"
	"github.com/orc-state/orc-state/internal/lock"
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
		state.CheckpointFile, state.LedgerFile, state.DecisionsFile, state.ProgressFile,
		journal.FileName, journal.AnchorName, cli.LinkFile, "readiness.json",
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
