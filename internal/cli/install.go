package cli

import (
	"io"

	"github.com/orc-state/orc-state/internal/app"

	"github.com/orc-state/orc-state/internal/fault"
	"github.com/orc-state/orc-state/internal/install"
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
func (c *InstallCmd) Run(o *app.Streams, w *app.World, sd *app.StateDir, p *Process) error {
	path, err := c.settingsPath(p, sd)
	if err != nil {
		return err
	}
	verb, err := install.Verb(install.Options{Style: c.Style, ContextReserve: c.ContextReserve, Off: c.Off})
	if err != nil {
		return err
	}
	command := install.ProjectCommand(verb)
	if !c.Project {
		exe, err := p.executable()
		if err != nil {
			return fault.Wrap(fault.Invalid, err, "cannot find the orc-state binary")
		}
		command = install.UserCommand(w.Abs(exe), verb)
	}
	plan, err := install.Prepare(path, command, c.Force, w.Now())
	if err != nil {
		return err
	}
	if !plan.Same && !c.DryRun {
		if err := plan.Write(); err != nil {
			return err
		}
	}
	io.WriteString(o.Stdout, plan.Told(c.DryRun)) // a failed write is output's exit 7
	return nil
}

// settingsPath is the settings file install writes: the repository's for
// --project (install.ProjectSettings), else the user's.
func (c *InstallCmd) settingsPath(p *Process, sd *app.StateDir) (string, error) {
	if !c.Project {
		return install.UserSettings(p.homeDir())
	}
	d, err := sd.Dir()
	if err != nil {
		return "", err
	}
	return install.ProjectSettings(d.Git)
}
