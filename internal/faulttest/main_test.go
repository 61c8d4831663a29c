package faulttest

import (
	"testing"

	"github.com/orc-state/orc-state/internal/atomicfile"
	"github.com/orc-state/orc-state/internal/clitest"
)

// TestMain is the shared test binary that doubles as orc-state
// (clitest.Main), with fault injection's router as the fault hook (as
// orc-state, the seams from the environment replace it).
func TestMain(m *testing.M) {
	atomicfile.Fault = faultSteps.step
	clitest.Main(m)
}
