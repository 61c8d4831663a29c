package gitx

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/orc-state/orc-state/internal/atomicfile"
)

// Worktree is one work tree of the repository, as `git worktree list`
// names it (the main one first, for a repository that has one).
type Worktree struct {
	Path     string // root; "" when it cannot be known from here (see Layout.MainWorktree)
	GitDir   string // its git dir: the common dir for the main one, worktrees/<id> otherwise
	Main     bool
	Branch   string // the branch checked out; "" when detached
	Detached bool
	HeadID   string // the object id of a detached HEAD
	// Busy is a branch git considers checked out here although HEAD is
	// detached: one being rebased or bisected.
	Busy    string
	Missing bool // the directory is gone (git worktree prune would remove the entry)
	Current bool // the place the layout was discovered from is this work tree
}

// Worktrees lists the repository's work trees. With refs stored as files
// it reads <CommonDir>/worktrees/*/{HEAD,gitdir} and the main HEAD by hand;
// otherwise it asks `git worktree list --porcelain -z`.
func (l Layout) Worktrees() ([]Worktree, error) {
	if !l.RefFiles {
		return l.worktreesFromGit()
	}
	var out []Worktree
	if !l.Bare {
		w := Worktree{Path: l.MainWorktree, GitDir: l.CommonDir, Main: true}
		if err := readWorktreeState(&w, l.CommonDir); err != nil {
			return nil, fmt.Errorf("read main worktree HEAD: %w", err)
		}
		w.Missing = w.Path == "" || !exists(w.Path)
		out = append(out, w)
	}
	dir := filepath.Join(l.CommonDir, "worktrees")
	ents, err := os.ReadDir(dir)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("list worktrees: %w", err)
	}
	for _, e := range ents {
		if !e.IsDir() {
			continue
		}
		admin := filepath.Join(dir, e.Name())
		w := Worktree{GitDir: admin}
		if readWorktreeState(&w, admin) != nil {
			continue // half-created or unreadable: git skips it too
		}
		gd, err := atomicfile.ReadFile(filepath.Join(admin, "gitdir"))
		if err != nil {
			continue
		}
		p := strings.TrimSpace(string(gd)) // path of the worktree's .git file
		if p == "" {
			continue
		}
		if !filepath.IsAbs(p) { // extensions.relativeWorktrees (git >= 2.48)
			p = filepath.Join(admin, p)
		}
		p = filepath.Clean(p)
		w.Path, w.Missing = filepath.Dir(p), !exists(p)
		out = append(out, w)
	}
	l.markCurrent(out)
	return out, nil
}

// markCurrent sets Current on the work tree whose git dir is the layout's.
func (l Layout) markCurrent(list []Worktree) {
	if l.WorktreeRoot == "" {
		return
	}
	for i := range list {
		if SameDir(list[i].GitDir, l.GitDir) {
			list[i].Current = true
			return
		}
	}
}

// readWorktreeState reads a work tree's HEAD and what it is busy with.
func readWorktreeState(w *Worktree, gitDir string) error {
	head, err := atomicfile.ReadFile(filepath.Join(gitDir, "HEAD"))
	if err != nil {
		return err
	}
	w.Branch, w.Detached, err = parseHEAD(head)
	if err != nil {
		return err
	}
	if w.Detached {
		w.HeadID = strings.ToLower(strings.TrimSpace(string(head)))
		w.Busy = busyBranch(gitDir)
	}
	return nil
}

// busyBranch is the branch a detached work tree is rebasing or bisecting,
// as git's is_worktree_being_rebased and is_worktree_being_bisected read it.
func busyBranch(gitDir string) string {
	for _, f := range []string{"rebase-merge/head-name", "rebase-apply/head-name"} {
		if f == "rebase-apply/head-name" && exists(filepath.Join(gitDir, "rebase-apply", "applying")) {
			continue // git am, not a rebase
		}
		if b, err := atomicfile.ReadFile(filepath.Join(gitDir, filepath.FromSlash(f))); err == nil {
			if name, ok := strings.CutPrefix(strings.TrimSpace(string(b)), "refs/heads/"); ok {
				return name
			}
		}
	}
	if b, err := atomicfile.ReadFile(filepath.Join(gitDir, "BISECT_START")); err == nil {
		if name := strings.TrimSpace(string(b)); validBranch(name) {
			return name
		}
	}
	return ""
}

// worktreesFromGit parses `git worktree list --porcelain -z`.
func (l Layout) worktreesFromGit() ([]Worktree, error) {
	ctx, cancel := context.WithTimeout(context.Background(), Timeout)
	defer cancel()
	data, err := l.here().output(ctx, nil, "worktree", "list", "--porcelain", "-z")
	if err != nil {
		return nil, err
	}
	var out []Worktree
	var cur *Worktree
	for _, rec := range bytes.Split(data, []byte{0}) {
		key, val, _ := strings.Cut(string(rec), " ")
		switch key {
		case "worktree":
			out = append(out, Worktree{Path: val, Main: len(out) == 0 && !l.Bare})
			cur = &out[len(out)-1]
		case "bare":
			if cur != nil {
				out = out[:len(out)-1] // the bare repository itself is no work tree
				cur = nil
			}
		case "detached":
			if cur != nil {
				cur.Detached = true
			}
		case "HEAD":
			if cur != nil {
				cur.HeadID = val
			}
		case "branch":
			if cur != nil {
				cur.Branch = strings.TrimPrefix(val, "refs/heads/")
			}
		case "prunable":
			if cur != nil {
				cur.Missing = true
			}
		}
	}
	for i := range out {
		if !out[i].Detached {
			out[i].HeadID = ""
		}
		if out[i].Main {
			out[i].GitDir = l.CommonDir
			continue
		}
		if b, err := atomicfile.ReadFile(filepath.Join(out[i].Path, ".git")); err == nil {
			if gd, ok := strings.CutPrefix(strings.TrimSpace(string(b)), "gitdir: "); ok {
				out[i].GitDir = gd
			}
		}
	}
	l.markCurrent(out)
	return out, nil
}

// CheckedOut returns the work tree that has branch checked out: the
// current one first, then the main one, then the others in git's order;
// failing that, one that is rebasing or bisecting it. ok is false when
// none has.
func CheckedOut(list []Worktree, branch string) (Worktree, bool) {
	for _, pass := range []func(Worktree) bool{
		func(w Worktree) bool { return w.Current && w.Branch == branch },
		func(w Worktree) bool { return w.Branch == branch },
		func(w Worktree) bool { return w.Current && w.Busy == branch },
		func(w Worktree) bool { return w.Busy == branch },
	} {
		for _, w := range list {
			if branch != "" && pass(w) {
				return w, true
			}
		}
	}
	return Worktree{}, false
}

func exists(p string) bool {
	_, err := os.Lstat(p)
	return err == nil
}

// SameDir reports whether a and b name the same existing directory, or
// the same path.
func SameDir(a, b string) bool {
	if filepath.Clean(a) == filepath.Clean(b) {
		return true
	}
	fa, err1 := os.Stat(a)
	fb, err2 := os.Stat(b)
	return err1 == nil && err2 == nil && os.SameFile(fa, fb)
}
