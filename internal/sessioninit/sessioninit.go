// Package sessioninit owns what init does inside the one transaction:
// registering a branch's session (its entry, first phase and defaults),
// or updating only the fields passed on the session a selector names,
// and the refusals before and under the lock that keep one session per
// branch. The CLI's init parses its flags into Fields, calls Run.Init and
// prints the sessionId.
package sessioninit

import (
	"unicode/utf8"

	"github.com/orc-state/orc-state/internal/fault"
	"github.com/orc-state/orc-state/internal/safetext"
	"github.com/orc-state/orc-state/internal/selection"
	"github.com/orc-state/orc-state/internal/state"
	"github.com/orc-state/orc-state/internal/textin"
	"github.com/orc-state/orc-state/internal/verify"
	"github.com/orc-state/orc-state/registry"
)

// Fields are init's flags, nil (or empty) when not passed; the journal
// keeps them as the change's arguments, by these names.
type Fields struct {
	Command     *string  `json:"command,omitempty"`
	TotalPhases *int     `json:"totalPhases,omitempty"`
	Description *string  `json:"description,omitempty"`
	Jira        *string  `json:"jira,omitempty"`
	Scope       *string  `json:"scope,omitempty"`
	Repos       []string `json:"repos,omitempty"`
	PlanFile    *string  `json:"planFile,omitempty"`
}

// Run is what init needs of the run: how a key names a session (Where,
// whose Flag is the verb's --session), the recorded time, and the one
// transaction with the verb's options.
type Run struct {
	Where  selection.Where
	Stamp  func() string // the run's recorded time, as timestamps are written
	Update func(fn func(tx *state.Tx) error) error
}

// Result is what init did: the session's id, whether it was registered
// now, and its status as on disk after the write ("" when unread).
type Result struct {
	ID      string
	Created bool
	Status  string
}

// Init registers the session of branch (the current branch when ""), or
// updates only the fields passed on the session the selector names (the
// branch's own session, or --session S; a session of another branch is
// never updated). A branch without a session while $ORC_SESSION or the
// worktree's binding selects another one is refused: a second session
// would split the work.
func (r Run) Init(branch string, f Fields) (Result, error) {
	ch, err := r.Where.Named(branch) // init registers a branch: never $ORC_SESSION's or the binding's session
	if err != nil {
		return Result{}, err
	}
	if err := f.Check(); err != nil {
		return Result{}, err
	}
	var elsewhere selection.Choice // the session $ORC_SESSION or the binding selects here
	if branch == "" && r.Where.Flag == "" {
		if elsewhere, _, err = r.Where.Implicit(); err != nil {
			return Result{}, err
		}
	}
	var res Result
	ch.IsBranch = true // init registers the branch it is given, never another one's session
	err = r.Update(func(tx *state.Tx) error {
		res = Result{}
		return r.apply(tx, ch, elsewhere, f, &res)
	})
	if err != nil {
		return Result{}, err
	}
	if !res.Created {
		if s := r.reread(res.ID); s != nil {
			res.Status = s.Status
		}
	}
	return res, nil
}

// apply is init under the lock: find or register the entry, set the
// fields passed, and save it when it changed.
func (r Run) apply(tx *state.Tx, ch selection.Choice, elsewhere selection.Choice, f Fields, res *Result) error {
	s, err := ch.Find(tx.Reg)
	switch {
	case err == nil:
	case ch.ID != "" && fault.Code(err) == fault.NotFound:
		return fault.Usagef("no session %q to update; a new session is registered for a branch", ch.ID).
			WithHint("orc-state init --branch B --command C --total-phases N")
	case fault.Code(err) != fault.NotFound:
		other := selection.Collision(tx.Reg, ch.Branch)
		if other == nil {
			return err
		}
		return fault.Usagef("branch %q maps to session %q, which belongs to branch %q", ch.Branch, other.SessionID, other.GitBranch).
			WithHint("rename the branch, or remove the other session with orc-state session remove (archived first: orc-state session restore brings it back)")
	}
	branch := ch.Branch
	if s != nil {
		branch, res.ID = s.GitBranch, s.SessionID
	} else if res.ID, err = registry.KeyFor(branch); err != nil {
		return fault.Usagef("%v", err)
	}
	if s == nil && elsewhere.ID != "" {
		return fault.Usagef("branch %s has no session, and %s selects session %s here: a second session would split the work", branch, elsewhere.Via, elsewhere.ID).
			WithHint("update that one with --session=%s; to register the branch's own anyway, pass --branch=%s (in a bound worktree run orc-state worktree leave first)", safetext.Quote(elsewhere.ID), safetext.Quote(branch))
	}
	if s == nil {
		if missing := f.MissingForNew(); missing != "" {
			return fault.Usagef("branch %s has no session yet; registering one needs %s", branch, missing).
				WithHint("orc-state init --command C --total-phases N")
		}
		fresh := New(res.ID, branch, r.Stamp())
		if err := verify.Addable(tx, &fresh); err != nil {
			return err
		}
		res.Created = true
		tx.Reg.Sessions = append(tx.Reg.Sessions, fresh)
		s = &tx.Reg.Sessions[len(tx.Reg.Sessions)-1]
	}
	before := string(s.Canonical())
	if !res.Created {
		tx.NoteOriginal(s)
	}
	f.Apply(s)
	if !s.Phase.Done && s.Phase.N > s.TotalPhases {
		return fault.Usagef("the session is at phase %d; --total-phases %d would leave it out of range", s.Phase.N, s.TotalPhases).
			WithHint("pass --total-phases ≥ %d, or run orc-state phase set first", s.Phase.N)
	}
	if !res.Created && string(s.Canonical()) == before {
		return nil
	}
	return selection.Save(tx, s, f)
}

