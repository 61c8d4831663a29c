package gitx

import (
	"path/filepath"
	"strings"

	"github.com/orc-state/orc-state/internal/atomicfile"
)

// A --separate-git-dir repository records nowhere where its main work tree
// is: its git dir does not point back, and `git worktree list` names the
// git dir itself. From a linked worktree the main work tree (and with it
// the shared state dir) could not be found. So when orc-state runs in the
// main work tree it writes the root as a comment beside its exclude line
// in <common dir>/info/exclude (the one file outside the state dir it
// writes anyway), and a linked worktree reads it back, trusting it only if
// that directory's .git still points at the same git dir.

// hintPrefix starts the comment line naming the main work tree.
const hintPrefix = "# orc-state: main work tree "

// MainWorktreeHint returns the comment line to keep in the exclude file,
// and whether this layout needs one: a --separate-git-dir repository (no
// core.worktree, common dir not named .git) seen from its main work tree.
func (l Layout) MainWorktreeHint() (line string, needed bool) {
	if l.Bare || l.Linked || l.WorktreeRoot == "" || l.MainWorktree != l.WorktreeRoot ||
		filepath.Base(l.CommonDir) == ".git" || strings.ContainsAny(l.WorktreeRoot, "\r\n") {
		return "", false
	}
	cfg, err := readRepoConfig(filepath.Join(l.CommonDir, "config"))
	if err != nil || cfg.worktree != "" {
		return "", false
	}
	return hintPrefix + l.WorktreeRoot, true
}

// mainWorktreeFromHint reads the hint of a --separate-git-dir repository
// and returns the main work tree it names, "" when there is none or it no
// longer holds (its .git does not lead to commonDir).
func mainWorktreeFromHint(commonDir string) string {
	data, err := atomicfile.ReadFile(filepath.Join(commonDir, "info", "exclude"))
	if err != nil {
		return ""
	}
	root := ""
	for _, line := range strings.Split(string(data), "\n") {
		if p, ok := strings.CutPrefix(strings.TrimRight(line, "\r"), hintPrefix); ok && filepath.IsAbs(p) {
			root = filepath.Clean(p) // the last one wins
		}
	}
	if root == "" {
		return ""
	}
	gitDir, err := readGitFile(filepath.Join(root, ".git"), func(string) string { return "" })
	if err != nil || !SameDir(gitDir, commonDir) {
		return ""
	}
	return root
}
