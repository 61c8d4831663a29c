// Package strictjson decodes the JSON files orc-state owns strictly: the
// input must be one JSON value, valid UTF-8, nested at most MaxDepth deep,
// with no duplicate object names, no field the target type does not
// declare (spelled exactly: "Status" is no "status"), and no null where the
// target type has no null. It is a thin layer over
// github.com/go-json-experiment/json (encoding/json/v2), which already
// refuses duplicate names, invalid UTF-8 and trailing data and matches
// names exactly; this package adds the null and depth rules and turns the
// library's errors into orc-state's one-line messages.
package strictjson

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
)

// MaxDepth bounds object and array nesting.
const MaxDepth = 64

var (
	errDepth error = refusal("nested deeper than " + strconv.Itoa(MaxDepth) + " levels") // no fmt at start-up
	errUTF8        = errors.New("not valid UTF-8")
)

// refusal is a fault this package finds itself (a null, the depth); the
// library wraps it, and describe unwraps it as it is.
type refusal string

func (r refusal) Error() string { return string(r) }

// strict is the hook run before every value is unmarshaled: it refuses a
// null where the Go type has none (the library would leave the zero value)
// and nesting beyond MaxDepth. Everything else goes on to the library.
func strict(dec *jsontext.Decoder, v any) error {
	switch dec.PeekKind() {
	case 'n':
		if t := reflect.TypeOf(v).Elem(); !nullable(t) {
			return refusal(fmt.Sprintf("null where %s is expected", kindName(t)))
		}
	case '{', '[':
		if dec.StackDepth() >= MaxDepth {
			return errDepth
		}
		if t := reflect.TypeOf(v).Elem(); !holds(t, dec.PeekKind()) {
			return mismatch(dec, t)
		}
	}
	return errors.ErrUnsupported // decode as usual
}

// holds reports whether a JSON object ('{') or array ('[') can be a value
// of t.
func holds(t reflect.Type, k jsontext.Kind) bool {
	switch t.Kind() {
	case reflect.Interface:
		return true
	case reflect.Slice, reflect.Array:
		return k == '['
	case reflect.Map, reflect.Struct:
		return k == '{'
	}
	return nullable(t) // a type that decodes itself judges for itself
}

// mismatch reads an object or array that t cannot hold, refusing it for
// its depth first (as a scan of the whole input would) and else for its
// type.
func mismatch(dec *jsontext.Decoder, t reflect.Type) error {
	kind, depth := dec.PeekKind(), dec.StackDepth()
	for {
		tok, err := dec.ReadToken()
		if err != nil {
			return err
		}
		switch tok.Kind() {
		case '{', '[':
			if dec.StackDepth() > MaxDepth {
				return errDepth
			}
		case '}', ']':
			if dec.StackDepth() == depth {
				return &json.SemanticError{JSONKind: kind, GoType: t}
			}
		}
	}
}

// lenientEscapes lets an escaped lone surrogate ("\ud800") decode to
// U+FFFD, as encoding/json does; raw invalid UTF-8 is refused before the
// library sees the input, so this is all the option changes.
var lenientEscapes = jsontext.AllowInvalidUTF8(true)

// decodeOptions are built on first use (start-up pays for every init).
var decodeOptions = sync.OnceValue(func() json.Options {
	return json.JoinOptions(json.RejectUnknownMembers(true),
		json.WithUnmarshalers(json.UnmarshalFromFunc(strict)), lenientEscapes)
})

// Decode checks and decodes data into v in one pass, refusing fields v does
// not declare. When it refuses, the whole input is checked (Check) and a
// fault found there is reported first, whatever its place in the file: a
// broken file is named broken before any of its fields is discussed.
func Decode(data []byte, v any) error {
	if !utf8.Valid(data) {
		return errUTF8
	}
	err := json.Unmarshal(data, v, decodeOptions())
	if err == nil {
		return nil
	}
	if cerr := Check(data); cerr != nil {
		return cerr
	}
	return describe(err)
}

// Decoded unmarshals data that has been checked before (bytes whose proof
// matched, see registry): no hooks, names still matched exactly.
func Decoded(data []byte, v any) error {
	return describe(json.Unmarshal(data, v, lenientEscapes))
}

// Check verifies that data is a single well-formed JSON value in valid UTF-8
// without duplicate object names or nesting deeper than MaxDepth.
func Check(data []byte) error {
	if !utf8.Valid(data) {
		return errUTF8
	}
	dec := jsontext.NewDecoder(bytes.NewReader(data), lenientEscapes)
	for {
		tok, err := dec.ReadToken()
		if err != nil {
			return describe(err)
		}
		if k := tok.Kind(); (k == '{' || k == '[') && dec.StackDepth() > MaxDepth {
			return errDepth
		}
		if dec.StackDepth() == 0 { // the one value is complete
			if rest := bytes.TrimLeft(data[dec.InputOffset():], " \t\r\n"); len(rest) > 0 {
				return fmt.Errorf("invalid character %s after top-level value", quoteChar(rest[0]))
			}
			return nil
		}
	}
}

