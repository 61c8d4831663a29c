package gitx

import (
	"context"
	"errors"
	"fmt"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/storer"
)

// Status is what `git status` says about one work tree: its HEAD and its
// dirty list, from one command.
type Status struct {
	Head        Head // HEAD of the work tree (Subject left empty)
	Entries     []StatusEntry
	Approximate bool // computed by the built-in reader because there is no git program
	TimedOut    bool // ctx ended before git answered; Head and Entries are unknown
}

// Dirty reports whether the status lists any entry. It is false for a timed
// out status, which callers must treat as unknown.
func (s Status) Dirty() bool { return len(s.Entries) > 0 }

// Status runs, in the place the repository was opened from (same directory,
// same environment),
//
//	git --no-optional-locks status --porcelain=v2 --branch -z --untracked-files=all
//
// (with readOptions: a partial clone never fetches) and parses the result.
// HEAD comes from the "# branch.oid" and "# branch.head" headers of that
// same command. When ctx ends first it returns Status{TimedOut: true} and
// no error. Without a git program the built-in reader computes an
// approximate status (see approxStatus). Any other failure is an error
// quoting git's first stderr line (for example "detected dubious
// ownership"): the dirty list is then unknown, never empty.
func (r *Repo) Status(ctx context.Context) (Status, error) {
	if r.builtin {
		return r.builtinStatus(ctx)
	}
	return statusIn(ctx, r.layout.here())
}

// statusIn runs git status in p.
func statusIn(ctx context.Context, p place) (Status, error) {
	if ctx.Err() != nil {
		return Status{TimedOut: true}, nil
	}
	out, err := p.output(ctx, nil, "status", "--porcelain=v2", "--branch", "-z", "--untracked-files=all")
	if err != nil {
		if ctx.Err() != nil || errors.Is(err, errTimedOut) {
			return Status{TimedOut: true}, nil
		}
		return Status{}, err
	}
	h, entries, err := ParseStatus(out)
	if err != nil {
		return Status{}, err
	}
	if !h.Seen {
		return Status{}, fmt.Errorf("git status in %s: no branch headers in its output", p.dir)
	}
	head := Head{SHA: h.OID, Branch: h.Head, Detached: h.Detach, Unborn: h.OID == ""}
	return Status{Head: head, Entries: entries}, nil
}

// builtinStatus is Status without a git program.
func (r *Repo) builtinStatus(ctx context.Context) (Status, error) {
	if r.layout.WorktreeRoot == "" {
		return Status{}, errors.New("this operation must be run in a work tree")
	}
	st, err := r.approxStatus(ctx)
	if err != nil || st.TimedOut {
		return st, err
	}
	h, err := r.builtinHead()
	if err != nil {
		return Status{}, err
	}
	st.Head = h
	return st, nil
}

// builtinHead reads HEAD through go-git's storage (no subject).
func (r *Repo) builtinHead() (Head, error) {
	s, err := r.storage()
	if err != nil {
		return Head{}, err
	}
	ref, err := storer.ResolveReference(s, plumbing.HEAD)
	if errors.Is(err, plumbing.ErrReferenceNotFound) {
		sym, serr := s.Reference(plumbing.HEAD)
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
	return h, nil
}
