package cli

import (
	"fmt"
	"unicode/utf8"

	"github.com/orc-state/orc-state/internal/fault"
	"github.com/orc-state/orc-state/internal/safetext"
	"github.com/orc-state/orc-state/internal/selection"
	"github.com/orc-state/orc-state/internal/state"
	"github.com/orc-state/orc-state/internal/textin"
	"github.com/orc-state/orc-state/internal/verify"
	"github.com/orc-state/orc-state/registry"
)

// InitCmd is `init`.
type InitCmd struct {
	BranchFlag  `json:"-"`
	Command     *string  `help:"The owning slash command (flow, plan, debug, ...); required for a new session." placeholder:"C" json:"command,omitempty"`
	TotalPhases *int     `name:"total-phases" help:"Number of phases (≥ 1); required for a new session." placeholder:"N" json:"totalPhases,omitempty"`
	Description *string  `help:"Description, at most 120 characters." json:"description,omitempty"`
	Jira        *string  `help:"Jira key (e.g. ABC-123)." placeholder:"KEY" json:"jira,omitempty"`
	Scope       *string  `enum:"${scope_workspace}," default:"" help:"Scope: ${scope_workspace} for a session spanning repositories." json:"scope,omitempty"`
	Repos       []string `sep:"," help:"Member repositories (with --scope workspace)." json:"repos,omitempty"`
	PlanFile    *string  `name:"plan-file" help:"Plan file the session follows." placeholder:"P" json:"planFile,omitempty"`
}

// Run registers the branch's session, or updates only the flags passed on
// the session the selector names (the branch's own session, or --session S;
// a session of another branch is never updated).
func (c *InitCmd) Run(e *Env) error {
	ch, err := e.where().Named(c.Branch) // init registers a branch: never $ORC_SESSION's or the binding's session
	if err != nil {
		return err
	}
	if err := c.check(); err != nil {
		return err
	}
	var elsewhere choice // the session $ORC_SESSION or the binding selects here
	if c.Branch == "" && e.sessionFlag == "" {
		if elsewhere, _, err = e.where().Implicit(); err != nil {
			return err
		}
	}
	var created bool
	var id string
	ch.IsBranch = true // init registers the branch it is given, never another one's session
	err = e.Update(func(tx *state.Tx) error {
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
			branch, id = s.GitBranch, s.SessionID
		} else if id, err = registry.KeyFor(branch); err != nil {
			return fault.Usagef("%v", err)
		}
		if s == nil && elsewhere.ID != "" {
			return fault.Usagef("branch %s has no session, and %s selects session %s here: a second session would split the work", branch, elsewhere.Via, elsewhere.ID).
				WithHint("update that one with --session=%s; to register the branch's own anyway, pass --branch=%s (in a bound worktree run orc-state worktree leave first)", safetext.Quote(elsewhere.ID), safetext.Quote(branch))
		}
		if s == nil {
			if missing := c.missingForNew(); missing != "" {
				return fault.Usagef("branch %s has no session yet; registering one needs %s", branch, missing).
					WithHint("orc-state init --command C --total-phases N")
			}
			now := e.stamp()
			fresh := registry.Session{
				SessionID: id, Branch: id, GitBranch: branch, Status: "in_progress",
				Phase: registry.Phase{N: 1}, PhaseLabel: registry.Str("init"),
				LinkedPRs: []registry.PR{}, StartedAt: now, UpdatedAt: now,
			}
			if err := verify.Addable(tx, &fresh); err != nil {
				return err
			}
			created = true
			tx.Reg.Sessions = append(tx.Reg.Sessions, fresh)
			s = &tx.Reg.Sessions[len(tx.Reg.Sessions)-1]
		}
		before := string(s.Canonical())
		if !created {
			tx.NoteOriginal(s)
		}
		c.apply(s)
		if !s.Phase.Done && s.Phase.N > s.TotalPhases {
			return fault.Usagef("the session is at phase %d; --total-phases %d would leave it out of range", s.Phase.N, s.TotalPhases).
				WithHint("pass --total-phases ≥ %d, or run orc-state phase set first", s.Phase.N)
		}
		if !created && string(s.Canonical()) == before {
			return nil
		}
		return selection.Save(tx, s, c)
	})
	if err != nil {
		return err
	}
	if !created {
		if s := e.reread(id); s != nil && s.Status != "in_progress" {
			e.warn("session %s is %s; run orc-state status set in_progress to reopen it", id, s.Status)
		}
	}
	fmt.Fprintln(e.Stdout, id)
	return nil
}

// missingForNew names the flags a new session cannot do without.
func (c *InitCmd) missingForNew() string {
	switch {
	case c.Command == nil && c.TotalPhases == nil:
		return "--command and --total-phases"
	case c.Command == nil:
		return "--command"
	case c.TotalPhases == nil:
		return "--total-phases"
	}
	return ""
}

func (c *InitCmd) check() error {
	if c.TotalPhases != nil && *c.TotalPhases < 1 {
		return fault.Usagef("--total-phases %d is below 1", *c.TotalPhases)
	}
	for name, v := range map[string]string{"--command": registry.Deref(c.Command), "--description": registry.Deref(c.Description), "--plan-file": registry.Deref(c.PlanFile)} {
		if err := textin.SingleLine(name, v); err != nil {
			return fault.Usagef("%v", err)
		}
	}
	if c.Command != nil && *c.Command == "" {
		return fault.Usagef("--command is empty")
	}
	if c.Description != nil && utf8.RuneCountInString(*c.Description) > registry.MaxDescription {
		return fault.Usagef("--description is %d characters; the limit is %d", utf8.RuneCountInString(*c.Description), registry.MaxDescription)
	}
	if c.Jira != nil && !registry.JiraKey.MatchString(*c.Jira) {
		return fault.Usagef("--jira %q is not a Jira key like ABC-123", *c.Jira)
	}
	for _, r := range c.Repos {
		if r == "" {
			return fault.Usagef("--repos has an empty name")
		}
		if err := textin.SingleLine("--repos", r); err != nil {
			return fault.Usagef("%v", err)
		}
	}
	if len(c.Repos) > 0 && registry.Deref(c.Scope) != registry.ScopeWorkspace {
		return fault.Usagef("--repos needs --scope workspace")
	}
	return nil
}

// apply sets what was passed and nothing else.
func (c *InitCmd) apply(s *registry.Session) {
	if c.Command != nil {
		s.Command = *c.Command
	}
	if c.TotalPhases != nil {
		s.TotalPhases = *c.TotalPhases
	}
	if c.Description != nil {
		s.Description = *c.Description
	}
	if c.Jira != nil {
		s.JiraTicket = registry.Str(*c.Jira)
	}
	if c.Scope != nil && *c.Scope != "" {
		s.Scope = *c.Scope
	}
	if len(c.Repos) > 0 {
		s.Repos = c.Repos
	}
	if c.PlanFile != nil {
		s.PlanFile = registry.Str(*c.PlanFile)
	}
}

// reread returns the entry as now on disk (after a write), or nil.
func (e *Env) reread(id string) *registry.Session {
	d, err := e.Dir()
	if err != nil {
		return nil
	}
	reg, _, err := d.ReadRegistry()
	if err != nil {
		return nil
	}
	return reg.Find(id)
}
