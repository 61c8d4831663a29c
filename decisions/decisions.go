// Package decisions owns .orc/<sessionId>/files/decisions.json (schema 1):
// the session's settled decisions, each a string value with its provenance,
// settled once and changed only by an explicit supersede that keeps the old
// value in the key's history.
//
// Everything here is a pure function over bytes; the caller locks, reads,
// calls Parse and Set, writes Marshal's output atomically and journals it.
// Secrets are screened by the caller (internal/secrets) before Set.
//
// Format:
//
//	{"schema": 1, "decisions": {"<key>": {"value": "<string>",
//	  "provenance": "flag|asked|policy|inferred", "settledAt": "<UTC>",
//	  "history": [{"value", "provenance", "settledAt", "supersededAt"}]}}}
//
// history is present only once a value has been superseded, oldest first.
// Parse is strict: duplicate keys, unknown fields, a missing schema or
// decisions object, schema above 1, a bad key, value, provenance or time
// make an *InvalidError (Newer() for a newer schema).
//
// Keys are 1 to 128 bytes of [A-Za-z0-9._-]. Values are 1 to 4096 bytes of
// valid UTF-8 on one line: no control character other than tab. Times are
// UTC to the second, like 2026-01-02T15:04:05Z. The retry budgets
// (Counts) are decimal counts: Set refuses anything else, and a file that
// holds anything else still parses (so the key can be superseded) while
// Count and SettingProblems report it.
package decisions

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/orc-state/orc-state/internal/schemaver"
	"github.com/orc-state/orc-state/internal/strictjson"

	"github.com/orc-state/orc-state/internal/textin"
)

// Schema is the format version this build reads and writes.
const Schema = 1

// TimeLayout is the format of settledAt and supersededAt.
const TimeLayout = "2006-01-02T15:04:05Z"

// MaxValue bounds a value, in bytes.
const MaxValue = 4096

// Provenances is the closed enum of how a decision was settled.
var Provenances = []string{"flag", "asked", "policy", "inferred"}

// keyShape reports whether key is 1..128 bytes of [A-Za-z0-9._-] (a
// hand-written check: a bounded-repeat regexp costs start-up time).
func keyShape(key string) bool {
	if len(key) == 0 || len(key) > 128 {
		return false
	}
	for i := 0; i < len(key); i++ {
		c := key[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '.' || c == '_' || c == '-') {
			return false
		}
	}
	return true
}

// File is decisions.json.
type File struct {
	Schema    int                 `json:"schema"`
	Decisions map[string]Decision `json:"decisions"`
}

// Decision is one settled key.
type Decision struct {
	Value      string         `json:"value"`
	Provenance string         `json:"provenance"`
	SettledAt  string         `json:"settledAt"`
	History    []HistoryEntry `json:"history,omitempty"`
}

// HistoryEntry is a value a later Set superseded.
type HistoryEntry struct {
	Value        string `json:"value"`
	Provenance   string `json:"provenance"`
	SettledAt    string `json:"settledAt"`
	SupersededAt string `json:"supersededAt"`
}

// Parse reads decisions.json strictly. Empty data (a file not yet written)
// is an empty File.
//
// A file as Marshal writes it is read by hand (decode.go); any other
// well-formed file in one pass, the strict decode. Either's success
// means the file is one JSON object, free of what Check refuses, whose
// only members are exactly schema and decisions, and so settles what the
// other passes would have found but for an absent schema, which a decoded
// 0 cannot tell from "schema": 0 (a file Validate refuses anyway). That
// case, and every file the strict decode refuses, takes the passes of
// parseSlow, which name the fault.
func Parse(data []byte) (*File, error) {
	trimmed := bytes.TrimSpace(data)
	if len(trimmed) == 0 {
		return &File{Schema: Schema, Decisions: map[string]Decision{}}, nil
	}
	f, ok := decodeCanonical(data) // what Marshal wrote, most files
	if !ok && (trimmed[0] != '{' || strictjson.Decode(data, &f) != nil) || f.Schema == 0 {
		return parseSlow(data)
	}
	if e := schemaver.Check(f.Schema, Schema); e != nil {
		return nil, e.Invalid(fileName)
	}
	if f.Decisions == nil { // absent or null
		return nil, invalid("no decisions object")
	}
	if err := f.Validate(); err != nil {
		return nil, invalid("%s", err)
	}
	return &f, nil
}

