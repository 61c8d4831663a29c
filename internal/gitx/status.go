package gitx

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"time"
)

// Status is the dirty-file list of the worktree.
type Status struct {
	Entries     []StatusEntry
	Approximate bool // computed in process because no git binary was found (see Repo.Status)
	TimedOut    bool // ctx ended before git answered; Entries is empty and means "unknown"
}

// Dirty reports whether the status lists any entry. It is false for a timed
// out status, which callers should treat as unknown.
func (s Status) Dirty() bool { return len(s.Entries) > 0 }

// Status runs
//
//	git --no-optional-locks -C <worktreeRoot> status --porcelain=v2 -z --untracked-files=all
//
// under ctx with an environment cleared of the repository-local variables a
// git hook inherits (GIT_DIR, GIT_WORK_TREE, GIT_INDEX_FILE, ...), and
// parses the result. When ctx ends first it returns Status{TimedOut: true}
// and no error. When there is no git binary it falls back to an in-process
// status built from go-git's index, trees and merkletrie (see approxStatus)
// and sets Approximate: it misses global excludes, autocrlf and
// fileMode=false, and reports staged renames as a delete plus an add. Any
// other failure is an error quoting git's first stderr line (for example
// "detected dubious ownership").
func (r *Repo) Status(ctx context.Context) (Status, error) {
	if ctx.Err() != nil {
		return Status{TimedOut: true}, nil
	}
	cmd := exec.CommandContext(ctx, "git", "--no-optional-locks", "-C", r.layout.WorktreeRoot,
		"status", "--porcelain=v2", "-z", "--untracked-files=all")
	cmd.Env = CleanEnv(os.Environ())
	cmd.WaitDelay = 500 * time.Millisecond
	killProcessGroupOnCancel(cmd) // git status may spawn children (submodules)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	switch {
	case err == nil:
	case errors.Is(err, exec.ErrNotFound):
		return r.approxStatus(ctx)
	case ctx.Err() != nil:
		return Status{TimedOut: true}, nil
	default:
		return Status{}, gitFailure("git status", r.layout.WorktreeRoot, err, stderr.Bytes())
	}
	entries, err := ParsePorcelainV2(stdout.Bytes())
	if err != nil {
		return Status{}, err
	}
	return Status{Entries: entries}, nil
}

// localEnvVars are the variables `git rev-parse --local-env-vars` lists:
// they bind a git process to one repository and are set for git hooks.
var localEnvVars = map[string]bool{
	"GIT_ALTERNATE_OBJECT_DIRECTORIES": true,
	"GIT_CONFIG":                       true,
	"GIT_CONFIG_PARAMETERS":            true,
	"GIT_CONFIG_COUNT":                 true,
	"GIT_OBJECT_DIRECTORY":             true,
	"GIT_DIR":                          true,
	"GIT_WORK_TREE":                    true,
	"GIT_IMPLICIT_WORK_TREE":           true,
	"GIT_GRAFT_FILE":                   true,
	"GIT_INDEX_FILE":                   true,
	"GIT_NO_REPLACE_OBJECTS":           true,
	"GIT_REPLACE_REF_BASE":             true,
	"GIT_PREFIX":                       true,
	"GIT_INTERNAL_SUPER_PREFIX":        true,
	"GIT_SHALLOW_FILE":                 true,
	"GIT_COMMON_DIR":                   true,
	"GIT_QUARANTINE_PATH":              true,
}

// CleanEnv returns env without the repository-local git variables (see
// localEnvVars and GIT_CONFIG_KEY_n/GIT_CONFIG_VALUE_n), so that a git child
// started from inside a git hook looks at the repository given by -C.
func CleanEnv(env []string) []string {
	out := make([]string, 0, len(env))
	for _, kv := range env {
		k, _, _ := strings.Cut(kv, "=")
		if localEnvVars[k] || strings.HasPrefix(k, "GIT_CONFIG_KEY_") || strings.HasPrefix(k, "GIT_CONFIG_VALUE_") {
			continue
		}
		out = append(out, kv)
	}
	return out
}

// gitFailure builds an error that leads with git's first stderr line.
func gitFailure(what, dir string, err error, stderr []byte) error {
	line := ""
	sc := bufio.NewScanner(bytes.NewReader(stderr))
	for sc.Scan() {
		if line = strings.TrimSpace(sc.Text()); line != "" {
			break
		}
	}
	if line == "" {
		return fmt.Errorf("%s in %s: %w", what, dir, err)
	}
	return fmt.Errorf("%s in %s: %s (%w)", what, dir, line, err)
}
