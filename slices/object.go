package slices

import (
	"bytes"
	"encoding/json"

	"github.com/orc-state/orc-state/internal/strictjson"
)

// member is one key/value pair of a JSON object exactly as written.
type member struct {
	key    string          // the decoded key
	rawKey []byte          // the key token as written, quotes included
	val    json.RawMessage // the value as written, without surrounding space
}

// object is a JSON object kept as its ordered members, so fields this
// package does not own are rendered again from their original bytes.
type object []member

// get returns the value of key, or nil.
func (o object) get(key string) json.RawMessage {
	for _, m := range o {
		if m.key == key {
			return m.val
		}
	}
	return nil
}

// set replaces the value of key in place, or appends key at the end.
func (o *object) set(key string, val json.RawMessage) {
	for i := range *o {
		if (*o)[i].key == key {
			(*o)[i].val = val
			return
		}
	}
	*o = append(*o, member{key: key, val: val})
}

// del removes key if present.
func (o *object) del(key string) {
	for i := range *o {
		if (*o)[i].key == key {
			*o = append((*o)[:i], (*o)[i+1:]...)
			return
		}
	}
}

// clone copies the member list (the byte slices are never mutated).
func (o object) clone() object { return append(object(nil), o...) }

// write renders o with its members one per line, indented by indent+2
// spaces, and its closing brace at indent. value may override how a
// member's value is written; it returns false to write the raw bytes.
func (o object) write(buf *bytes.Buffer, indent string, value func(m member) bool) {
	if len(o) == 0 {
		buf.WriteString("{}")
		return
	}
	buf.WriteByte('{')
	for i, m := range o {
		if i > 0 {
			buf.WriteByte(',')
		}
		buf.WriteString("\n" + indent + "  ")
		if m.rawKey != nil {
			buf.Write(m.rawKey)
		} else {
			buf.Write(encode(m.key))
		}
		buf.WriteString(": ")
		if value == nil || !value(m) {
			buf.Write(m.val)
		}
	}
	buf.WriteString("\n" + indent + "}")
}

// writeCompact renders o on one line: {"k": v, "k2": v2}.
func (o object) writeCompact(buf *bytes.Buffer) {
	buf.WriteByte('{')
	for i, m := range o {
		if i > 0 {
			buf.WriteString(", ")
		}
		if m.rawKey != nil {
			buf.Write(m.rawKey)
		} else {
			buf.Write(encode(m.key))
		}
		buf.WriteString(": ")
		buf.Write(m.val)
	}
	buf.WriteByte('}')
}

// encode renders v as compact JSON without HTML escaping.
func encode(v any) json.RawMessage {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		panic(err) // only strings, ints and bools are encoded here
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n"))
}

// splitObject returns the members of the object data (input Check has
// accepted), or ok=false when data is not an object.
func splitObject(data []byte) (o object, ok bool) {
	ms, ok := strictjson.Members(data)
	if !ok {
		return nil, false
	}
	o = make(object, len(ms))
	for i, m := range ms {
		o[i] = member{key: m.Name, rawKey: m.RawName, val: m.Value}
	}
	return o, true
}

// splitArray returns the elements of the array data (input Check has
// accepted), or ok=false when data is not an array.
func splitArray(data []byte) (elems []json.RawMessage, ok bool) {
	es, ok := strictjson.Elements(data)
	if !ok {
		return nil, false
	}
	elems = make([]json.RawMessage, len(es))
	for i, e := range es {
		elems[i] = e
	}
	return elems, true
}
