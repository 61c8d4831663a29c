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
	return l.RunWith(ctx, nil, nil, args...)
}

// RunWith is Run with stdin (nil for none) and extra environment entries
// (KEY=value, added after the clean environment).
func (l Layout) RunWith(ctx context.Context, stdin []byte, env []string, args ...string) ([]byte, error) {
	cmd := l.command(ctx, env, args...)
	if stdin != nil {
		cmd.Stdin = bytes.NewReader(stdin)
	}
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		return stdout.Bytes(), gitFailure("git "+args[0], l.WorktreeRoot, err, stderr.Bytes())
	}
	return stdout.Bytes(), nil
}

// command is `git -C <worktree> args...` with the clean environment plus
// env, killed with its children when ctx ends.
func (l Layout) command(ctx context.Context, env []string, args ...string) *exec.Cmd {
	cmd := exec.CommandContext(ctx, "git", append([]string{"-C", l.WorktreeRoot}, args...)...)
	cmd.Env = append(CleanEnv(os.Environ()), env...)
	killProcessGroupOnCancel(cmd)
	return cmd
}
