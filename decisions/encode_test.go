package decisions

import (
	"bytes"
	"encoding/binary"
	"testing"
	"unicode/utf8"
)

// sameAsJSON fails unless the hand encoder writes encoding/json's bytes
// for f, or leaves f to encoding/json because one of its strings is not
// valid UTF-8; and Marshal writes them either way.
func sameAsJSON(t *testing.T, f *File) {
	t.Helper()
	want := marshalJSON(f)
	got, ok := encode(f) // got holds f's strings as they are, even when !ok
	if !ok && utf8.Valid(got) {
		t.Fatalf("the hand encoder refused a file with only valid UTF-8:\n%s", want)
	}
	if ok && !bytes.Equal(got, want) {
		t.Fatalf("hand encoder:\n%s\nencoding/json:\n%s", got, want)
	}
	if f.Schema == Schema {
		if m := f.Marshal(); !bytes.Equal(m, want) {
			t.Fatalf("Marshal:\n%s\nencoding/json:\n%s", m, want)
		}
	}
}

func TestHandEncoderWritesWhatEncodingJSONWrites(t *testing.T) {
	odd := "a\"b\\c\b\f\n\r\t\x00\x01\x1f\x7f<>&é\u2028\u2029😀"
	h := HistoryEntry{Value: "old", Provenance: "policy", SettledAt: t1, SupersededAt: t2}
	for name, d := range map[string]map[string]Decision{
		"no decisions":     {},
		"one decision":     {"k": {Value: "v", Provenance: "flag", SettledAt: t1}},
		"keys sorted":      {"b": {}, "a": {}, "B": {}, "a.b": {}, "a-b": {}, "_": {}},
		"empty history":    {"k": {Value: "v", History: []HistoryEntry{}}},
		"history":          {"k": {Value: "v", History: []HistoryEntry{h, {}}}, "j": {History: []HistoryEntry{h}}},
		"text to escape":   {odd: {Value: odd, Provenance: odd, SettledAt: odd, History: []HistoryEntry{{Value: odd, SupersededAt: odd}}}},
		"multi-byte text":  {"日本": {Value: "ñ \U0010FFFF \uFFFD"}},
		"empty everything": {"": {}},
	} {
		t.Run(name, func(t *testing.T) {
			sameAsJSON(t, &File{Schema: Schema, Decisions: d})
			sameAsJSON(t, &File{Schema: -12, Decisions: d})
		})
	}
	t.Run("the sample", func(t *testing.T) { sameAsJSON(t, mustParse(t, sample)) })
	t.Run("invalid UTF-8 is left to encoding/json", func(t *testing.T) {
		for _, d := range []map[string]Decision{{"\xff": {}}, {"k": {Value: "a\xc3"}}, {"k": {History: []HistoryEntry{{SupersededAt: "\xed\xa0\x80"}}}}} {
			f := &File{Schema: Schema, Decisions: d}
			if _, ok := encode(f); ok {
				t.Fatalf("the hand encoder wrote invalid UTF-8 in %+v", d)
			}
			if m := f.Marshal(); !bytes.Equal(m, marshalJSON(f)) {
				t.Fatalf("Marshal did not fall back to encoding/json: %q", m)
			}
		}
	})
	if _, ok := encode(&File{Schema: Schema}); ok {
		t.Fatal("the hand encoder wrote a nil map, which encoding/json writes as null")
	}
}

// FuzzEncoderMatchesJSON builds random Files from the fuzzer's bytes and
// holds the hand encoder to encoding/json's.
func FuzzEncoderMatchesJSON(f *testing.F) {
	f.Add([]byte{})
	f.Add(bytes.Repeat([]byte{1, 3, 5, 7, 9, 11, 13}, 40))
	f.Add([]byte("\x05k\x02\x03value\x04\x05\x00\u2028\xff\x01\"\\\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		next := func() byte {
			if len(data) == 0 {
				return 0
			}
			b := data[0]
			data = data[1:]
			return b
		}
		text := func() string {
			n := min(int(next()&31), len(data))
			s := string(data[:n])
			data = data[n:]
			return s
		}
		schema := 1
		if next()&1 == 1 && len(data) >= 8 {
			schema = int(int64(binary.LittleEndian.Uint64(data)))
			data = data[8:]
		}
		file := &File{Schema: schema, Decisions: map[string]Decision{}}
		for range next() % 5 {
			d := Decision{Value: text(), Provenance: text(), SettledAt: text()}
			if n := int(next()%4) - 1; n >= 0 {
				d.History = []HistoryEntry{}
				for range n {
					d.History = append(d.History, HistoryEntry{Value: text(), Provenance: text(), SettledAt: text(), SupersededAt: text()})
				}
			}
			file.Decisions[text()] = d
		}
		sameAsJSON(t, file)
	})
}
