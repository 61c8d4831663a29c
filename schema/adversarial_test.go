package schema

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// adversarialDir is the CLI's corpus of hostile files (TestAdversarialCorpus
// in internal/proctest feeds them to the binary).
const adversarialDir = "../cmd/orc-state/testdata/adversarial"

// adversarialSchemaAccepts lists the corpus files that the schema accepts
// although orc-state refuses them, each with the words of the schema's
// description that state the rule it breaks. Every other broken file of
// the corpus must be refused by both.
var adversarialSchemaAccepts = map[string]string{
	"decisions-dup-decision.json": "no object repeats a key",
	"decisions-dup-key.json":      "no object repeats a key",
	"orc-dup-key-session.json":    "no object repeats a key",
	"orc-dup-key-top.json":        "no object repeats a key",
	"orc-dup-session.json":        "every sessionId is unique",
	"orc-invalid-utf8.json":       "valid UTF-8",
	"plan-deep-100.json":          "nest at most 64 levels deep",
	"plan-dup-key-top.json":       "no object repeats a key",
	"plan-dup-key.json":           "no object repeats a key",
	"plan-id-1e30.json":           "without fraction or exponent",
	"plan-invalid-utf8.json":      "valid UTF-8",
	"slices-dup-key.json":         "no object repeats a key",
}

// kindOf is the format a corpus file is of, by its name's prefix; nil for a
// file of another format (artifacts, digests).
func kindOf(base string) *kind {
	for prefix, name := range map[string]string{"orc-": "orc", "plan-": "slices", "slices-": "slices", "decisions-": "decisions"} {
		if strings.HasPrefix(base, prefix) {
			for i := range kinds {
				if kinds[i].name == name {
					return &kinds[i]
				}
			}
		}
	}
	return nil
}

// TestAdversarialAgreement feeds every registry, ledger and decisions file
// of the CLI's adversarial corpus to both the Go validator and the schema:
// the Go validator refuses each one (except the corpus's *-valid.json), and
// the schema refuses it too unless the rule it breaks is one the schema's
// description states in words (adversarialSchemaAccepts).
func TestAdversarialAgreement(t *testing.T) {
	files, err := filepath.Glob(filepath.Join(adversarialDir, "*.json"))
	if err != nil {
		t.Fatal(err)
	}
	seen := 0
	for _, f := range files {
		base := filepath.Base(f)
		k := kindOf(base)
		if k == nil {
			continue
		}
		seen++
		t.Run(base, func(t *testing.T) {
			data, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			schemaErr := validate(compile(t, k.schema), data)
			_, goErr := k.parse(data)
			if strings.HasSuffix(base, "-valid.json") {
				if goErr != nil || schemaErr != nil {
					t.Errorf("a valid %s: Go says %v; schema/%s says %v", k.name, goErr, k.schema, schemaErr)
				}
				return
			}
			if goErr == nil {
				t.Errorf("the Go validator accepts this broken %s file; the CLI's corpus expects a refusal", k.name)
			}
			rule, listed := adversarialSchemaAccepts[base]
			switch {
			case schemaErr == nil && !listed:
				t.Errorf("schema/%s accepts this file, which orc-state refuses (%v): make the schema refuse it, or state the rule in the schema's description and list the file in adversarialSchemaAccepts", k.schema, goErr)
			case schemaErr != nil && listed:
				t.Errorf("schema/%s now refuses this file (%s): remove it from adversarialSchemaAccepts", k.schema, oneLine(schemaErr))
			case listed && !strings.Contains(description(t, k.schema), rule):
				t.Errorf("schema/%s accepts this file, and its description does not say %q, the rule it breaks", k.schema, rule)
			}
		})
	}
	if seen < len(adversarialSchemaAccepts) {
		t.Errorf("found %d corpus files of the three formats in %s; the table alone lists %d", seen, adversarialDir, len(adversarialSchemaAccepts))
	}
}

// description is a schema's top-level description.
func description(t *testing.T, file string) string {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var s struct {
		Description string `json:"description"`
	}
	if err := json.Unmarshal(data, &s); err != nil {
		t.Fatalf("%s: %v", file, err)
	}
	return s.Description
}
