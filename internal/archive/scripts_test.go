package archive_test

import (
	"testing"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/orc-state/orc-state/internal/clitest"
)

// TestMain runs the package's tests in a binary that doubles as orc-state
// (clitest.Main), for the scenarios' `exec orc-state`.
func TestMain(m *testing.M) { clitest.Main(m) }

// TestScripts runs the CLI scenarios of the archives (testdata/script:
// archive_*.txtar, the archives of the removing verbs, listed and checked;
// doctor_*, repair_*, workspace_*: doctor's findings and repair of what
// removal leaves) with the scenario commands every CLI scenario has
// (clitest.Scripts). Those of the removing verbs themselves are beside
// internal/removal.
func TestScripts(t *testing.T) {
	t.Parallel()
	testscript.Run(t, clitest.Scripts("testdata/script"))
}