// quoteChar renders a byte as encoding/json's messages do: 'x'.
func quoteChar(c byte) string {
	switch c {
	case '\'':
		return `'\''`
	case '"':
		return `'"'`
	}
	q := strconv.Quote(string(rune(c)))
	return "'" + q[1:len(q)-1] + "'"
}

// Member is one name/value pair of a JSON object exactly as written.
type Member struct {
	Name    string // the decoded name
	RawName []byte // the name as written, quotes included
	Value   []byte // the value as written, without surrounding space
}

// Members splits data, which Check has accepted, into the members of the
// top-level object in order; ok is false when data is not an object.
func Members(data []byte) (members []Member, ok bool) {
	dec := jsontext.NewDecoder(bytes.NewReader(data), lenientEscapes)
	if tok, err := dec.ReadToken(); err != nil || tok.Kind() != '{' {
		return nil, false
	}
	members = []Member{}
	for dec.PeekKind() == '"' {
		start := dec.InputOffset()
		tok, err := dec.ReadToken()
		if err != nil {
			return nil, false
		}
		name := tok.String() // before the next read voids the token
		raw := bytes.TrimLeft(data[start:dec.InputOffset()], " \t\r\n,")
		val, ok := readRaw(dec, data)
		if !ok {
			return nil, false
		}
		members = append(members, Member{Name: name, RawName: raw, Value: val})
	}
	return members, true
}

// Elements splits data, which Check has accepted, into the elements of the
// top-level array; ok is false when data is not an array.
func Elements(data []byte) (elems [][]byte, ok bool) {
	dec := jsontext.NewDecoder(bytes.NewReader(data), lenientEscapes)
	if tok, err := dec.ReadToken(); err != nil || tok.Kind() != '[' {
		return nil, false
	}
	for dec.PeekKind() != ']' {
		val, ok := readRaw(dec, data)
		if !ok {
			return nil, false
		}
		elems = append(elems, val)
	}
	return elems, true
}

// readRaw reads the next value and returns its bytes in data as written.
func readRaw(dec *jsontext.Decoder, data []byte) ([]byte, bool) {
	start := dec.InputOffset()
	if err := dec.SkipValue(); err != nil {
		return nil, false
	}
	return bytes.TrimLeft(data[start:dec.InputOffset()], " \t\r\n,:"), true
}

// UnknownField returns the field an "unknown field" error names, or "".
func UnknownField(err error) string {
	var name string
	if err != nil {
		if _, e := fmt.Sscanf(err.Error(), "unknown field %q", &name); e == nil {
			return name
		}
	}
	return ""
}

// describe turns the library's errors into one-line messages (the ones
// encoding/json's users know: unknown field "x", a: expected int, got JSON
// string, unexpected end of JSON input, duplicate key "x").
// syntaxError is a syntax error with where in the input it is.
type syntaxError struct {
	msg    string
	offset int64
}

func (e *syntaxError) Error() string { return e.msg }

// Position is the line and column (1-based, in bytes) of a syntax error
// err of Decode or Check on data; ok is false for any other error.
func Position(data []byte, err error) (line, col int, ok bool) {
	var se *syntaxError
	if !errors.As(err, &se) || se.offset < 0 || se.offset > int64(len(data)) {
		return 0, 0, false
	}
	before := data[:se.offset]
	line = 1 + bytes.Count(before, []byte("\n"))
	col = 1 + len(before) - (bytes.LastIndexByte(before, '\n') + 1)
	return line, col, true
}

