// Package registry owns .orc/orc.json (schema 1): the list of sessions, one
// per branch. It parses strictly (unknown fields, duplicate keys, duplicate
// sessionIds, values outside their type or enum and newer schemas are
// refused), renders canonically, maps branches to session keys, reads legacy
// registries leniently for display, and migrates them to schema 1. With the
// proof a writer records beside orc.json (proof.go), a verb that needs one
// session decodes that entry only and writes it back by splicing.
package registry

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/orc-state/orc-state/internal/portable"
	"github.com/orc-state/orc-state/internal/schemaver"
	"github.com/orc-state/orc-state/internal/strictjson"

	"github.com/orc-state/orc-state/internal/textin"
)

// Schema is the registry format version this build reads and writes.
const Schema = 1

// TimeLayout is the format of startedAt and updatedAt (UTC, seconds).
const TimeLayout = "2006-01-02T15:04:05Z"

// MaxDescription bounds a session description, in characters.
const MaxDescription = 120

// Statuses is the closed enum of session states.
var Statuses = []string{"in_progress", "paused", "completed", "abandoned"}

// Verdicts is the closed enum of gate verdicts.
var Verdicts = []string{"approved", "changes_requested"}

// ScopeWorkspace is the scope of a session spanning repositories (the
// default scope, a single repository, is empty).
const ScopeWorkspace = "workspace"

