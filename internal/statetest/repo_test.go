package statetest_test

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/orc-state/orc-state/internal/clitest"
	"github.com/orc-state/orc-state/internal/environ"
	"github.com/orc-state/orc-state/internal/statetest"
)

// TestMain keeps the repository templates MakeRepo copies, as every test
// binary of the CLI does (clitest.Main).
func TestMain(m *testing.M) { clitest.Main(m) }

// TestGitRepoMatchesGit proves each form of gitrepo equal to the git
// commands it stands for, run in the same path under the scenarios'
// environment (clitest.Scripts' setup): the same files under the dir, byte for byte
// (commit ids, HEAD, refs, reflogs, config), and the same answers to
// rev-parse HEAD, symbolic-ref HEAD, status and config --local.
func TestGitRepoMatchesGit(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not found")
	}
	t.Parallel()
	for _, tc := range []struct {
		name   string
		env    []string          // added to the scenarios' setup
		files  map[string]string // there before either runs, as a txtar's files are
		made   [][]string        // gitrepo lines and cd
		direct [][]string        // the git lines they stand for, and cd
		dirs   []string          // the repositories asked
	}{
		{
			name:   "default",
			made:   [][]string{{"gitrepo"}},
			direct: [][]string{{"git", "init", "-q", "-b", "main"}, {"git", "commit", "-q", "--allow-empty", "-m", "base"}},
			dirs:   []string{"."},
		},
		{
			name:   "branch and message in a dir",
			made:   [][]string{{"gitrepo", "-b", "feat/login", "-m", "base commit", "repo"}},
			direct: [][]string{{"git", "init", "-q", "-b", "feat/login", "repo"}, {"cd", "repo"}, {"git", "commit", "-q", "--allow-empty", "-m", "base commit"}},
			dirs:   []string{"repo"},
		},
		{
			name:   "a dir with files already",
			files:  map[string]string{"repo/src/a.txt": "a\n", "repo/.gitignore": "/out\n"},
			made:   [][]string{{"cd", "repo"}, {"gitrepo"}},
			direct: [][]string{{"cd", "repo"}, {"git", "init", "-q", "-b", "main"}, {"git", "commit", "-q", "--allow-empty", "-m", "base"}},
			dirs:   []string{"repo"},
		},
		{
			name:   "unborn",
			made:   [][]string{{"gitrepo", "--unborn", "-b", "feat/x", "a"}},
			direct: [][]string{{"git", "init", "-q", "-b", "feat/x", "a"}},
			dirs:   []string{"a"},
		},
		{
			name:   "bare",
			made:   [][]string{{"gitrepo", "--bare", "remote.git"}},
			direct: [][]string{{"git", "init", "-q", "--bare", "remote.git"}},
			dirs:   []string{"remote.git"},
		},
		{
			name: "clone",
			made: [][]string{{"gitrepo", "--bare", "remote.git"}, {"gitrepo", "--clone", "remote.git", "a"}},
			direct: [][]string{
				{"git", "init", "-q", "--bare", "remote.git"}, {"git", "clone", "-q", "remote.git", "a"},
				{"cd", "a"}, {"git", "commit", "-q", "--allow-empty", "-m", "base"},
			},
			dirs: []string{"a", "remote.git"},
		},
		{
			name: "clones on a new branch",
			made: [][]string{
				{"gitrepo", "--bare", "remote.git"}, {"gitrepo", "--clone", "remote.git", "-b", "feat/s", "-m", "first", "a"},
				{"gitrepo", "--clone", "remote.git", "-b", "feat/t", "b"},
			},
			direct: [][]string{
				{"git", "init", "-q", "--bare", "remote.git"}, {"git", "clone", "-q", "remote.git", "a"},
				{"cd", "a"}, {"git", "checkout", "-q", "-b", "feat/s"}, {"git", "commit", "-q", "--allow-empty", "-m", "first"},
				{"cd", ".."}, {"git", "clone", "-q", "remote.git", "b"},
				{"cd", "b"}, {"git", "checkout", "-q", "-b", "feat/t"}, {"git", "commit", "-q", "--allow-empty", "-m", "base"},
			},
			dirs: []string{"a", "b", "remote.git"},
		},
		{
			name: "a remote in a sub-dir, cloned from a sub-dir",
			made: [][]string{{"cd", "w"}, {"gitrepo", "--bare", "r/remote.git"}, {"gitrepo", "--clone", "r/remote.git", "x/a"}},
			direct: [][]string{
				{"cd", "w"}, {"git", "init", "-q", "--bare", "r/remote.git"}, {"git", "clone", "-q", "r/remote.git", "x/a"},
				{"cd", "x/a"}, {"git", "commit", "-q", "--allow-empty", "-m", "base"},
			},
			dirs: []string{"w/x/a", "w/r/remote.git"},
		},
		{
			name:   "sha256 objects",
			env:    []string{"GIT_DEFAULT_HASH=sha256"},
			made:   [][]string{{"gitrepo"}, {"gitrepo", "--bare", "remote.git"}, {"gitrepo", "--clone", "remote.git", "a"}},
			direct: [][]string{{"git", "init", "-q", "-b", "main"}, {"git", "commit", "-q", "--allow-empty", "-m", "base"}, {"git", "init", "-q", "--bare", "remote.git"}, {"git", "clone", "-q", "remote.git", "a"}, {"cd", "a"}, {"git", "commit", "-q", "--allow-empty", "-m", "base"}},
			dirs:   []string{".", "a", "remote.git"},
		},
		{
			name:   "another date and author",
			env:    []string{"GIT_COMMITTER_DATE=2026-02-02T00:00:00Z", "GIT_AUTHOR_NAME=Someone Else"},
			made:   [][]string{{"gitrepo"}},
			direct: [][]string{{"git", "init", "-q", "-b", "main"}, {"git", "commit", "-q", "--allow-empty", "-m", "base"}},
			dirs:   []string{"."},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			root, err := filepath.EvalSymlinks(t.TempDir())
			if err != nil {
				t.Fatal(err)
			}
			env := scenarioEnv(root).With(tc.env...)
			work := filepath.Join(root, "work")
			play := func(lines [][]string) (facts string) {
				for name, text := range tc.files {
					p := filepath.Join(work, name)
					if err := os.MkdirAll(filepath.Dir(p), 0o777); err != nil {
						t.Fatal(err)
					}
					if err := os.WriteFile(p, []byte(text), 0o666); err != nil {
						t.Fatal(err)
					}
				}
				if err := os.MkdirAll(work, 0o777); err != nil {
					t.Fatal(err)
				}
				cwd := work
				for _, line := range lines {
					switch line[0] {
					case "cd":
						cwd = filepath.Join(cwd, line[1])
						if err := os.MkdirAll(cwd, 0o777); err != nil {
							t.Fatal(err)
						}
					case "gitrepo":
						if err := statetest.MakeRepo(env, cwd, line[1:]); err != nil {
							t.Fatalf("%q: %v", line, err)
						}
					default:
						if code, out := runIn(env, cwd, line...); code != 0 {
							t.Fatalf("%q: exit %d: %s", line, code, out)
						}
					}
				}
				tree, err := statetest.Manifest(work)
				if err != nil {
					t.Fatal(err)
				}
				facts = tree + "\n" + modes(t, work)
				for _, dir := range tc.dirs {
					for _, ask := range [][]string{
						{"rev-parse", "HEAD"}, {"symbolic-ref", "HEAD"}, {"status", "--porcelain"}, {"config", "--list", "--local"},
					} {
						code, out := runIn(env, filepath.Join(work, dir), append([]string{"git"}, ask...)...)
						facts += fmt.Sprintf("%s: git %s: exit %d\n%s", dir, strings.Join(ask, " "), code, out)
					}
				}
				return facts
			}
			want := play(tc.direct)
			if err := os.RemoveAll(work); err != nil {
				t.Fatal(err)
			}
			if got := play(tc.made); got != want {
				t.Errorf("gitrepo made something else than git:\n--- gitrepo\n%s\n--- git\n%s", got, want)
			}
			t.Logf("%s", want)
		})
	}
}

