//go:build !unix

package gitx

import (
	"io/fs"
	"os/exec"
)

// killProcessGroupOnCancel keeps exec's default (kill the process only).
func killProcessGroupOnCancel(*exec.Cmd) {}

// deviceOf is unknown here: discovery does not stop at file-system
// boundaries (git for Windows does not either).
func deviceOf(string) (uint64, bool) { return 0, false }

// isNotDir: Windows reports a path through a file as "not found".
func isNotDir(error) bool { return false }

// lookPath finds name as exec.LookPath does (PATHEXT, the current
// directory's rules). Windows' search is the operating system's own, so
// it uses the process's PATH: an environment that names another PATH is a
// test's, and those run on Unix.
func lookPath(_, name string) string {
	p, err := exec.LookPath(name)
	if err != nil {
		return ""
	}
	return p
}

// ownedByMe is unknown here (git for Windows compares owners by SID): git
// is asked instead.
func ownedByMe(fs.FileInfo) bool { return false }
