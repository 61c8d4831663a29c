package decisions

import (
	"bytes"
	"encoding/json"
	"sort"
	"strconv"
	"unicode/utf8"
)

// Marshal's encoder, written by hand: encoding/json builds its encoder for
// File by reflection once per process, which every decision set paid. It
// writes exactly encoding/json's bytes for a File (SetEscapeHTML(false),
// SetIndent("", "  "), a trailing newline; encode_test.go and
// FuzzEncoderMatchesJSON compare the two) and leaves a file holding a
// string that is not valid UTF-8 to encoding/json.

// encode is f as encoding/json writes it; ok is false when a string is
// not valid UTF-8, or there is no map.
func encode(f *File) (b []byte, ok bool) {
	if f.Decisions == nil {
		return nil, false // encoding/json's null, which Marshal never writes
	}
	keys := make([]string, 0, len(f.Decisions))
	size := 48
	for k, d := range f.Decisions {
		keys = append(keys, k)
		size += 128 + len(k) + len(d.Value) + len(d.History)*(160+len(d.Value))
	}
	sort.Strings(keys)
	b = make([]byte, 0, size)
	b = append(b, "{\n  \"schema\": "...)
	b = strconv.AppendInt(b, int64(f.Schema), 10)
	b = append(b, ",\n  \"decisions\": {"...)
	ok = true
	for i, k := range keys {
		d := f.Decisions[k]
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, "\n    "...)
		b, ok = quote(b, k, ok)
		b = append(b, ": {\n      \"value\": "...)
		b, ok = quote(b, d.Value, ok)
		b = append(b, ",\n      \"provenance\": "...)
		b, ok = quote(b, d.Provenance, ok)
		b = append(b, ",\n      \"settledAt\": "...)
		b, ok = quote(b, d.SettledAt, ok)
		if len(d.History) > 0 {
			b = append(b, ",\n      \"history\": ["...)
			for j, h := range d.History {
				if j > 0 {
					b = append(b, ',')
				}
				b = append(b, "\n        {\n          \"value\": "...)
				b, ok = quote(b, h.Value, ok)
				b = append(b, ",\n          \"provenance\": "...)
				b, ok = quote(b, h.Provenance, ok)
				b = append(b, ",\n          \"settledAt\": "...)
				b, ok = quote(b, h.SettledAt, ok)
				b = append(b, ",\n          \"supersededAt\": "...)
				b, ok = quote(b, h.SupersededAt, ok)
				b = append(b, "\n        }"...)
			}
			b = append(b, "\n      ]"...)
		}
		b = append(b, "\n    }"...)
	}
	if len(keys) > 0 {
		b = append(b, "\n  "...)
	}
	b = append(b, "}\n}\n"...)
	return b, ok
}

const hexDigits = "0123456789abcdef"

// quote appends s quoted as encoding/json does without HTML escaping: "
// and \ escaped, \b \f \n \r \t by name, other control characters as
// \u00XX, U+2028 and U+2029 as \u2028 and \u2029, everything else as it
// is. ok turns false (and stays so) when s is not valid UTF-8.
func quote(b []byte, s string, ok bool) ([]byte, bool) {
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c >= 0x20 && c != '"' && c != '\\' && c < utf8.RuneSelf {
			i++
			continue
		}
		if c < utf8.RuneSelf {
			b = append(b, s[start:i]...)
			switch c {
			case '"', '\\':
				b = append(b, '\\', c)
			case '\b':
				b = append(b, '\\', 'b')
			case '\f':
				b = append(b, '\\', 'f')
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			default:
				b = append(b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xF])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			ok = false
		}
		if r == '\u2028' || r == '\u2029' {
			b = append(b, s[start:i]...)
			b = append(b, '\\', 'u', '2', '0', '2', hexDigits[r&0xF])
			start = i + size
		}
		i += size
	}
	b = append(b, s[start:]...)
	return append(b, '"'), ok
}

// marshalJSON is Marshal by encoding/json.
func marshalJSON(f *File) []byte {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(f); err != nil {
		panic(err) // only strings and ints
	}
	return buf.Bytes()
}
