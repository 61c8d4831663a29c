package decisions

import (
	"bytes"
	"encoding/binary"
	"reflect"
	"testing"
	"unicode/utf8"

	"github.com/orc-state/orc-state/internal/strictjson"
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
		sameAsJSON(t, randomFile(data))
	})
}

// randomFile builds a File from the fuzzer's bytes: any schema, up to four
// decisions whose strings are any bytes, histories nil, empty or not.
func randomFile(data []byte) *File {
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
	return file
}

// sameAsStrict fails if the hand decoder accepts data and the strict
// decode refuses it or reads another File.
func sameAsStrict(t *testing.T, data []byte) (handled bool) {
	t.Helper()
	got, ok := decodeCanonical(data)
	if !ok {
		return false
	}
	var want File
	if err := strictjson.Decode(data, &want); err != nil {
		t.Fatalf("the hand decoder accepted what the strict decode refuses (%v):\n%s", err, data)
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("the hand decoder read %#v, the strict decode %#v, from\n%s", got, want, data)
	}
	return true
}

func TestHandDecoderReadsWhatTheStrictDecodeReads(t *testing.T) {
	for _, f := range []*File{
		mustParse(t, sample), {Schema: Schema, Decisions: map[string]Decision{}},
		{Schema: 7, Decisions: map[string]Decision{"a\"\\\n\u2028é": {Value: "\x00\x1f\t", History: []HistoryEntry{{}, {Value: "\u2029"}}}, "": {}}},
	} {
		if m := f.Marshal(); !sameAsStrict(t, m) {
			t.Fatalf("the hand decoder left Marshal's bytes to the strict decode:\n%s", m)
		}
	}
	m := mustParse(t, sample).Marshal()
	for name, in := range map[string][]byte{
		"compact":           []byte(`{"schema":1,"decisions":{}}`),
		"no trailing line":  bytes.TrimSuffix(m, []byte("\n")),
		"another escape":    bytes.Replace(m, []byte("auto"), []byte(`\u0061uto`), 1),
		"a lone surrogate":  bytes.Replace(m, []byte("auto"), []byte(`\ud800`), 1),
		"a key twice":       bytes.Replace(m, []byte(`"targetRepos"`), []byte(`"maxRetriesPerSlice"`), 1),
		"an unknown member": bytes.Replace(m, []byte(`"provenance"`), []byte(`"Provenance"`), 1),
		"an empty history":  bytes.Replace(m, []byte(`"settledAt": "2026-01-02T15:04:05Z"`+"\n    }"), []byte(`"settledAt": "2026-01-02T15:04:05Z",`+"\n      \"history\": []\n    }"), 1),
		"schema as text":    bytes.Replace(m, []byte(`"schema": 1`), []byte(`"schema": "1"`), 1),
		"truncated":         m[:len(m)-2],
	} {
		if _, ok := decodeCanonical(in); ok {
			t.Errorf("%s: the hand decoder accepted\n%s", name, in)
		}
		d, err := Parse(in)
		sameAsThePasses(t, in, d, err)
	}
}

// FuzzDecoderMatchesStrict holds the hand decoder to the strict decode on
// every input it accepts: random Files as Marshal writes them, and the raw
// bytes; and Parse to the passes on both.
func FuzzDecoderMatchesStrict(f *testing.F) {
	f.Add([]byte(sample))
	f.Add(bytes.Repeat([]byte{1, 3, 5, 7, 9, 11, 13}, 40))
	f.Fuzz(func(t *testing.T, data []byte) {
		sameAsStrict(t, data)
		file := randomFile(data)
		m := marshalJSON(file)
		if !sameAsStrict(t, m) && utf8.Valid(m) && !bytes.Contains(m, []byte(`\ufffd`)) {
			t.Fatalf("the hand decoder left Marshal's bytes to the strict decode:\n%s", m)
		}
		for _, in := range [][]byte{data, m} {
			d, err := Parse(in)
			sameAsThePasses(t, in, d, err)
		}
	})
}
