package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/orc-state/orc-state/internal/cli"
	"github.com/orc-state/orc-state/internal/clitest"
)

// TestGitMatrix runs every verb that reads git in every repository shape
// people have, in SHA-1 and SHA-256, and compares what orc-state says
// (HEAD, the dirty list, whether the branch exists, whether a sha is a
// commit) with what git says in the same place and environment: git
// rev-parse, git status --porcelain=v2, git show-ref and git cat-file -e.
// A new shape is one row of gitShapes.
func TestGitMatrix(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	var checks atomic.Int64
	t.Cleanup(func() { // after every parallel subtest
		t.Logf("%d shapes x 2 object formats; %d verb runs compared with git", len(gitShapes), checks.Load())
	})
	for _, sh := range gitShapes {
		for _, format := range []string{"sha1", "sha256"} {
			t.Run(sh.name+"/"+format, func(t *testing.T) {
				t.Parallel()
				root, err := filepath.EvalSymlinks(t.TempDir())
				if err != nil {
					t.Fatal(err)
				}
				c := &matrix{t: t, root: root, format: format}
				c.home = filepath.Join(c.root, "home")
				if err := os.Mkdir(c.home, 0o755); err != nil {
					t.Fatal(err)
				}
				r := sh.build(c)
				checks.Add(int64(c.runVerbs(r)))
				if r.after != nil {
					r.after(c)
				}
			})
		}
	}
}

// row is one built shape: where to run, the session's branch, and what
// the shape promises beyond the common checks.
type row struct {
	dir       string   // where orc-state and git run
	env       []string // extra environment (GIT_DIR, ...) for both
	branch    string   // the session's git branch
	state     string   // where the state dir must be
	detached  bool     // HEAD here is detached: verbs need --branch, hooks do nothing
	beyond    string   // a commit the shallow clone lacks ("" when none)
	after     func(c *matrix)
	noCommits bool // an unborn repository
}

