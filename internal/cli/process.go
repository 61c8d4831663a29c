package cli

import (
	"io"
	"os"
	"path/filepath"
	"runtime"
	"time"

	"github.com/orc-state/orc-state/internal/atomicfile"
	"github.com/orc-state/orc-state/internal/environ"
	"github.com/orc-state/orc-state/registry"
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
	code := Run(Process{Args: args, Stdin: stdin, Stdout: stdout, Stderr: stderr, Environ: environ.OS(), Dir: wd})
	atomicfile.WriteCounts(os.Getenv) // fsyncs and processes, for the bench (ORC_COUNT_FILE)
	return code
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

// World is what a verb reads of its run besides the streams: the
// environment, the two clocks and the working directory, which a hook
// moves to its payload's cwd (nothing else of the process moves); proc
// for the little only a few verbs read (a terminal, the executable).
type World struct {
	proc *Process
	wd   string
}

// getenv returns a variable of the run's environment.
func (w *World) getenv(key string) string { return w.proc.getenv(key) }

// now is the time claims are judged by.
func (w *World) now() time.Time { return w.proc.Now() }

// stamp is the run's recorded time now, as timestamps are written.
func (w *World) stamp() string { return registry.Stamp(w.proc.Stamp()) }

// abs makes a path the user gave absolute against the run's working
// directory, and clean, as filepath.Abs does against the process's.
func (w *World) abs(path string) string {
	switch {
	case path == "":
		return ""
	case filepath.IsAbs(path):
		return filepath.Clean(path)
	}
	return filepath.Join(w.wd, path)
}
