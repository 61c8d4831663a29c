// Package binding owns .orc/worktrees.json (schema 1): which linked
// worktree of the repository works on which session, and as which agent
// (docs/protocol.md §2, §3). A session verb run in a bound worktree acts on
// the bound session without a flag; its slice claims default to the
// binding's agent.
//
// Everything here is a pure function over bytes; the caller locks, reads,
// calls Parse, changes the File, writes Marshal's output atomically and
// journals the change in the bound session's journal.
//
// Format:
//
//	{"schema": 1, "worktrees": [{"path": "ROOT",
//	  "gitDir": "GITDIR", "session": "SESSION",
//	  "agent": "AGENT", "boundAt": "UTC", "gitDirMade": "UTC"}]}
//
// A worktree is known by its git dir (<common dir>/worktrees/<name>, what
// its .git file names), which is what a process inside it finds without
// running git, and by its root, which tells a binding apart from a later
// worktree that reuses the name. path and gitDir are absolute, clean and
// each bound at most once; agent is optional (absent: the agent id a
// process picks by itself) and unique among one session's bindings, so no
// two worktrees hold each other's claims. Entries are kept sorted by path.
// Parse is strict: duplicate keys, unknown fields, a missing schema or
// worktrees array, schema above 1, or a field breaking the rules above
// make an *InvalidError (Newer() for a newer schema).
package binding

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"time"

	"github.com/orc-state/orc-state/internal/schemaver"
	"github.com/orc-state/orc-state/internal/strictjson"
	"github.com/orc-state/orc-state/internal/textin"
	"github.com/orc-state/orc-state/registry"
	"github.com/orc-state/orc-state/slices"
)

// FileName is the file's name at the top of the state dir.
const FileName = "worktrees.json"

// Schema is the format version this build reads and writes.
const Schema = 1

// TimeLayout is the format of boundAt: UTC, whole seconds.
const TimeLayout = "2006-01-02T15:04:05Z"

// MaxPath bounds path and gitDir, in bytes.
const MaxPath = 4096

// File is worktrees.json.
type File struct {
	Schema    int       `json:"schema"`
	Worktrees []Binding `json:"worktrees"`
}

// Binding is one bound worktree.
type Binding struct {
	Path    string `json:"path"`
	GitDir  string `json:"gitDir"`
	Session string `json:"session"`
	Agent   string `json:"agent,omitempty"`
	BoundAt string `json:"boundAt"`
	// GitDirMade is when git made the worktree's git dir: the
	// modification time of <gitDir>/commondir, which git writes once, when
	// it adds the worktree (UTC, RFC 3339 with nanoseconds). A worktree
	// removed and added again at the same path has the same gitDir and
	// path but another time, and is not bound. Absent (bindings written
	// before it): gitDir and path alone decide.
	GitDirMade string `json:"gitDirMade,omitempty"`
}

// InvalidError is a worktrees.json that cannot be trusted (Name
// FileName): the one shape every format returns.
type InvalidError = schemaver.InvalidError

func invalid(format string, args ...any) *InvalidError {
	return &InvalidError{Name: FileName, Fault: fmt.Sprintf(format, args...)}
}

