//go:build unix

package atomicfile

import "syscall"

// oNoFollow makes open(2) fail with ELOOP instead of following a symlink in
// the last path element.
const oNoFollow = syscall.O_NOFOLLOW
