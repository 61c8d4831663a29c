package archive

import (
	"regexp"
	"strings"
)

// timeArg is the <time> of an archive's name as a user may type it after
// ID@ or as --at: YYYYMMDDTHHMMSSZ, optionally -N.
var timeArg = regexp.MustCompile(`^[0-9]{8}T[0-9]{6}Z(-[0-9]+)?$`)

// IsTimeArg reports whether t has the shape of an archive name's <time>
// (checked for a real time only when an archive is picked by it).
func IsTimeArg(t string) bool { return timeArg.MatchString(t) }

// SplitArg splits ID[@TIME], the archive a restore names: the part after
// the last @ is a time only when it has that shape (an @ is otherwise
// part of the ID).
func SplitArg(arg string) (id, at string) {
	if i := strings.LastIndexByte(arg, '@'); i >= 0 && IsTimeArg(arg[i+1:]) {
		return arg[:i], arg[i+1:]
	}
	return arg, ""
}