// Parse reads worktrees.json strictly. Empty data (no file yet) is an
// empty File.
func Parse(data []byte) (*File, error) {
	if len(bytes.TrimSpace(data)) == 0 {
		return &File{Schema: Schema}, nil
	}
	if err := strictjson.Check(data); err != nil {
		return nil, invalid("%s", err)
	}
	if bytes.TrimSpace(data)[0] != '{' {
		return nil, invalid("the top level is not a JSON object")
	}
	var probe struct {
		Schema    json.RawMessage `json:"schema"`
		Worktrees json.RawMessage `json:"worktrees"`
	}
	_ = json.Unmarshal(data, &probe)
	_, schemaErr := schemaver.ProbeValue(probe.Schema, Schema)
	if schemaErr != nil && schemaErr.Kind == schemaver.Newer {
		return nil, schemaErr.Invalid(FileName)
	}
	var wire struct {
		Schema    int `json:"schema"`
		Worktrees []struct {
			Path    string  `json:"path"`
			GitDir  string  `json:"gitDir"`
			Session string  `json:"session"`
			Agent   *string `json:"agent"` // absent is no agent; "" is refused
			BoundAt string  `json:"boundAt"`
			Made    *string `json:"gitDirMade"` // absent: written before it; "" is refused
		} `json:"worktrees"`
	}
	if err := strictjson.Decode(data, &wire); err != nil {
		return nil, invalid("%s", err)
	}
	f := File{Schema: wire.Schema, Worktrees: []Binding{}}
	for i, w := range wire.Worktrees {
		if w.Agent != nil && *w.Agent == "" {
			return nil, invalid("worktrees[%d]: agent is empty (leave it out for none)", i)
		}
		b := Binding{Path: w.Path, GitDir: w.GitDir, Session: w.Session, BoundAt: w.BoundAt}
		if w.Agent != nil {
			b.Agent = *w.Agent
		}
		if w.Made != nil {
			if *w.Made == "" {
				return nil, invalid("worktrees[%d]: gitDirMade is empty (leave it out when unknown)", i)
			}
			b.GitDirMade = *w.Made
		}
		f.Worktrees = append(f.Worktrees, b)
	}
	if schemaErr != nil && schemaErr.Kind == schemaver.Missing {
		return nil, invalid("no schema field")
	}
	if len(probe.Worktrees) == 0 || string(probe.Worktrees) == "null" {
		return nil, invalid("no worktrees array")
	}
	if err := f.Validate(); err != nil {
		return nil, invalid("%s", err)
	}
	return &f, nil
}

// Loose decodes worktrees.json without validating it, for displays (line,
// the statusline) that show what they can and never fail: nil when the
// bytes are no such document.
func Loose(data []byte) []Binding {
	var f File
	if json.Unmarshal(data, &f) != nil {
		return nil
	}
	return f.Worktrees
}

// Validate checks the schema and every binding.
func (f *File) Validate() error {
	if f.Schema != Schema {
		return fmt.Errorf("schema is %d; expected %d", f.Schema, Schema)
	}
	paths, dirs, agents := map[string]bool{}, map[string]bool{}, map[[2]string]bool{}
	for i, b := range f.Worktrees {
		if err := b.Check(); err != nil {
			return fmt.Errorf("worktrees[%d]: %w", i, err)
		}
		if paths[b.Path] {
			return fmt.Errorf("worktrees[%d]: path %q is bound twice", i, b.Path)
		}
		if dirs[b.GitDir] {
			return fmt.Errorf("worktrees[%d]: gitDir %q is bound twice", i, b.GitDir)
		}
		if b.Agent != "" && agents[[2]string{b.Session, b.Agent}] {
			return fmt.Errorf("worktrees[%d]: agent %q is bound twice in session %s", i, b.Agent, b.Session)
		}
		paths[b.Path], dirs[b.GitDir], agents[[2]string{b.Session, b.Agent}] = true, true, true
	}
	return nil
}

// Check refuses a binding that breaks a field's rule.
func (b Binding) Check() error {
	for _, p := range [][2]string{{"path", b.Path}, {"gitDir", b.GitDir}} {
		if err := CheckPath(p[0], p[1]); err != nil {
			return err
		}
	}
	if err := registry.CheckKey(b.Session); err != nil {
		return fmt.Errorf("session: %w", err)
	}
	if b.Agent != "" {
		if err := slices.CheckAgent(b.Agent); err != nil {
			return fmt.Errorf("agent: %w", err)
		}
	}
	if t, err := time.Parse(TimeLayout, b.BoundAt); err != nil || t.Format(TimeLayout) != b.BoundAt {
		return fmt.Errorf("boundAt %q is not a UTC time like 2026-01-02T15:04:05Z", b.BoundAt)
	}
	if b.GitDirMade != "" {
		if t, err := time.Parse(time.RFC3339Nano, b.GitDirMade); err != nil || t.UTC().Format(time.RFC3339Nano) != b.GitDirMade {
			return fmt.Errorf("gitDirMade %q is not a UTC time like 2026-01-02T15:04:05.123456789Z", b.GitDirMade)
		}
	}
	return nil
}

// MadeAt is what GitDirMade records for the worktree whose git dir is
// gitDir now: "" when git's commondir file cannot be read.
func MadeAt(gitDir string) string {
	fi, err := os.Stat(filepath.Join(gitDir, "commondir"))
	if err != nil {
		return ""
	}
	return fi.ModTime().UTC().Format(time.RFC3339Nano)
}

