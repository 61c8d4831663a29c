package safetext

import (
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/width"
)

// Cells is how many terminal columns r takes: 2 for East Asian wide and
// fullwidth characters (CJK, most emoji), 0 for combining marks and other
// invisible format characters, 1 otherwise.
func Cells(r rune) int {
	switch {
	case r < utf8.RuneSelf:
		return 1
	case unicode.In(r, unicode.Mn, unicode.Me, unicode.Cf):
		return 0
	}
	switch width.LookupRune(r).Kind() {
	case width.EastAsianWide, width.EastAsianFullwidth:
		return 2
	}
	return 1
}

// Width is how many terminal columns s takes.
func Width(s string) int {
	n := 0
	for _, r := range s {
		n += Cells(r)
	}
	return n
}
