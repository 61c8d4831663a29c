package gitx

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"github.com/orc-state/orc-state/internal/atomicfile"
	"io"
	"os"
	"os/exec"
	"strings"
	"sync"
	"time"

	"github.com/orc-state/orc-state/internal/environ"
)

// Timeout bounds every git command orc-state runs to read (callers may pass
// a shorter context).
const Timeout = 5 * time.Second

// Program returns the path of the git program on path (a PATH value), ""
// when there is none (every question then fails with errNoGit). The answer
// for the last path asked is kept.
func Program(path string) string {
	program.Lock()
	defer program.Unlock()
	if !program.done || program.path != path {
		program.bin = lookPath(path, "git")
		program.path, program.done = path, true
	}
	return program.bin
}

var program struct {
	sync.Mutex
	done      bool
	path, bin string
}

// place is where one git command runs: a directory and an environment.
type place struct {
	dir string
	env environ.List
}

// here is the layout's own place: the directory discovery started from,
// with the environment discovery read, so git finds exactly the repository
// (and applies exactly the checks, such as safe.directory) that a user's
// git would there.
func (l Layout) here() place { return place{dir: l.Place, env: l.Env} }

// inWorktree is another work tree of the repository: git runs there with
// the repository-local variables removed, as if a user ran it in that
// directory.
func (l Layout) inWorktree(root string) place { return place{dir: root, env: CleanEnv(l.Env)} }

// readOptions go before every git command orc-state runs to read. A
// partial clone must not fetch missing objects from a read verb or a hook:
// git 2.39 has no switch for that (--no-lazy-fetch came in 2.44), so every
// transport is forbidden for the command and the children it starts,
// which makes a lazy fetch fail at once, offline. No optional locks: the
// index is never rewritten by a read.
var readOptions = []string{
	"-c", "protocol.allow=never",
	"-c", "protocol.file.allow=never",
	"-c", "protocol.git.allow=never",
	"-c", "protocol.ssh.allow=never",
	"-c", "protocol.http.allow=never",
	"-c", "protocol.https.allow=never",
	"-c", "protocol.ext.allow=never",
	"--no-optional-locks",
}

// errNoGit is returned when there is no git program.
var errNoGit = errors.New("no git program on PATH")

// command builds a git command for p. read adds readOptions.
func (p place) command(ctx context.Context, read bool, args ...string) (*exec.Cmd, error) {
	bin := Program(p.env.Get("PATH"))
	if bin == "" {
		return nil, errNoGit
	}
	if read {
		args = append(append([]string{}, readOptions...), args...)
	}
	cmd := exec.CommandContext(ctx, bin, args...)
	atomicfile.NoteProcess() // counted for the bench (ORC_COUNT_FILE)
	cmd.Dir = p.dir
	cmd.Env = append(append([]string{}, p.env...), "GIT_TERMINAL_PROMPT=0")
	cmd.WaitDelay = 500 * time.Millisecond
	killProcessGroupOnCancel(cmd) // git may start children (submodules, a failing lazy fetch)
	return cmd, nil
}

// output runs a read-only git command in p and returns its stdout. A
// failure leads with git's first stderr line.
func (p place) output(ctx context.Context, stdin io.Reader, args ...string) ([]byte, error) {
	return p.run(ctx, true, stdin, args...)
}

func (p place) run(ctx context.Context, read bool, stdin io.Reader, args ...string) ([]byte, error) {
	return p.start(ctx, read, stdin, args...)()
}

