package statetest

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
// ones HermeticEnv sets and the object format. Any other (GIT_DIR,
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
			return nil, fmt.Errorf("$%s is %q, not %s: gitrepo copies repositories made without config files (HermeticEnv's); run git itself", name, env.Get(name), os.DevNull)
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
		p := filepath.Join(dir, "git"+ExeSuffix())
		if info, err := os.Stat(p); err == nil && info.Mode().IsRegular() && info.Mode()&0o111 != 0 {
			return p, nil
		}
	}
	return "", errors.New("git is not on $PATH")
}

// templateRoot is where this test binary builds its repository
// templates, once each (KeepTemplates); "" when its TestMain set none.
var templateRoot string

// KeepTemplates has the repositories this test binary makes (MakeRepo,
// Repo) copied from templates that git makes once each under dir, a temp
// dir of the binary's own that outlives every test (clitest.Main sets
// its run's). Without it Repo builds each template in the test's temp
// dir, and MakeRepo refuses.
func KeepTemplates(dir string) { templateRoot = dir }

// repoTemplates holds each built template's dir once made, under
// templateRoot.
var repoTemplates sync.Map // key → func() (string, error)

// repoTemplate returns the dir of the template of f under env, built
// under root on first use (cached only under templateRoot): it holds
// "repo", and for a clone the remote beside it.
func repoTemplate(f repoForm, env environ.List, root string) (string, error) {
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
	build := func() (string, error) {
		dir := filepath.Join(root, "gitrepo", fmt.Sprintf("%x", sha256.Sum256([]byte(key)))[:16])
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return "", err
		}
		dir, err := filepath.EvalSymlinks(dir) // git's getcwd sees no symlinks
		if err != nil {
			return "", err
		}
		return dir, buildTemplate(dir, f, git, append(vars, "PATH="+env.Get("PATH"), "HOME="+dir), env, root)
	}
	if root != templateRoot {
		return build()
	}
	once, _ := repoTemplates.LoadOrStore(key, sync.OnceValues(build))
	return once.(func() (string, error))()
}

// buildTemplate runs f's git commands in dir with the environment vars
// (for a clone, over a copy of the bare template made under env), then
// checks that nothing it wrote names dir but a clone's remote URL, the one
// thing copyRepo rewrites.
func buildTemplate(dir string, f repoForm, git string, vars []string, env environ.List, root string) error {
	if f.kind == formClone {
		bare, err := repoTemplate(repoForm{kind: formBare}, env, root)
		if err != nil {
			return err
		}
		remote := filepath.Join(dir, f.remote)
		if err := os.MkdirAll(remote, 0o777); err != nil {
			return err
		}
		if err := CopyTree(filepath.Join(bare, "repo"), remote); err != nil {
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

// MakeRepo is the one way the tests make a scratch repository: the
// repository of the words ARGS of the gitrepo scenario command (clitest's
// Scripts: [-b BRANCH] [-m MESSAGE] [--unborn | --bare | --clone REMOTE]
// [DIR]) in cwd under env, a copy of the template git made once for the
// same words and environment, where git would have made it, with the
// same commit id, HEAD, branch and config as the git commands the words
// stand for. It refuses an environment it cannot copy for (a GIT_*
// variable other than HermeticEnv's and GIT_DEFAULT_HASH, a config
// file), and a binary that keeps no templates (KeepTemplates).
func MakeRepo(env environ.List, cwd string, args []string) error {
	if templateRoot == "" {
		return errors.New("this test binary keeps no repository templates: its TestMain must be clitest.Main")
	}
	return makeRepo(env, cwd, args, templateRoot)
}

// Repo makes the repository of the gitrepo words ARGS (MakeRepo) in dir,
// which it creates, under HermeticEnv with dir's parent as home, and
// returns that environment, the one to run git and orc-state in there.
func Repo(t testing.TB, dir string, args ...string) environ.List {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not found")
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	env := environ.List(HermeticEnv(filepath.Dir(dir)))
	root := templateRoot
	if root == "" {
		root = t.TempDir()
	}
	if err := makeRepo(env, dir, args, root); err != nil {
		t.Fatal(err)
	}
	return env
}

// makeRepo is MakeRepo with its templates under root.
func makeRepo(env environ.List, cwd string, args []string, root string) error {
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
	tmpl, err := repoTemplate(f, env, root)
	if err != nil {
		return err
	}
	var config []byte
	if f.kind == formClone {
		// The template was cloned from a copy of the bare template: the
		// remote here must be that same repository, untouched.
		bare, err := repoTemplate(repoForm{kind: formBare}, env, root)
		if err != nil {
			return err
		}
		want, err := Manifest(filepath.Join(bare, "repo"))
		if err != nil {
			return err
		}
		if got, err := Manifest(filepath.Join(cwd, f.remote)); err != nil || got != want {
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
	if err := CopyTree(from, to); err != nil {
		return err
	}
	if config != nil {
		return os.WriteFile(filepath.Join(to, "config"), config, 0o644)
	}
	return nil
}
