package cli

import (
	"net/url"

	"github.com/orc-state/orc-state/internal/fault"
	"github.com/orc-state/orc-state/internal/state"
	"github.com/orc-state/orc-state/registry"
)

// Run sets the phase (and label).
func (c *PhaseSetCmd) Run(e *Env) error {
	p, err := registry.ParsePhase(c.Phase)
	if err != nil {
		return fault.Usagef("%v", err).WithHint("pass done or a number between 1 and the session's totalPhases")
	}
	if err := registry.SingleLine("--label", c.Label); err != nil {
		return fault.Usagef("%v", err)
	}
	return e.Mutate(c.Branch, map[string]string{"phase": c.Phase, "label": c.Label}, func(_ *state.Tx, s *registry.Session) error {
		if !p.Done && p.N > s.TotalPhases {
			return fault.Usagef("phase %d is beyond totalPhases %d", p.N, s.TotalPhases).
				WithHint("pass a phase in 1..%d or done, or raise it with orc-state init --total-phases", s.TotalPhases)
		}
		s.Phase = p
		if c.Label != "" {
			s.PhaseLabel = registry.Str(c.Label)
		}
		return nil
	})
}

// Run sets the status.
func (c *StatusSetCmd) Run(e *Env) error {
	return e.Mutate(c.Branch, map[string]string{"status": c.Status}, func(_ *state.Tx, s *registry.Session) error {
		s.Status = c.Status
		return nil
	})
}

// Run links a PR, updating the entry with the same URL.
func (c *LinkPRCmd) Run(e *Env) error {
	u, err := url.Parse(c.URL)
	if err != nil || u.Scheme == "" || u.Host == "" {
		return fault.Usagef("--url %q is not an absolute URL", c.URL).WithHint("pass the PR's web URL, like https://github.com/o/r/pull/1")
	}
	if c.StackedOn != "" {
		if u, err := url.Parse(c.StackedOn); err != nil || u.Scheme == "" || u.Host == "" {
			return fault.Usagef("--stacked-on %q is not an absolute URL", c.StackedOn)
		}
	}
	for name, v := range map[string]string{"--repo": c.Repo, "--url": c.URL, "--stack-id": c.StackID, "--stacked-on": c.StackedOn} {
		if err := registry.SingleLine(name, v); err != nil {
			return fault.Usagef("%v", err)
		}
	}
	if c.Repo == "" {
		return fault.Usagef("--repo is empty")
	}
	pr := registry.PR{Repo: c.Repo, URL: c.URL, Number: c.Number, StackID: registry.Str(c.StackID),
		StackPosition: c.StackPosition, StackedOn: registry.Str(c.StackedOn)}
	return e.Mutate(c.Branch, pr, func(_ *state.Tx, s *registry.Session) error {
		for i := range s.LinkedPRs {
			if old := &s.LinkedPRs[i]; old.URL == pr.URL {
				old.Repo = pr.Repo // flags not passed keep their recorded values
				if pr.Number != nil {
					old.Number = pr.Number
				}
				if pr.StackID != nil {
					old.StackID = pr.StackID
				}
				if pr.StackPosition != nil {
					old.StackPosition = pr.StackPosition
				}
				if pr.StackedOn != nil {
					old.StackedOn = pr.StackedOn
				}
				return nil
			}
		}
		s.LinkedPRs = append(s.LinkedPRs, pr)
		return nil
	})
}

// Run binds a Jira key.
func (c *JiraBindCmd) Run(e *Env) error {
	if !registry.JiraKey.MatchString(c.Key) {
		return fault.Usagef("%q is not a Jira key like ABC-123", c.Key)
	}
	return e.Mutate(c.Branch, map[string]string{"key": c.Key}, func(_ *state.Tx, s *registry.Session) error {
		s.JiraTicket = registry.Str(c.Key)
		return nil
	})
}

// Run unbinds the Jira key.
func (c *JiraUnbindCmd) Run(e *Env) error {
	return e.Mutate(c.Branch, nil, func(_ *state.Tx, s *registry.Session) error {
		s.JiraTicket = nil
		return nil
	})
}