// start starts a git command in p (as run does) and returns at once; wait
// gives its stdout, or the failure run would give.
func (p place) start(ctx context.Context, read bool, stdin io.Reader, args ...string) (wait func() ([]byte, error)) {
	cmd, err := p.command(ctx, read, args...)
	if err != nil {
		return func() ([]byte, error) { return nil, err }
	}
	var stdout, stderr bytes.Buffer
	cmd.Stdin, cmd.Stdout, cmd.Stderr = stdin, &stdout, &stderr
	err = cmd.Start()
	return func() ([]byte, error) {
		if err == nil {
			err = cmd.Wait()
		}
		if err != nil {
			if _, serr := os.Stat(p.dir); serr != nil {
				return nil, fmt.Errorf("git %s: cannot change to %s: %w", args[0], p.dir, serr)
			}
			if ctx.Err() != nil {
				return stdout.Bytes(), fmt.Errorf("git %s: %w", args[0], errTimedOut)
			}
			return stdout.Bytes(), gitFailure("git "+args[0], p.dir, err, stderr.Bytes())
		}
		return stdout.Bytes(), nil
	}
}

// errTimedOut marks a git command stopped by its context.
var errTimedOut = errors.New("timed out")

// Run runs git in the layout's place with the process environment and
// returns its stdout; a partial clone may fetch what it lacks. Failures
// quote git's first stderr line. (Sync's plumbing runs in SyncEnv's
// environment instead: RunWith.)
func (l Layout) Run(ctx context.Context, args ...string) ([]byte, error) {
	return l.here().run(ctx, false, nil, args...)
}

// Read runs a read-only git command in the layout's place, as every read
// of gitx does: no transport (a partial clone never fetches), no optional
// locks. It returns stdout; a failure leads with git's first stderr line.
func (l Layout) Read(ctx context.Context, args ...string) ([]byte, error) {
	return l.here().output(ctx, nil, args...)
}

// RunWith runs one of sync's plumbing commands: in the layout's place, in
// the environment SyncEnv makes (the repository's own objects and refs),
// with stdin (nil for none) and extra environment entries (KEY=value).
func (l Layout) RunWith(ctx context.Context, stdin []byte, env []string, args ...string) ([]byte, error) {
	var in io.Reader
	if stdin != nil {
		in = bytes.NewReader(stdin)
	}
	return l.sync(env).run(ctx, false, in, args...)
}

// sync is where sync's git commands run (transport allowed): the
// layout's place, with the environment SyncEnv makes of the process's,
// and env added.
func (l Layout) sync(env []string) place {
	p := l.here()
	p.env = append(environ.List(SyncEnv(p.env)), env...)
	return p
}

// How sync's plumbing treats each variable that binds a git process to
// one repository's objects, refs or config: git's own list of
// repository-local variables (`git rev-parse --local-env-vars`), plus the
// quarantine of a receiving hook and the ref namespace. Discovery honours
// the ones that choose the repository (Discover follows them as git does),
// so sync's git gets them unchanged and finds the same repository. Every
// other one is cleared: sync reads and writes the repository's own objects
// and refs, whatever a hook that runs orc-state has set (a foreign object
// directory would leave the session refs pointing at objects the
// repository lacks; a namespace would push where no clone fetches).
var syncVars = map[string]bool{ // true: honoured (passed on); false: cleared
	"GIT_DIR":                          true,
	"GIT_WORK_TREE":                    true,
	"GIT_COMMON_DIR":                   true,
	"GIT_IMPLICIT_WORK_TREE":           true,
	"GIT_OBJECT_DIRECTORY":             false,
	"GIT_ALTERNATE_OBJECT_DIRECTORIES": false,
	"GIT_INDEX_FILE":                   false,
	"GIT_GRAFT_FILE":                   false,
	"GIT_NO_REPLACE_OBJECTS":           false, // set to 1 below: replace refs never disguise a session commit
	"GIT_REPLACE_REF_BASE":             false,
	"GIT_PREFIX":                       false,
	"GIT_INTERNAL_SUPER_PREFIX":        false,
	"GIT_SHALLOW_FILE":                 false,
	"GIT_QUARANTINE_PATH":              false,
	"GIT_CONFIG":                       false,
	"GIT_CONFIG_PARAMETERS":            false,
	"GIT_CONFIG_COUNT":                 false, // and every GIT_CONFIG_KEY_n, GIT_CONFIG_VALUE_n
	"GIT_NAMESPACE":                    false,
}

