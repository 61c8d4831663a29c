package proctest

import (
	"testing"

	"github.com/orc-state/orc-state/internal/clitest"
)

// TestMain is the shared test binary that doubles as orc-state
// (clitest.Main).
func TestMain(m *testing.M) { clitest.Main(m) }
