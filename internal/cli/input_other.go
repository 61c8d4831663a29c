//go:build !unix

package cli

import "os"

// openInput opens a FILE argument for reading.
func openInput(path string) (*os.File, error) { return os.Open(path) }
