package decisions

import (
	"bytes"
	"strconv"
	"unicode/utf16"
	"unicode/utf8"
)

// The decoder of a file as Marshal writes it, by hand for the reason the
// encoder is (encode.go): json v2 builds its decoder for File by
// reflection once per process. It reads Marshal's layout and nothing
// else, and proves what it read by encoding it again: only when that
// gives back the very bytes read is the result used. Those bytes are then
// one JSON object with no null, no name twice and nothing unknown, which
// the strict decode reads to the same File (a history is written only
// when it is not empty, and read back as it was). Anything else is left
// to the strict decode.

// canonical is a reader of Marshal's layout: each call consumes what it
// expects or turns ok false, after which nothing more is consumed.
type canonical struct {
	b  []byte
	ok bool
}

func (c *canonical) lit(s string) bool {
	if c.ok && bytes.HasPrefix(c.b, []byte(s)) {
		c.b = c.b[len(s):]
		return true
	}
	return false
}

func (c *canonical) expect(s string) {
	if !c.lit(s) {
		c.ok = false
	}
}

func (c *canonical) int() int {
	i := 0
	if i < len(c.b) && c.b[i] == '-' {
		i++
	}
	for i < len(c.b) && c.b[i] >= '0' && c.b[i] <= '9' {
		i++
	}
	n, err := strconv.Atoi(string(c.b[:i]))
	if err != nil || !c.ok {
		c.ok = false
		return 0
	}
	c.b = c.b[i:]
	return n
}

// str reads a string holding only the escapes the encoder writes.
func (c *canonical) str() string {
	if c.expect(`"`); !c.ok {
		return ""
	}
	i := 0
	for i < len(c.b) && c.b[i] != '"' && c.b[i] != '\\' {
		i++
	}
	if i < len(c.b) && c.b[i] == '"' {
		s := string(c.b[:i])
		c.b = c.b[i+1:]
		return s
	}
	out := append([]byte(nil), c.b[:i]...)
	for c.ok && i < len(c.b) {
		ch := c.b[i]
		i++
		switch {
		case ch == '"':
			c.b = c.b[i:]
			return string(out)
		case ch != '\\':
			out = append(out, ch)
		case i >= len(c.b):
			c.ok = false
		default:
			e := c.b[i]
			i++
			switch e {
			case '"', '\\':
				out = append(out, e)
			case 'b':
				out = append(out, '\b')
			case 'f':
				out = append(out, '\f')
			case 'n':
				out = append(out, '\n')
			case 'r':
				out = append(out, '\r')
			case 't':
				out = append(out, '\t')
			case 'u':
				if i+4 > len(c.b) {
					c.ok = false
					break
				}
				n, err := strconv.ParseUint(string(c.b[i:i+4]), 16, 16)
				if err != nil || utf16.IsSurrogate(rune(n)) {
					c.ok = false // the encoder writes no surrogate
					break
				}
				i += 4
				out = utf8.AppendRune(out, rune(n))
			default:
				c.ok = false
			}
		}
	}
	c.ok = false
	return ""
}

// decodeCanonical reads data as Marshal writes it; ok is false for
// anything else.
func decodeCanonical(data []byte) (f File, ok bool) {
	c := canonical{b: data, ok: true}
	c.expect("{\n  \"schema\": ")
	f.Schema = c.int()
	c.expect(",\n  \"decisions\": {")
	f.Decisions = map[string]Decision{}
	for first := true; c.ok; first = false {
		if !first && !c.lit(",") {
			break
		}
		if !c.lit("\n    ") {
			break
		}
		k := c.str()
		var d Decision
		c.expect(": {\n      \"value\": ")
		d.Value = c.str()
		c.expect(",\n      \"provenance\": ")
		d.Provenance = c.str()
		c.expect(",\n      \"settledAt\": ")
		d.SettledAt = c.str()
		if c.lit(",\n      \"history\": [") {
			for hfirst := true; c.ok; hfirst = false {
				if !hfirst && !c.lit(",") {
					break
				}
				var h HistoryEntry
				c.expect("\n        {\n          \"value\": ")
				h.Value = c.str()
				c.expect(",\n          \"provenance\": ")
				h.Provenance = c.str()
				c.expect(",\n          \"settledAt\": ")
				h.SettledAt = c.str()
				c.expect(",\n          \"supersededAt\": ")
				h.SupersededAt = c.str()
				c.expect("\n        }")
				d.History = append(d.History, h)
			}
			c.expect("\n      ]")
		}
		c.expect("\n    }")
		f.Decisions[k] = d
	}
	if !c.ok {
		return File{}, false
	}
	again, ok := encode(&f)
	if !ok || !bytes.Equal(again, data) {
		return File{}, false
	}
	return f, true
}
