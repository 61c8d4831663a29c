// Package hexid is the one check of a hex object id (a git commit sha, in
// full or abbreviated): the registry's, checkpoint's, ledger's and git
// package's readers all spell it the same way.
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
