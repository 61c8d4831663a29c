package gitx

import (
	"context"
	"time"
)

// RemoveTimeout bounds `git worktree remove`, which deletes a whole tree.
const RemoveTimeout = 2 * time.Minute

// RemoveWorktree runs `git worktree remove` in the layout's place with the
// user's environment: git refuses a worktree with changes or untracked
// files (unless force), a locked one, and the main worktree; its refusal
// comes back as an error leading with its first stderr line.
func (l Layout) RemoveWorktree(ctx context.Context, path string, force bool) error {
	args := []string{"worktree", "remove"}
	if force {
		args = append(args, "--force")
	}
	args = append(args, "--", path)
	_, err := l.here().run(ctx, false, nil, args...)
	return err
}
