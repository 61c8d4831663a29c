package app

// What the hook verbs share: the payload they decode, the start of their
// --help, the body of the hooks that only write the Auto-checkpoint, and
// the session a subagent hook works on.

import (
	"github.com/orc-state/orc-state/internal/hookjson"
	"github.com/orc-state/orc-state/internal/verify"
	"github.com/orc-state/orc-state/registry"
)

// HookPayload is the stdin JSON of the Claude Code hooks orc-state serves
// (hookjson.Payload); readHook reads it.
type HookPayload = hookjson.Payload

// HookHelp is the start of a hook verb's --help (hookjson.Help): the
// event it serves and the payload fields it reads.
func HookHelp(event string, fields ...string) string { return hookjson.Help(event, fields...) }

// readHook reads and decodes a hook's stdin, moves the run to its cwd
// (the working directory becomes it: nothing else of the process moves)
// and names event's hook as the actor of what the run journals
// (hook:<event>, unless $ORC_ACTOR names one).
func readHook(o *Streams, w *World, txn *Txn, event string) (HookPayload, error) {
	p, wd, err := hookjson.Read(o.Stdin, w.wd)
	w.wd = wd
	txn.SetHookActor(event)
	return p, err
}

// hookAutoCheckpoint is the body of the hooks that only write the
// Auto-checkpoint of the live session of the payload's cwd with trigger:
// nothing for a subagent (agent_id set), nothing without a live session;
// it never prints. With onlyIfChanged, nothing either when HEAD and the
// dirty set are as the last Auto-checkpoint recorded them. It returns the
// problem the hook reports on stderr (nil: none).
func hookAutoCheckpoint(o *Streams, w *World, txn *Txn, event, trigger string, onlyIfChanged bool) error {
	p, err := readHook(o, w, txn, event)
	if err != nil {
		return err
	}
	if p.AgentID != "" {
		return nil
	}
	d, _, s, err := txn.where.Live()
	if err != nil || s == nil {
		return err
	}
	g := verify.Observe(d, s.GitBranch, 0)
	g.Close() // its git process ends before the lock is taken (docs/protocol.md §4)
	if onlyIfChanged && !hookGitChangedSinceAuto(d, s, g) {
		return nil
	}
	return writeAutoCheckpoint(w, txn, s.SessionID, g, trigger)
}

// hookSubagentSession is the live session a subagent hook works on: the
// one selected at the payload's cwd, else, in a linked worktree bound to
// none (the one Claude Code makes for an isolated subagent), the one
// selected in $CLAUDE_PROJECT_DIR. nil when there is none.
func hookSubagentSession(w *World, sd *StateDir, txn *Txn) (*registry.Session, error) {
	where := txn.where
	unbound := where.UnboundLinked()
	_, _, s, err := where.Live()
	if err == nil && s == nil && unbound {
		if dir := w.Getenv("CLAUDE_PROJECT_DIR"); dir != "" {
			sd.Enter(w.Abs(dir))
			_, _, s, err = where.Live()
		}
	}
	return s, err
}
