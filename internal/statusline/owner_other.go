//go:build !unix

package statusline

import (
	"io/fs"
	"os"
	"strings"
)

// privateName is the private directory's name: one per user. The temp dir
// is already per user on Windows; the name keeps users apart elsewhere.
func privateName() string {
	name := strings.Map(func(r rune) rune {
		if r < 0x80 && (r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9') {
			return r
		}
		return '_'
	}, os.Getenv("USERNAME"))
	return "orc-state-" + name
}

// isPrivate checks only that fi is a directory: Windows has no mode bits
// to check, and its temp dir is the user's own.
func isPrivate(fi fs.FileInfo) bool { return fi.IsDir() }
