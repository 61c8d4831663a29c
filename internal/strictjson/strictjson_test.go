package strictjson

import (
	"errors"
	"strings"
	"testing"
)

type sample struct {
	A int               `json:"a"`
	B []string          `json:"b"`
	M map[string]string `json:"m"`
}

func TestDecode(t *testing.T) {
	deep := strings.Repeat("[", MaxDepth+1) + strings.Repeat("]", MaxDepth+1)
	tests := []struct {
		name, in, wantErr string
	}{
		{"ok", `{"a":1,"b":["x","y"],"m":{"k":"v"}}`, ""},
		{"ok whitespace", " {\n\t\"a\" : 1 , \"b\" : [ ] }\n", ""},
		{"duplicate top key", `{"a":1,"a":2}`, `duplicate key "a"`},
		{"duplicate escaped key", `{"a":1,"\u0061":2}`, `duplicate key "a"`},
		{"duplicate nested key", `{"m":{"k":"v","k":"w"}}`, `duplicate key "k"`},
		{"same key in sibling objects is fine", `{"b":[],"m":{"a":"x"}}`, ""},
		{"unknown field", `{"a":1,"zzz":2}`, `unknown field "zzz"`},
		{"type mismatch", `{"a":"one"}`, `a: expected int, got JSON string`},
		{"trailing data", `{"a":1} {"a":2}`, "invalid"},
		{"not json", `{"a":`, "unexpected end"},
		{"invalid utf8", "{\"b\":[\"\xff\"]}", "not valid UTF-8"},
		{"too deep", `{"b":` + deep + `}`, "nested deeper"},
		{"empty", ``, "unexpected end"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var v sample
			err := Decode([]byte(tt.in), &v)
			if tt.wantErr == "" {
				if err != nil {
					t.Fatalf("Decode(%q) = %v, want nil", tt.in, err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Fatalf("Decode(%q) = %v, want error containing %q", tt.in, err, tt.wantErr)
			}
		})
	}
}

func TestUnknownField(t *testing.T) {
	var v sample
	err := Decode([]byte(`{"current_phase":3}`), &v)
	if got := UnknownField(err); got != "current_phase" {
		t.Fatalf("UnknownField = %q (err %v)", got, err)
	}
	if got := UnknownField(nil); got != "" {
		t.Fatalf("UnknownField(nil) = %q", got)
	}
}

func FuzzCheck(f *testing.F) {
	for _, s := range []string{`{}`, `[]`, `{"a":{"a":1}}`, `{"a":1,"a":1}`, `"x"`, `[1,[2,[3]]]`, `{"\u00e9":1,"é":2}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		_ = Check(data) // must not panic on any input
	})
}

func TestDecodeFieldCase(t *testing.T) {
	for _, in := range []string{`{"A":1}`, `{"a":1,"A":2}`, `{"b":[],"M":{}}`} {
		var v sample
		if err := Decode([]byte(in), &v); err == nil {
			t.Errorf("Decode(%s) accepted a case variant of a field", in)
		}
	}
	var v sample
	if err := Decode([]byte(`{"m":{"k":"x","K":"y"}}`), &v); err != nil {
		t.Errorf("map keys differing in case are distinct keys: %v", err)
	}
}

// judged decodes itself and refuses everything but 1, with its own message.
type judged int

func (j *judged) UnmarshalJSON(b []byte) error {
	if string(b) != "1" {
		return errors.New("judged: only 1 will do, not " + string(b))
	}
	*j = 1
	return nil
}

func TestMessagesKeepEncodingJSONWords(t *testing.T) {
	var v struct {
		J judged `json:"j"`
	}
	for _, tt := range []struct{ in, want string }{
		{`{"j":1e30}`, "judged: only 1 will do, not 1e30"}, // the type's own message, as encoding/json gave it
		{`{"j":"x"}`, `judged: only 1 will do, not "x"`},
		{`{"j":1} {"j":1}`, "invalid character '{' after top-level value"},
		{`{"j":1} x`, "invalid character 'x' after top-level value"},
	} {
		if err := Decode([]byte(tt.in), &v); err == nil || err.Error() != tt.want {
			t.Errorf("Decode(%s) = %v, want %q", tt.in, err, tt.want)
		}
	}
	if err := Check([]byte(`{"a":1} {"a":2}`)); err == nil || err.Error() != "invalid character '{' after top-level value" {
		t.Errorf("Check of two values = %v", err)
	}
	if err := Check([]byte(" [1, {\"a\": null}]\n\t")); err != nil {
		t.Errorf("Check of one value with space around = %v", err)
	}
}
