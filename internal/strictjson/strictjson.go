// Package strictjson decodes the JSON files orc-state owns strictly: the
// input must be one JSON value, valid UTF-8, nested at most MaxDepth deep,
// with no duplicate object keys and no field the target type does not
// declare. encoding/json alone accepts duplicate keys (the last one wins)
// and trailing data; both would let a hand edit slip through unnoticed.
package strictjson

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"
	"strings"
	"sync"
	"unicode/utf8"
)

// MaxDepth bounds object and array nesting.
const MaxDepth = 64

// Decode checks data (see Check) and decodes it into v, refusing fields v
// does not declare. Field names must match exactly: encoding/json would
// accept "Status" for "status", and with both present keep the last one.
func Decode(data []byte, v any) error {
	if err := check(data, reflect.TypeOf(v)); err != nil {
		return err
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return describe(err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return errors.New("trailing data after the JSON value")
	}
	return nil
}

// UnknownField returns the field named by an encoding/json "unknown field"
// error, or "".
func UnknownField(err error) string {
	var name string
	if err != nil {
		if _, e := fmt.Sscanf(err.Error(), "unknown field %q", &name); e == nil {
			return name
		}
	}
	return ""
}

func describe(err error) error {
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) {
		field := te.Field
		if field == "" {
			field = "value"
		}
		return fmt.Errorf("%s: expected %s, got JSON %s", field, te.Type, te.Value)
	}
	msg := err.Error()
	const prefix = "json: "
	if len(msg) > len(prefix) && msg[:len(prefix)] == prefix {
		return errors.New(msg[len(prefix):])
	}
	return err
}

// Check verifies that data is a single well-formed JSON value in valid UTF-8
// without duplicate object keys or nesting deeper than MaxDepth.
func Check(data []byte) error { return check(data, nil) }

func check(data []byte, t reflect.Type) error {
	if !utf8.Valid(data) {
		return errors.New("not valid UTF-8")
	}
	if !json.Valid(data) {
		var v any
		err := json.Unmarshal(data, &v)
		if err == nil {
			err = errors.New("invalid JSON")
		}
		return describe(err)
	}
	s := scanner{data: data}
	return s.value(0, t)
}

// scanner walks input already known to be valid JSON, looking only for
// duplicate keys and excessive depth.
type scanner struct {
	data []byte
	pos  int
}

func (s *scanner) skipSpace() {
	for s.pos < len(s.data) {
		switch s.data[s.pos] {
		case ' ', '\t', '\n', '\r':
			s.pos++
		default:
			return
		}
	}
}

func (s *scanner) value(depth int, t reflect.Type) error {
	s.skipSpace()
	if t != nil && bytes.HasPrefix(s.data[s.pos:], []byte("null")) && !nullable(t) {
		return fmt.Errorf("null where %s is expected", kindName(t))
	}
	t = target(t)
	switch s.data[s.pos] {
	case '{':
		return s.object(depth+1, t)
	case '[':
		return s.array(depth+1, t)
	case '"':
		_, err := s.str()
		return err
	default:
		for s.pos < len(s.data) {
			switch s.data[s.pos] {
			case ',', '}', ']', ' ', '\t', '\n', '\r':
				return nil
			}
			s.pos++
		}
		return nil
	}
}

func (s *scanner) object(depth int, t reflect.Type) error {
	if depth > MaxDepth {
		return fmt.Errorf("nested deeper than %d levels", MaxDepth)
	}
	s.pos++ // '{'
	seen := map[string]bool{}
	var fields map[string]reflect.Type
	if t != nil && t.Kind() == reflect.Struct {
		fields = fieldsOf(t)
	}
	for {
		s.skipSpace()
		if s.data[s.pos] == '}' {
			s.pos++
			return nil
		}
		if s.data[s.pos] == ',' {
			s.pos++
			s.skipSpace()
		}
		key, err := s.str()
		if err != nil {
			return err
		}
		var next reflect.Type
		if fields != nil {
			// encoding/json folds case for struct fields: a key that is not
			// spelled exactly is refused here, so two spellings of one
			// field can never both reach the decoder.
			ft, ok := fields[key]
			if !ok {
				for name := range fields {
					if strings.EqualFold(name, key) {
						return fmt.Errorf("field %q must be spelled %q", key, name)
					}
				}
			}
			next = ft
		} else if t != nil && t.Kind() == reflect.Map {
			next = t.Elem()
		}
		if seen[key] {
			return fmt.Errorf("duplicate key %q", key)
		}
		seen[key] = true
		s.skipSpace()
		s.pos++ // ':'
		if err := s.value(depth, next); err != nil {
			return err
		}
	}
}

