package gitx

import (
	"encoding/hex"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/object"
	"github.com/go-git/go-git/v5/plumbing/storer"
	"github.com/orc-state/orc-state/internal/hexid"
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
	ref, err := storer.ResolveReference(r.st, plumbing.HEAD)
	if errors.Is(err, plumbing.ErrReferenceNotFound) {
		sym, serr := r.st.Reference(plumbing.HEAD)
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
	c, err := r.commit(ref.Hash())
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
	ref, err := storer.ResolveReference(r.st, plumbing.HEAD)
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
	if !hexid.Valid(claim, 7, 40) {
		return "", false
	}
	claim = strings.ToLower(claim)
	if len(claim) == 40 {
		if _, err := r.commit(plumbing.NewHash(claim)); err != nil {
			return "", false
		}
		return claim, true
	}
	raw, err := hex.DecodeString(claim[:len(claim)&^1]) // whole bytes only
	if err != nil {
		return "", false
	}
	hashes, err := r.st.HashesWithPrefix(raw)
	if err != nil {
		return "", false
	}
	for _, h := range hashes {
		s := h.String()
		if s == full || !strings.HasPrefix(s, claim) {
			continue
		}
		if _, err := r.commit(h); err != nil {
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
	_, err := r.st.Reference(ref)
	return err == nil
}

// resolveCommitish turns a revision into a commit hash: 7 to 40 hex digits
// (a claim, see ResolveCommit), "HEAD", or a ref name tried as
// refs/heads/<s>, refs/tags/<s>, refs/remotes/<s>, refs/remotes/<s>/HEAD
// and then <s> itself when it is a full name under refs/. Annotated tags
// are peeled to their commit. Revision syntax such as "HEAD~1" or
// "x^{tree}" is not supported (orc-state passes claims and branch names).
func (r *Repo) resolveCommitish(s string) (plumbing.Hash, error) {
	if hexid.Valid(s, 7, 40) {
		if full, ok := r.ResolveCommit(s); ok {
			return plumbing.NewHash(full), nil
		}
		return plumbing.ZeroHash, fmt.Errorf("unknown commit %q", s)
	}
	if s == "" {
		return plumbing.ZeroHash, errors.New("resolve \"\": empty revision")
	}
	candidates := []plumbing.ReferenceName{plumbing.HEAD}
	if s != "HEAD" {
		candidates = []plumbing.ReferenceName{
			plumbing.NewBranchReferenceName(s),
			plumbing.NewTagReferenceName(s),
			plumbing.ReferenceName("refs/remotes/" + s),
			plumbing.ReferenceName("refs/remotes/" + s + "/HEAD"),
		}
		if strings.HasPrefix(s, "refs/") {
			candidates = append(candidates, plumbing.ReferenceName(s))
		}
	}
	for _, name := range candidates {
		if name.Validate() != nil {
			continue
		}
		ref, err := storer.ResolveReference(r.st, name)
		if errors.Is(err, plumbing.ErrReferenceNotFound) {
			continue
		}
		if err != nil {
			return plumbing.ZeroHash, fmt.Errorf("resolve %q: %w", s, err)
		}
		h, err := r.peelToCommit(ref.Hash())
		if err != nil {
			return plumbing.ZeroHash, fmt.Errorf("resolve %q: not a commit: %w", s, err)
		}
		return h, nil
	}
	return plumbing.ZeroHash, fmt.Errorf("resolve %q: %w", s, plumbing.ErrReferenceNotFound)
}

// peelToCommit follows annotated tags from h down to a commit.
func (r *Repo) peelToCommit(h plumbing.Hash) (plumbing.Hash, error) {
	for depth := 0; depth < 10; depth++ {
		obj, err := r.st.EncodedObject(plumbing.AnyObject, h)
		if err != nil {
			return plumbing.ZeroHash, err
		}
		switch obj.Type() {
		case plumbing.CommitObject:
			return h, nil
		case plumbing.TagObject:
			tag, err := object.DecodeTag(r.st, obj)
			if err != nil {
				return plumbing.ZeroHash, err
			}
			h = tag.Target
		default:
			return plumbing.ZeroHash, fmt.Errorf("%s is a %s", h, obj.Type())
		}
	}
	return plumbing.ZeroHash, fmt.Errorf("%s: tag chain too deep", h)
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
