package cli

import (
	"io"
	"os"
	"runtime"
	"time"

	"github.com/orc-state/orc-state/internal/environ"
)

// Process is one run of orc-state: its arguments and streams, and the
// world it sees, given explicitly. Main fills it from the operating
// system; a test fills it itself and runs the CLI inside its own process
// (cmd/orc-state's scenarios). Nothing a run reads from the world comes
// from anywhere else: no verb reads os.Getenv, os.Getwd or the real
// clock behind the Process's back, and no package variable is written
// after start-up.
type Process struct {
	Args           []string
	Stdin          io.Reader
	Stdout, Stderr io.Writer
	// Environ is the environment, KEY=VALUE (os.Environ). A global flag's
	// variable that is set but empty counts as unset, as in the original.
	Environ environ.List
	// Dir is the working directory, absolute.
	Dir string
	// Stamp is the time recorded timestamps carry (the journal's at,
	// updatedAt, generatedAt, archives, progress headings); nil is the
	// real time. A test fixes it to compare states byte for byte.
	Stamp func() time.Time
	// Now is the time slice claims are judged by (when a lease ends,
	// whether a claim is live); nil is the real time.
	Now func() time.Time
	// PlaceWait is the longest a statusline render waits for git on a
	// cache miss; past it the render shows the dirty state unknown ("?") and
	// the detached refresher fills the cache for the next render. Zero is
	// the production wait, defaultPlaceWait.
	PlaceWait time.Duration
	// Executable is the program the statusline's detached refresher
	// runs (as "orc-state statusline --refresh-place ..."); "" is this
	// process's own program.
	Executable string
}

// defaultPlaceWait is a render's wait for git on a cache miss.
const defaultPlaceWait = 30 * time.Millisecond

// Main runs orc-state with args and the process's own environment,
// working directory and clock, and returns the exit code.
func Main(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	wd, err := os.Getwd()
	if err != nil {
		wd = "." // every path is then relative to a directory that is gone: discovery says so
	}
	return Run(Process{Args: args, Stdin: stdin, Stdout: stdout, Stderr: stderr, Environ: environ.OS(), Dir: wd})
}

// settled is p with its defaults filled in and the empty-variable rule
// applied to its environment.
func (p Process) settled() *Process {
	if p.Now == nil {
		p.Now = time.Now
	}
	if p.Stamp == nil {
		p.Stamp = time.Now
	}
	if p.PlaceWait == 0 {
		p.PlaceWait = defaultPlaceWait
	}
	if p.Dir == "" {
		p.Dir = "."
	}
	empty := map[string]bool{}
	for _, name := range globalTags("envvar") {
		if v, ok := p.Environ.Lookup(name); ok && v == "" {
			empty[name] = true
		}
	}
	if len(empty) > 0 {
		p.Environ = p.Environ.Without(func(k string) bool { return empty[k] })
	}
	return &p
}

// getenv returns the value of a variable of the run's environment.
func (p *Process) getenv(key string) string { return p.Environ.Get(key) }

// executable is the program the detached refresher runs.
func (p *Process) executable() (string, error) {
	if p.Executable != "" {
		return p.Executable, nil
	}
	return os.Executable()
}

// tempDir is the directory for temporary files, as os.TempDir finds it
// from the run's environment ($TMPDIR, else /tmp; Windows asks the system).
func (p *Process) tempDir() string {
	if runtime.GOOS == "windows" {
		return os.TempDir()
	}
	if d := p.getenv("TMPDIR"); d != "" {
		return d
	}
	return "/tmp"
}

// homeDir is the user's home directory, as os.UserHomeDir finds it from
// the run's environment ($HOME; %USERPROFILE% on Windows); "" when unset.
func (p *Process) homeDir() string {
	if runtime.GOOS == "windows" {
		return p.getenv("USERPROFILE")
	}
	return p.getenv("HOME")
}