func (s *scanner) array(depth int, t reflect.Type) error {
	var elem reflect.Type
	if t != nil && (t.Kind() == reflect.Slice || t.Kind() == reflect.Array) {
		elem = t.Elem()
	}
	if depth > MaxDepth {
		return fmt.Errorf("nested deeper than %d levels", MaxDepth)
	}
	s.pos++ // '['
	for {
		s.skipSpace()
		switch s.data[s.pos] {
		case ']':
			s.pos++
			return nil
		case ',':
			s.pos++
		}
		s.skipSpace()
		if s.data[s.pos] == ']' {
			continue
		}
		if err := s.value(depth, elem); err != nil {
			return err
		}
	}
}

// str reads a string token and returns its decoded value (escapes resolved,
// so "a" and "\u0061" are the same key).
func (s *scanner) str() (string, error) {
	start := s.pos
	s.pos++ // opening quote
	escaped := false
	for ; s.pos < len(s.data); s.pos++ {
		c := s.data[s.pos]
		if c == '\\' {
			escaped = true
			s.pos++
			continue
		}
		if c == '"' {
			s.pos++
			raw := s.data[start:s.pos]
			if !escaped {
				return string(raw[1 : len(raw)-1]), nil
			}
			var out string
			if err := json.Unmarshal(raw, &out); err != nil {
				return "", err
			}
			return out, nil
		}
	}
	return "", errors.New("unterminated string")
}

var unmarshaler = reflect.TypeFor[json.Unmarshaler]()

// target follows pointers and stops tracking types that decode themselves.
func target(t reflect.Type) reflect.Type {
	for t != nil {
		if t.Implements(unmarshaler) || reflect.PointerTo(t).Implements(unmarshaler) {
			return nil
		}
		if t.Kind() != reflect.Pointer {
			return t
		}
		t = t.Elem()
	}
	return nil
}

var fieldCache sync.Map // reflect.Type → map[string]reflect.Type

// fieldsOf maps the exact JSON names of a struct's fields to their types,
// embedded structs' fields included.
func fieldsOf(t reflect.Type) map[string]reflect.Type {
	if f, ok := fieldCache.Load(t); ok {
		return f.(map[string]reflect.Type)
	}
	out := map[string]reflect.Type{}
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		tag := f.Tag.Get("json")
		name, _, _ := strings.Cut(tag, ",")
		if name == "-" && tag == "-" {
			continue
		}
		if f.Anonymous && name == "" {
			if et := target(f.Type); et != nil && et.Kind() == reflect.Struct {
				for k, v := range fieldsOf(et) {
					out[k] = v
				}
				continue
			}
		}
		if !f.IsExported() {
			continue
		}
		if name == "" {
			name = f.Name
		}
		out[name] = f.Type
	}
	fieldCache.Store(t, out)
	return out
}

// nullable reports whether JSON null is a value of t: only pointers and
// interfaces; encoding/json would also accept it for strings, slices and
// maps (leaving the zero value), which hides a hand edit.
func nullable(t reflect.Type) bool {
	k := t.Kind()
	return k == reflect.Pointer || k == reflect.Interface || t.Implements(unmarshaler) || reflect.PointerTo(t).Implements(unmarshaler)
}

func kindName(t reflect.Type) string {
	switch t.Kind() {
	case reflect.Slice, reflect.Array:
		return "a list"
	case reflect.Map, reflect.Struct:
		return "an object"
	case reflect.String:
		return "a string"
	case reflect.Bool:
		return "a boolean"
	default:
		return "a number"
	}
}
