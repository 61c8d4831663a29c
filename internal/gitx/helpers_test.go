package gitx

import (
	"github.com/orc-state/orc-state/internal/environ"

	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
)

// gitBin is the absolute path of git, resolved before any test empties PATH.
var gitBin string

// clock gives every test commit its own, strictly increasing date, so
// committer-time order is deterministic across the whole test binary.
var clock atomic.Int64

// SetUpTests prepares the package's tests (TestMain, scripts_test.go):
// hermetic git for the helpers and for Repo.Status, which uses the process
// environment.
func SetUpTests() {
	os.Setenv("GIT_CONFIG_GLOBAL", "/dev/null")
	os.Setenv("GIT_CONFIG_SYSTEM", "/dev/null")
	os.Setenv("GIT_CONFIG_NOSYSTEM", "1")
	for k := range localEnvVars {
		os.Unsetenv(k)
	}
	gitBin, _ = exec.LookPath("git")
	if gitBin != "" {
		gitBin, _ = filepath.Abs(gitBin)
	}
}

func needGit(t testing.TB) {
	t.Helper()
	if gitBin == "" {
		t.Skip("git binary not found")
	}
}

// gitEnv is the environment of every helper git process.
func gitEnv(extra ...string) []string {
	env := append(os.Environ(),
		"GIT_AUTHOR_NAME=Orc Test", "GIT_AUTHOR_EMAIL=orc@example.invalid",
		"GIT_COMMITTER_NAME=Orc Test", "GIT_COMMITTER_EMAIL=orc@example.invalid",
		"GIT_TERMINAL_PROMPT=0", "LC_ALL=C",
	)
	return append(env, extra...)
}

// runGit runs git in dir and returns trimmed stdout and any error.
func runGit(t testing.TB, dir string, extraEnv []string, args ...string) (string, error) {
	t.Helper()
	needGit(t)
	cmd := exec.Command(gitBin, args...)
	cmd.Dir = dir
	cmd.Env = gitEnv(extraEnv...)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return strings.TrimSpace(string(out)), fmt.Errorf("git %s: %v: %s", strings.Join(args, " "), err, stderr.String())
	}
	return strings.TrimSpace(string(out)), nil
}

// mustGit runs git in dir and fails the test on error.
func mustGit(t testing.TB, dir string, args ...string) string {
	t.Helper()
	out, err := runGit(t, dir, nil, args...)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// commit records a commit (allowing empty) with the next test date and
// returns its full sha.
func commit(t testing.TB, dir, msg string) string {
	t.Helper()
	date := fmt.Sprintf("@%d +0000", 1_700_000_000+clock.Add(1)*60)
	if _, err := runGit(t, dir, []string{"GIT_AUTHOR_DATE=" + date, "GIT_COMMITTER_DATE=" + date},
		"commit", "-q", "--allow-empty", "-m", msg); err != nil {
		t.Fatal(err)
	}
	return mustGit(t, dir, "rev-parse", "HEAD")
}

// tempDir is t.TempDir with symlinks resolved (git records real paths).
func tempDir(t testing.TB) string {
	t.Helper()
	d, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// initRepo creates an empty repository on branch main in a fresh temp dir.
func initRepo(t testing.TB, extra ...string) string {
	t.Helper()
	dir := tempDir(t)
	mustGit(t, dir, append([]string{"init", "-q", "-b", "main"}, extra...)...)
	return dir
}

// writeFile writes content to dir/rel, creating parent directories.
func writeFile(t testing.TB, dir, rel, content string) {
	t.Helper()
	p := filepath.Join(dir, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// commitFile writes a file, stages it and commits.
func commitFile(t testing.TB, dir, rel, content, msg string) string {
	t.Helper()
	writeFile(t, dir, rel, content)
	mustGit(t, dir, "add", "--", rel)
	return commit(t, dir, msg)
}

func mustOpen(t testing.TB, dir string) *Repo {
	t.Helper()
	r, err := Open(dir, environ.OS())
	if err != nil {
		t.Fatalf("Open(%s, environ.OS()): %v", dir, err)
	}
	return r
}

func mustHead(t testing.TB, r *Repo) Head {
	t.Helper()
	h, err := r.Head()
	if err != nil {
		t.Fatalf("Head: %v", err)
	}
	return h
}
