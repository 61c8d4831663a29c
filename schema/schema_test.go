package schema

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	stdslices "slices"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/orc-state/orc-state/decisions"
	"github.com/orc-state/orc-state/internal/binding"
	"github.com/orc-state/orc-state/registry"
	"github.com/orc-state/orc-state/slices"
)

// kind is one file format: its schema and the Go code that owns it.
type kind struct {
	name   string // the folder under testdata/
	schema string // the schema file in this folder
	// parse runs the Go validator and returns the canonical bytes the Go
	// writer would produce for the document.
	parse func(data []byte) ([]byte, error)
}

var kinds = []kind{
	{"orc", "orc.schema.json", func(data []byte) ([]byte, error) {
		r, err := registry.Parse(data)
		if err != nil {
			return nil, err
		}
		return r.Marshal()
	}},
	{"slices", "slices.schema.json", func(data []byte) ([]byte, error) {
		l, err := slices.Parse(data)
		if err != nil {
			return nil, err
		}
		return l.Marshal(), nil
	}},
	{"decisions", "decisions.schema.json", func(data []byte) ([]byte, error) {
		f, err := decisions.Parse(data)
		if err != nil {
			return nil, err
		}
		return f.Marshal(), nil
	}},
	{"worktrees", "worktrees.schema.json", func(data []byte) ([]byte, error) {
		f, err := binding.Parse(data)
		if err != nil {
			return nil, err
		}
		return f.Marshal(), nil
	}},
}

// Corpus folders and the fewest documents each kind must have in them.
const (
	folderValid     = "valid"
	folderInvalid   = "invalid"
	folderGoOnly    = "go-only"
	folderGoLenient = "go-lenient"
)

var minDocs = map[string]int{folderValid: 12, folderInvalid: 12, folderGoOnly: 1}

// writerDefects are valid documents whose canonical Go rendering the schema
// refuses, each with the defect it shows. Like go-lenient documents they are
// skipped while the defect lasts, and fail once it is gone.
var writerDefects = map[string]string{}

// compile loads one schema file of this folder.
func compile(t *testing.T, file string) *jsonschema.Schema {
	t.Helper()
	abs, err := filepath.Abs(file)
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	s, err := c.Compile(abs)
	if err != nil {
		t.Fatalf("compile %s: %v", file, err)
	}
	return s
}

// validate runs the schema over data.
func validate(s *jsonschema.Schema, data []byte) error {
	v, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
	if err != nil {
		return err
	}
	return s.Validate(v)
}

// oneLine shortens an error for a test message.
func oneLine(err error) string {
	if err == nil {
		return "accepted"
	}
	s := strings.Join(strings.Fields(err.Error()), " ")
	if len(s) > 300 {
		s = s[:300] + "..."
	}
	return s
}

func TestCorpus(t *testing.T) {
	for _, k := range kinds {
		s := compile(t, k.schema)
		for _, folder := range []string{folderValid, folderInvalid, folderGoOnly, folderGoLenient} {
			files, err := filepath.Glob(filepath.Join("testdata", k.name, folder, "*.json"))
			if err != nil {
				t.Fatal(err)
			}
			if len(files) < minDocs[folder] {
				t.Errorf("testdata/%s/%s has %d documents; want at least %d", k.name, folder, len(files), minDocs[folder])
			}
			for _, file := range files {
				name := strings.TrimSuffix(filepath.Base(file), ".json")
				t.Run(k.name+"/"+folder+"/"+name, func(t *testing.T) {
					data, err := os.ReadFile(file)
					if err != nil {
						t.Fatal(err)
					}
					schemaErr := validate(s, data)
					_, goErr := k.parse(data)
					checkSplit(t, folder, schemaErr, goErr)
				})
			}
		}
	}
}

// checkSplit asserts what the folder promises about the two verdicts.
func checkSplit(t *testing.T, folder string, schemaErr, goErr error) {
	t.Helper()
	switch folder {
	case folderValid:
		if schemaErr != nil || goErr != nil {
			t.Errorf("want both to accept; schema: %s; Go: %s", oneLine(schemaErr), oneLine(goErr))
		}
	case folderInvalid:
		if schemaErr == nil || goErr == nil {
			t.Errorf("want both to refuse; schema: %s; Go: %s", oneLine(schemaErr), oneLine(goErr))
		}
	case folderGoOnly:
		if schemaErr != nil || goErr == nil {
			t.Errorf("want the schema to accept and Go to refuse; schema: %s; Go: %s", oneLine(schemaErr), oneLine(goErr))
		}
	case folderGoLenient:
		switch {
		case schemaErr == nil:
			t.Errorf("want the schema to refuse; it accepted (Go: %s)", oneLine(goErr))
		case goErr != nil:
			t.Errorf("the Go validator now refuses this document (%s); move it to invalid/", oneLine(goErr))
		default:
			t.Skipf("known defect of the Go validator: it accepts what the schema refuses (%s)", oneLine(schemaErr))
		}
	}
}

