package app

import "github.com/orc-state/orc-state/internal/resume"

// HookSessionStart is `hook session-start`: it reads the payload and, for
// the live session on the branch of its cwd, lets resume.SessionStart
// build the answer (the resume packet for source compact, resume or fork,
// a one-line banner otherwise; the ORC_* variables appended to
// $CLAUDE_ENV_FILE). It returns the JSON the hook prints (nil: nothing,
// as for a subagent or without a live session) and the problems it
// reports, each one line on stderr.
func HookSessionStart(o *Streams, w *World, sd *StateDir, txn *Txn) ([]byte, []error) {
	p, err := readHook(o, w, txn, "SessionStart")
	if err != nil {
		return nil, []error{err}
	}
	if p.AgentID != "" {
		return nil, nil
	}
	a := resume.SessionStart(resume.Start{
		Run: sd.Plain(txn.where.Flag), Source: p.Source, Title: p.SessionTitle, Now: w.Now(),
	})
	return a.JSON, a.Problems
}
