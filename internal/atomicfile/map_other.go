//go:build !linux

package atomicfile

import "os"

// mapThreshold: [ReadOnly] maps nothing here.
const mapThreshold = 1 << 62

// mapFile is never used off Linux.
func mapFile(*os.File, int) ([]byte, bool) { return nil, false }