// JiraKey is the shape of a Jira issue key. It compiles on first use:
// every process pays for what runs at start-up, and most never ask.
var JiraKey = lazyPattern{compile: sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^[A-Z][A-Z0-9_]*-[0-9]+$`)
})}

// lazyPattern is a regular expression compiled on first use.
type lazyPattern struct{ compile func() *regexp.Regexp }

// MatchString reports whether s matches the pattern.
func (p lazyPattern) MatchString(s string) bool { return p.compile().MatchString(s) }

// String is the pattern's source text.
func (p lazyPattern) String() string { return p.compile().String() }

// LegacyFields are the old vocabulary accepted only by migrate.
var LegacyFields = []string{"session_id", "current_phase", "total_phases", "created_at", "updated_at", "branchSanitized", "schemaVersion"}

// Registry is orc.json.
type Registry struct {
	Schema   int       `json:"schema"`
	Sessions []Session `json:"sessions"`
	part     *partial  // non-nil: Sessions holds only the entries read (see Read)
}

// Session is one registry entry.
type Session struct {
	SessionID    string               `json:"sessionId"`
	Command      string               `json:"command"`
	Branch       string               `json:"branch"`
	GitBranch    string               `json:"gitBranch"`
	Description  string               `json:"description"`
	Status       string               `json:"status"`
	Phase        Phase                `json:"phase"`
	PhaseLabel   *string              `json:"phaseLabel"`
	TotalPhases  int                  `json:"totalPhases"`
	JiraTicket   *string              `json:"jiraTicket"`
	PlanFile     *string              `json:"planFile"`
	LinkedPRs    []PR                 `json:"linkedPRs"`
	StartedAt    string               `json:"startedAt"`
	UpdatedAt    string               `json:"updatedAt"`
	Scope        string               `json:"scope,omitempty"`
	Repos        []string             `json:"repos,omitempty"`
	PerRepoState map[string]RepoState `json:"perRepoState,omitempty"`
	Gate         *Gate                `json:"gate,omitempty"`
}

// PR is a linked pull request; URL is its identity.
type PR struct {
	Repo          string  `json:"repo"`
	URL           string  `json:"url"`
	Number        *int    `json:"number"`
	StackID       *string `json:"stackId"`
	StackPosition *int    `json:"stackPosition"`
	StackedOn     *string `json:"stackedOn"`
}

// RepoState is one member repository of a workspace session.
type RepoState struct {
	RepoPath     string  `json:"repoPath"`
	Branch       string  `json:"branch"`
	Worktree     string  `json:"worktree,omitempty"`
	CurrentSlice *int    `json:"currentSlice"`
	PRURL        *string `json:"prUrl"`
}

// Gate holds the verdicts recorded for the session's phases and the retry
// count of each phase (docs/protocol.md §13).
type Gate struct {
	Verdicts []Verdict      `json:"verdicts"`
	Retries  map[string]int `json:"retries"`
}

// Verdict is one recorded gate outcome.
type Verdict struct {
	Phase    int    `json:"phase"`
	Verdict  string `json:"verdict"`
	Reviewer string `json:"reviewer,omitempty"`
	Note     string `json:"note,omitempty"`
	At       string `json:"at"`
}

// Str returns a pointer to s, or nil when s is empty.
func Str(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

// Deref returns *p, or "" for nil.
func Deref(p *string) string {
	if p == nil {
		return ""
	}
	return *p
}

// IsTime reports whether v is exactly a TimeLayout time (time.Parse alone
// would also accept fractional seconds, which break text ordering).
func IsTime(v string) bool {
	t, err := time.Parse(TimeLayout, v)
	return err == nil && t.UTC().Format(TimeLayout) == v
}

// Stamp formats t as recorded timestamps are written: TimeLayout, in UTC.
func Stamp(t time.Time) string { return t.UTC().Format(TimeLayout) }

// InvalidError is a registry that cannot be trusted: the one shape every
// format returns (Name "orc.json"). Its Problem says what kind of fault it
// is, which decides what can be done about it.
type InvalidError = schemaver.InvalidError

// Problem is the kind of an InvalidError.
type Problem = schemaver.Problem

// The kinds of unusable registry. Parse finds the first three; the others
// are what stops Migrate.
const (
	Damaged     = schemaver.Damaged     // fails the strict parse or validation
	Legacy      = schemaver.Legacy      // the original's vocabulary (legacy fields, no schema): Migrate converts it
	Newer       = schemaver.NewerSchema // a schema newer than this build understands
	Garbled     = schemaver.Garbled     // duplicate names or invalid UTF-8 anywhere in the file
	NotObject   = schemaver.NotObject   // not a JSON object
	BadSessions = schemaver.BadSessions // sessions is not a list of objects
	BadEntry    = schemaver.BadEntry    // one entry cannot be converted, or is invalid once converted
	Collision   = schemaver.Collision   // two branches map to one sessionId
)

// fileName names the registry in its InvalidErrors.
const fileName = "orc.json"

// Parse reads orc.json strictly and validates it.
func Parse(data []byte) (*Registry, error) {
	var r Registry
	if err := strictjson.Decode(data, &r); err != nil {
		if _, e := schemaver.Probe(data, Schema); e != nil && e.Kind == schemaver.Newer { // the version first: a newer file is never "repaired"
			return nil, e.Invalid(fileName)
		}
		if f := strictjson.UnknownField(err); f != "" && isLegacy(f) {
			return nil, &InvalidError{Name: fileName, Fault: fmt.Sprintf("legacy field %q", f), Problem: Legacy}
		}
		if f := legacyField(data); f != "" {
			return nil, &InvalidError{Name: fileName, Fault: fmt.Sprintf("legacy field %q (%v)", f, err), Problem: Legacy}
		}
		fault := err.Error()
		if line, col, ok := strictjson.Position(data, err); ok {
			fault = fmt.Sprintf("%s at line %d, column %d", fault, line, col)
		}
		return nil, &InvalidError{Name: fileName, Fault: fault, Problem: Damaged}
	}
	if e := schemaver.Check(r.Schema, Schema); e != nil {
		return nil, e.Invalid(fileName)
	}
	if r.Schema == 0 && !hasSchema(data) {
		return nil, &InvalidError{Name: fileName, Fault: "no schema field", Problem: Legacy}
	}
	if err := r.Validate(); err != nil {
		return nil, &InvalidError{Name: fileName, Fault: err.Error(), Problem: Damaged}
	}
	return &r, nil
}

// hasSchema reports whether the file has a top-level schema member (a
// decoded 0 cannot tell a missing field from "schema": 0, which Validate
// refuses anyway).
func hasSchema(data []byte) bool {
	var top map[string]json.RawMessage
	if json.Unmarshal(data, &top) != nil {
		return false
	}
	_, ok := top["schema"]
	return ok
}

// legacyField names a legacy key of the file or of an entry, if any: the
// first decode error may be about another field of a legacy entry (a
// string phase), and the fix is still migrate.
func legacyField(data []byte) string {
	var doc struct {
		Top      map[string]json.RawMessage
		Sessions []map[string]json.RawMessage `json:"sessions"`
	}
	_ = json.Unmarshal(data, &doc.Top)
	_ = json.Unmarshal(data, &doc)
	for _, m := range append([]map[string]json.RawMessage{doc.Top}, doc.Sessions...) {
		for _, f := range LegacyFields {
			if _, ok := m[f]; ok {
				return f
			}
		}
	}
	return ""
}

func isLegacy(field string) bool {
	for _, f := range LegacyFields {
		if f == field {
			return true
		}
	}
	return false
}

// Marshal renders the registry canonically: 2-space indent, no HTML
// escaping, trailing newline. A partial registry (see Read) is rendered by
// splicing its entries into the bytes it was read from.
func (r *Registry) Marshal() ([]byte, error) {
	if r.Sessions == nil {
		r.Sessions = []Session{}
	}
	for i := range r.Sessions {
		r.Sessions[i].normalize()
	}
	if r.part != nil {
		return r.part.splice(r.Sessions)
	}
	return marshal(r, "", "  ")
}

// Canonical is the compact JSON of one entry that the journal hashes.
func (s *Session) Canonical() []byte {
	s.normalize()
	b, err := marshal(s, "", "")
	if err != nil {
		panic(err) // Session has only marshalable fields
	}
	return b
}

// marshal is what encoding/json's Encoder writes for v with no HTML
// escaping, that prefix and indent, and a trailing newline: by the hand
// encoder (encode.go) when it covers v, by encoding/json otherwise.
func marshal(v any, prefix, indent string) ([]byte, error) {
	size := 64
	switch v := v.(type) {
	case *Registry:
		size += 1024 * len(v.Sessions)
	case *Session:
		size = 1024
	}
	if b, ok := encode(v, prefix, indent, size); ok {
		return b, nil
	}
	return marshalJSON(v, prefix, indent)
}

// marshalJSON is marshal by encoding/json.
func marshalJSON(v any, prefix, indent string) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent(prefix, indent)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// normalize writes empty lists and maps as [] and {}, never null, so what
// is written reads back under the strict parser.
func (s *Session) normalize() {
	if s.LinkedPRs == nil {
		s.LinkedPRs = []PR{}
	}
	if s.Gate != nil {
		if s.Gate.Verdicts == nil {
			s.Gate.Verdicts = []Verdict{}
		}
		if s.Gate.Retries == nil {
			s.Gate.Retries = map[string]int{}
		}
	}
}

// Find returns the entry whose sessionId or gitBranch equals key, or nil.
func (r *Registry) Find(key string) *Session {
	for i := range r.Sessions {
		if r.Sessions[i].SessionID == key {
			return &r.Sessions[i]
		}
	}
	for i := range r.Sessions {
		if r.Sessions[i].GitBranch == key {
			return &r.Sessions[i]
		}
	}
	return nil
}

// Exact returns the entry whose sessionId is id, or nil; unlike Find it
// never matches a gitBranch.
func (r *Registry) Exact(id string) *Session {
	for i := range r.Sessions {
		if r.Sessions[i].SessionID == id {
			return &r.Sessions[i]
		}
	}
	return nil
}

// ForBranch returns the entry whose gitBranch is branch, or nil. Its
// sessionId is Sanitize(branch), or the original tool's key for it when an
// earlier version wrote the entry (see Keys).
func (r *Registry) ForBranch(branch string) *Session {
	for i := range r.Sessions {
		if r.Sessions[i].GitBranch == branch {
			return &r.Sessions[i]
		}
	}
	return nil
}

// SameFolder returns an entry whose sessionId differs from id but names
// the same folder on macOS or Windows (it differs only in case, or in a
// trailing dot an earlier version kept), or nil.
func (r *Registry) SameFolder(id string) *Session {
	for i := range r.Sessions {
		if portable.Same(r.Sessions[i].SessionID, id) {
			return &r.Sessions[i]
		}
	}
	return nil
}

// FolderCollisions returns each group of entries (two or more, in registry
// order) whose sessionIds name one folder on macOS or Windows. A new one
// is refused by init; these were written before that rule, or on a machine
// where they were two folders.
func (r *Registry) FolderCollisions() [][]*Session {
	groups := map[string][]*Session{}
	var order []string
	for i := range r.Sessions {
		k := portable.Fold(r.Sessions[i].SessionID)
		if len(groups[k]) == 0 {
			order = append(order, k)
		}
		groups[k] = append(groups[k], &r.Sessions[i])
	}
	var out [][]*Session
	for _, k := range order {
		if len(groups[k]) > 1 {
			out = append(out, groups[k])
		}
	}
	return out
}

// Remove deletes the entry with sessionId id and reports whether it existed.
func (r *Registry) Remove(id string) bool {
	for i := range r.Sessions {
		if r.Sessions[i].SessionID == id {
			r.Sessions = append(r.Sessions[:i], r.Sessions[i+1:]...)
			return true
		}
	}
	return false
}

// Validate checks the whole registry: schema, entries, duplicate keys.
func (r *Registry) Validate() error {
	if r.Schema != Schema {
		return fmt.Errorf("schema is %d; expected %d", r.Schema, Schema)
	}
	seen := make(map[string]bool, len(r.Sessions))
	branches := make(map[string]bool, len(r.Sessions))
	for i := range r.Sessions {
		s := &r.Sessions[i]
		if err := s.Validate(); err != nil {
			return fmt.Errorf("session %d (%q): %w", i+1, s.SessionID, err)
		}
		if seen[s.SessionID] {
			return fmt.Errorf("duplicate sessionId %q", s.SessionID)
		}
		// Possible only with both key rules: "con" (an earlier version's)
		// beside "con-" (this one's), one branch with two sessions.
		if branches[s.GitBranch] {
			return fmt.Errorf("duplicate gitBranch %q", s.GitBranch)
		}
		seen[s.SessionID], branches[s.GitBranch] = true, true
	}
	return nil
}

// Validate checks one entry.
func (s *Session) Validate() error {
	if err := CheckKey(s.SessionID); err != nil {
		return err
	}
	if s.Branch != s.SessionID {
		return fmt.Errorf("branch %q differs from sessionId", s.Branch)
	}
	if s.GitBranch == "" || !slices.Contains(Keys(s.GitBranch), s.SessionID) {
		return fmt.Errorf("gitBranch %q does not map to sessionId %q", s.GitBranch, s.SessionID)
	}
	for _, f := range [...]struct{ name, v string }{
		{"gitBranch", s.GitBranch}, {"command", s.Command}, {"description", s.Description},
		{"phaseLabel", Deref(s.PhaseLabel)}, {"planFile", Deref(s.PlanFile)}, {"scope", s.Scope},
	} {
		if err := textin.SingleLine(f.name, f.v); err != nil {
			return err
		}
	}
	if s.Command == "" {
		return errors.New("command is empty")
	}
	if n := utf8.RuneCountInString(s.Description); n > MaxDescription {
		return fmt.Errorf("description is %d characters; the limit is %d", n, MaxDescription)
	}
	if !slices.Contains(Statuses, s.Status) {
		return fmt.Errorf("status %q is not one of %s", s.Status, strings.Join(Statuses, ", "))
	}
	if s.TotalPhases < 1 {
		return fmt.Errorf("totalPhases %d is below 1", s.TotalPhases)
	}
	if !s.Phase.Done && (s.Phase.N < 1 || s.Phase.N > s.TotalPhases) {
		return fmt.Errorf("phase %d is outside 1..%d", s.Phase.N, s.TotalPhases)
	}
	if s.JiraTicket != nil && !JiraKey.MatchString(*s.JiraTicket) {
		return fmt.Errorf("jiraTicket %q is not a Jira key", *s.JiraTicket)
	}
	urls := make(map[string]bool, len(s.LinkedPRs))
	for _, pr := range s.LinkedPRs {
		if pr.Repo == "" || pr.URL == "" {
			return errors.New("a linked PR lacks repo or url")
		}
		if urls[pr.URL] {
			return fmt.Errorf("PR %s is linked twice", pr.URL)
		}
		urls[pr.URL] = true
	}
	for _, f := range [...]struct{ name, v string }{{"startedAt", s.StartedAt}, {"updatedAt", s.UpdatedAt}} {
		if !IsTime(f.v) {
			return fmt.Errorf("%s %q is not a UTC time like 2026-01-02T15:04:05Z", f.name, f.v)
		}
	}
	if s.Scope != "" && s.Scope != ScopeWorkspace {
		return fmt.Errorf("scope %q is not workspace", s.Scope)
	}
	for _, r := range s.Repos {
		if r == "" {
			return errors.New("repos has an empty name")
		}
	}
	if s.Gate != nil {
		for _, v := range s.Gate.Verdicts {
			if !slices.Contains(Verdicts, v.Verdict) {
				return fmt.Errorf("gate verdict %q is not approved or changes_requested", v.Verdict)
			}
		}
	}
	return s.checkLines()
}

// checkLines holds every other text field of the entry, the ones the
// verbs that set them (link-pr, repo set, gate record, init --repos)
// refuse at input, to the one-line rule as well, so that an entry from any
// source (a hand edit, a pulled state) obeys it too.
func (s *Session) checkLines() error {
	for _, r := range s.Repos {
		if err := textin.SingleLine("a repos name", r); err != nil {
			return err
		}
	}
	for _, pr := range s.LinkedPRs {
		for _, f := range [...]struct{ name, v string }{{"a linked PR's repo", pr.Repo}, {"a linked PR's url", pr.URL},
			{"a linked PR's stackId", Deref(pr.StackID)}, {"a linked PR's stackedOn", Deref(pr.StackedOn)}} {
			if err := textin.SingleLine(f.name, f.v); err != nil {
				return err
			}
		}
	}
	for name, r := range s.PerRepoState {
		for _, f := range [...]struct{ name, v string }{{"a perRepoState name", name}, {"perRepoState repoPath", r.RepoPath},
			{"perRepoState branch", r.Branch}, {"perRepoState worktree", r.Worktree}, {"perRepoState prUrl", Deref(r.PRURL)}} {
			if err := textin.SingleLine(f.name, f.v); err != nil {
				return err
			}
		}
	}
	if s.Gate != nil {
		for _, v := range s.Gate.Verdicts {
			if err := textin.SingleLine("a gate verdict's reviewer", v.Reviewer); err != nil {
				return err
			}
			if err := textin.SingleLine("a gate verdict's note", v.Note); err != nil {
				return err
			}
		}
	}
	return nil
}
