package cli

import "github.com/orc-state/orc-state/internal/textin"

// HookPreCompactCmd is `hook pre-compact`.
type HookPreCompactCmd struct{}

// Run writes the Auto-checkpoint of the current branch's session before
// compaction. Subagents are skipped. It prints nothing and exits 0.
func (c *HookPreCompactCmd) Run(e *Env) error {
	p, err := e.payload()
	if err != nil {
		return e.problem(err)
	}
	if p.AgentID != "" {
		return nil
	}
	e.actor = "hook:PreCompact"
	d, _, s, err := e.liveSession()
	if err != nil || s == nil {
		if err != nil {
			return e.problem(err)
		}
		return nil
	}
	trigger := p.Trigger
	if trigger == "" || textin.SingleLine("trigger", trigger) != nil || len(trigger) > 64 {
		trigger = "auto"
	}
	g := observe(d, s.GitBranch, 0)
	g.close() // its git process ends before the lock is taken (docs/protocol.md §4)
	if err := e.writeAuto(s.SessionID, g, trigger); err != nil {
		return e.problem(err)
	}
	return nil
}
