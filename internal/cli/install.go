package cli

import (
	"io"

	"github.com/orc-state/orc-state/internal/app"
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

// Run writes the statusLine entry into a Claude settings file
// (app.Install): for the user this binary's absolute path, for a
// repository (--project) a command with no path of this machine. Every
// other key is kept, in its order and bytes; running it again changes
// nothing.
func (c *InstallCmd) Run(o *app.Streams, w *app.World, sd *app.StateDir, p *Process) error {
	told, err := app.Install(w, sd, app.InstallParams{Project: c.Project, DryRun: c.DryRun, Force: c.Force,
		Style: c.Style, ContextReserve: c.ContextReserve, Off: c.Off, Home: p.homeDir(), Executable: p.executable})
	if err != nil {
		return err
	}
	io.WriteString(o.Stdout, told) // a failed write is output's exit 7
	return nil
}
