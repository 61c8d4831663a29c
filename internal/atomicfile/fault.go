package atomicfile

import "io/fs"

// Op names one file-system step, as [Fault] sees it.
type Op string

// The steps. Each write a transaction makes is one of them.
const (
	OpMkdir      Op = "mkdir"       // create a directory
	OpCreate     Op = "create"      // create a temp file (or a probe)
	OpWrite      Op = "write"       // write a temp file's content
	OpSync       Op = "fsync"       // fsync a file
	OpSyncDir    Op = "fsync-dir"   // fsync a directory
	OpSyncFS     Op = "syncfs"      // flush the whole file system a root is on (Linux)
	OpRename     Op = "rename"      // rename a temp file or a folder over its target
	OpOpenAppend Op = "open-append" // open an append-only file for writing
	OpAppend     Op = "append"      // write at the end of an append-only file
	OpTruncate   Op = "truncate"    // cut an append-only file back to a length
	OpRemove     Op = "remove"      // delete a file or an empty directory
	OpGit        Op = "git"         // a git command that writes objects or refs (an archive)
)

// Fault, when set, is called before every step with the step and the path
// it acts on; a non-nil result is returned as that step's error. It is a
// test seam: production code never sets it.
var Fault func(op Op, path string) error

// Seam runs the fault hook for a step taken outside this package (a git
// command writing an archive, its path the ref it creates), so that fault
// injection reaches it too.
func Seam(op Op, path string) error { return step(op, path) }

// step runs the fault hook for one step.
func step(op Op, path string) error {
	if Fault == nil {
		return nil
	}
	if err := Fault(op, path); err != nil {
		return &fs.PathError{Op: string(op), Path: path, Err: err}
	}
	return nil
}
