package cli

import (
	"os"
	"strings"
	"testing"
)

// TestMain runs the tests, unless this binary was started as the program
// a run starts (os.Executable: the statusline's refresher, for one),
// with orc-state's arguments rather than go test's: then it is the CLI,
// so such a start never runs the tests again.
func TestMain(m *testing.M) {
	if len(os.Args) > 1 && !strings.HasPrefix(os.Args[1], "-test.") {
		os.Exit(Main(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
	}
	os.Exit(m.Run())
}
