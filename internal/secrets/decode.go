package secrets

import (
	"bytes"
	"strconv"
	"unicode/utf16"
	"unicode/utf8"
)

// Decoded returns the readings of text that a program reading it back
// would see, when they differ from text: backslash escapes decoded (JSON's
// \uXXXX with surrogate pairs, \/ and \n..., YAML's and Go's \xXX and
// \UXXXXXXXX), again on the result while that changes anything (a quoted
// quote: "\\u0067"), up to maxRounds times; then percent escapes (URLs)
// decoded from the last of those. A credential stored as "\u0067hp_…" or
// "wJal…\/K7MDENG\/…" is the credential to every JSON reader; scanning
// only the raw bytes would let it through.
func Decoded(text []byte) [][]byte {
	var views [][]byte
	base := text
	for range maxRounds {
		if bytes.IndexByte(base, '\\') < 0 {
			break
		}
		u := unescape(base)
		if bytes.Equal(u, base) {
			break
		}
		views = append(views, u)
		base = u
	}
	if bytes.IndexByte(base, '%') >= 0 {
		if p := unpercent(base); !bytes.Equal(p, base) {
			views = append(views, p)
		}
	}
	return views
}

// maxRounds bounds how many layers of backslash escapes Decoded peels.
const maxRounds = 3

// unescape decodes backslash escapes wherever they occur; a backslash
// that starts no escape is kept.
func unescape(b []byte) []byte {
	out := make([]byte, 0, len(b))
	for i := 0; i < len(b); i++ {
		c := b[i]
		if c != '\\' || i+1 == len(b) {
			out = append(out, c)
			continue
		}
		switch e := b[i+1]; e {
		case '"', '\\', '/', '\'':
			out = append(out, e)
			i++
		case 'n':
			out = append(out, '\n')
			i++
		case 't':
			out = append(out, '\t')
			i++
		case 'r':
			out = append(out, '\r')
			i++
		case 'b':
			out = append(out, '\b')
			i++
		case 'f':
			out = append(out, '\f')
			i++
		case 'x':
			if v, ok := hexAt(b, i+2, 2); ok {
				out = append(out, byte(v))
				i += 3
			} else {
				out = append(out, c)
			}
		case 'u':
			v, ok := hexAt(b, i+2, 4)
			if !ok {
				out = append(out, c)
				continue
			}
			i += 5
			r := rune(v)
			if utf16.IsSurrogate(r) && i+6 < len(b) && b[i+1] == '\\' && b[i+2] == 'u' {
				if lo, ok := hexAt(b, i+3, 4); ok {
					if pair := utf16.DecodeRune(r, rune(lo)); pair != utf8.RuneError {
						r = pair
						i += 6
					}
				}
			}
			out = utf8.AppendRune(out, r)
		case 'U':
			if v, ok := hexAt(b, i+2, 8); ok && utf8.ValidRune(rune(v)) {
				out = utf8.AppendRune(out, rune(v))
				i += 9
			} else {
				out = append(out, c)
			}
		default:
			out = append(out, c)
		}
	}
	return out
}

// unpercent decodes %XX escapes wherever they occur; a % that starts no
// escape is kept.
func unpercent(b []byte) []byte {
	out := make([]byte, 0, len(b))
	for i := 0; i < len(b); i++ {
		if b[i] == '%' {
			if v, ok := hexAt(b, i+1, 2); ok {
				out = append(out, byte(v))
				i += 2
				continue
			}
		}
		out = append(out, b[i])
	}
	return out
}

// hexAt parses n hex digits at b[at:].
func hexAt(b []byte, at, n int) (uint64, bool) {
	if at+n > len(b) {
		return 0, false
	}
	v, err := strconv.ParseUint(string(b[at:at+n]), 16, 32)
	return v, err == nil
}
