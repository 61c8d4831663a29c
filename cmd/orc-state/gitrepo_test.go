package main

import (
	"bytes"
	"crypto/sha256"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/orc-state/orc-state/internal/clitest"
	"github.com/orc-state/orc-state/internal/environ"
)

// A repoForm is one starting repository the gitrepo scenario command
// makes: the git commands it stands for (steps), which git runs once per
// test binary to build a template, and where its copy goes.
type repoForm struct {
	kind    string // formCommit, formUnborn, formBare or formClone
	branch  string // -b: init's initial branch; a clone's new branch ("" stays on the cloned one)
	message string // -m: the empty commit's message
	remote  string // --clone: the bare repository to clone, relative to the current dir
	dir     string // where the repository goes, relative to the current dir
}

const (
	formCommit = "commit" // init and one empty commit
	formUnborn = "unborn" // init only: the branch has no commit yet
	formBare   = "bare"   // an empty bare repository
	formClone  = "clone"  // a clone of an empty bare repository and one empty commit
)

// parseRepoForm reads gitrepo's arguments.
func parseRepoForm(args []string) (repoForm, error) {
	f := repoForm{kind: formCommit, message: "base", dir: "."}
	var branch, message, dir *string
	kinds := 0
	for i := 0; i < len(args); i++ {
		arg := args[i]
		value := func() (*string, error) {
			if i+1 == len(args) {
				return nil, fmt.Errorf("%s needs a value", arg)
			}
			i++
			return &args[i], nil
		}
		var err error
		switch {
		case arg == "--bare":
			f.kind, kinds = formBare, kinds+1
		case arg == "--unborn":
			f.kind, kinds = formUnborn, kinds+1
		case arg == "--clone":
			var remote *string
			remote, err = value()
			if err == nil {
				f.kind, f.remote, kinds = formClone, *remote, kinds+1
			}
		case arg == "-b":
			branch, err = value()
		case arg == "-m":
			message, err = value()
		case strings.HasPrefix(arg, "-"):
			err = fmt.Errorf("unknown flag %s", arg)
		case dir != nil:
			err = fmt.Errorf("more than one DIR (%s, %s)", *dir, arg)
		default:
			dir = &args[i]
		}
		if err != nil {
			return f, err
		}
	}
	switch {
	case kinds > 1:
		return f, errors.New("--bare, --unborn and --clone exclude each other")
	case f.kind == formBare && (branch != nil || message != nil):
		return f, errors.New("--bare takes no -b or -m")
	case f.kind == formUnborn && message != nil:
		return f, errors.New("--unborn makes no commit: drop -m")
	case f.kind == formClone && dir == nil:
		return f, errors.New("--clone needs a DIR")
	case f.kind == formClone && !plainRelative(f.remote):
		return f, fmt.Errorf("--clone %s: give the remote as a plain relative path (no .., no trailing /)", f.remote)
	}
	if f.kind == formCommit || f.kind == formUnborn {
		f.branch = "main"
	}
	if branch != nil {
		f.branch = *branch
	}
	if message != nil {
		f.message = *message
	}
	if f.kind == formBare || f.kind == formUnborn {
		f.message = ""
	}
	if dir != nil {
		f.dir = *dir
	}
	return f, nil
}

// plainRelative is whether p is a clean relative path inside the current
// dir.
func plainRelative(p string) bool {
	return p != "" && p != "." && !filepath.IsAbs(p) && filepath.Clean(p) == p && p != ".." && !strings.HasPrefix(p, ".."+string(filepath.Separator))
}

