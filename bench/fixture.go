package main

import (
	"fmt"
	"os"
	"path/filepath"
	"time"
)

// sessionBranch is the branch (and session) every session case acts on.
const sessionBranch = "main"

// planJSON is the slice ledger of the measured session: slice s1 is cycled
// pending → red → green → red … by the slice set case.
const planJSON = `{
  "slices": [
    {"id": "s1", "title": "bench slice one", "status": "pending", "estLoc": 40},
    {"id": "s2", "title": "bench slice two", "status": "pending", "estLoc": 60, "dependsOn": ["s1"]}
  ]
}
`

// sessionRepo makes a one-commit repository on branch main whose registry
// holds n sessions: main's (with a two-slice ledger and the decision
// maxRetriesPerSlice settled high, so the red/green cycle never escalates)
// in the middle, registered by real orc-state processes, and n-1 fillers:
// one registered with init --branch b00000 and the rest generated from it
// (generateFillers), so a 10,000-session fixture takes seconds, not 10,000
// processes.
func (h *harness) sessionRepo(name string, n int) (string, error) {
	repo := filepath.Join(h.tmp, name)
	if err := h.commitRepo(repo, map[string]string{"README.md": "bench fixture\n"}); err != nil {
		return "", err
	}
	if n > 1 {
		if _, err := h.orc(repo, "", "init", "--branch", templateBranch, "--command", "flow", "--total-phases", "9",
			"--description", "bench filler session "+templateBranch); err != nil {
			return "", err
		}
	}
	if _, err := h.orc(repo, "", "init", "--command", "flow", "--total-phases", "9"); err != nil {
		return "", err
	}
	plan := filepath.Join(h.tmp, name+"-plan.json") // outside the work tree: verify wants it clean
	if err := os.WriteFile(plan, []byte(planJSON), 0o644); err != nil {
		return "", err
	}
	if _, err := h.orc(repo, "", "slice", "init", plan); err != nil {
		return "", err
	}
	if _, err := h.orc(repo, "", "decision", "set", "maxRetriesPerSlice", "1000000000", "--provenance", "policy"); err != nil {
		return "", err
	}
	if err := generateFillers(repo, n-1); err != nil {
		return "", fmt.Errorf("generating %d sessions: %w", n-1, err)
	}
	return repo, nil
}

// boundPlan is the ledger of the bound-worktree fixture: two independent
// slices, so the main worktree and the bound one each claim their own.
const boundPlan = `{"slices": [{"id": "s1", "title": "bench slice one"}, {"id": "s2", "title": "bench slice two"}]}`

// boundRepo is a 1-session repository (sessionRepo) with two independent
// slices and a linked worktree, detached, bound to its session with
// orc-state worktree add (agent bench-bound); it returns both paths.
func (h *harness) boundRepo(name string) (repo, wt string, err error) {
	if repo, err = h.sessionRepo(name, 1); err != nil {
		return "", "", err
	}
	plan := filepath.Join(h.tmp, name+"-bound-plan.json")
	if err := os.WriteFile(plan, []byte(boundPlan), 0o644); err != nil {
		return "", "", err
	}
	if _, err := h.orc(repo, "", "slice", "init", plan); err != nil {
		return "", "", err
	}
	wt = filepath.Join(h.tmp, name+"-wt")
	if _, err := h.orc(repo, "", "worktree", "add", wt, "--detach", "--agent", "bench-bound"); err != nil {
		return "", "", err
	}
	return repo, wt, nil
}

// shape is a generated tree: top × mid directories with leaf files each.
type shape struct{ top, mid, leaf int }

func (s shape) count() int { return s.top * s.mid * s.leaf }

// bigRepo makes a repository with s.count() committed files in nested
// directories, packed by git gc, with a refreshed index, then 300 dirty
// files (150 modified, 150 untracked, some in new directories; fewer in a
// smaller repository) and one registered session.
func (h *harness) bigRepo(name string, s shape) (string, error) {
	repo := filepath.Join(h.tmp, name)
	files := map[string]string{}
	for a := 0; a < s.top; a++ {
		for b := 0; b < s.mid; b++ {
			for c := 0; c < s.leaf; c++ {
				p := filepath.Join(fmt.Sprintf("pkg%02d", a), fmt.Sprintf("mod%02d", b), fmt.Sprintf("file%03d.go", c))
				files[p] = fmt.Sprintf("package mod%02d\n\n// file %d/%d/%d of the bench fixture.\nconst N%d = %d\n", b, a, b, c, c, c)
			}
		}
	}
	if err := h.commitRepo(repo, files); err != nil {
		return "", err
	}
	// Packed, as a real repository of this size is: HEAD's commit is then
	// found through the pack index, not a loose object.
	if _, err := h.git(repo, "gc", "-q"); err != nil {
		return "", err
	}
	// Let the clock pass the index's mtime, then let git refresh the index
	// once, so no entry stays racily clean and the timed git status (run
	// with --no-optional-locks, which never rewrites the index) sees the
	// steady state a real repository is in.
	time.Sleep(1100 * time.Millisecond)
	if _, err := h.git(repo, "status", "--porcelain"); err != nil {
		return "", err
	}
	dirty := min(150, s.count()/2)
	for i := 0; i < dirty; i++ {
		p := filepath.Join(repo, fmt.Sprintf("pkg%02d", i%s.top), fmt.Sprintf("mod%02d", (i/s.top)%s.mid), fmt.Sprintf("file%03d.go", (i/(s.top*s.mid))%s.leaf))
		f, err := os.OpenFile(p, os.O_APPEND|os.O_WRONLY, 0)
		if err != nil {
			return "", err
		}
		_, err = fmt.Fprintf(f, "\n// modified by the bench %d\n", i)
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			return "", err
		}
	}
	for i := 0; i < dirty; i++ {
		p := fmt.Sprintf("pkg%02d/untracked%03d.txt", i%s.top, i)
		if i%3 == 0 {
			p = fmt.Sprintf("newdir%02d/deeper/untracked%03d.txt", i%7, i)
		}
		if err := writeFile(filepath.Join(repo, filepath.FromSlash(p)), fmt.Sprintf("untracked %d\n", i)); err != nil {
			return "", err
		}
	}
	if _, err := h.orc(repo, "", "init", "--command", "flow", "--total-phases", "9"); err != nil {
		return "", err
	}
	return repo, nil
}

// commitRepo makes repo a git repository on branch main with files
// committed in one commit.
func (h *harness) commitRepo(repo string, files map[string]string) error {
	if err := os.MkdirAll(repo, 0o755); err != nil {
		return err
	}
	if _, err := h.git(repo, "init", "-q", "-b", sessionBranch); err != nil {
		return err
	}
	for p, text := range files {
		if err := writeFile(filepath.Join(repo, p), text); err != nil {
			return err
		}
	}
	if _, err := h.git(repo, "add", "-A"); err != nil {
		return err
	}
	// No automatic gc: it would detach and pack in the background while
	// the cases run. A repository that needs packing is packed explicitly.
	_, err := h.git(repo, "-c", "gc.auto=0", "commit", "-q", "-m", "bench fixture")
	return err
}

func writeFile(path, text string) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	return os.WriteFile(path, []byte(text), 0o644)
}
