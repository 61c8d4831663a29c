// Command orc-state is the single writer of a repository's .orc/ workflow
// state. See the README for the verbs.
package main

import (
	"os"
	"runtime/debug"

	"github.com/orc-state/orc-state/internal/atomicfile"
	"github.com/orc-state/orc-state/internal/cli"
)

// heapLimit is where the collector starts: below it a process never
// collects (see tuneGC). The limit counts all of the runtime's memory, not
// just the heap; 20 MiB lets a mutation at 10,000 sessions (orc.json read,
// then rewritten: about 9 MB of heap) finish without a collection, which
// cost it 30 ms, while peak RSS stays within the budget (4 x orc.json + 16 MiB).
const heapLimit = 20 << 20

func main() {
	tuneGC()
	code := cli.Main(os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
	atomicfile.WriteCounts(os.Getenv) // fsyncs and processes started, for the bench (ORC_COUNT_FILE)
	os.Exit(code)
}

// tuneGC sets the collector for a short-lived process: every hook,
// statusline render and agent call is a fresh orc-state that exits within
// milliseconds, so a collection costs time and frees memory that exit
// frees anyway. The collector runs only when the heap nears heapLimit (a
// verb over a very large registry), so peak memory stays bounded. GOGC or
// GOMEMLIMIT in the environment wins.
func tuneGC() {
	if os.Getenv("GOGC") != "" || os.Getenv("GOMEMLIMIT") != "" {
		return
	}
	debug.SetGCPercent(-1)
	debug.SetMemoryLimit(heapLimit)
}
