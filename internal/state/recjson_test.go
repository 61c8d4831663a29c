package state

import (
	"bytes"
	"encoding/json"
	"testing"
)

// A record is encoded as encoding/json encodes Intent (without HTML
// escaping), byte for byte: the log's readers (peek, endsWithMove, a
// replay's decode) and older builds read what they always read.
func TestRecordEncodingIsEncodingJSONs(t *testing.T) {
	odd := "a\"b\\c\n\t\x01<>&\u2028é\xff"
	for _, in := range []*Intent{
		{},
		{Actor: "cli", At: "2026-12-04T00:00:00Z"},
		{Boot: "b-1", Seq: 42, Verb: "phase set", Actor: "cli", At: "2026-12-04T00:00:00Z", PID: 7,
			Sessions: []string{"main", "feat-x"}, Args: map[string]json.RawMessage{"main": json.RawMessage(`{"label": "", "phase":"3"}`), "a": nil, odd: json.RawMessage(`"<&>"`)},
			Steps: []Step{
				{Op: "append", Path: "main/files/journal.jsonl", Size: 1234, Data: []byte("{\"seq\":3}\n")},
				{Op: "move", Path: "old", To: "new"},
				{Op: "rename", Path: "main/files/.checkpoint.md.tmp-1", To: "main/files/checkpoint.md", Data: []byte("---\n<&>\n"), Content: true},
				{Op: "rename", Path: ".orc.json.tmp-2", To: "orc.json"},
				{Op: "remove", Path: odd},
				{Op: "remove-all", Path: "x", Data: []byte{}},
			},
			Sync: []string{".", "main/files"}},
		{Boot: odd, Verb: odd, Actor: odd, At: odd, PID: -1, Sessions: []string{}, Args: map[string]json.RawMessage{}, Steps: []Step{}, Sync: []string{}},
		{Applied: 9, Actor: "x"},
	} {
		var want bytes.Buffer
		enc := json.NewEncoder(&want)
		enc.SetEscapeHTML(false)
		if err := enc.Encode(in); err != nil {
			t.Fatal(err)
		}
		got, err := appendIntent(nil, in)
		if err != nil {
			t.Fatal(err)
		}
		if w := bytes.TrimSuffix(want.Bytes(), []byte("\n")); !bytes.Equal(got, w) {
			t.Errorf("appendIntent wrote\n%s\nencoding/json\n%s", got, w)
		}
	}
	for _, seq := range []int64{1, 77, 1 << 40} {
		line, err := encodeMarker(seq)
		if err != nil {
			t.Fatal(err)
		}
		want, _ := json.Marshal(marker{seq})
		if got := line[recStart : len(line)-2]; !bytes.Equal(got, want) {
			t.Errorf("marker %s, want %s", got, want)
		}
		if _, _, applied, ok := peek(splitLine(line[:len(line)-1])); !ok || applied != seq {
			t.Errorf("marker %q does not read back as %d", line, seq)
		}
	}
}
