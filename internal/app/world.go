package app

import (
	"path/filepath"
	"time"

	"github.com/orc-state/orc-state/internal/atomicfile"
	"github.com/orc-state/orc-state/internal/environ"
	"github.com/orc-state/orc-state/internal/fault"
	"github.com/orc-state/orc-state/registry"
)

// World is what a verb reads of its run besides its streams: the
// environment, the working directory, which a hook moves to its payload's
// cwd (nothing else of the process moves), and the two clocks. Nothing a
// verb reads of the world comes from anywhere else: no os.Getenv, os.Getwd
// or real clock behind the run's back.
type World struct {
	environ environ.List
	wd      string
	stamp   func() time.Time
	now     func() time.Time
}

// NewWorld is a run's world: its environment, its absolute working
// directory, the clock recorded timestamps carry (stamp) and the one
// slice claims are judged by (now).
func NewWorld(env environ.List, wd string, stamp, now func() time.Time) *World {
	return &World{environ: env, wd: wd, stamp: stamp, now: now}
}

// Environ is the run's environment.
func (w *World) Environ() environ.List { return w.environ }

// Getenv returns a variable of the run's environment.
func (w *World) Getenv(key string) string { return w.environ.Get(key) }

// Wd is the run's working directory.
func (w *World) Wd() string { return w.wd }

// Now is the time claims are judged by.
func (w *World) Now() time.Time { return w.now() }

// Stamp is the run's recorded time now, as timestamps are written.
func (w *World) Stamp() string { return registry.Stamp(w.stamp()) }

// StampClock is the clock recorded timestamps carry.
func (w *World) StampClock() func() time.Time { return w.stamp }

// Abs makes a path the user gave absolute against the run's working
// directory, and clean, as filepath.Abs does against the process's.
func (w *World) Abs(path string) string {
	switch {
	case path == "":
		return ""
	case filepath.IsAbs(path):
		return filepath.Clean(path)
	}
	return filepath.Join(w.wd, path)
}

// TruncatedRead is the refusal for r, a panic recovered from a run, when
// it is a memory fault: a large orc.json is read through a mapping
// (atomicfile.ReadOnly), and when another program truncates it in place
// meanwhile, reading the lost pages faults (with debug.SetPanicOnFault
// set). Nothing has been written at that point (a transaction reads and
// plans before its first write), so it is invalid state, exit 3. nil for
// any other panic, which is orc-state's bug.
func TruncatedRead(r any) error {
	if !atomicfile.IsFault(r) {
		return nil
	}
	return fault.Invalidf("a file under .orc/ was truncated in place by another program while orc-state read it; nothing was written").
		WithHint("run the command again, then orc-state doctor if it persists")
}
