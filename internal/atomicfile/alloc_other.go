//go:build !linux

package atomicfile

import "os"

// preallocate is a no-op where the Linux reason for it does not apply.
func preallocate(*os.File, int) {}
