//go:build unix

package board

import (
	"os"
	"os/signal"
	"syscall"
)

// notifyResize sends on c when the terminal is resized.
func notifyResize(c chan os.Signal) { signal.Notify(c, syscall.SIGWINCH) }
