package refsync_test

import (
	"testing"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/orc-state/orc-state/internal/clitest"
)

// TestScripts runs the CLI scenarios of sync (testdata/script/sync_<verb>_*.txtar:
// push, pull, status, resolve, restore against real bare remotes) with the
// scenario commands every CLI scenario has (clitest.Scripts).
func TestScripts(t *testing.T) {
	t.Parallel()
	testscript.Run(t, clitest.Scripts("testdata/script"))
}
