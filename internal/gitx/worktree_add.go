package gitx

import (
	"context"
	"time"
)

// AddTimeout bounds `git worktree add`, which checks out a whole tree.
const AddTimeout = 10 * time.Minute

// AddWorktree runs `git worktree add -q` in the layout's place with the
// user's environment, as their own git would run there (a partial clone
// may fetch what the checkout needs): a new worktree at path, on a new
// branch when branch is set, detached when detach is, at commitish when
// it is set. git decides everything (whether the path may be used, the
// branch name, whether the branch is checked out elsewhere); its refusal
// comes back as an error leading with its first stderr line.
func (l Layout) AddWorktree(ctx context.Context, path, branch, commitish string, detach bool) error {
	args := []string{"worktree", "add", "-q"}
	if branch != "" {
		args = append(args, "-b", branch)
	}
	if detach {
		args = append(args, "--detach")
	}
	args = append(args, "--", path)
	if commitish != "" {
		args = append(args, commitish)
	}
	_, err := l.here().run(ctx, false, nil, args...)
	return err
}