// gitShapes is the matrix: one row per repository shape.
var gitShapes = []struct {
	name  string
	build func(c *matrix) row
}{
	{"main worktree subdir", func(c *matrix) row {
		repo := c.newRepo("repo")
		return row{dir: filepath.Join(repo, "sub"), branch: "main", state: filepath.Join(repo, ".orc")}
	}},
	{"linked worktree", func(c *matrix) row {
		repo := c.newRepo("repo")
		wt := filepath.Join(c.root, "wt")
		c.git(repo, "worktree", "add", "-q", "-b", "feat/wt", wt)
		c.commitFile(wt, "w.txt", "on feat")
		c.dirty(wt)
		return row{dir: wt, branch: "feat/wt", state: filepath.Join(repo, ".orc")}
	}},
	{"bare repository with worktrees", func(c *matrix) row {
		src := c.newRepo("src")
		bare := filepath.Join(c.root, "b.git")
		c.git(c.root, "clone", "-q", "--bare", src, bare)
		w1, w2 := filepath.Join(c.root, "w1"), filepath.Join(c.root, "w2")
		c.git(bare, "worktree", "add", "-q", "-b", "one", w1)
		c.git(bare, "worktree", "add", "-q", "-b", "two", w2)
		c.dirty(w2)
		return row{dir: w2, branch: "two", state: filepath.Join(bare, ".orc"), after: func(c *matrix) {
			// the other worktree finds the same registry
			out := c.orc(row{dir: w1}, "", "sessions")
			if !strings.Contains(out.stdout, "two") {
				c.t.Errorf("sessions from the other worktree: %q", out.stdout)
			}
		}}
	}},
	{"separate git dir", func(c *matrix) row {
		wt, gd := filepath.Join(c.root, "wt"), filepath.Join(c.root, "gd")
		c.git(c.root, "init", "-q", "-b", "main", "--object-format="+c.format, "--separate-git-dir", gd, wt)
		c.history(wt)
		c.dirty(wt)
		return row{dir: wt, branch: "main", state: filepath.Join(wt, ".orc")}
	}},
	{"separate git dir, linked worktree", func(c *matrix) row {
		wt, gd, l := filepath.Join(c.root, "wt"), filepath.Join(c.root, "gd"), filepath.Join(c.root, "l")
		c.git(c.root, "init", "-q", "-b", "main", "--object-format="+c.format, "--separate-git-dir", gd, wt)
		c.history(wt)
		c.git(wt, "worktree", "add", "-q", "-b", "lb", l)
		c.dirty(l)
		// The main work tree's first write records where it is.
		c.mustOrc(row{dir: wt}, "", "init", "--command", "flow", "--total-phases", "3")
		return row{dir: l, branch: "lb", state: filepath.Join(wt, ".orc")}
	}},
	{"submodule", func(c *matrix) row {
		src := c.newRepo("src")
		super := filepath.Join(c.root, "super")
		c.git(c.root, "init", "-q", "-b", "main", "--object-format="+c.format, super)
		c.commitFile(super, "s.txt", "super")
		c.git(super, "-c", "protocol.file.allow=always", "submodule", "add", "-q", src, "mod")
		c.git(super, "commit", "-q", "-m", "add mod")
		mod := filepath.Join(super, "mod")
		c.git(mod, "checkout", "-q", "-b", "topic")
		c.dirty(mod)
		return row{dir: mod, branch: "topic", state: filepath.Join(mod, ".orc")}
	}},
	{"shallow clone", func(c *matrix) row {
		src := c.newRepo("src")
		first := c.git(src, "rev-list", "--max-parents=0", "HEAD")
		sh := filepath.Join(c.root, "shallow")
		c.git(c.root, "clone", "-q", "--depth", "1", "file://"+src, sh)
		c.dirty(sh)
		return row{dir: sh, branch: "main", state: filepath.Join(sh, ".orc"), beyond: first}
	}},
	{"partial clone", func(c *matrix) row {
		src := c.newRepo("src")
		c.git(src, "config", "uploadpack.allowFilter", "true")
		p := filepath.Join(c.root, "partial")
		c.git(c.root, "clone", "-q", "--filter=blob:none", "file://"+src, p)
		c.dirty(p)
		packs := c.packs(p)
		return row{dir: p, branch: "main", state: filepath.Join(p, ".orc"), after: func(c *matrix) {
			if got := c.packs(p); got != packs {
				c.t.Errorf("a read verb fetched into the partial clone: packs %s, were %s", got, packs)
			}
		}}
	}},
	{"GIT_DIR and GIT_WORK_TREE", func(c *matrix) row {
		repo := c.newRepo("repo")
		out := filepath.Join(c.root, "outside")
		c.mkdir(out)
		return row{dir: out, env: []string{"GIT_DIR=" + filepath.Join(repo, ".git"), "GIT_WORK_TREE=" + repo},
			branch: "main", state: filepath.Join(repo, ".orc")}
	}},
	{"detached, branch checked out elsewhere", func(c *matrix) row {
		repo := c.cleanRepo("repo")
		wt := filepath.Join(c.root, "wt")
		c.git(repo, "worktree", "add", "-q", "-b", "other", wt)
		c.commitFile(wt, "o.txt", "on other")
		c.writeFile(wt, "other-dirty.txt", "d")
		c.git(repo, "checkout", "-q", "--detach", "HEAD~1")
		c.dirty(repo)
		return row{dir: repo, branch: "other", state: filepath.Join(repo, ".orc"), detached: true}
	}},
	{"detached, branch checked out nowhere", func(c *matrix) row {
		repo := c.cleanRepo("repo")
		c.git(repo, "checkout", "-q", "--detach", "HEAD~1")
		c.dirty(repo)
		return row{dir: repo, branch: "main", state: filepath.Join(repo, ".orc"), detached: true}
	}},
	{"unborn", func(c *matrix) row {
		repo := filepath.Join(c.root, "repo")
		c.git(c.root, "init", "-q", "-b", "main", "--object-format="+c.format, repo)
		c.writeFile(repo, "new.txt", "n")
		c.writeFile(repo, "dir/deep.txt", "d")
		return row{dir: repo, branch: "main", state: filepath.Join(repo, ".orc"), noCommits: true}
	}},
}

