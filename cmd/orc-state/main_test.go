package main

import (
	"testing"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/orc-state/orc-state/internal/clitest"
)

// TestMain is the shared test binary that doubles as orc-state
// (clitest.Main).
func TestMain(m *testing.M) { clitest.Main(m) }

// TestScripts runs the CLI scenarios in testdata/script against real git
// repositories and files in a temp dir: `orc-state ...` runs the CLI in
// this process, `exec orc-state ...` as a real process (clitest.Scripts).
// The scenarios of sync are beside internal/refsync, those of git's facts
// beside internal/gitx, those of removal and its sweeps beside
// internal/archive.
func TestScripts(t *testing.T) {
	t.Parallel()
	testscript.Run(t, clitest.Scripts("testdata/script"))
}