// parseSlow is Parse in the passes that tell a broken file's faults apart,
// in the order they are reported: the syntax (Check), then a newer schema
// (probed leniently, as an older build's files may spell it), then the
// strict decode, a missing schema or decisions object, and Validate.
func parseSlow(data []byte) (*File, error) {
	if err := strictjson.Check(data); err != nil {
		return nil, invalid("%s", err)
	}
	if bytes.TrimSpace(data)[0] != '{' {
		return nil, invalid("the top level is not a JSON object")
	}
	var probe struct {
		Schema    json.RawMessage `json:"schema"`
		Decisions json.RawMessage `json:"decisions"`
	}
	_ = json.Unmarshal(data, &probe)
	_, schemaErr := schemaver.ProbeValue(probe.Schema, Schema)
	if schemaErr != nil && schemaErr.Kind == schemaver.Newer {
		return nil, schemaErr.Invalid(fileName)
	}
	var f File
	if err := strictjson.Decode(data, &f); err != nil {
		return nil, invalid("%s", err)
	}
	if schemaErr != nil && schemaErr.Kind == schemaver.Missing {
		return nil, invalid("no schema field")
	}
	if len(probe.Decisions) == 0 || string(probe.Decisions) == "null" {
		return nil, invalid("no decisions object")
	}
	if err := f.Validate(); err != nil {
		return nil, invalid("%s", err)
	}
	return &f, nil
}

func invalid(format string, args ...any) *InvalidError {
	return &InvalidError{Name: fileName, Fault: fmt.Sprintf(format, args...)}
}

// Validate checks the schema and every decision.
func (f *File) Validate() error {
	if f.Schema != Schema {
		return fmt.Errorf("schema is %d; expected %d", f.Schema, Schema)
	}
	for _, k := range f.Keys() {
		d := f.Decisions[k]
		if err := CheckKey(k); err != nil {
			return err
		}
		if err := check(d.Value, d.Provenance, d.SettledAt); err != nil {
			return fmt.Errorf("%s: %w", k, err)
		}
		for i, h := range d.History {
			if err := check(h.Value, h.Provenance, h.SettledAt); err != nil {
				return fmt.Errorf("%s: history[%d]: %w", k, i, err)
			}
			if err := checkTime("supersededAt", h.SupersededAt); err != nil {
				return fmt.Errorf("%s: history[%d]: %w", k, i, err)
			}
		}
	}
	return nil
}

func check(value, provenance, at string) error {
	if err := CheckValue(value); err != nil {
		return err
	}
	if err := CheckProvenance(provenance); err != nil {
		return err
	}
	return checkTime("settledAt", at)
}

// CheckKey refuses a key outside 1 to 128 bytes of [A-Za-z0-9._-].
func CheckKey(key string) error {
	if !keyShape(key) {
		return fmt.Errorf("key %q is not 1 to 128 characters of A-Z a-z 0-9 . _ -", key)
	}
	return nil
}

// CheckValue refuses an empty, over-long, non-UTF-8 or multi-line value.
func CheckValue(v string) error {
	switch {
	case v == "":
		return errors.New("value is empty")
	case len(v) > MaxValue:
		return fmt.Errorf("value is %d bytes; the limit is %d", len(v), MaxValue)
	case !utf8.ValidString(v):
		return errors.New("value is not valid UTF-8")
	}
	// The one-line rule, but for a tab, which a decision value has always
	// been allowed to hold.
	return textin.SingleLine("value", strings.ReplaceAll(v, "\t", " "))
}

// CheckProvenance refuses a provenance outside Provenances.
func CheckProvenance(p string) error {
	for _, q := range Provenances {
		if p == q {
			return nil
		}
	}
	return fmt.Errorf("provenance %q is not one of %s", p, strings.Join(Provenances, ", "))
}

func checkTime(name, v string) error {
	t, err := time.Parse(TimeLayout, v)
	if err != nil || t.Format(TimeLayout) != v {
		return fmt.Errorf("%s %q is not a UTC time like 2026-01-02T15:04:05Z", name, v)
	}
	return nil
}

// Marshal renders the file canonically: 2-space indent, keys sorted, no
// HTML escaping, a trailing newline.
func (f *File) Marshal() []byte {
	out := File{Schema: Schema, Decisions: f.Decisions}
	if out.Decisions == nil {
		out.Decisions = map[string]Decision{}
	}
	if b, ok := encode(&out); ok {
		return b
	}
	return marshalJSON(&out)
}

// Keys returns the settled keys, sorted.
func (f *File) Keys() []string {
	keys := make([]string, 0, len(f.Decisions))
	for k := range f.Decisions {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// Get returns the decision settled for key.
func (f *File) Get(key string) (Decision, bool) {
	d, ok := f.Decisions[key]
	return d, ok
}

// Echo is the line a command prints when it uses a settled decision
// instead of asking.
func Echo(key string, d Decision) string {
	return fmt.Sprintf("using settled decision: %s=%s (%s)", key, d.Value, d.Provenance)
}
