// Package safetext makes text taken from data safe to print and to paste:
// [Escape] is the one rule for showing a name or a value from data in
// human-readable output (a terminal never sees a control sequence, and no
// line break or reordering is forged), and [Quote] is the one rule for an
// argument interpolated into a suggested command (a `next:` or `hint:`
// line), so that pasting the command into a POSIX shell runs exactly it.
// JSON output is neither: its encoder escapes what JSON must.
package safetext

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Escape returns s with every character that could drive a terminal or
// forge a line shown as an escape: the C0 controls and DEL as \t, \n, \r
// or \xNN, the C1 controls (U+0085 included), the invisible format
// characters (category Cf: the bidirectional controls U+061C, U+200E,
// U+200F, U+202A to U+202E, U+2066 to U+2069, the zero-width characters
// U+200B to U+200D and U+2060, the byte order mark U+FEFF, the soft
// hyphen) and the line and paragraph separators (U+2028, U+2029) as
// \uXXXX, and
// each byte of invalid UTF-8 as \xNN. Everything else, backslashes
// included, is kept: the result is for reading, not for parsing back.
func Escape(s string) string {
	i := 0
	for i < len(s) {
		r, size := utf8.DecodeRuneInString(s[i:])
		if shown(r, size) {
			break
		}
		i += size
	}
	if i == len(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 8)
	b.WriteString(s[:i])
	for i < len(s) {
		r, size := utf8.DecodeRuneInString(s[i:])
		if !shown(r, size) {
			b.WriteString(s[i : i+size])
			i += size
			continue
		}
		switch {
		case r == utf8.RuneError && size == 1:
			b.WriteString(`\x`)
			b.WriteString(hex2(s[i]))
		case r == '\t':
			b.WriteString(`\t`)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\r':
			b.WriteString(`\r`)
		case r < utf8.RuneSelf:
			b.WriteString(`\x`)
			b.WriteString(hex2(byte(r)))
		default:
			b.WriteString(`\u`)
			h := strconv.FormatUint(uint64(r), 16)
			b.WriteString(strings.Repeat("0", max(0, 4-len(h))) + h)
		}
		i += size
	}
	return b.String()
}

// Clip is s [Escape]d and capped at n runes (n at least 1), its last one
// an ellipsis when it was longer: a line of a bounded display.
func Clip(s string, n int) string {
	s = Escape(s)
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return string(r[:n-1]) + "…"
}

// shown reports whether the rune (of size bytes) is shown escaped.
func shown(r rune, size int) bool {
	if r < utf8.RuneSelf {
		return r < 0x20 || r == 0x7f
	}
	return r == utf8.RuneError && size == 1 || unicode.IsControl(r) ||
		unicode.Is(unicode.Cf, r) || r == '\u2028' || r == '\u2029'
}

func hex2(c byte) string {
	const digits = "0123456789abcdef"
	return string([]byte{digits[c>>4], digits[c&0xf]})
}

// Quote returns arg as one word for a POSIX shell: unchanged when it is
// made only of characters no shell treats specially (letters, digits and
// _ @ % + = : , . / -) and is not empty, otherwise in single quotes, each
// single quote inside it ending the quoted part, escaped, and reopening:
//
//	o$(touch x)  →  'o$(touch x)'
//	it's         →  'it'\''s'
//
// Inside single quotes a shell expands nothing ($(...), backquotes, $VAR,
// globs, ~), so the pasted word is arg itself.
//
// An arg holding a character [Escape] shows escaped (a control, a bidi or
// zero-width character, a line separator, invalid UTF-8) cannot be both
// shown safely and pasted as itself: the escaped text would name another
// value. Such an arg is never given as a pasteable word: Quote returns
// (unpastable:ESCAPED), which shows the value escaped and which no shell
// parses (an unquoted "(" inside a word is a syntax error), so the
// suggested command runs nothing; [Unpastable] tells the two apart. The
// value is reached another way (its --json output, a listing that selects
// it).
func Quote(arg string) string {
	if arg != "" && strings.IndexFunc(arg, special) < 0 {
		return arg
	}
	if Escape(arg) != arg {
		return unpastable + Escape(arg) + ")"
	}
	return "'" + strings.ReplaceAll(arg, "'", `'\''`) + "'"
}

// unpastable begins what Quote returns for a value that cannot be pasted.
const unpastable = "(unpastable:"

// Unpastable reports whether a suggested command holds a value Quote
// refused to give as a pasteable word.
func Unpastable(command string) bool { return strings.Contains(command, unpastable) }

// special reports a character Quote does not leave bare.
func special(r rune) bool {
	switch {
	case 'a' <= r && r <= 'z', 'A' <= r && r <= 'Z', '0' <= r && r <= '9':
		return false
	}
	return !strings.ContainsRune("_@%+=:,./-", r)
}

// MaxName bounds a slice id or a decision key of the safe alphabet, in
// bytes.
const MaxName = 128

// Alphabet describes the safe alphabet, for messages and documents.
const Alphabet = "A-Z a-z 0-9 . _ -, starting with a letter or digit"

// NameProblem says why s is not a name of the safe alphabet of at most max
// bytes (new slice ids and decision keys, MaxName; each part of a new
// artifact name; docs/protocol.md §4, "Names"), "" when it is one. Such a
// name is shown and pasted as itself: [Escape] and [Quote] leave it
// unchanged, and it cannot pass for a flag.
func NameProblem(s string, max int) string {
	switch {
	case s == "":
		return "is empty"
	case len(s) > max:
		return "is longer than " + strconv.Itoa(max) + " characters"
	case !alnum(s[0]):
		return "does not start with a letter or digit"
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; !alnum(c) && c != '.' && c != '_' && c != '-' {
			r, _ := utf8.DecodeRuneInString(s[i:])
			return "has " + strconv.QuoteRune(r) + ", outside A-Z a-z 0-9 . _ -"
		}
	}
	return ""
}

func alnum(c byte) bool { return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' }

// Operand is arg as the last operand of a suggested command: [Quote]d,
// and after "--" when it begins with "-", so that a value from data (an
// orphan folder named -rf) never reads as a flag where the command takes
// it as a positional argument.
func Operand(arg string) string {
	if strings.HasPrefix(arg, "-") {
		return "-- " + Quote(arg)
	}
	return Quote(arg)
}
