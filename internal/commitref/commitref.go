// Package commitref owns what a verb's word for a commit means in this
// repository, asked of git before any lock: the revision --commit names,
// resolved to the full sha (a sha git cannot confirm kept, unverified,
// with why), and a digest's Suite sha, which must be a commit git knows
// (read in the repository's own object format, SHA-1 or SHA-256). Its
// refusals say which it is and never ask to change a sha that may be
// right.
package commitref

import (
	"errors"

	"github.com/orc-state/orc-state/internal/fault"
	"github.com/orc-state/orc-state/internal/gitx"
	"github.com/orc-state/orc-state/internal/hexid"
	"github.com/orc-state/orc-state/internal/safetext"
)

// Resolve is what --commit rev records in the repository of layout
// (nil outside one), asked of git before the lock: the full id of the commit rev names. A sha (7 to 64 hex digits)
// that git cannot confirm is kept as given, unverified, with why (a
// commit made elsewhere may arrive later); any other revision (HEAD, a
// branch, a tag, HEAD~1) must resolve, or the verb refuses it (exit 2).
func Resolve(layout *gitx.Layout, rev string) (commit string, verified bool, why string, err error) {
	sha := hexid.Commit(rev)
	if layout == nil {
		if sha {
			return rev, false, "cannot be checked (not inside a git repository)", nil
		}
		return "", false, "", fault.Usagef("--commit %s is no sha, and there is no repository to resolve it in", safetext.Quote(rev)).
			WithHint("pass the commit's sha, or run inside the repository")
	}
	r, err := gitx.OpenLayout(*layout)
	if err != nil {
		if sha {
			return rev, false, "cannot be checked (" + err.Error() + ")", nil
		}
		return "", false, "", fault.Wrap(fault.Invalid, err, "cannot open the repository to resolve --commit %s", safetext.Quote(rev))
	}
	defer r.Close()
	if sha {
		c := r.CheckClaim(rev)
		if c.OK() {
			return c.Full, true, "", nil
		}
		return rev, false, c.Problem(), nil
	}
	full, err := r.ResolveRevision(rev)
	switch {
	case errors.Is(err, gitx.ErrNoRevision):
		return "", false, "", fault.Usagef("--commit %s names no commit of this repository", safetext.Quote(rev)).
			WithHint("pass a sha, or a revision git resolves (HEAD, a branch, a tag, HEAD~1)")
	case err != nil:
		return "", false, "", fault.Usagef("--commit %s cannot be resolved: %v", safetext.Quote(rev), err).
			WithHint("run git status here to see why; or pass the commit's sha")
	}
	return full, true, "", nil
}

// CheckSuite refuses a Suite sha that is not a commit of the repository
// of layout (nil outside one)
// (read in the repository's own object format, SHA-1 or SHA-256), or that
// git cannot check: the refusal says which, and its hint never asks to
// change a sha that may be right. Git work happens before any lock.
func CheckSuite(layout *gitx.Layout, sha string) error {
	if layout == nil {
		return fault.Usagef("cannot check Suite sha %s: not inside a git repository", sha).WithHint("run inside the repository, or write Suite: unknown")
	}
	r, err := gitx.OpenLayout(*layout)
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
