package cli

import (
	"github.com/orc-state/orc-state/checkpoint"
	"github.com/orc-state/orc-state/internal/fault"
	"github.com/orc-state/orc-state/internal/gitx"
	"github.com/orc-state/orc-state/internal/journal"
)

// DigestWriteCmd is `digest write -`.
type DigestWriteCmd struct {
	BranchFlag
	Source string `arg:"" optional:"" help:"Must be - (stdin)."`
}

// Run replaces the Resume digest with stdin; the digest it replaces is
// archived first (digest restore).
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
	return e.replaceDigest(c.Branch, dg.Text, args)
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

// checkCommit refuses a Suite sha that is not a commit of the repository
// (read in the repository's own object format, SHA-1 or SHA-256), or that
// git cannot check: the refusal says which, and its hint never asks to
// change a sha that may be right. Git work happens before any lock.
func (e *Env) checkCommit(sha string) error {
	d, err := e.Dir()
	if err != nil {
		return err
	}
	if d.Git == nil {
		return fault.Usagef("cannot check Suite sha %s: not inside a git repository", sha).WithHint("run inside the repository, or write Suite: unknown")
	}
	r, err := gitx.OpenLayout(*d.Git)
	if err != nil {
		return fault.Wrap(fault.Invalid, err, "cannot open the repository")
	}
	defer r.Close()
	c := r.CheckClaim(sha)
	switch c.State {
	case gitx.ClaimCommit:
		return nil
	case gitx.ClaimBeyondShallow:
		return fault.Usagef("Suite sha %s %s", sha, c.Problem()).WithHint("git fetch --unshallow, then retry; or write Suite: unknown")
	case gitx.ClaimUnknown:
		return fault.Usagef("Suite sha %s %s", sha, c.Problem()).WithHint("run git status here to see why, then retry; or write Suite: unknown")
	}
	return fault.Usagef("Suite sha %s %s", sha, c.Problem()).WithHint("cite the sha the suite ran at (git rev-parse HEAD), or write Suite: unknown")
}
