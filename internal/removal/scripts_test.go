package removal_test

import (
	"testing"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/orc-state/orc-state/internal/clitest"
)

// TestMain runs the package's tests in a binary that doubles as orc-state
// (clitest.Main), for the scenarios' `exec orc-state`.
func TestMain(m *testing.M) { clitest.Main(m) }

// TestScripts runs the CLI scenarios of the removing verbs
// (testdata/script: session_remove_*, session_restore_*, cleanup_*, and
// digest_restore_*, a replaced digest kept and brought back) with the
// scenario commands every CLI scenario has (clitest.Scripts).
func TestScripts(t *testing.T) {
	t.Parallel()
	testscript.Run(t, clitest.Scripts("testdata/script"))
}
