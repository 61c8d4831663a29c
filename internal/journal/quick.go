package journal

import (
	"bytes"
	"encoding/json"
	"strconv"
)

// Every mutation reads its session's last journal line and anchor and
// writes the next of each: a process does it once, and building
// encoding/json's decoder and encoder for Entry and Anchor was most of
// what that cost. The lines orc-state writes are encoded here in the
// bytes encoding/json gives them (TestEntryEncodingIsEncodingJSONs), and a
// line is read here when it is exactly such a line: decoded, encoded
// again and compared byte for byte, so what is read here is what
// encoding/json reads. Anything else (a value with characters encoding/json
// escapes, another layout) goes to encoding/json.

// marshalEntry is json.Marshal(e).
func marshalEntry(e Entry) ([]byte, error) {
	if b, ok := appendEntry(nil, e); ok {
		return b, nil
	}
	return json.Marshal(e)
}

// appendEntry appends e as json.Marshal encodes it; false when a value
// holds a character json.Marshal escapes (then nothing is promised).
func appendEntry(b []byte, e Entry) ([]byte, bool) {
	ok := true
	str := func(s string) {
		if !plainText(s) {
			ok = false
		}
		b = append(append(append(b, '"'), s...), '"')
	}
	b = strconv.AppendInt(append(b, `{"seq":`...), int64(e.Seq), 10)
	b = append(b, `,"prev":`...)
	str(e.Prev)
	b = append(b, `,"at":`...)
	str(e.At)
	b = append(b, `,"actor":`...)
	str(e.Actor)
	b = append(b, `,"verb":`...)
	str(e.Verb)
	if len(e.Args) > 0 {
		var c bytes.Buffer
		if json.Compact(&c, e.Args) != nil || !boring(c.String()) {
			return nil, false
		}
		b = append(append(b, `,"args":`...), c.Bytes()...)
	}
	b = append(b, `,"digests":{"entry":`...)
	str(e.Digests.Entry)
	b = append(b, `,"checkpoint":`...)
	str(e.Digests.Checkpoint)
	b = append(b, `,"ledger":`...)
	str(e.Digests.Ledger)
	b = append(b, `,"decisions":`...)
	str(e.Digests.Decisions)
	b = append(b, '}')
	if len(e.Outside) > 0 {
		b = append(b, `,"outside":[`...)
		for i, o := range e.Outside {
			if i > 0 {
				b = append(b, ',')
			}
			str(o)
		}
		b = append(b, ']')
	}
	return append(b, '}'), ok
}

// boring reports whether json.Marshal writes s (compact JSON) as it is:
// printable ASCII, and none of the characters it escapes in HTML's name
// (<, >, &).
func boring(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c > 0x7e || c == '<' || c == '>' || c == '&' {
			return false
		}
	}
	return true
}

