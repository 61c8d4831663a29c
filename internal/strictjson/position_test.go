package strictjson

import "testing"

// A syntax error says where it is: line and column of the offending byte.
func TestPositionNamesLineAndColumn(t *testing.T) {
	for _, c := range []struct {
		data      string
		line, col int
		ok        bool
	}{
		{"{\n  \"schema\": 1,\n  \"sessions\": [,\n]}", 3, 16, true},
		{"{,}", 1, 2, true},
		{"{\"a\": 1}\n\n   x", 0, 0, false}, // after the value: no offset kept
		{"{\"a\": 1, \"a\": 2}", 1, 10, true},
	} {
		var v map[string]any
		err := Decode([]byte(c.data), &v)
		line, col, ok := Position([]byte(c.data), err)
		if ok != c.ok || ok && (line != c.line || col != c.col) {
			t.Errorf("%q: Position = %d, %d, %v (err %v); want %d, %d, %v", c.data, line, col, ok, err, c.line, c.col, c.ok)
		}
	}
}
