// Package schema holds the JSON Schemas (draft 2020-12) of the JSON files
// orc-state owns: orc.schema.json for .orc/orc.json, slices.schema.json for
// a session's slices.json, decisions.schema.json for its decisions.json and
// worktrees.schema.json for .orc/worktrees.json.
// Editors and other tools can use them to check a file before orc-state
// reads it; orc-state itself validates with its Go code, never with these.
//
// The package has no code, only tests. schema_test.go keeps the schemas and
// the Go validators (registry.Parse, slices.Parse, decisions.Parse,
// binding.Parse) in
// agreement over the corpus in testdata/, and checks that the copies shipped
// with the plugin under skills/state-protocol/references/ are identical.
// adversarial_test.go holds both to the same verdicts over the registry,
// ledger and decisions files of the CLI's adversarial corpus
// (cmd/orc-state/testdata/adversarial), and protocol_test.go checks that
// docs/protocol.md names every field the schemas define and lists every file
// orc-state writes. skills_test.go checks the plugin itself: .claude-plugin/plugin.json, the
// frontmatter of every skills/*/SKILL.md, that every orc-state command the
// skills mention exists, and hooks/hooks.json when present.
//
// # Corpus
//
// testdata/<kind>/ holds one folder per expectation, kind being orc, slices,
// decisions or worktrees:
//
//   - valid: both the schema and the Go validator accept the document;
//   - invalid: both refuse it, for a fault JSON Schema can express;
//   - go-only: the Go validator refuses and the schema accepts, because the
//     fault is one JSON Schema cannot express (uniqueness, cross-field
//     equality, graph checks, calendar dates, how a number is spelled,
//     duplicate keys); each schema lists these rules in its description;
//   - go-lenient: the schema refuses and the Go validator still accepts, a
//     known defect of the Go validator. These cases are skipped while the
//     defect lasts; once the Go code refuses the document the test fails and
//     says to move it to invalid.
package schema