// plainText reports whether json.Marshal writes the string s between
// quotes as it is: boring, and neither `"` nor `\`.
func plainText(s string) bool {
	return boring(s) && !bytes.ContainsAny([]byte(s), `"\`)
}

// unmarshalEntry is json.Unmarshal(line, &e) for a journal line.
func unmarshalEntry(line []byte, e *Entry) error {
	if q, ok := quickEntry(line); ok {
		*e = q
		return nil
	}
	return json.Unmarshal(line, e)
}

// quickEntry reads a line laid out exactly as appendEntry writes it.
func quickEntry(line []byte) (Entry, bool) {
	var e Entry
	p := scan{b: line}
	seq, ok := p.int(`{"seq":`)
	e.Seq = int(seq)
	ok = ok && p.str(`,"prev":`, &e.Prev) && p.str(`,"at":`, &e.At) &&
		p.str(`,"actor":`, &e.Actor) && p.str(`,"verb":`, &e.Verb)
	if ok && p.lit(`,"args":`) {
		end := valueEnd(p.b)
		if end <= 0 {
			return e, false
		}
		e.Args = json.RawMessage(bytes.Clone(p.b[:end]))
		p.b = p.b[end:]
	}
	ok = ok && p.str(`,"digests":{"entry":`, &e.Digests.Entry) &&
		p.str(`,"checkpoint":`, &e.Digests.Checkpoint) && p.str(`,"ledger":`, &e.Digests.Ledger) &&
		p.str(`,"decisions":`, &e.Digests.Decisions) && p.lit(`}`)
	if ok && p.lit(`,"outside":[`) {
		for first := true; ok && !p.lit(`]`); first = false {
			sep := `,`
			if first {
				sep = ``
			}
			var o string
			ok = p.str(sep, &o)
			e.Outside = append(e.Outside, o)
		}
	}
	if !ok || string(p.b) != "}" {
		return e, false
	}
	again, ok := appendEntry(nil, e)
	return e, ok && bytes.Equal(again, line)
}

// scan reads the fixed layout of a line, in order.
type scan struct{ b []byte }

// lit consumes s when the rest begins with it.
func (p *scan) lit(s string) bool {
	rest, ok := bytes.CutPrefix(p.b, []byte(s))
	if ok {
		p.b = rest
	}
	return ok
}

// str consumes key, then a string without escapes, into v.
func (p *scan) str(key string, v *string) bool {
	if !p.lit(key) || !p.lit(`"`) {
		return false
	}
	i := bytes.IndexByte(p.b, '"')
	if i < 0 || bytes.IndexByte(p.b[:i], '\\') >= 0 {
		return false
	}
	*v, p.b = string(p.b[:i]), p.b[i+1:]
	return true
}

// int consumes key, then a decimal integer of at most 18 digits.
func (p *scan) int(key string) (int64, bool) {
	if !p.lit(key) {
		return 0, false
	}
	i := 0
	for i < len(p.b) && i < 18 && p.b[i] >= '0' && p.b[i] <= '9' {
		i++
	}
	n, err := strconv.ParseInt(string(p.b[:i]), 10, 64)
	if err != nil {
		return 0, false
	}
	p.b = p.b[i:]
	return n, true
}

// valueEnd is the length of the JSON value b begins with, as far as
// brackets and strings tell (the comparison after decoding checks the
// rest); 0 when it does not end.
func valueEnd(b []byte) int {
	depth, in := 0, false
	for i := 0; i < len(b); i++ {
		c := b[i]
		if in {
			switch c {
			case '\\':
				i++
			case '"':
				in = false
				if depth == 0 {
					return i + 1
				}
			}
			continue
		}
		switch c {
		case '"':
			in = true
		case '{', '[':
			depth++
		case '}', ']':
			if depth == 0 {
				return i // a scalar, ended by what holds it
			}
			if depth--; depth == 0 {
				return i + 1
			}
		case ',':
			if depth == 0 {
				return i
			}
		}
	}
	return 0
}

// marshalAnchor is json.Marshal(a).
func marshalAnchor(a Anchor) []byte {
	if !plainText(a.Line) {
		b, _ := json.Marshal(a)
		return b
	}
	b := strconv.AppendInt(append([]byte(nil), `{"seq":`...), int64(a.Seq), 10)
	b = append(append(append(b, `,"line":"`...), a.Line...), '"')
	b = strconv.AppendInt(append(b, `,"size":`...), a.Size, 10)
	return append(b, '}')
}

// unmarshalAnchor is json.Unmarshal(data, a) for an anchor file.
func unmarshalAnchor(data []byte, a *Anchor) error {
	line := bytes.TrimSuffix(data, []byte("\n"))
	p := scan{b: line}
	var q Anchor
	seq, ok := p.int(`{"seq":`)
	q.Seq = int(seq)
	ok = ok && p.str(`,"line":`, &q.Line)
	if ok {
		q.Size, ok = p.int(`,"size":`)
	}
	if ok && string(p.b) == "}" && bytes.Equal(marshalAnchor(q), line) {
		*a = q
		return nil
	}
	return json.Unmarshal(data, a)
}
