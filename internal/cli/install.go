package cli

import (
	"fmt"
	"path/filepath"

	"github.com/orc-state/orc-state/internal/fault"
	"github.com/orc-state/orc-state/internal/install"
	"github.com/orc-state/orc-state/internal/safetext"
)

// InstallCmd is `install`.
type InstallCmd struct {
	Project bool `xor:"scope" help:"Write .claude/settings.json of this repository, with a command that names no path of this machine."`
	User    bool `xor:"scope" help:"Write ~/.claude/settings.json (the default)."`
	DryRun  bool `name:"dry-run" help:"Show the change; write nothing."`
	Force   bool `help:"Replace a statusLine that is not orc-state's."`
	// The statusline's options, written into its command (a statusline in
	// settings gets no plugin userConfig).
	Style          string `help:"Statusline style: full (narrows with the terminal) or compact (always one line)." enum:"full,compact" default:"full"`
	ContextReserve int    `name:"context-reserve" help:"Percent of the context window the statusline keeps back (0-99)." default:"0" placeholder:"N"`
	Off            bool   `help:"Statusline prints nothing (it still records the context level for hook post-tool-use)."`
}

// Run writes the statusLine entry into a Claude settings file: for the user
// this binary's absolute path, for a repository (--project) a command with
// no path of this machine (install.ProjectCommand). Every other key is
// kept, in its order and bytes; running it again changes nothing.
func (c *InstallCmd) Run(e *Env) error {
	path, err := c.settingsPath(e)
	if err != nil {
		return err
	}
	verb, err := install.Verb(install.Options{Style: c.Style, ContextReserve: c.ContextReserve, Off: c.Off})
	if err != nil {
		return err
	}
	command := install.ProjectCommand(verb)
	if !c.Project {
		exe, err := e.proc.executable()
		if err != nil {
			return fault.Wrap(fault.Invalid, err, "cannot find the orc-state binary")
		}
		command = install.UserCommand(e.abs(exe), verb)
	}
	plan, err := install.Prepare(path, command, c.Force, e.now())
	switch {
	case err != nil:
		return err
	case plan.Same:
		fmt.Fprintf(e.Stdout, "%s already has orc-state's statusLine; nothing to do\n", path)
		return nil
	case c.DryRun:
		fmt.Fprintf(e.Stdout, "would write %s:\n%s", path, plan.Out)
		if plan.Foreign != "" {
			fmt.Fprintf(e.Stdout, "would replace the statusLine command %s, keeping the old file as %s\n", safetext.Escape(plan.Foreign), plan.Backup)
		}
		return nil
	}
	if err := plan.Write(); err != nil {
		return err
	}
	fmt.Fprintf(e.Stdout, "wrote statusLine to %s\n", path)
	if plan.Foreign != "" {
		fmt.Fprintf(e.Stdout, "replaced the statusLine command %s; the old file is kept as %s\n", safetext.Escape(plan.Foreign), plan.Backup)
	}
	return nil
}

// settingsPath is the settings file install writes: the repository's for
// --project, else the user's.
func (c *InstallCmd) settingsPath(e *Env) (string, error) {
	if c.Project {
		d, err := e.Dir()
		if err != nil {
			return "", err
		}
		if d.Git == nil {
			return "", fault.Usagef("--project needs a git repository")
		}
		root, err := d.Git.StateParent()
		if err != nil {
			return "", fault.Usagef("%v", err).WithHint("run it in the main work tree")
		}
		return filepath.Join(root, ".claude", "settings.json"), nil
	}
	home := e.proc.homeDir()
	if home == "" {
		return "", fault.Usagef("no home directory: $HOME is not set")
	}
	return filepath.Join(home, ".claude", "settings.json"), nil
}