// TestCanonicalOutput checks that what the Go writer produces from each
// valid document passes the schema too.
func TestCanonicalOutput(t *testing.T) {
	for _, k := range kinds {
		s := compile(t, k.schema)
		files, err := filepath.Glob(filepath.Join("testdata", k.name, folderValid, "*.json"))
		if err != nil {
			t.Fatal(err)
		}
		for _, file := range files {
			name := k.name + "/" + strings.TrimSuffix(filepath.Base(file), ".json")
			t.Run(name, func(t *testing.T) {
				data, err := os.ReadFile(file)
				if err != nil {
					t.Fatal(err)
				}
				out, err := k.parse(data)
				if err != nil {
					t.Fatalf("Go refuses a valid document: %v", err)
				}
				schemaErr := validate(s, out)
				defect, known := writerDefects[name]
				switch {
				case schemaErr != nil && known:
					t.Skipf("known defect of the Go writer: %s", defect)
				case schemaErr != nil:
					t.Errorf("the schema refuses the Go writer's output: %s\n%s", oneLine(schemaErr), out)
				case known:
					t.Errorf("the Go writer's output now passes the schema; remove %q from writerDefects", name)
				}
			})
		}
	}
}

// TestVocabularyMatchesGo compares the enums, patterns and limits the
// schemas spell out with the values the Go packages export.
func TestVocabularyMatchesGo(t *testing.T) {
	orc := load(t, "orc.schema.json")
	sl := load(t, "slices.schema.json")
	dec := load(t, "decisions.schema.json")

	eq := func(what string, got, want any) {
		t.Helper()
		g, _ := json.Marshal(got)
		w, _ := json.Marshal(want)
		if !bytes.Equal(g, w) {
			t.Errorf("%s: schema has %s; Go has %s", what, g, w)
		}
	}
	eq("session status", at(t, orc, "$defs", "session", "properties", "status", "enum"), registry.Statuses)
	eq("jiraTicket pattern", at(t, orc, "$defs", "session", "properties", "jiraTicket", "pattern"), registry.JiraKey.String())
	eq("sessionId maxLength", at(t, orc, "$defs", "sessionKey", "maxLength"), registry.MaxKeyBytes)
	eq("description maxLength", at(t, orc, "$defs", "session", "properties", "description", "maxLength"), registry.MaxDescription)
	eq("schema const", at(t, orc, "properties", "schema", "const"), registry.Schema)

	var reserved []string
	for _, v := range at(t, orc, "$defs", "sessionKey", "not", "enum").([]any) {
		name := v.(string)
		reserved = append(reserved, name)
		if !registry.IsReserved(name) {
			t.Errorf("the schema reserves %q; registry.IsReserved does not", name)
		}
	}
	// The per-repository names of docs/protocol.md §2 and §3 (.worktrees is already
	// excluded by the no-leading-dot rule).
	for _, name := range []string{"orc.json", "knowledge", "project-context.md", "planning-calibration.json", "pr-budget.json"} {
		if !stdslices.Contains(reserved, name) {
			t.Errorf("the schema does not reserve %q", name)
		}
	}

	var sliceStatuses []string
	for _, v := range at(t, sl, "$defs", "slice", "properties", "status", "enum").([]any) {
		if v != nil {
			sliceStatuses = append(sliceStatuses, v.(string))
		}
	}
	eq("slice status", sliceStatuses, slices.Statuses)
	eq("ledger schema const", at(t, sl, "properties", "schema", "anyOf").([]any)[1].(map[string]any)["const"], slices.Schema)

	eq("provenance", at(t, dec, "$defs", "provenance", "enum"), decisions.Provenances)
	eq("value maxLength", at(t, dec, "$defs", "value", "maxLength"), decisions.MaxValue)
	eq("decisions schema const", at(t, dec, "properties", "schema", "const"), decisions.Schema)

	wt := load(t, "worktrees.schema.json")
	eq("worktrees schema const", at(t, wt, "properties", "schema", "const"), binding.Schema)
	eq("agent maxLength", at(t, wt, "$defs", "binding", "properties", "agent", "maxLength"), slices.MaxAgent)
	eq("path maxLength", at(t, wt, "$defs", "path", "maxLength"), binding.MaxPath)
	for _, rule := range []string{"type", "maxLength", "pattern", "not"} {
		eq("bound session key "+rule, at(t, wt, "$defs", "sessionKey", rule), at(t, orc, "$defs", "sessionKey", rule))
	}
}

func load(t *testing.T, file string) map[string]any {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(data, &m); err != nil {
		t.Fatalf("%s: %v", file, err)
	}
	return m
}

// at walks nested objects by key.
func at(t *testing.T, m map[string]any, path ...string) any {
	t.Helper()
	var v any = m
	for i, p := range path {
		obj, ok := v.(map[string]any)
		if !ok {
			t.Fatalf("%s is not an object", strings.Join(path[:i], "."))
		}
		if v, ok = obj[p]; !ok {
			t.Fatalf("%s is missing", strings.Join(path[:i+1], "."))
		}
	}
	return v
}

// TestPluginCopies checks that the schemas shipped with the plugin are
// byte-for-byte the ones tested here.
func TestPluginCopies(t *testing.T) {
	for _, k := range kinds {
		want, err := os.ReadFile(k.schema)
		if err != nil {
			t.Fatal(err)
		}
		copyPath := filepath.Join("..", "skills", "state-protocol", "references", k.schema)
		got, err := os.ReadFile(copyPath)
		if err != nil {
			t.Errorf("%v; copy schema/%s there", err, k.schema)
			continue
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s differs from schema/%s; copy it again", copyPath, k.schema)
		}
	}
}
