//go:build !linux

package registry

// populate leaves b's pages to fault in as they are written: only Linux
// can be asked to fault a range in ahead.
func populate([]byte) {}
