package archive_test

import (
	"testing"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/orc-state/orc-state/internal/clitest"
)

// TestMain runs the package's tests in a binary that doubles as orc-state
// (clitest.Main), for the scenarios' `exec orc-state`.
func TestMain(m *testing.M) { clitest.Main(m) }

// TestScripts runs the CLI scenarios of removal and its sweeps
// (testdata/script: archive_*.txtar, the archives of session remove and
// their restore; sweep_*.txtar, cleanup, doctor's findings and repair of
// what removal leaves) with the scenario commands every CLI scenario has
// (clitest.Scripts).
func TestScripts(t *testing.T) {
	t.Parallel()
	testscript.Run(t, clitest.Scripts("testdata/script"))
}
