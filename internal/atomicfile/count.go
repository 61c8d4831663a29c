package atomicfile

import (
	"fmt"
	"os"
	"sync/atomic"
)

// The counters of what makes a mutation slow: every fsync this package
// issues (files and directories alike) and every process orc-state starts
// (git). They count from the process's start; [WriteCounts] reports them.
var (
	syncs     atomic.Int64
	processes atomic.Int64
)

// CountEnv names the environment variable that makes a run report its
// counters when it exits: the file it names gets one line appended,
// "fsyncs N processes M". It is how `go run ./bench` counts fsyncs per verb
// (docs/performance.md); nothing else reads it.
const CountEnv = "ORC_COUNT_FILE"

// Syncs is how many fsyncs the process has issued so far.
func Syncs() int64 { return syncs.Load() }

// Processes is how many processes the process has started so far.
func Processes() int64 { return processes.Load() }

// NoteProcess counts one process started (the git runner calls it).
func NoteProcess() { processes.Add(1) }

// fsync syncs f and counts it: the one place a file or folder is fsynced.
func fsync(f *os.File) error {
	syncs.Add(1)
	return f.Sync()
}

// WriteCounts appends the counters to the file named by CountEnv, when it
// is set: best effort, at the end of a run.
func WriteCounts(getenv func(string) string) {
	path := getenv(CountEnv)
	if path == "" {
		return
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
	if err != nil {
		return
	}
	fmt.Fprintf(f, "fsyncs %d processes %d\n", Syncs(), Processes())
	_ = f.Close()
}