// modes lists the permission bits of everything under root.
func modes(t *testing.T, root string) string {
	var lines []string
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		lines = append(lines, fmt.Sprintf("%v %s", info.Mode(), rel))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return strings.Join(lines, "\n") + "\n"
}

// scenarioEnv is the environment the scenarios' setup (clitest.Scripts)
// gives a scenario whose work dir is home, with this process's PATH.
func scenarioEnv(home string) environ.List {
	env := testscript.Env{Vars: []string{"PATH=" + os.Getenv("PATH")}, WorkDir: home}
	if err := clitest.Scripts("").Setup(&env); err != nil {
		panic(err)
	}
	return environ.List(env.Vars)
}

// runIn runs a program in dir under env and returns its exit code and
// combined output.
func runIn(env environ.List, dir string, args ...string) (int, string) {
	cmd := exec.Command(args[0], args[1:]...)
	cmd.Dir, cmd.Env = dir, env
	out, err := cmd.CombinedOutput()
	var exit *exec.ExitError
	if errors.As(err, &exit) {
		return exit.ExitCode(), string(out)
	} else if err != nil {
		return -1, err.Error()
	}
	return 0, string(out)
}

// TestGitRepoRefuses: gitrepo refuses what it cannot copy exactly (git's
// own behaviour, an environment a template does not stand for) with an
// error that names the way out, and writes nothing.
func TestGitRepoRefuses(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not found")
	}
	t.Parallel()
	for _, tc := range []struct {
		name  string
		env   []string
		setup [][]string // gitrepo or git lines run first, in the work dir
		args  []string
		want  string
	}{
		{name: "bare with a branch", args: []string{"--bare", "-b", "x", "r.git"}, want: "--bare takes no -b"},
		{name: "unborn with a message", args: []string{"--unborn", "-m", "x"}, want: "--unborn makes no commit"},
		{name: "two kinds", args: []string{"--bare", "--unborn", "x"}, want: "exclude each other"},
		{name: "clone without a dir", args: []string{"--clone", "remote.git"}, want: "--clone needs a DIR"},
		{name: "clone from above", args: []string{"--clone", "../remote.git", "a"}, want: "plain relative path"},
		{name: "clone from an absolute path", args: []string{"--clone", "/tmp/remote.git", "a"}, want: "plain relative path"},
		{name: "two dirs", args: []string{"a", "b"}, want: "more than one DIR"},
		{name: "unknown flag", args: []string{"-q"}, want: "unknown flag -q"},
		{name: "flag without its value", args: []string{"-b"}, want: "-b needs a value"},
		{name: "GIT_DIR", env: []string{"GIT_DIR=/tmp/x"}, args: nil, want: "$GIT_DIR is set"},
		{name: "a global config file", env: []string{"GIT_CONFIG_GLOBAL=/tmp/gitconfig"}, args: nil, want: "$GIT_CONFIG_GLOBAL is \"/tmp/gitconfig\""},
		{name: "no fixed date", env: []string{"GIT_COMMITTER_DATE="}, args: nil, want: "$GIT_COMMITTER_DATE is not set"},
		{name: "no git", env: []string{"PATH=/nonexistent"}, args: nil, want: "git is not on $PATH"},
		{name: "PWD for a clone", env: []string{"PWD=/tmp"}, setup: [][]string{{"gitrepo", "--bare", "remote.git"}}, args: []string{"--clone", "remote.git", "a"}, want: "$PWD is set"},
		{name: "a repository there", setup: [][]string{{"gitrepo", "--unborn"}}, args: nil, want: "already holds .git"},
		{name: "bare into a dir with files", setup: [][]string{{"gitrepo", "r.git"}}, args: []string{"--bare", "r.git"}, want: "r.git exists and is not empty"},
		{name: "clone into a dir with files", setup: [][]string{{"gitrepo", "--bare", "remote.git"}, {"gitrepo", "a"}}, args: []string{"--clone", "remote.git", "a"}, want: "a exists and is not empty"},
		{name: "clone of a remote with a branch", setup: [][]string{
			{"gitrepo", "--bare", "remote.git"}, {"gitrepo", "--clone", "remote.git", "a"}, {"git", "-C", "a", "push", "-q", "origin", "master"},
		}, args: []string{"--clone", "remote.git", "b"}, want: "not the empty bare repository"},
		{name: "clone of a missing remote", args: []string{"--clone", "remote", "b"}, want: "not the empty bare repository"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			root, err := filepath.EvalSymlinks(t.TempDir())
			if err != nil {
				t.Fatal(err)
			}
			env := scenarioEnv(root)
			for _, line := range tc.setup {
				if line[0] == "gitrepo" {
					err = statetest.MakeRepo(env, root, line[1:])
				} else if code, out := runIn(env, root, line...); code != 0 {
					err = fmt.Errorf("exit %d: %s", code, out)
				}
				if err != nil {
					t.Fatalf("%q: %v", line, err)
				}
			}
			before, err := statetest.Manifest(root)
			if err != nil {
				t.Fatal(err)
			}
			err = statetest.MakeRepo(env.With(tc.env...), root, tc.args)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("gitrepo %q: error %v, want one containing %q", tc.args, err, tc.want)
			}
			if after, _ := statetest.Manifest(root); after != before {
				t.Errorf("gitrepo %q wrote something before refusing:\n%s\n---\n%s", tc.args, before, after)
			}
		})
	}
}