// SyncEnv is env as sync's plumbing gets it (see syncVars): the variables
// that chose the repository kept, the other repository-local ones
// dropped, and replace refs off.
func SyncEnv(env []string) []string {
	out := make([]string, 0, len(env)+1)
	for _, kv := range env {
		k, _, _ := strings.Cut(kv, "=")
		if honoured, listed := syncVars[k]; (listed && !honoured) || strings.HasPrefix(k, "GIT_CONFIG_KEY_") || strings.HasPrefix(k, "GIT_CONFIG_VALUE_") {
			continue
		}
		out = append(out, kv)
	}
	return append(out, "GIT_NO_REPLACE_OBJECTS=1")
}

// command is a git command of sync's in the layout's place with env
// added, killed with its children when ctx ends.
func (l Layout) command(ctx context.Context, env []string, args ...string) (*exec.Cmd, error) {
	return l.sync(env).command(ctx, false, args...)
}

// currentBranchFromGit asks git for HEAD (refs that are not files).
func (l Layout) currentBranchFromGit() (string, bool, error) {
	ctx, cancel := context.WithTimeout(context.Background(), Timeout)
	defer cancel()
	out, err := l.here().output(ctx, nil, "symbolic-ref", "-q", "HEAD")
	if err == nil {
		ref := strings.TrimSpace(string(out))
		if name, ok := strings.CutPrefix(ref, "refs/heads/"); ok && name != "" {
			return name, false, nil
		}
		return "", false, fmt.Errorf("HEAD is a symbolic ref outside refs/heads: %q", ref)
	}
	var exit *exec.ExitError
	if errors.As(err, &exit) && exit.ExitCode() == 1 {
		return "", true, nil // not a symbolic ref: detached
	}
	return "", false, fmt.Errorf("read HEAD: %w", err)
}

// localEnvVars are the variables `git rev-parse --local-env-vars` lists:
// they bind a git process to one repository.
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
// localEnvVars and GIT_CONFIG_KEY_n/GIT_CONFIG_VALUE_n): a git started with
// it in a directory finds the repository of that directory.
func CleanEnv(env environ.List) environ.List {
	return env.Without(func(k string) bool {
		return localEnvVars[k] || strings.HasPrefix(k, "GIT_CONFIG_KEY_") || strings.HasPrefix(k, "GIT_CONFIG_VALUE_")
	})
}

// gitFailure builds an error that leads with git's first stderr line
// (the "fatal:" one when there is one).
func gitFailure(what, dir string, err error, stderr []byte) error {
	line := stderrLine(stderr)
	if line == "" {
		return fmt.Errorf("%s in %s: %w", what, dir, err)
	}
	return &gitError{msg: what + ": " + line, err: err}
}

// gitError is a git failure told by git's own words; it wraps the exit.
type gitError struct {
	msg string
	err error
}

func (e *gitError) Error() string { return e.msg }
func (e *gitError) Unwrap() error { return e.err }

// stderrLine is the first "fatal:" or "error:" line of git's stderr, else
// its first non-empty line. A line ending in ":" is followed by the next
// one ("fatal: unknown repository extension found:" names it below).
func stderrLine(stderr []byte) string {
	var lines []string
	sc := bufio.NewScanner(bytes.NewReader(stderr))
	for sc.Scan() {
		if l := strings.TrimSpace(sc.Text()); l != "" {
			lines = append(lines, l)
		}
	}
	pick := 0
	for i, l := range lines {
		if strings.HasPrefix(l, "fatal:") || strings.HasPrefix(l, "error:") {
			pick = i
			break
		}
	}
	if pick >= len(lines) {
		return ""
	}
	line := lines[pick]
	if strings.HasSuffix(line, ":") && pick+1 < len(lines) {
		line += " " + lines[pick+1]
	}
	return line
}