// steps are the git commands the form stands for, as a scenario would run
// them in a dir holding the remote: each runs in dir (relative to that
// dir), and the repository they make is "repo".
func (f repoForm) steps() []gitStep {
	switch f.kind {
	case formBare:
		return []gitStep{{".", []string{"init", "-q", "--bare", "repo"}}}
	case formUnborn:
		return []gitStep{{".", []string{"init", "-q", "-b", f.branch, "repo"}}}
	case formClone:
		steps := []gitStep{{".", []string{"clone", "-q", f.remote, "repo"}}}
		if f.branch != "" {
			steps = append(steps, gitStep{"repo", []string{"checkout", "-q", "-b", f.branch}})
		}
		return append(steps, gitStep{"repo", []string{"commit", "-q", "--allow-empty", "-m", f.message}})
	}
	return []gitStep{
		{".", []string{"init", "-q", "-b", f.branch, "repo"}},
		{"repo", []string{"commit", "-q", "--allow-empty", "-m", f.message}},
	}
}

type gitStep struct {
	dir  string
	args []string
}

// gitReads are the variables besides GIT_* that can change what the
// form's git commands write (identity fallback, zone-less dates).
var gitReads = []string{"EMAIL", "TZ"}

// gitAllowed are the GIT_* variables a template may be built under: the
// ones setupGit sets and the object format. Any other (GIT_DIR,
// GIT_TEMPLATE_DIR, ...) points git at paths of one scenario, and a
// scenario that sets one runs git itself.
var gitAllowed = map[string]bool{
	"GIT_CONFIG_GLOBAL": true, "GIT_CONFIG_SYSTEM": true, "GIT_CONFIG_NOSYSTEM": true,
	"GIT_AUTHOR_NAME": true, "GIT_AUTHOR_EMAIL": true, "GIT_AUTHOR_DATE": true,
	"GIT_COMMITTER_NAME": true, "GIT_COMMITTER_EMAIL": true, "GIT_COMMITTER_DATE": true,
	"GIT_DEFAULT_HASH": true,
}

// templateEnv is the part of env that decides what git writes, sorted:
// the variables a template is built under and keyed by. It refuses an
// environment where a copy could differ from what git would make there: a
// config file other than /dev/null (its content could change between two
// uses), a GIT_* variable outside gitAllowed, or a commit without fixed
// dates (its id would be the build's time, not the use's).
func templateEnv(env environ.List, f repoForm) ([]string, error) {
	var out []string
	seen := map[string]bool{}
	for _, kv := range env {
		name, _, _ := strings.Cut(kv, "=")
		if seen[name] || !(strings.HasPrefix(name, "GIT_") || slices.Contains(gitReads, name)) {
			continue
		}
		seen[name] = true
		if strings.HasPrefix(name, "GIT_") && !gitAllowed[name] {
			return nil, fmt.Errorf("$%s is set: git's result depends on it here, so run git itself (exec git ...)", name)
		}
		out = append(out, name+"="+env.Get(name))
	}
	for _, name := range []string{"GIT_CONFIG_GLOBAL", "GIT_CONFIG_SYSTEM"} {
		if env.Get(name) != os.DevNull {
			return nil, fmt.Errorf("$%s is %q, not %s: gitrepo copies repositories made without config files (setupGit's); run git itself", name, env.Get(name), os.DevNull)
		}
	}
	if _, set := env.Lookup("PWD"); set && f.kind == formClone {
		// git clone writes $PWD, not getcwd's path, into the remote URL
		// when both name the current dir.
		return nil, errors.New("$PWD is set: git clone may record the remote through it; run git itself")
	}
	if f.kind == formCommit || f.kind == formClone {
		for _, name := range []string{"GIT_AUTHOR_DATE", "GIT_COMMITTER_DATE"} {
			if env.Get(name) == "" {
				return nil, fmt.Errorf("$%s is not set: a commit made once and copied would carry the build's time; run git itself", name)
			}
		}
	}
	sort.Strings(out)
	return out, nil
}

// lookGit finds git on the PATH of env, as exec would.
func lookGit(env environ.List) (string, error) {
	for _, dir := range filepath.SplitList(env.Get("PATH")) {
		if dir == "" {
			dir = "."
		}
		p := filepath.Join(dir, "git"+clitest.ExeSuffix())
		if info, err := os.Stat(p); err == nil && info.Mode().IsRegular() && info.Mode()&0o111 != 0 {
			return p, nil
		}
	}
	return "", errors.New("git is not on $PATH")
}