func describe(err error) error {
	if err == nil {
		return nil
	}
	var se *json.SemanticError
	var syn *jsontext.SyntacticError
	var own refusal
	switch {
	case errors.As(err, &own):
		return own
	case errors.As(err, &se) && se.Err != nil && se.GoType != nil && decodesItself(se.GoType):
		return se.Err // the type's UnmarshalJSON said why (a phase "1e30")
	case errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF):
		return errors.New("unexpected end of JSON input")
	case errors.As(err, &syn) && errors.Is(syn.Err, jsontext.ErrDuplicateName):
		return &syntaxError{msg: fmt.Sprintf("duplicate key %q", lastName(syn.JSONPointer)), offset: syn.ByteOffset}
	case errors.As(err, &syn):
		msg := strings.TrimPrefix(syn.Err.Error(), "jsontext: ")
		if strings.Contains(msg, "invalid UTF-8") {
			return errUTF8
		}
		return &syntaxError{msg: msg, offset: syn.ByteOffset}
	case errors.As(err, &se) && errors.Is(se.Err, json.ErrUnknownName):
		name := lastName(se.JSONPointer)
		if want := spelled(se.GoType, name); want != "" {
			return fmt.Errorf("field %q must be spelled %q", name, want)
		}
		return fmt.Errorf("unknown field %q", name)
	case errors.As(err, &se) && se.Err != nil && se.JSONKind == 0:
		return se.Err // a hook's or an UnmarshalJSON method's own message
	case errors.As(err, &se):
		got := kindWord(se.JSONKind)
		if se.JSONKind == '0' && se.GoType != nil && isNumber(se.GoType) && len(se.JSONValue) > 0 {
			got += " " + string(se.JSONValue) // out of range or not an integer
		}
		if se.Err != nil && se.GoType == nil {
			return se.Err
		}
		return fmt.Errorf("%s: expected %s, got JSON %s", fieldPath(se.JSONPointer), typeName(se.GoType), got)
	}
	return err
}

// lastName is the last name of a JSON pointer ("/sessions/0/x" → "x").
func lastName(p jsontext.Pointer) string {
	s := string(p)
	if i := strings.LastIndexByte(s, '/'); i >= 0 {
		s = s[i+1:]
	}
	return strings.NewReplacer("~1", "/", "~0", "~").Replace(s)
}

// fieldPath is a pointer as encoding/json names a field: object names
// joined by dots, array indexes left out ("/sessions/3/phase" →
// "sessions.phase"), "value" for the top level.
func fieldPath(p jsontext.Pointer) string {
	var names []string
	for _, tok := range strings.Split(strings.TrimPrefix(string(p), "/"), "/") {
		if tok == "" {
			continue
		}
		if _, err := strconv.Atoi(tok); err == nil {
			continue
		}
		names = append(names, strings.NewReplacer("~1", "/", "~0", "~").Replace(tok))
	}
	if len(names) == 0 {
		return "value"
	}
	return strings.Join(names, ".")
}

func kindWord(k jsontext.Kind) string {
	switch k {
	case '"':
		return "string"
	case '0':
		return "number"
	case 't', 'f':
		return "bool"
	case 'n':
		return "null"
	case '{':
		return "object"
	case '[':
		return "array"
	}
	return "value"
}

func typeName(t reflect.Type) string {
	if t == nil {
		return "a value"
	}
	return t.String()
}

func isNumber(t reflect.Type) bool {
	switch t.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64,
		reflect.Float32, reflect.Float64:
		return true
	}
	return false
}

var fieldCache sync.Map // reflect.Type → []string

// spelled returns the field of struct type t whose JSON name equals name
// ignoring case, or "".
func spelled(t reflect.Type, name string) string {
	for t != nil && t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t == nil || t.Kind() != reflect.Struct {
		return ""
	}
	for _, f := range fieldsOf(t) {
		if strings.EqualFold(f, name) {
			return f
		}
	}
	return ""
}

// fieldsOf lists the JSON names of a struct's fields, embedded structs'
// fields included.
func fieldsOf(t reflect.Type) []string {
	if f, ok := fieldCache.Load(t); ok {
		return f.([]string)
	}
	var out []string
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		tag := f.Tag.Get("json")
		name, _, _ := strings.Cut(tag, ",")
		if tag == "-" {
			continue
		}
		if f.Anonymous && name == "" {
			et := f.Type
			for et.Kind() == reflect.Pointer {
				et = et.Elem()
			}
			if et.Kind() == reflect.Struct {
				out = append(out, fieldsOf(et)...)
				continue
			}
		}
		if !f.IsExported() {
			continue
		}
		if name == "" {
			name = f.Name
		}
		out = append(out, name)
	}
	fieldCache.Store(t, out)
	return out
}

var (
	unmarshaler     = reflect.TypeFor[json.Unmarshaler]()
	unmarshalerFrom = reflect.TypeFor[json.UnmarshalerFrom]()
)

// decodesItself reports whether t has its own UnmarshalJSON.
func decodesItself(t reflect.Type) bool {
	p := reflect.PointerTo(t)
	return t.Implements(unmarshaler) || p.Implements(unmarshaler) || p.Implements(unmarshalerFrom)
}

// nullable reports whether JSON null is a value of t: only pointers,
// interfaces and types that decode themselves (which judge null
// themselves); the library would also accept it for strings, numbers,
// slices and maps (leaving the zero value), which hides a hand edit.
func nullable(t reflect.Type) bool {
	k := t.Kind()
	if k == reflect.Pointer || k == reflect.Interface {
		return true
	}
	p := reflect.PointerTo(t)
	return p.Implements(unmarshaler) || p.Implements(unmarshalerFrom)
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
