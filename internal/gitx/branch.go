package gitx

import (
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/storer"
)

// BranchHead returns the full sha refs/heads/<name> points at; ok is false
// when the branch does not exist (or is unborn).
func (r *Repo) BranchHead(name string) (sha string, ok bool) {
	ref := plumbing.NewBranchReferenceName(name)
	if name == "" || ref.Validate() != nil {
		return "", false
	}
	got, err := storer.ResolveReference(r.st, ref)
	if err != nil {
		return "", false
	}
	return got.Hash().String(), true
}

// Commit returns the commit with the full sha, ok false when it is not a
// commit of this repository.
func (r *Repo) Commit(sha string) (Commit, bool) {
	c, err := r.commit(plumbing.NewHash(sha))
	if err != nil {
		return Commit{}, false
	}
	return Commit{SHA: c.Hash.String(), Subject: subject(c.Message), When: c.Committer.When}, true
}