// repoTemplates holds each built template's dir once made, under clitest.Root().
var repoTemplates sync.Map // key → func() (string, error)

// repoTemplate returns the dir of the template of f under env (built on
// first use): it holds "repo", and for a clone the remote beside it.
func repoTemplate(f repoForm, env environ.List) (string, error) {
	vars, err := templateEnv(env, f)
	if err != nil {
		return "", err
	}
	git, err := lookGit(env)
	if err != nil {
		return "", err
	}
	// The key is everything git's result depends on: the form's words
	// (dir is only where the copy goes), the environment and the program.
	key := fmt.Sprintf("%q\n%q\n%q\n%q\n%q\n%q", f.kind, f.branch, f.message, f.remote, git, vars)
	once, _ := repoTemplates.LoadOrStore(key, sync.OnceValues(func() (string, error) {
		dir := filepath.Join(clitest.Root(), "gitrepo", fmt.Sprintf("%x", sha256.Sum256([]byte(key)))[:16])
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return "", err
		}
		dir, err := filepath.EvalSymlinks(dir) // git's getcwd sees no symlinks
		if err != nil {
			return "", err
		}
		return dir, buildTemplate(dir, f, git, append(vars, "PATH="+env.Get("PATH"), "HOME="+dir), env)
	}))
	return once.(func() (string, error))()
}

