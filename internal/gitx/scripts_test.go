package gitx_test

import (
	"testing"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/orc-state/orc-state/internal/clitest"
	"github.com/orc-state/orc-state/internal/gitx"
)

// TestMain runs the package's tests in a binary that doubles as orc-state
// (clitest.Main), for the scenarios' `exec orc-state`.
func TestMain(m *testing.M) { clitest.Main(m, gitx.SetUpTests) }

// TestScripts runs the CLI scenarios of git's facts
// (testdata/script/<verb>_<topic>.txtar, git_<shape>.txtar: what the verbs
// say about HEAD, the suite sha, committed slices and a dirty tree in each
// repository shape) with
// the scenario commands every CLI scenario has (clitest.Scripts).
func TestScripts(t *testing.T) {
	t.Parallel()
	testscript.Run(t, clitest.Scripts("testdata/script"))
}