// matrix is one shape being built and checked.
type matrix struct {
	t            *testing.T
	root, home   string
	format       string
	commitsSoFar int
	commits      map[string]bool // isCommit's answers
}

// newRepo makes a repository with three commits on main and a dirty tree
// (a modified, a staged and an untracked file, one in a subdirectory).
func (c *matrix) newRepo(name string) string {
	repo := c.cleanRepo(name)
	c.dirty(repo)
	return repo
}

// cleanRepo is newRepo without the dirty tree.
func (c *matrix) cleanRepo(name string) string {
	repo := filepath.Join(c.root, name)
	c.git(c.root, "init", "-q", "-b", "main", "--object-format="+c.format, repo)
	c.history(repo)
	return repo
}

func (c *matrix) history(repo string) {
	c.commitFile(repo, "a.txt", "first")
	c.commitFile(repo, "sub/b.txt", "second")
	c.commitFile(repo, "a.txt", "third")
}

func (c *matrix) dirty(dir string) {
	c.writeFile(dir, "a.txt", "modified")
	c.writeFile(dir, "staged.txt", "s")
	c.git(dir, "add", "staged.txt")
	c.writeFile(dir, "sub/untracked é.txt", "u")
}

func (c *matrix) commitFile(dir, rel, msg string) {
	c.writeFile(dir, rel, msg)
	c.git(dir, "add", "--", rel)
	c.commitsSoFar++
	date := fmt.Sprintf("GIT_COMMITTER_DATE=2026-01-01T00:%02d:00Z", c.commitsSoFar)
	c.gitEnv(dir, []string{date}, "commit", "-q", "-m", msg)
}

func (c *matrix) writeFile(dir, rel, content string) {
	p := filepath.Join(dir, filepath.FromSlash(rel))
	c.mkdir(filepath.Dir(p))
	if err := os.WriteFile(p, []byte(content+"\n"), 0o644); err != nil {
		c.t.Fatal(err)
	}
}

func (c *matrix) mkdir(p string) {
	if err := os.MkdirAll(p, 0o755); err != nil {
		c.t.Fatal(err)
	}
}

// packs lists a repository's pack files.
func (c *matrix) packs(repo string) string {
	ents, _ := os.ReadDir(filepath.Join(repo, ".git", "objects", "pack"))
	var names []string
	for _, e := range ents {
		names = append(names, e.Name())
	}
	sort.Strings(names)
	return strings.Join(names, " ")
}

// git runs git in dir (building a shape) and returns its trimmed stdout.
func (c *matrix) git(dir string, args ...string) string { return c.gitEnv(dir, nil, args...) }

func (c *matrix) gitEnv(dir string, env []string, args ...string) string {
	c.t.Helper()
	out, err := c.run(dir, env, "", "git", args...)
	if err != nil {
		c.t.Fatalf("git %s in %s: %v\n%s", strings.Join(args, " "), dir, err, out.stderr)
	}
	return strings.TrimSpace(out.stdout)
}

// ask runs git as the oracle, in the row's place and environment (or in
// another work tree, as a user would there); ok is git's exit status 0.
func (c *matrix) ask(r row, dir string, args ...string) (string, bool) {
	env := r.env
	if dir == "" {
		dir = r.dir
	} else {
		env = nil
	}
	out, err := c.run(dir, env, "", "git", args...)
	return strings.TrimRight(out.stdout, "\n"), err == nil
}

type result struct {
	stdout, stderr string
	code           int
}

func (c *matrix) run(dir string, env []string, stdin, name string, args ...string) (result, error) {
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	cmd.Env = clitest.HermeticEnv(c.home, env...)
	cmd.Stdin = strings.NewReader(stdin)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	res := result{stdout: stdout.String(), stderr: stderr.String()}
	if ee, ok := err.(*exec.ExitError); ok {
		res.code = ee.ExitCode()
	} else if err != nil {
		c.t.Fatalf("%s: %v", name, err)
	}
	return res, err
}

