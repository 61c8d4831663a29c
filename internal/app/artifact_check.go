package app

import "github.com/orc-state/orc-state/internal/artifact"

// ArtifactChecked is artifact check's answer: the artifact's verdict
// against HEAD (its state, its stamp, and Err, the exit when stale or
// missing) and HEAD's sha.
type ArtifactChecked struct {
	artifact.Verdict
	Head string
}

// ArtifactCheck judges artifact name of the session (branch, "" for the
// current branch's) against HEAD, without a lock (artifact.Judge). The
// error is a refusal (a name not allowed, no session, no HEAD, a file that
// cannot be read), with no verdict.
func ArtifactCheck(sd *StateDir, txn *Txn, branch, name string) (ArtifactChecked, error) {
	if err := artifact.CheckName(name, false); err != nil {
		return ArtifactChecked{}, err
	}
	d, _, s, err := txn.Where().Session(branch)
	if err != nil {
		return ArtifactChecked{}, err
	}
	head, err := HeadSHA(sd)
	if err != nil {
		return ArtifactChecked{}, err
	}
	v, err := artifact.Judge(d, s.SessionID, name, head)
	if err != nil {
		return ArtifactChecked{}, err
	}
	return ArtifactChecked{Verdict: v, Head: head}, nil
}
