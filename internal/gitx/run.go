package gitx

import (
	"bytes"
	"context"
	"os"
	"os/exec"
)

// Run runs the git CLI in the worktree with a clean environment (no
// repository-local variables inherited from a git hook) and returns its
// stdout. It is the transport for sync, so the user's credential helpers
// and ssh agent apply. Failures quote git's first stderr line.
func (l Layout) Run(ctx context.Context, args ...string) ([]byte, error) {
	cmd := exec.CommandContext(ctx, "git", append([]string{"-C", l.WorktreeRoot}, args...)...)
	cmd.Env = CleanEnv(os.Environ())
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	killProcessGroupOnCancel(cmd)
	if err := cmd.Run(); err != nil {
		return stdout.Bytes(), gitFailure("git "+args[0], l.WorktreeRoot, err, stderr.Bytes())
	}
	return stdout.Bytes(), nil
}