// orc runs orc-state in the row's place and environment, in this process
// (the repository shapes are what is tested, not the process boundary).
func (c *matrix) orc(r row, stdin string, args ...string) result {
	code, stdout, stderr := clitest.Run(cli.Process{Args: args, Stdin: strings.NewReader(stdin), Environ: clitest.HermeticEnv(c.home, r.env...), Dir: r.dir})
	return result{stdout: stdout, stderr: stderr, code: code}
}

func (c *matrix) mustOrc(r row, stdin string, args ...string) result {
	c.t.Helper()
	res := c.orc(r, stdin, args...)
	if res.code != 0 {
		c.t.Fatalf("orc-state %s: exit %d\n%s%s", strings.Join(args, " "), res.code, res.stdout, res.stderr)
	}
	return res
}

// truth is what git says about the session's branch.
type truth struct {
	worktree string          // where the branch is checked out ("" nowhere)
	head     string          // that work tree's HEAD, else the branch tip ("" unborn or missing)
	exists   bool            // git show-ref --verify refs/heads/<branch>
	dirty    map[string]bool // git status --porcelain=v2 in that work tree; nil when not checked out
	subject  string
}

// oracle asks git about r.branch in r's place.
func (c *matrix) oracle(r row) truth {
	var tr truth
	_, tr.exists = c.ask(r, "", "show-ref", "--verify", "--quiet", "refs/heads/"+r.branch)
	list, _ := c.ask(r, "", "worktree", "list", "--porcelain")
	for _, block := range strings.Split(list, "\n\n") {
		lines := strings.Split(block, "\n")
		if len(lines) > 0 && strings.Contains(block, "\nbranch refs/heads/"+r.branch+"\n") || strings.HasSuffix(block, "\nbranch refs/heads/"+r.branch) {
			if !strings.Contains(block, "\nprunable") {
				tr.worktree = strings.TrimPrefix(lines[0], "worktree ")
			}
		}
	}
	here, _ := c.ask(r, "", "rev-parse", "--show-toplevel")
	if _, err := os.Lstat(filepath.Join(tr.worktree, ".git")); tr.worktree != "" && err != nil {
		// git names the git dir of a --separate-git-dir repository or a
		// submodule as its main worktree; the work tree is where we are
		tr.worktree = here
	}
	in := tr.worktree
	if tr.worktree == here {
		in = "" // the place itself, with its environment
	}
	if tr.worktree != "" {
		tr.head, _ = c.ask(r, in, "rev-parse", "--verify", "--quiet", "HEAD")
		st, _ := c.ask(r, in, "status", "--porcelain=v2", "-z", "--untracked-files=all")
		tr.dirty = map[string]bool{}
		recs := strings.Split(st, "\x00")
		for i := 0; i < len(recs); i++ {
			rec := recs[i]
			switch {
			case rec == "" || rec[0] == '#':
			case rec[0] == '?':
				tr.dirty[rec[2:]] = true
			case rec[0] == '1':
				tr.dirty[strings.SplitN(rec, " ", 9)[8]] = true
			case rec[0] == '2':
				tr.dirty[strings.SplitN(rec, " ", 10)[9]] = true
				i++ // the original path
			case rec[0] == 'u':
				tr.dirty[strings.SplitN(rec, " ", 11)[10]] = true
			}
		}
		for p := range tr.dirty {
			if strings.HasPrefix(p, ".orc/") {
				delete(tr.dirty, p)
			}
		}
	} else if tr.exists {
		tr.head, _ = c.ask(r, "", "rev-parse", "--verify", "--quiet", "refs/heads/"+r.branch)
	}
	if tr.head != "" {
		tr.subject, _ = c.ask(r, "", "log", "-1", "--format=%s", tr.head)
	}
	return tr
}

// isCommit is git's answer to "is this a commit here?".
func (c *matrix) isCommit(r row, sha string) bool {
	if ok, seen := c.commits[sha]; seen {
		return ok
	}
	_, ok := c.ask(r, "", "cat-file", "-e", sha+"^{commit}")
	if c.commits == nil {
		c.commits = map[string]bool{}
	}
	c.commits[sha] = ok
	return ok
}

