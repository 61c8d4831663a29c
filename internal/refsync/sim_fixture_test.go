package refsync_test

import (
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/orc-state/orc-state/internal/clitest"
)

// TestMain is a binary that doubles as orc-state (clitest.Main): what the
// sync scenarios' `exec orc-state` runs, and the simulation's real
// processes (started with orc-state's arguments, to kill them or run two
// at once) without building anything.
func TestMain(m *testing.M) { clitest.Main(m) }

// templates are the git fixtures of the package, built once per object
// format and copied for each world: a bare remote and three clones, each
// with a first commit and the sessions' branches. Building them is most
// of a world's git processes; copying is a few file writes.
var templates struct {
	sync.Mutex
	root string
	dirs map[string]string // format → template dir
}

// template returns the fixture dir of a format, building it on first use.
func template(format string) (string, error) {
	templates.Lock()
	defer templates.Unlock()
	if dir, ok := templates.dirs[format]; ok {
		return dir, nil
	}
	if templates.root == "" {
		// Under the test run's temp dir, removed after the last test.
		root := filepath.Join(clitest.Root(), "sim-templates")
		if err := os.MkdirAll(root, 0o755); err != nil {
			return "", err
		}
		templates.root, templates.dirs = root, map[string]string{}
	}
	dir := filepath.Join(templates.root, format)
	bare := filepath.Join(dir, "remote.git")
	steps := [][]string{
		{"init", "-q", "--bare", "--template=", "--object-format=" + format, bare},
		{"-C", bare, "config", "receive.autogc", "false"},
	}
	for i := 0; i < 3; i++ {
		m := filepath.Join(dir, fmt.Sprintf("m%d", i))
		steps = append(steps,
			[]string{"init", "-q", "--template=", "-b", "main", "--object-format=" + format, m},
			[]string{"-C", m, "remote", "add", "origin", "../remote.git"},
			[]string{"-C", m, "config", "gc.auto", "0"},
			[]string{"-C", m, "commit", "-q", "--allow-empty", "-m", "base"})
		for _, s := range simSessions {
			steps = append(steps, []string{"-C", m, "branch", s})
		}
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	for _, args := range steps {
		if _, err := git(dir, args...); err != nil {
			return "", err
		}
	}
	templates.dirs[format] = dir
	return dir, nil
}
