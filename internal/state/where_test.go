package state

import (
	"github.com/orc-state/orc-state/internal/environ"

	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/orc-state/orc-state/internal/fault"
)

func TestIsAbsolute(t *testing.T) {
	t.Parallel()
	tests := []struct {
		goos, path string
		want       bool
	}{
		{"linux", "/orc/st", true},
		{"linux", "orc/st", false},
		{"linux", "./st", false},
		{"linux", `\orc\st`, false},
		{"linux", "", false},
		{"darwin", "/Users/me/.orc", true},
		{"windows", `C:\orc\st`, true},
		{"windows", `c:/orc/st`, true},
		{"windows", `\\server\share\st`, true},
		{"windows", `//server/share/st`, true},
		{"windows", `\orc\st`, false}, // drive-relative: the current drive
		{"windows", `/orc/st`, false},
		{"windows", `C:orc`, false}, // relative to C:'s current directory
		{"windows", `orc\st`, false},
		{"windows", `\\\x`, false},
		{"windows", `1:\x`, false},
		{"windows", "", false},
	}
	for _, tc := range tests {
		if got := IsAbsolute(tc.goos, tc.path); got != tc.want {
			t.Errorf("IsAbsolute(%s, %q) = %v, want %v", tc.goos, tc.path, got, tc.want)
		}
	}
}

// git runs git in dir with a hermetic config.
func git(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_SYSTEM=/dev/null",
		"GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@t", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@t")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
	return strings.TrimSpace(string(out))
}

func tempDir(t *testing.T) string {
	t.Helper()
	d, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// TestResolve covers the state-dir rules of docs/protocol.md §2: one state dir per
// repository, found from every worktree and from the environment git
// honours, and the refusals (exit 2).
func TestResolve(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	base := environ.OS().Without(func(k string) bool {
		return k == "GIT_DIR" || k == "GIT_WORK_TREE" || k == "GIT_COMMON_DIR" || k == "ORC_STATE_DIR"
	})
	tmp := tempDir(t)
	repo := filepath.Join(tmp, "repo")
	git(t, tmp, "init", "-q", "-b", "main", repo)
	git(t, repo, "commit", "-q", "--allow-empty", "-m", "one")
	linked := filepath.Join(tmp, "linked")
	git(t, repo, "worktree", "add", "-q", "-b", "l", linked)
	bare := filepath.Join(tmp, "bare.git")
	git(t, tmp, "clone", "-q", "--bare", repo, bare)
	bw1, bw2 := filepath.Join(tmp, "bw1"), filepath.Join(tmp, "bw2")
	git(t, bare, "worktree", "add", "-q", "-b", "b1", bw1)
	git(t, bare, "worktree", "add", "-q", "-b", "b2", bw2)
	outside := filepath.Join(tmp, "outside")
	if err := os.Mkdir(outside, 0o755); err != nil {
		t.Fatal(err)
	}

	tests := []struct {
		name, flag, cwd string
		env             map[string]string
		want            string // the state dir, or "" for a refusal
		code            int    // the refusal's exit code
		msg             string // in the refusal
	}{
		{"main worktree", "", repo, nil, filepath.Join(repo, ".orc"), 0, ""},
		{"linked worktree shares it", "", linked, nil, filepath.Join(repo, ".orc"), 0, ""},
		{"bare worktree", "", bw1, nil, filepath.Join(bare, ".orc"), 0, ""},
		{"another bare worktree shares it", "", bw2, nil, filepath.Join(bare, ".orc"), 0, ""},
		{"inside the bare repository", "", bare, nil, filepath.Join(bare, ".orc"), 0, ""},
		{"GIT_DIR from outside", "", outside, map[string]string{"GIT_DIR": filepath.Join(repo, ".git")}, filepath.Join(repo, ".orc"), 0, ""},
		{"GIT_DIR naming no repository", "", repo, map[string]string{"GIT_DIR": outside}, "", fault.Usage, "not a git repository"},
		{"outside any repository", "", outside, nil, "", fault.Usage, "not inside a git repository"},
		{"relative --dir is relative to cwd", "st", outside, nil, filepath.Join(outside, "st"), 0, ""},
		{"absolute --dir", filepath.Join(tmp, "x"), repo, nil, filepath.Join(tmp, "x"), 0, ""},
		{"ORC_STATE_DIR absolute", "", outside, map[string]string{"ORC_STATE_DIR": filepath.Join(tmp, "y")}, filepath.Join(tmp, "y"), 0, ""},
		{"ORC_STATE_DIR relative", "", repo, map[string]string{"ORC_STATE_DIR": "st"}, "", fault.Usage, "not an absolute path"},
		{"ORC_STATE_DIR drive-relative", "", repo, map[string]string{"ORC_STATE_DIR": `\orc\st`}, "", fault.Usage, "not an absolute path"},
		{"--dir wins over ORC_STATE_DIR", "st", outside, map[string]string{"ORC_STATE_DIR": "relative"}, filepath.Join(outside, "st"), 0, ""},
		{"--dir . at the worktree root", ".", repo, nil, "", fault.Usage, "root of a git work tree"},
		{"--dir at a linked worktree root", linked, repo, nil, "", fault.Usage, "root of a git work tree"},
		{"--dir containing the git dir", tmp, repo, nil, "", fault.Usage, "contains the git dir"},
		{"--dir the git dir", ".git", repo, nil, "", fault.Usage, "is a git dir"},
		{"--dir a bare repository", bare, outside, nil, "", fault.Usage, "is a git dir"},
		{"ORC_STATE_DIR a worktree root", "", outside, map[string]string{"ORC_STATE_DIR": repo}, "", fault.Usage, "root of a git work tree"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			env := base
			for k, v := range tc.env {
				env = env.With(k + "=" + v)
			}
			d, err := Resolve(tc.flag, tc.cwd, env)
			if tc.want == "" {
				var fe *fault.Error
				if !errors.As(err, &fe) || fe.Code != tc.code || !strings.Contains(fe.Msg, tc.msg) {
					t.Fatalf("Resolve = %+v, %v; want exit %d saying %q", d, err, tc.code, tc.msg)
				}
				return
			}
			if err != nil || d.Path != tc.want {
				t.Fatalf("Resolve = %+v, %v; want %s", d, err, tc.want)
			}
		})
	}
}
