package gitx

import (
	"encoding/hex"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/go-git/go-git/v5/plumbing"
)

// Head describes HEAD of the opened worktree.
type Head struct {
	SHA      string // full lower-case object id; "" when Unborn
	Branch   string // short branch name ("main", "feature/x"); "" when Detached
	Detached bool
	Unborn   bool   // HEAD names a branch that has no commit yet
	Subject  string // first line of the HEAD commit message
}

// Commit is one entry of Log.
type Commit struct {
	SHA     string
	Subject string    // first line of the message
	When    time.Time // committer time (the order key of Log)
}

// Head reads HEAD. On an unborn branch it returns the branch from the
// symbolic HEAD target with Unborn set; on a detached HEAD, Detached is set.
func (r *Repo) Head() (Head, error) {
	ref, err := r.repo.Head()
	if errors.Is(err, plumbing.ErrReferenceNotFound) {
		sym, serr := r.repo.Reference(plumbing.HEAD, false)
		if serr != nil {
			return Head{}, fmt.Errorf("read HEAD: %w", serr)
		}
		if sym.Type() != plumbing.SymbolicReference {
			return Head{}, fmt.Errorf("read HEAD: %w", err)
		}
		return Head{Branch: branchName(sym.Target()), Unborn: true}, nil
	}
	if err != nil {
		return Head{}, fmt.Errorf("read HEAD: %w", err)
	}
	h := Head{SHA: ref.Hash().String()}
	if ref.Name().IsBranch() {
		h.Branch = branchName(ref.Name())
	} else {
		h.Detached = true
	}
	c, err := r.repo.CommitObject(ref.Hash())
	if err != nil {
		return Head{}, fmt.Errorf("read HEAD commit %s: %w", h.SHA, err)
	}
	h.Subject = subject(c.Message)
	return h, nil
}

// Log returns at most n commits reachable from HEAD, newest first, in the
// order of plain `git log`. An unborn HEAD or n <= 0 gives an empty slice
// and no error.
func (r *Repo) Log(n int) ([]Commit, error) {
	ref, err := r.repo.Head()
	if errors.Is(err, plumbing.ErrReferenceNotFound) {
		return []Commit{}, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read HEAD: %w", err)
	}
	return r.LogFrom(ref.Hash().String(), n)
}

// ResolveCommit resolves a recorded claim to the full id of a commit of this
// repository. The claim must be 7 to 40 hex digits (any case). A shorter
// claim is a prefix and must match exactly one commit; trees, blobs and tags
// never match. Anything else gives ("", false).
func (r *Repo) ResolveCommit(claim string) (full string, ok bool) {
	if len(claim) < 7 || len(claim) > 40 || !isHex(claim) {
		return "", false
	}
	claim = strings.ToLower(claim)
	if len(claim) == 40 {
		if _, err := r.repo.CommitObject(plumbing.NewHash(claim)); err != nil {
			return "", false
		}
		return claim, true
	}
	type prefixLookup interface {
		HashesWithPrefix(prefix []byte) ([]plumbing.Hash, error)
	}
	pl, ok := r.repo.Storer.(prefixLookup)
	if !ok {
		return "", false
	}
	raw, err := hex.DecodeString(claim[:len(claim)&^1]) // whole bytes only
	if err != nil {
		return "", false
	}
	hashes, err := pl.HashesWithPrefix(raw)
	if err != nil {
		return "", false
	}
	for _, h := range hashes {
		s := h.String()
		if s == full || !strings.HasPrefix(s, claim) {
			continue
		}
		if _, err := r.repo.CommitObject(h); err != nil {
			continue
		}
		if full != "" {
			return "", false // ambiguous between two commits
		}
		full = s
	}
	return full, full != ""
}

// BranchExists reports whether refs/heads/<name> exists (loose or packed).
// Invalid ref names are reported as absent.
func (r *Repo) BranchExists(name string) bool {
	ref := plumbing.NewBranchReferenceName(name)
	if name == "" || ref.Validate() != nil {
		return false
	}
	_, err := r.repo.Reference(ref, false)
	return err == nil
}

// resolveCommitish turns a 7..40 hex claim, or a revision such as "HEAD" or
// a branch name, into a commit hash.
func (r *Repo) resolveCommitish(s string) (plumbing.Hash, error) {
	if len(s) >= 7 && len(s) <= 40 && isHex(s) {
		if full, ok := r.ResolveCommit(s); ok {
			return plumbing.NewHash(full), nil
		}
		return plumbing.ZeroHash, fmt.Errorf("unknown commit %q", s)
	}
	h, err := r.repo.ResolveRevision(plumbing.Revision(s))
	if err != nil {
		return plumbing.ZeroHash, fmt.Errorf("resolve %q: %w", s, err)
	}
	if _, err := r.repo.CommitObject(*h); err != nil {
		return plumbing.ZeroHash, fmt.Errorf("resolve %q: not a commit: %w", s, err)
	}
	return *h, nil
}

func branchName(n plumbing.ReferenceName) string {
	if s, ok := strings.CutPrefix(string(n), "refs/heads/"); ok {
		return s
	}
	return string(n)
}

// subject returns the first line of a commit message.
func subject(msg string) string {
	line, _, _ := strings.Cut(msg, "\n")
	return strings.TrimRight(line, "\r")
}
