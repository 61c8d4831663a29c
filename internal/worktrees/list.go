package worktrees

// The rows of worktree list: git's worktrees joined with the bindings and
// the sessions, and the bindings whose worktree git no longer lists.

import (
	"strings"
	"time"

	"github.com/orc-state/orc-state/internal/binding"
	"github.com/orc-state/orc-state/internal/fault"
	"github.com/orc-state/orc-state/internal/gitx"
	"github.com/orc-state/orc-state/internal/safetext"
	"github.com/orc-state/orc-state/internal/selection"
	"github.com/orc-state/orc-state/internal/state"
	"github.com/orc-state/orc-state/internal/verify"
	"github.com/orc-state/orc-state/registry"
	"github.com/orc-state/orc-state/slices"
)

// Row is one worktree as `worktree list` shows it (its --json object).
type Row struct {
	Path     string `json:"path"`
	Branch   string `json:"branch"` // "" when detached
	Detached bool   `json:"detached,omitempty"`
	Main     bool   `json:"main,omitempty"`
	// Session is the session verbs select there: the bound one, else
	// the branch's own; "" for none.
	Session string `json:"session"`
	Bound   bool   `json:"bound"`
	// Agent is the bound agent id; "" when the binding names none (the
	// agent id is then $ORC_ACTOR's, else the worktree's path).
	Agent  string   `json:"agent"`
	Claims []string `json:"claims"` // live claims of the worktree's agent (bound, else its path)
	Gone   bool     `json:"gone,omitempty"`
	// Foreign: the binding names a worktree of another repository
	// (doctor's worktree.foreign), listed with the gone ones.
	Foreign bool `json:"foreign,omitempty"`
}

// List is the repository's worktrees (git's list, read by hand) with the
// session each selects, its bound agent and the slices that agent holds
// live at now; a binding whose worktree is gone is listed last, marked
// gone (or, naming another repository's worktree, foreign, as doctor
// says). Read without a lock.
func List(d *state.Dir, now time.Time) ([]Row, error) {
	if d.Git == nil {
		return nil, fault.Usagef("not inside a git repository").WithHint("run orc-state worktree list inside the repository")
	}
	trees, err := d.Git.Worktrees()
	if err != nil {
		return nil, fault.Wrap(fault.Invalid, err, "cannot list the worktrees")
	}
	reg, _, err := d.ReadRegistry()
	if err != nil {
		return nil, err
	}
	f, err := selection.ReadBindings(d)
	if err != nil {
		return nil, err
	}
	return rows(d, reg, f, trees, now), nil
}

// Bound is the row of the worktree l as List shows it; nil when git lists
// it no more (or as gone).
func Bound(d *state.Dir, l gitx.Layout, now time.Time) (*Row, error) {
	reg, _, err := d.ReadRegistry()
	if err != nil {
		return nil, err
	}
	f, err := selection.ReadBindings(d)
	if err != nil {
		return nil, err
	}
	trees, err := l.Worktrees()
	if err != nil {
		return nil, fault.Wrap(fault.Invalid, err, "cannot list the worktrees")
	}
	for _, r := range rows(d, reg, f, trees, now) {
		if gitx.SameDir(r.Path, l.WorktreeRoot) && !r.Gone {
			return &r, nil
		}
	}
	return nil, nil
}

// rows joins git's worktrees with the bindings and the sessions.
func rows(d *state.Dir, reg *registry.Registry, f *binding.File, trees []gitx.Worktree, now time.Time) []Row {
	out := []Row{}
	used := map[string]bool{} // the gitDirs of bindings shown
	ledgers := map[string]*slices.Ledger{}
	for _, w := range trees {
		if w.Missing && w.Path == "" {
			continue
		}
		r := Row{Path: w.Path, Branch: w.Branch, Detached: w.Detached, Main: w.Main}
		agent := w.Path
		if b := f.ByGitDir(w.GitDir); b != nil && !w.Main && b.Names(w.GitDir, w.Path, binding.MadeAt(w.GitDir), gitx.SameDir) {
			used[b.GitDir] = true
			r.Session, r.Bound, r.Agent = b.Session, true, b.Agent
			if b.Agent != "" {
				agent = b.Agent
			}
		} else if s := reg.ForBranch(w.Branch); s != nil && w.Branch != "" {
			r.Session = s.SessionID
		}
		r.Gone = w.Missing
		r.Claims = heldBy(d, ledgers, r.Session, agent, now)
		out = append(out, r)
	}
	for _, b := range f.Worktrees {
		if !used[b.GitDir] {
			agent := b.Agent
			if agent == "" {
				agent = b.Path
			}
			foreign := verify.Foreign(d, b)
			out = append(out, Row{Path: b.Path, Session: b.Session, Bound: true, Agent: b.Agent, Gone: !foreign, Foreign: foreign,
				Claims: heldBy(d, ledgers, b.Session, agent, now)})
		}
	}
	return out
}

// heldBy lists the slices of session's ledger that agent holds live at now.
func heldBy(d *state.Dir, cache map[string]*slices.Ledger, session, agent string, now time.Time) []string {
	ids := []string{}
	if session == "" || registry.CheckKey(session) != nil {
		return ids
	}
	l, seen := cache[session]
	if !seen {
		if data, err := d.ReadFile(session, state.LedgerFile); err == nil && data != nil {
			l, _ = slices.Parse(data)
		}
		cache[session] = l
	}
	if l == nil {
		return ids
	}
	for _, h := range l.Holdings(now) {
		if h.By == agent {
			ids = append(ids, h.ID)
		}
	}
	return ids
}

// Text is the row as TSV: path, branch ((detached), (gone) for a binding
// whose worktree is gone, (other repository) for a binding to another
// repository's worktree), session (with "(branch)" when the branch's own
// selects it rather than a binding), agent, claims; "-" for nothing.
func (r Row) Text() string {
	dash := func(s string) string {
		if s == "" {
			return "-"
		}
		return safetext.Escape(s)
	}
	branch := r.Branch
	switch {
	case r.Foreign:
		branch = "(other repository)"
	case r.Gone:
		branch = "(gone)"
	case r.Detached:
		branch = "(detached)"
	}
	session := r.Session
	if session != "" && !r.Bound {
		session += " (branch)"
	}
	return strings.Join([]string{dash(r.Path), dash(branch), dash(session), dash(r.Agent), dash(strings.Join(r.Claims, ","))}, "\t")
}
