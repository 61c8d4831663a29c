package cli

import (
	"fmt"

	"github.com/orc-state/orc-state/checkpoint"
	"github.com/orc-state/orc-state/internal/commitref"
	"github.com/orc-state/orc-state/internal/fault"
	"github.com/orc-state/orc-state/internal/input"
	"github.com/orc-state/orc-state/internal/journal"
)

// DigestWriteCmd is `digest write -`.
type DigestWriteCmd struct {
	BranchFlag
	Source string `arg:"" optional:"" help:"Must be - (stdin)."`
}

// Help is the detail of digest write --help: the digest's shape, caps and
// Suite forms, from the rules checkpoint.ParseDigest enforces.
func (c *DigestWriteCmd) Help() string {
	b := checkpoint.DigestBullets()
	return fmt.Sprintf(`The digest is the handoff to whoever continues the session: a fresh session,
or the same one after compaction. stdin replaces the "## Resume digest"
section of checkpoint.md. It begins with five bullets, in this order (other
lines may sit between them and follow them):

    %s what is finished
    %s what comes next, naming the file the next phase reads
    %s questions still open, or none
    %s the files the work produced, or none
    %s unknown, or <verdict> @ <sha>

At most %d lines and %d bytes (blank lines at the start and the end are
dropped first), and no line opens a heading ("# ", "## "). Suite is one of:

    unknown
    unknown (why)
    <verdict> @ <sha>           a one-word verdict, and the 7-64 hex digits of
    <verdict> @ <sha> (note)    a commit of this repository the suite ran at

Anything else is refused (exit 2) with the reason, and nothing is written;
history belongs in progress.md (progress append -). Example:

    orc-state digest write - <<'EOF'
    - Done: phase 2, the plan (files/plan.md)
    - Next: phase 3 implements slice 1; read files/plan.md
    - Open decisions: none
    - Artifacts: files/plan.md
    - Suite: pass @ 3f2c1ab (go test ./...)
    EOF`, b[0], b[1], b[2], b[3], b[4], checkpoint.MaxDigestLines, checkpoint.MaxDigestBytes)
}

// Run replaces the Resume digest with stdin; the digest it replaces is
// archived first (digest restore).
func (c *DigestWriteCmd) Run(e *Env) error {
	if c.Source != "-" {
		return fault.Usagef("the digest is read from stdin only").WithHint("orc-state digest write - reads the digest from stdin: give it as a here-document or through a pipe")
	}
	text, err := e.readStdin()
	if err != nil {
		return err
	}
	if err := input.RefuseSecrets("the digest", text); err != nil {
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

// checkCommit refuses a Suite sha git does not know as a commit
// (commitref.CheckSuite); git work happens before any lock.
func (e *Env) checkCommit(sha string) error {
	d, err := e.Dir()
	if err != nil {
		return err
	}
	return commitref.CheckSuite(d.Git, sha)
}
