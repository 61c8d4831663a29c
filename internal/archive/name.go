package archive

import (
	"regexp"
	"strings"
	"sync"
)

// timeArg is the <time> of an archive's name as a user may type it after
// ID@ or as --at: YYYYMMDDTHHMMSSZ, optionally -N. It is compiled on first
// use: start-up, which every hook and statusline render pays, compiles
// nothing a verb may not need.
var timeArg = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[0-9]{8}T[0-9]{6}Z(-[0-9]+)?$`) })

// IsTimeArg reports whether t has the shape of an archive name's <time>
// (checked for a real time only when an archive is picked by it).
func IsTimeArg(t string) bool { return timeArg().MatchString(t) }

// SplitArg splits ID[@TIME], the archive a restore names: the part after
// the last @ is a time only when it has that shape (an @ is otherwise
// part of the ID).
func SplitArg(arg string) (id, at string) {
	if i := strings.LastIndexByte(arg, '@'); i >= 0 && IsTimeArg(arg[i+1:]) {
		return arg[:i], arg[i+1:]
	}
	return arg, ""
}
