// Package hexid is the one check of a hex object id (a git commit sha, in
// full or abbreviated): the registry's, checkpoint's, ledger's and git
// package's readers all spell it the same way; and Short, how a message
// shortens one.
package hexid

// Valid reports whether s is min to max hex digits, in either case.
func Valid(s string, min, max int) bool {
	if len(s) < min || len(s) > max {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F') {
			return false
		}
	}
	return true
}

// The commit ids orc-state accepts wherever a sha is claimed: an
// abbreviation of at least MinCommit digits, up to a full SHA-256 id (a
// SHA-1 id has 40).
const (
	MinCommit = 7
	MaxCommit = 64
)

// Commit reports whether s can name a commit: 7 to 64 hex digits, any case.
func Commit(s string) bool { return Valid(s, MinCommit, MaxCommit) }

// Short is sha as a message shows it: its first 12 digits, or all of a
// shorter one.
func Short(sha string) string {
	if len(sha) > 12 {
		return sha[:12]
	}
	return sha
}
