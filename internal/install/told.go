package install

import (
	"fmt"
	"path/filepath"

	"github.com/orc-state/orc-state/internal/fault"
	"github.com/orc-state/orc-state/internal/gitx"
	"github.com/orc-state/orc-state/internal/safetext"
)

// ProjectSettings is the settings file of the repository git describes,
// .claude/settings.json in its main work tree (where the state dir's
// parent is); outside a repository there is none.
func ProjectSettings(git *gitx.Layout) (string, error) {
	if git == nil {
		return "", fault.Usagef("--project needs a git repository")
	}
	root, err := git.StateParent()
	if err != nil {
		return "", fault.Usagef("%v", err).WithHint("run it in the main work tree")
	}
	return filepath.Join(root, ".claude", "settings.json"), nil
}

// UserSettings is the user's settings file, ~/.claude/settings.json.
func UserSettings(home string) (string, error) {
	if home == "" {
		return "", fault.Usagef("no home directory: $HOME is not set")
	}
	return filepath.Join(home, ".claude", "settings.json"), nil
}

// Told is what install says of the plan: that there is nothing to do;
// with dryRun, the file it would write and the statusLine it would
// replace; else, once written, that it wrote it and what it replaced.
func (p *Plan) Told(dryRun bool) string {
	switch {
	case p.Same:
		return fmt.Sprintf("%s already has orc-state's statusLine; nothing to do\n", p.Path)
	case dryRun:
		s := fmt.Sprintf("would write %s:\n%s", p.Path, p.Out)
		if p.Foreign != "" {
			s += fmt.Sprintf("would replace the statusLine command %s, keeping the old file as %s\n", safetext.Escape(p.Foreign), p.Backup)
		}
		return s
	}
	s := fmt.Sprintf("wrote statusLine to %s\n", p.Path)
	if p.Foreign != "" {
		s += fmt.Sprintf("replaced the statusLine command %s; the old file is kept as %s\n", safetext.Escape(p.Foreign), p.Backup)
	}
	return s
}
