package checkpoint

import "bytes"

// The two readers below are quick reads of an Auto-checkpoint's HEAD line
// and a digest's Suite line, without the full parse. They stand for
// multi-line regexps with a {7,64} repeat, which the statusline and the
// session picker used to compile on every call: half a million
// instructions, more than the rest of a statusline render. TestShaLinesAgreeWithRegexps (and its fuzz target) holds them to
// the regexps.

// AutoHeadSHA is the sha of an Auto-checkpoint's HEAD line, as
// `(?m)^- HEAD: (?:detached at )?([0-9a-f]{7,64})\b` finds it; "" if none.
func AutoHeadSHA(text []byte) string {
	for line := range bytes.Lines(text) {
		rest, ok := bytes.CutPrefix(line, []byte("- HEAD: "))
		if !ok {
			continue
		}
		if detached, ok := bytes.CutPrefix(rest, []byte("detached at ")); ok {
			if sha := leadingSHA(detached, false); sha != "" {
				return sha
			}
		}
		if sha := leadingSHA(rest, false); sha != "" {
			return sha
		}
	}
	return ""
}

// SuiteSHA is the sha of a digest's Suite line, as
// `(?m)^- Suite: \S+ @ ([0-9a-fA-F]{7,64})\b` finds it; "" if none.
func SuiteSHA(text []byte) string {
	for line := range bytes.Lines(text) {
		rest, ok := bytes.CutPrefix(line, []byte("- Suite: "))
		if !ok {
			continue
		}
		word := bytes.IndexAny(rest, " \t\n\f\r") // \S+ ends at the first space
		if word <= 0 {
			continue
		}
		if after, ok := bytes.CutPrefix(rest[word:], []byte(" @ ")); ok {
			if sha := leadingSHA(after, true); sha != "" {
				return sha
			}
		}
	}
	return ""
}

// leadingSHA is the 7 to 64 hex digits b starts with when no word
// character follows them, else "". Upper-case digits count when upper.
func leadingSHA(b []byte, upper bool) string {
	n := 0
	for n < len(b) && n <= 64 && isHexDigit(b[n], upper) {
		n++
	}
	if n < 7 || n > 64 || (n < len(b) && isWordByte(b[n])) {
		return ""
	}
	return string(b[:n])
}

func isHexDigit(c byte, upper bool) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || upper && 'A' <= c && c <= 'F'
}

// isWordByte is regexp's \w: an ASCII letter, digit or underscore.
func isWordByte(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || c == '_'
}
