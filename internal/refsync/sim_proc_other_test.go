//go:build !unix

package refsync_test

import (
	"bytes"
	"errors"
)

// realProcesses: the fault steps need process groups and POSIX hooks;
// elsewhere they run as their plain counterparts.
const realProcesses = false

type proc struct{ out, err bytes.Buffer }

func start(dir, actor, pidFile string, args ...string) (*proc, error) {
	return nil, errors.New("no process groups here")
}

func (p *proc) wait() int { return -2 }

func killBeforeSendHook(pidFile string) string      { return "" }
func killAfterAcceptHook(pidFile string) string     { return "" }
func refHook(arm, pidFile string, kill bool) string { return "" }
func installHook(dir, name, script string) error    { return nil }
func testProcessIDs() []string                      { return nil }

const holdHook = ""
