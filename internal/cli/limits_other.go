//go:build !unix

package cli

// fileLimit is unknown here: Windows has no per-process open-file limit
// of the kind ulimit -n sets.
func fileLimit() (n int64, ok bool) { return 0, false }
