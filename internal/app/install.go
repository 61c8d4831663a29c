package app

import (
	"github.com/orc-state/orc-state/internal/fault"
	"github.com/orc-state/orc-state/internal/install"
)

// InstallParams are what `install` writes and where: the repository's
// settings (Project) or the user's, under Home; the statusline's options
// (Style, ContextReserve, Off); DryRun shows the change and writes
// nothing; Force replaces a statusLine that is not orc-state's.
// Executable finds this binary, asked only for the user's settings.
type InstallParams struct {
	Project, DryRun, Force bool
	Style                  string
	ContextReserve         int
	Off                    bool
	Home                   string
	Executable             func() (string, error)
}

// Install writes the statusLine entry into a Claude settings file: for
// the user this binary's absolute path, for a repository (Project) a
// command with no path of this machine (install.ProjectCommand). Every
// other key is kept, in its order and bytes; running it again changes
// nothing. It returns what it says of the change (install.Plan.Told).
func Install(w *World, sd *StateDir, p InstallParams) (string, error) {
	path, err := installSettingsPath(sd, p)
	if err != nil {
		return "", err
	}
	verb, err := install.Verb(install.Options{Style: p.Style, ContextReserve: p.ContextReserve, Off: p.Off})
	if err != nil {
		return "", err
	}
	command := install.ProjectCommand(verb)
	if !p.Project {
		exe, err := p.Executable()
		if err != nil {
			return "", fault.Wrap(fault.Invalid, err, "cannot find the orc-state binary")
		}
		command = install.UserCommand(w.Abs(exe), verb)
	}
	plan, err := install.Prepare(path, command, p.Force, w.Now())
	if err != nil {
		return "", err
	}
	if !plan.Same && !p.DryRun {
		if err := plan.Write(); err != nil {
			return "", err
		}
	}
	return plan.Told(p.DryRun), nil
}

// installSettingsPath is the settings file install writes: the
// repository's for --project (install.ProjectSettings), else the user's.
func installSettingsPath(sd *StateDir, p InstallParams) (string, error) {
	if !p.Project {
		return install.UserSettings(p.Home)
	}
	d, err := sd.Dir()
	if err != nil {
		return "", err
	}
	return install.ProjectSettings(d.Git)
}
