package app

// What digest write and digest restore do: the Resume digest, replaced
// or written back, the one it replaces archived first (package removal).

import "github.com/orc-state/orc-state/checkpoint"

// DigestWriteHelp is the detail of digest write --help: what a digest
// holds (checkpoint.DigestText).
func DigestWriteHelp() string { return checkpoint.DigestText() }

// DigestWrite replaces the Resume digest of the session for branch (the
// current branch when "") with text, journaled (removal.Run.WriteDigest);
// the digest it replaces is archived first (digest restore).
func DigestWrite(txn *Txn, branch string, text []byte) error {
	return txn.Removal().WriteDigest(branch, text)
}

// DigestRestore writes back the Resume digest that a digest write (or an
// earlier restore) replaced in the session for branch (the current branch
// when ""), from the archive at names (the newest digest archive when
// ""), journaled (removal.Run.RestoreDigest); the digest it replaces is
// archived first, so running it again goes back.
func DigestRestore(txn *Txn, branch, at string) error {
	return txn.Removal().RestoreDigest(branch, at)
}
