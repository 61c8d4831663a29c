//go:build !unix

package board

import "os"

// notifyResize does nothing where there is no SIGWINCH: every tick
// draws at the terminal's current size.
func notifyResize(chan os.Signal) {}