// buildTemplate runs f's git commands in dir with the environment vars
// (for a clone, over a copy of the bare template made under env), then
// checks that nothing it wrote names dir but a clone's remote URL, the one
// thing copyRepo rewrites.
func buildTemplate(dir string, f repoForm, git string, vars []string, env environ.List) error {
	if f.kind == formClone {
		bare, err := repoTemplate(repoForm{kind: formBare}, env)
		if err != nil {
			return err
		}
		remote := filepath.Join(dir, f.remote)
		if err := os.MkdirAll(remote, 0o777); err != nil {
			return err
		}
		if err := copyTree(filepath.Join(bare, "repo"), remote); err != nil {
			return err
		}
	}
	for _, s := range f.steps() {
		cmd := exec.Command(git, s.args...)
		cmd.Dir, cmd.Env = filepath.Join(dir, s.dir), vars
		if out, err := cmd.CombinedOutput(); err != nil {
			return fmt.Errorf("git %s: %v: %s", strings.Join(s.args, " "), err, out)
		}
	}
	repo := filepath.Join(dir, "repo")
	if f.kind != formBare {
		names, err := os.ReadDir(repo)
		if err != nil {
			return err
		}
		if len(names) != 1 || names[0].Name() != ".git" {
			return fmt.Errorf("template %s: the work tree holds more than .git", f.kind)
		}
	}
	return filepath.WalkDir(repo, func(p string, d fs.DirEntry, err error) error {
		if err != nil || !d.Type().IsRegular() {
			return err
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		if f.kind == formClone && p == filepath.Join(repo, ".git", "config") {
			data = bytes.Replace(data, []byte(cloneURLLine(dir, f.remote)), nil, 1)
		}
		if bytes.Contains(data, []byte(dir)) {
			return fmt.Errorf("template %s: %s names the dir it was built in, so a copy would differ from what git makes", f.kind, p)
		}
		return nil
	})
}

// cloneURLLine is the line of .git/config where `git clone -q REMOTE`,
// run in cwd (a path without symlinks, as getcwd gives it), records the
// remote: git writes the current dir joined to the argument.
func cloneURLLine(cwd, remote string) string {
	return "\turl = " + cwd + "/" + filepath.ToSlash(remote) + "\n"
}

// makeRepo makes the repository of gitrepo ARGS in cwd under env: a copy
// of the form's template, where git would have made it.
func makeRepo(env environ.List, cwd string, args []string) error {
	f, err := parseRepoForm(args)
	if err != nil {
		return err
	}
	dst := f.dir
	if !filepath.IsAbs(dst) {
		dst = filepath.Join(cwd, dst)
	}
	if f.kind == formBare || f.kind == formClone {
		// Like git clone, and unlike git init, refuse to mix with what is there.
		if names, err := os.ReadDir(dst); err == nil && len(names) > 0 {
			return fmt.Errorf("%s exists and is not empty", f.dir)
		}
	} else if _, err := os.Lstat(filepath.Join(dst, ".git")); err == nil {
		return fmt.Errorf("%s already holds .git: re-initialising is git's own behaviour (exec git init)", f.dir)
	}
	tmpl, err := repoTemplate(f, env)
	if err != nil {
		return err
	}
	var config []byte
	if f.kind == formClone {
		// The template was cloned from a copy of the bare template: the
		// remote here must be that same repository, untouched.
		bare, err := repoTemplate(repoForm{kind: formBare}, env)
		if err != nil {
			return err
		}
		want, err := clitest.Manifest(filepath.Join(bare, "repo"))
		if err != nil {
			return err
		}
		if got, err := clitest.Manifest(filepath.Join(cwd, f.remote)); err != nil || got != want {
			return fmt.Errorf("--clone %s: not the empty bare repository gitrepo --bare makes (a clone of anything else is git's own: exec git clone)", f.remote)
		}
		here, err := filepath.EvalSymlinks(cwd)
		if err != nil {
			return err
		}
		data, err := os.ReadFile(filepath.Join(tmpl, "repo", ".git", "config"))
		if err != nil {
			return err
		}
		from := cloneURLLine(tmpl, f.remote)
		if !bytes.Contains(data, []byte(from)) {
			return fmt.Errorf("the clone template's config does not hold %q", from)
		}
		config = bytes.Replace(data, []byte(from), []byte(cloneURLLine(here, f.remote)), 1)
	}
	from, to := filepath.Join(tmpl, "repo"), dst
	if f.kind != formBare {
		from, to = filepath.Join(from, ".git"), filepath.Join(dst, ".git")
	}
	if err := os.MkdirAll(to, 0o777); err != nil {
		return err
	}
	if err := copyTree(from, to); err != nil {
		return err
	}
	if config != nil {
		return os.WriteFile(filepath.Join(to, "config"), config, 0o644)
	}
	return nil
}

// TestGitRepoMatchesGit proves each form of gitrepo equal to the git
// commands it stands for, run in the same path under the scenarios'
// environment (setupGit): the same files under the dir, byte for byte
// (commit ids, HEAD, refs, reflogs, config), and the same answers to
// rev-parse HEAD, symbolic-ref HEAD, status and config --local.
func TestGitRepoMatchesGit(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not found")
	}
	t.Parallel()
	for _, tc := range []struct {
		name   string
		env    []string          // added to setupGit's
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
						if err := makeRepo(env, cwd, line[1:]); err != nil {
							t.Fatalf("%q: %v", line, err)
						}
					default:
						if code, out := runIn(env, cwd, line...); code != 0 {
							t.Fatalf("%q: exit %d: %s", line, code, out)
						}
					}
				}
				tree, err := clitest.Manifest(work)
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

// scenarioEnv is the environment setupGit gives a scenario whose work dir
// is home, with this process's PATH.
func scenarioEnv(home string) environ.List {
	env := testscript.Env{Vars: []string{"PATH=" + os.Getenv("PATH")}, WorkDir: home}
	if err := setupGit(&env); err != nil {
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
					err = makeRepo(env, root, line[1:])
				} else if code, out := runIn(env, root, line...); code != 0 {
					err = fmt.Errorf("exit %d: %s", code, out)
				}
				if err != nil {
					t.Fatalf("%q: %v", line, err)
				}
			}
			before, err := clitest.Manifest(root)
			if err != nil {
				t.Fatal(err)
			}
			err = makeRepo(env.With(tc.env...), root, tc.args)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("gitrepo %q: error %v, want one containing %q", tc.args, err, tc.want)
			}
			if after, _ := clitest.Manifest(root); after != before {
				t.Errorf("gitrepo %q wrote something before refusing:\n%s\n---\n%s", tc.args, before, after)
			}
		})
	}
}