// New is the entry a new session of branch starts as, keyed id, at now:
// in progress at phase 1, labelled init, with no pull requests.
func New(id, branch, now string) registry.Session {
	return registry.Session{
		SessionID: id, Branch: id, GitBranch: branch, Status: "in_progress",
		Phase: registry.Phase{N: 1}, PhaseLabel: registry.Str("init"),
		LinkedPRs: []registry.PR{}, StartedAt: now, UpdatedAt: now,
	}
}

// reread returns the entry as now on disk (after a write), or nil.
func (r Run) reread(id string) *registry.Session {
	d, err := r.Where.Dir()
	if err != nil {
		return nil
	}
	reg, _, err := d.ReadRegistry()
	if err != nil {
		return nil
	}
	return reg.Find(id)
}

// MissingForNew names the flags a new session cannot do without.
func (f Fields) MissingForNew() string {
	switch {
	case f.Command == nil && f.TotalPhases == nil:
		return "--command and --total-phases"
	case f.Command == nil:
		return "--command"
	case f.TotalPhases == nil:
		return "--total-phases"
	}
	return ""
}

// Check refuses, before any lock, a value no session could keep.
func (f Fields) Check() error {
	if f.TotalPhases != nil && *f.TotalPhases < 1 {
		return fault.Usagef("--total-phases %d is below 1", *f.TotalPhases)
	}
	for name, v := range map[string]string{"--command": registry.Deref(f.Command), "--description": registry.Deref(f.Description), "--plan-file": registry.Deref(f.PlanFile)} {
		if err := textin.SingleLine(name, v); err != nil {
			return fault.Usagef("%v", err)
		}
	}
	if f.Command != nil && *f.Command == "" {
		return fault.Usagef("--command is empty")
	}
	if f.Description != nil && utf8.RuneCountInString(*f.Description) > registry.MaxDescription {
		return fault.Usagef("--description is %d characters; the limit is %d", utf8.RuneCountInString(*f.Description), registry.MaxDescription)
	}
	if f.Jira != nil && !registry.JiraKey.MatchString(*f.Jira) {
		return fault.Usagef("--jira %q is not a Jira key like ABC-123", *f.Jira)
	}
	for _, r := range f.Repos {
		if r == "" {
			return fault.Usagef("--repos has an empty name")
		}
		if err := textin.SingleLine("--repos", r); err != nil {
			return fault.Usagef("%v", err)
		}
	}
	if len(f.Repos) > 0 && registry.Deref(f.Scope) != registry.ScopeWorkspace {
		return fault.Usagef("--repos needs --scope workspace")
	}
	return nil
}

// Apply sets what was passed and nothing else.
func (f Fields) Apply(s *registry.Session) {
	if f.Command != nil {
		s.Command = *f.Command
	}
	if f.TotalPhases != nil {
		s.TotalPhases = *f.TotalPhases
	}
	if f.Description != nil {
		s.Description = *f.Description
	}
	if f.Jira != nil {
		s.JiraTicket = registry.Str(*f.Jira)
	}
	if f.Scope != nil && *f.Scope != "" {
		s.Scope = *f.Scope
	}
	if len(f.Repos) > 0 {
		s.Repos = f.Repos
	}
	if f.PlanFile != nil {
		s.PlanFile = registry.Str(*f.PlanFile)
	}
}
