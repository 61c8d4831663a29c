package cli

import (
	"github.com/orc-state/orc-state/checkpoint"
	"github.com/orc-state/orc-state/internal/fault"
	"github.com/orc-state/orc-state/internal/gitx"
	"github.com/orc-state/orc-state/internal/journal"
	"github.com/orc-state/orc-state/internal/state"
	"github.com/orc-state/orc-state/registry"
)

// DigestWriteCmd is `digest write -`.
type DigestWriteCmd struct {
	BranchFlag
	Source string `arg:"" optional:"" help:"Must be - (stdin)."`
}

// Run replaces the Resume digest with stdin.
func (c *DigestWriteCmd) Run(e *Env) error {
	if c.Source != "-" {
		return fault.Usagef("the digest is read from stdin only").WithHint("orc-state digest write - <<'EOF' ... EOF")
	}
	text, err := e.readStdin()
	if err != nil {
		return err
	}
	if err := refuseSecrets("the digest", text); err != nil {
		return err
	}
	dg, err := checkpoint.ParseDigest(text)
	if err != nil {
		return digestRefusal(err)
	}
	if dg.SuiteSHA != "" {
		if err := e.checkCommit(dg.SuiteSHA); err != nil {
			return err
		}
	}
	args := map[string]string{"suite": dg.SuiteVerdict + " @ " + dg.SuiteSHA, "sha256": journal.Sum(dg.Text)}
	return e.Mutate(c.Branch, args, func(tx *state.Tx, s *registry.Session) error {
		body, err := tx.Body(s.SessionID)
		if err != nil {
			return err
		}
		newBody := checkpoint.SetSection(body, checkpoint.DigestHeading, dg.Text)
		if string(newBody) == string(body) {
			return nil
		}
		return tx.WriteCheckpoint(s, newBody)
	})
}

// digestRefusal words a refused digest: the fault, the lines over a cap
// when a cap is the fault, and the fix for that fault.
func digestRefusal(err error) error {
	f := fault.Usagef("%v", err)
	de, ok := err.(*checkpoint.DigestError)
	if !ok {
		return f
	}
	if de.Overflow != "" {
		f.Msg += "; over the cap: " + de.Overflow
	}
	return f.WithHint("%s", de.Fix)
}

// checkCommit refuses a sha that is not a commit of the repository. Git
// work happens before any lock is taken.
func (e *Env) checkCommit(sha string) error {
	d, err := e.Dir()
	if err != nil {
		return err
	}
	if d.Git == nil {
		return fault.Usagef("cannot check Suite sha %s: not inside a git repository", sha).WithHint("run inside the repository, or write Suite: unknown")
	}
	r, err := gitx.Open(d.Git.WorktreeRoot)
	if err != nil {
		return fault.Wrap(fault.Invalid, err, "cannot open the repository")
	}
	if _, ok := r.ResolveCommit(sha); !ok {
		return fault.Usagef("Suite sha %s is not a commit of this repository", sha).WithHint("cite the sha the suite ran at (git rev-parse HEAD), or write Suite: unknown")
	}
	return nil
}
