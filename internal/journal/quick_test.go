package journal

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

// The journal's lines and anchors are written in the bytes encoding/json
// gives them, and what is read without encoding/json is read as it reads
// it: every line orc-state writes, and lines laid out otherwise (spaces,
// another order, escapes, HTML characters, a torn or foreign line), which
// go to encoding/json.
func TestEntryEncodingIsEncodingJSONs(t *testing.T) {
	sum := strings.Repeat("ab12", 16)
	entries := []Entry{
		{Seq: 1, At: "2026-12-04T00:00:00Z", Actor: "cli", Verb: "init"},
		{Seq: 42, Prev: sum, At: "2026-12-04T00:00:00Z", Actor: "cli", Verb: "phase set", Args: json.RawMessage(`{"label":"","phase":"3"}`),
			Digests: Digests{Entry: sum, Checkpoint: sum, Ledger: sum}, Outside: []string{"checkpoint", "journal"}},
		{Seq: 3, Args: json.RawMessage(`{ "a" : [1, 2, {"b":null}] , "c":"x,y}" }`)},
		{Seq: 4, Args: json.RawMessage(`"s"`), Outside: []string{}},
		{Seq: 5, Args: json.RawMessage(`null`)},
		{Seq: 6, Args: json.RawMessage(`{"url":"https://x/?a=1&b=<2>"}`)},
		{Seq: 7, Actor: `a"b\c`, Verb: "ver\tb", At: "é\u2028"},
		{Seq: 8, Args: json.RawMessage(`{"q":"a\"b\\"}`)},
	}
	for _, e := range entries {
		want, err := json.Marshal(e)
		if err != nil {
			t.Fatal(err)
		}
		got, err := marshalEntry(e)
		if err != nil || !bytes.Equal(got, want) {
			t.Errorf("marshalEntry wrote\n%s (%v)\nencoding/json\n%s", got, err, want)
		}
		readAlike(t, want)
	}
	for _, e := range entries[:2] { // as orc-state writes them: read without encoding/json
		line, _ := json.Marshal(e)
		if _, ok := quickEntry(line); !ok {
			t.Errorf("the line orc-state writes %s goes to encoding/json", line)
		}
	}
	for _, line := range []string{
		`{"seq":1,"prev":"","at":"t","actor":"cli","verb":"init","digests":{"entry":"","checkpoint":"","ledger":"","decisions":""}}`,
		`{"seq": 1,"prev":"","at":"t","actor":"cli","verb":"init","digests":{"entry":"","checkpoint":"","ledger":"","decisions":""}}`,
		`{"prev":"","seq":1,"at":"t","actor":"cli","verb":"init","digests":{"entry":"","checkpoint":"","ledger":"","decisions":""}}`,
		`{"seq":1,"prev":"","at":"t","actor":"c\u006ci","verb":"init","digests":{"entry":"","checkpoint":"","ledger":"","decisions":""}}`,
		`{"seq":1,"prev":"","at":"t","actor":"cli","verb":"init","digests":{"entry":"","checkpoint":"","ledger":"","decisions":""},"extra":1}`,
		`{"seq":1,"prev":"","at":"t","actor":"cli","verb":"init","args":{"a":1} ,"digests":{"entry":"","checkpoint":"","ledger":"","decisions":""}}`,
		`{"seq":1,"prev":"","at":"t","actor":"cli","verb":"init","args":{"a":"}"},"digests":{"entry":"","checkpoint":"","ledger":"","decisions":""}}`,
		`{"seq":1,"prev":"","at":"t","actor":"cli","verb":"init","args":{"a":"<"},"digests":{"entry":"","checkpoint":"","ledger":"","decisions":""}}`,
		`{"seq":1,"prev":"","at":"t","actor":"cli","verb":"init","digests":{"entry":"","checkpoint":"","ledger":"","decisions":""},"outside":["a","b"]}`,
		`{"seq":1,"prev":"","at":"t","actor":"cli","verb":"init","digests":{"entry":"","checkpoint":"","ledger":"","decisions":""},"outside":[]}`,
		`{"seq":007,"prev":"","at":"t","actor":"cli","verb":"init","digests":{"entry":"","checkpoint":"","ledger":"","decisions":""}}`,
		`{"seq":1,"prev":"","at":"t","actor":"cli","verb":"init","digests":{"entry":"","checkpoint":"","ledger":"","decisions":""}`,
		`{"seq":1,"seq":2,"prev":"","at":"t","actor":"cli","verb":"init","digests":{"entry":"","checkpoint":"","ledger":"","decisions":""}}`,
		`{"seq":1}`,
		`not json`,
		``,
	} {
		readAlike(t, []byte(line))
	}
	for _, a := range []Anchor{{Seq: 3, Line: sum, Size: 99}, {Seq: 1, Line: `x"<`, Size: 1}} {
		want, _ := json.Marshal(a)
		if got := marshalAnchor(a); !bytes.Equal(got, want) {
			t.Errorf("marshalAnchor wrote %s, encoding/json %s", got, want)
		}
		for _, data := range [][]byte{append(want, '\n'), want, []byte(`{"seq":3, "line":"` + sum + `","size":99}`), []byte(`{"line":"x","seq":3,"size":9}` + "\n")} {
			var got, want Anchor
			gerr, werr := unmarshalAnchor(data, &got), json.Unmarshal(data, &want)
			if got != want || (gerr == nil) != (werr == nil) {
				t.Errorf("anchor %q read as %+v (%v), encoding/json %+v (%v)", data, got, gerr, want, werr)
			}
		}
	}
}

// readAlike fails when unmarshalEntry reads line otherwise than
// encoding/json.
func readAlike(t *testing.T, line []byte) {
	t.Helper()
	var got, want Entry
	gerr, werr := unmarshalEntry(line, &got), json.Unmarshal(line, &want)
	if (gerr == nil) != (werr == nil) || !reflect.DeepEqual(got, want) {
		t.Errorf("line %s read as %+v (%v), encoding/json %+v (%v)", line, got, gerr, want, werr)
	}
}
