package gitx

import (
	"context"
	"errors"
	"fmt"
)

// Status is what `git status` says about one work tree: its HEAD and its
// dirty list, from one command.
type Status struct {
	Head     Head // HEAD of the work tree (Subject left empty)
	Entries  []StatusEntry
	TimedOut bool // ctx ended before git answered; Head and Entries are unknown
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
// no error. Any other failure is an error quoting git's first stderr line
// (for example "detected dubious ownership"), or "no git program on PATH":
// the dirty list is then unknown, never empty.
func (r *Repo) Status(ctx context.Context) (Status, error) {
	return statusIn(ctx, r.layout.here())
}

// statusIn runs git status in p (startStatus, then its wait).
func statusIn(ctx context.Context, p place) (Status, error) { return startStatus(ctx, p)() }

// startStatus starts git status in p and returns at once; wait gives its
// answer. --no-ahead-behind: orc-state reads HEAD from the branch headers,
// never the counts against the upstream, which git would otherwise walk
// history for (slow when a branch is far from it).
func startStatus(ctx context.Context, p place) (wait func() (Status, error)) {
	if ctx.Err() != nil {
		return func() (Status, error) { return Status{TimedOut: true}, nil }
	}
	output := p.start(ctx, true, nil, "status", "--porcelain=v2", "--branch", "--no-ahead-behind", "-z", "--untracked-files=all")
	return func() (Status, error) {
		out, err := output()
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
}