// runVerbs runs every git-reading verb in the row's place and compares
// each answer with git's. It returns the number of verbs checked.
func (c *matrix) runVerbs(r row) int {
	t := c.t
	n := 0
	br := []string{"--branch", r.branch}
	mutate := func(args ...string) result { // a mutation, with --branch where HEAD is detached
		if r.detached {
			args = append(args, br...)
		}
		return c.orc(r, "", args...)
	}

	// init: the state dir is where docs/protocol.md §2 puts it.
	n++
	if res := mutate("init", "--command", "flow", "--total-phases", "3"); res.code != 0 {
		t.Fatalf("init: exit %d: %s", res.code, res.stderr)
	}
	if _, err := os.Stat(filepath.Join(r.state, "orc.json")); err != nil {
		t.Fatalf("init did not write %s/orc.json: %v", r.state, err)
	}
	tr := c.oracle(r)

	// checkpoint --auto, and the PreCompact hook: HEAD and Dirty lines.
	n++
	if res := mutate("checkpoint", "--auto", "--trigger", "matrix"); res.code != 0 {
		t.Fatalf("checkpoint --auto: exit %d: %s", res.code, res.stderr)
	}
	c.checkAuto(r, tr, "checkpoint --auto")
	if !r.detached {
		n++
		payload := fmt.Sprintf(`{"session_id":"s","hook_event_name":"PreCompact","trigger":"hook","cwd":%q}`, r.dir)
		if res := c.orc(r, payload, "hook", "pre-compact"); res.code != 0 || res.stderr != "" {
			t.Errorf("hook pre-compact: exit %d: %s", res.code, res.stderr)
		}
		c.checkAuto(r, tr, "hook pre-compact")
	}

	// resume --json: HEAD, where, the dirty list.
	n++
	var p struct {
		Head, HeadState, Worktree, DirtyNote string
		Dirty                                []string
	}
	c.jsonOut(r, &p, "resume", "--json", r.branch)
	if p.Head != tr.head {
		t.Errorf("resume: head %q (%s); git says %q", p.Head, p.HeadState, tr.head)
	}
	if p.Worktree != tr.worktree && !sameFile(p.Worktree, tr.worktree) {
		t.Errorf("resume: worktree %q; git says %q", p.Worktree, tr.worktree)
	}
	c.checkDirty("resume", p.Dirty, p.DirtyNote, tr)

	// verify --json: dirty and missing-branch findings as git says them.
	n++
	var v struct {
		Findings []struct{ Code, Severity string }
	}
	c.jsonOutAny(r, &v, "verify", "--json", r.branch)
	codes := map[string]bool{}
	for _, f := range v.Findings {
		codes[f.Code] = true
	}
	if codes["git.unreadable"] {
		t.Errorf("verify: git.unreadable in a repository git reads: %+v", v.Findings)
	}
	if want := len(tr.dirty) > 0; codes["git.dirty"] != want {
		t.Errorf("verify: git.dirty %v; git status lists %v", codes["git.dirty"], keys(tr.dirty))
	}
	if want := !tr.exists && !r.noCommits; codes["git.branch-missing"] != want {
		t.Errorf("verify: git.branch-missing %v; show-ref says exists=%v", codes["git.branch-missing"], tr.exists)
	}

	// sessions --json: branchExists and worktree.
	n++
	var rows []struct {
		SessionID    string
		BranchExists bool
		Worktree     *string
	}
	c.jsonOut(r, &rows, "sessions", "--json")
	if len(rows) == 0 {
		t.Fatal("sessions --json lists nothing")
	}
	for _, s := range rows {
		if s.SessionID != strings.ReplaceAll(r.branch, "/", "-") {
			continue
		}
		if s.BranchExists != tr.exists {
			t.Errorf("sessions: branchExists %v; show-ref says %v", s.BranchExists, tr.exists)
		}
		got := ""
		if s.Worktree != nil {
			got = *s.Worktree
		}
		if got != tr.worktree && !sameFile(got, tr.worktree) {
			t.Errorf("sessions: worktree %q; git worktree list says %q", got, tr.worktree)
		}
	}

	// digest write: a Suite sha is accepted exactly when git says it is
	// a commit here.
	n++
	for _, claim := range c.claims(r, tr) {
		digest := "- Done: x\n- Next: y\n- Open decisions: none\n- Artifacts: none\n- Suite: green @ " + claim + "\n"
		res := c.orc(r, digest, append([]string{"digest", "write", "-"}, br...)...)
		if want := c.isCommit(r, claim); (res.code == 0) != want {
			t.Errorf("digest write @ %s: exit %d (%s); git cat-file -e says %v", claim, res.code, strings.TrimSpace(res.stderr), want)
		}
		if claim == r.beyond && claim != "" && !strings.Contains(res.stderr, "beyond the shallow boundary (git fetch --unshallow)") {
			t.Errorf("digest write @ %s (beyond the boundary): %s", claim, res.stderr)
		}
	}

	// slice set --commit: verified exactly when git says it is a commit.
	n++
	plan := filepath.Join(c.root, "plan.json")
	if err := os.WriteFile(plan, []byte(`{"slices":[{"id":1,"title":"a"},{"id":2,"title":"b"},{"id":3,"title":"c"},{"id":4,"title":"d"}]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	c.mustOrc(r, "", append([]string{"slice", "init", plan}, br...)...)
	for i, claim := range c.claims(r, tr) {
		id := fmt.Sprint(i + 1)
		res := c.orc(r, "", append([]string{"slice", "set", id, "--status", "committed", "--commit", claim, "--force"}, br...)...)
		if res.code != 0 {
			t.Errorf("slice set --commit %s: exit %d: %s", claim, res.code, res.stderr)
			continue
		}
		var l struct{ Slices []map[string]any }
		data, err := os.ReadFile(filepath.Join(r.state, strings.ReplaceAll(r.branch, "/", "-"), "files", "slices.json"))
		if err != nil || json.Unmarshal(data, &l) != nil {
			t.Fatalf("slices.json: %v\n%s", err, data)
		}
		verified := true
		for _, s := range l.Slices {
			if fmt.Sprint(s["id"]) == id && s["commitVerified"] == false {
				verified = false
			}
		}
		if want := c.isCommit(r, claim); verified != want {
			t.Errorf("slice set --commit %s: verified %v; git cat-file -e says %v (%s)", claim, verified, want, res.stderr)
		}
		if claim == r.beyond && claim != "" && !strings.Contains(res.stderr, "beyond the shallow boundary") {
			t.Errorf("slice set --commit %s (beyond the boundary): %q", claim, res.stderr)
		}
	}

	// artifact put: stamped with HEAD of this place.
	n++
	res := c.orc(r, `{"k":1}`, append([]string{"artifact", "put", "a.json", "-"}, br...)...)
	head, headOK := c.ask(r, "", "rev-parse", "--verify", "--quiet", "HEAD")
	switch {
	case headOK && res.code == 0:
		data, err := os.ReadFile(filepath.Join(r.state, strings.ReplaceAll(r.branch, "/", "-"), "files", "a.json"))
		if err != nil || !strings.Contains(string(data), `"headSha": "`+head+`"`) {
			t.Errorf("artifact put: %s, %v; git rev-parse HEAD says %s", data, err, head)
		}
	case headOK != (res.code == 0):
		t.Errorf("artifact put: exit %d (%s); git rev-parse HEAD ok=%v", res.code, res.stderr, headOK)
	}

	// cleanup --gone: the session is selected (and, being in progress,
	// kept) exactly when show-ref says the branch does not exist.
	n++
	var plan2 struct {
		Plan []struct{ SessionID, Reason string }
	}
	c.jsonOut(r, &plan2, "cleanup", "--dry-run", "--gone", "--json")
	gone := false
	for _, p := range plan2.Plan {
		gone = gone || p.SessionID == strings.ReplaceAll(r.branch, "/", "-")
	}
	if gone == tr.exists {
		t.Errorf("cleanup --gone: planned %v; show-ref says the branch exists=%v", gone, tr.exists)
	}

	// line: the statusline path finds the same state dir and session.
	if !r.detached {
		n++
		if res := c.orc(r, "", "line"); !strings.Contains(res.stdout, `"gitBranch":"`+r.branch+`"`) {
			t.Errorf("line: %q", res.stdout)
		}
	}
	return n
}

// claims are the shas to check: HEAD's, abbreviated, and one no object
// has, or in a shallow clone its commit from beyond the boundary (a full
// 64-hex id is in git_sha256.txtar).
func (c *matrix) claims(r row, tr truth) []string {
	var out []string
	if tr.head != "" {
		out = append(out, tr.head[:9])
	}
	if r.beyond != "" {
		return append(out, r.beyond)
	}
	return append(out, "deadbee")
}

// checkAuto compares the Auto-checkpoint's HEAD and Dirty lines with git.
func (c *matrix) checkAuto(r row, tr truth, verb string) {
	data, err := os.ReadFile(filepath.Join(r.state, strings.ReplaceAll(r.branch, "/", "-"), "files", "checkpoint.md"))
	if err != nil {
		c.t.Fatal(err)
	}
	text := string(data)
	headLine := regexp.MustCompile(`(?m)^- HEAD: (.*)$`).FindStringSubmatch(text)
	dirtyLine := regexp.MustCompile(`(?m)^- Dirty: (.*)$`).FindStringSubmatch(text)
	if headLine == nil || dirtyLine == nil {
		c.t.Fatalf("%s: no HEAD or Dirty line in\n%s", verb, text)
	}
	wantHead := "unborn (no commits)"
	if tr.head != "" {
		wantHead = tr.head[:7] + " " + tr.subject
	}
	if headLine[1] != wantHead {
		c.t.Errorf("%s: HEAD: %q; git says %q", verb, headLine[1], wantHead)
	}
	switch {
	case tr.dirty == nil:
		if dirtyLine[1] != "n/a (branch not checked out)" {
			c.t.Errorf("%s: Dirty: %q; the branch is checked out nowhere", verb, dirtyLine[1])
		}
	default:
		n := len(tr.dirty)
		if !strings.HasPrefix(dirtyLine[1], fmt.Sprintf("%d file", n)) {
			c.t.Errorf("%s: Dirty: %q; git status lists %d: %v", verb, dirtyLine[1], n, keys(tr.dirty))
		}
	}
}

// checkDirty compares a dirty list with git status.
func (c *matrix) checkDirty(verb string, got []string, note string, tr truth) {
	if tr.dirty == nil {
		if note != "n/a (branch not checked out)" || len(got) != 0 {
			c.t.Errorf("%s: dirty %v (%s); the branch is checked out nowhere", verb, got, note)
		}
		return
	}
	if note != "" {
		c.t.Errorf("%s: dirty note %q; git status answered", verb, note)
	}
	gotSet := map[string]bool{}
	for _, p := range got {
		gotSet[p] = true
	}
	if strings.Join(keys(gotSet), "|") != strings.Join(keys(tr.dirty), "|") {
		c.t.Errorf("%s: dirty %v; git status lists %v", verb, keys(gotSet), keys(tr.dirty))
	}
}

func (c *matrix) jsonOut(r row, v any, args ...string) {
	c.t.Helper()
	res := c.mustOrc(r, "", args...)
	if err := json.Unmarshal([]byte(res.stdout), v); err != nil {
		c.t.Fatalf("orc-state %s: %v\n%s", strings.Join(args, " "), err, res.stdout)
	}
}

// jsonOutAny is jsonOut for a verb whose exit code is its answer.
func (c *matrix) jsonOutAny(r row, v any, args ...string) {
	c.t.Helper()
	res := c.orc(r, "", args...)
	if err := json.Unmarshal([]byte(res.stdout), v); err != nil {
		c.t.Fatalf("orc-state %s: exit %d: %v\n%s%s", strings.Join(args, " "), res.code, err, res.stdout, res.stderr)
	}
}

func keys(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

func sameFile(a, b string) bool {
	fa, err1 := os.Stat(a)
	fb, err2 := os.Stat(b)
	return err1 == nil && err2 == nil && os.SameFile(fa, fb)
}