// Names reports whether b binds the worktree whose root is root and whose
// git dir is gitDir, made at made (MadeAt): the same git dir and root,
// and, when b recorded one, the same making (a worktree removed and added
// again at the same path is another worktree). sameDir compares folders
// as the platform does.
func (b Binding) Names(gitDir, root, made string, sameDir func(a, b string) bool) bool {
	return sameDir(b.GitDir, gitDir) && sameDir(b.Path, root) && (b.GitDirMade == "" || b.GitDirMade == made)
}

// CheckPath refuses a path that is not absolute, clean and one line.
func CheckPath(field, p string) error {
	switch {
	case p == "":
		return fmt.Errorf("%s is empty", field)
	case len(p) > MaxPath:
		return fmt.Errorf("%s is %d bytes; the limit is %d", field, len(p), MaxPath)
	}
	if err := textin.SingleLine(field, p); err != nil {
		return err
	}
	if !filepath.IsAbs(p) || filepath.Clean(p) != p {
		return fmt.Errorf("%s %q is not an absolute, clean path", field, p)
	}
	return nil
}

// Marshal renders the file: entries sorted by path, two-space indent, a
// final newline.
func (f *File) Marshal() []byte {
	out := File{Schema: Schema, Worktrees: append([]Binding{}, f.Worktrees...)}
	sort.Slice(out.Worktrees, func(i, j int) bool { return out.Worktrees[i].Path < out.Worktrees[j].Path })
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	_ = enc.Encode(out) // strings and ints only: it cannot fail
	return buf.Bytes()
}

// ByGitDir returns the binding of the worktree whose git dir is gitDir,
// or nil.
func (f *File) ByGitDir(gitDir string) *Binding {
	return find(f.Worktrees, gitDir)
}

// find is ByGitDir over a list (Loose's too).
func find(list []Binding, gitDir string) *Binding {
	gitDir = filepath.Clean(gitDir)
	for i := range list {
		if list[i].GitDir == gitDir {
			return &list[i]
		}
	}
	return nil
}

// Find returns the binding in list whose git dir is gitDir, or nil.
func Find(list []Binding, gitDir string) *Binding { return find(list, gitDir) }

// Put records b, replacing any binding of the same worktree (same gitDir)
// or of the same path (a worktree that was removed and added again); it
// returns the bindings it replaced.
func (f *File) Put(b Binding) (replaced []Binding) {
	kept := f.Worktrees[:0:0]
	for _, old := range f.Worktrees {
		if old.GitDir == b.GitDir || old.Path == b.Path {
			replaced = append(replaced, old)
			continue
		}
		kept = append(kept, old)
	}
	f.Worktrees = append(kept, b)
	return replaced
}

// Remove drops the binding of the worktree at path; ok is false when
// there is none.
func (f *File) Remove(path string) (removed Binding, ok bool) {
	for i, b := range f.Worktrees {
		if b.Path == path {
			f.Worktrees = append(f.Worktrees[:i:i], f.Worktrees[i+1:]...)
			return b, true
		}
	}
	return Binding{}, false
}

// RemoveSessions drops every binding to one of the sessions ids and
// returns them.
func (f *File) RemoveSessions(ids ...string) (removed []Binding) {
	drop := map[string]bool{}
	for _, id := range ids {
		drop[id] = true
	}
	kept := f.Worktrees[:0:0]
	for _, b := range f.Worktrees {
		if drop[b.Session] {
			removed = append(removed, b)
			continue
		}
		kept = append(kept, b)
	}
	f.Worktrees = kept
	return removed
}

// AgentHolder returns the binding other than the one of gitDir that binds
// agent in session, or nil.
func (f *File) AgentHolder(session, agent, gitDir string) *Binding {
	for i, b := range f.Worktrees {
		if agent != "" && b.Session == session && b.Agent == agent && b.GitDir != gitDir {
			return &f.Worktrees[i]
		}
	}
	return nil
}

// Of returns the bindings to session, sorted by path.
func (f *File) Of(session string) []Binding {
	var out []Binding
	for _, b := range f.Worktrees {
		if b.Session == session {
			out = append(out, b)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Path < out[j].Path })
	return out
}
