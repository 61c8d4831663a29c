package registry

import (
	"bytes"
	"encoding/binary"
	"reflect"
	"testing"
	"unicode/utf8"
)

// layouts are the prefix and indent pairs the package encodes with:
// Marshal's, splice's (an entry inside the sessions list) and Canonical's.
var layouts = [...]struct{ prefix, indent string }{{"", "  "}, {entryIndent, "  "}, {"", ""}}

// sameAsJSON fails unless the hand encoder writes exactly what
// encoding/json writes for v in every layout, or leaves v to encoding/json
// only because it holds a string that is not valid UTF-8.
func sameAsJSON(t *testing.T, v any, invalidUTF8 bool) {
	t.Helper()
	for _, l := range layouts {
		want, err := marshalJSON(v, l.prefix, l.indent)
		if err != nil {
			t.Fatal(err)
		}
		got, ok := encode(v, l.prefix, l.indent, 0)
		if !ok {
			if !invalidUTF8 {
				t.Fatalf("layout %q/%q: the hand encoder refused a value with only valid UTF-8:\n%s", l.prefix, l.indent, want)
			}
			continue
		}
		if !bytes.Equal(got, want) {
			t.Fatalf("layout %q/%q:\nhand encoder:\n%s\nencoding/json:\n%s", l.prefix, l.indent, got, want)
		}
		m, err := marshal(v, l.prefix, l.indent)
		if err != nil || !bytes.Equal(m, want) {
			t.Fatalf("layout %q/%q: marshal wrote %q (%v), encoding/json %q", l.prefix, l.indent, m, err, want)
		}
	}
}

func TestHandEncoderWritesWhatEncodingJSONWrites(t *testing.T) {
	n, m := 0, -7
	str, empty, odd := "s", "", "a\"b\\c\b\f\n\r\t\x00\x01\x1f\x7f<>&é\u2028\u2029😀"
	full := Session{
		SessionID: "feat-x", Command: "flow", Branch: "feat-x", GitBranch: "feat/x",
		Description: odd, Status: "in_progress", Phase: Phase{N: 3}, PhaseLabel: &str,
		TotalPhases: 5, JiraTicket: &empty, PlanFile: &odd,
		LinkedPRs: []PR{
			{Repo: "r", URL: "u"},
			{Repo: odd, URL: "u2", Number: &n, StackID: &str, StackPosition: &m, StackedOn: &empty},
		},
		StartedAt: "2026-01-02T15:04:05Z", UpdatedAt: "2026-01-02T15:04:06Z",
		Scope: ScopeWorkspace, Repos: []string{"a", "", odd},
		PerRepoState: map[string]RepoState{
			"b": {RepoPath: "p", Branch: "x"}, "a": {RepoPath: odd, Branch: "", Worktree: "w", CurrentSlice: &n, PRURL: &str},
			odd: {}, "": {Worktree: odd},
		},
		Gate: &Gate{
			Verdicts: []Verdict{{Phase: 1, Verdict: "approved", At: "t"}, {Phase: -1, Verdict: odd, Reviewer: "r", Note: odd, At: ""}},
			Retries:  map[string]int{"2": 1, "10": -3, odd: 0, "": 9},
		},
	}
	cases := map[string]Session{
		"zero value (nil lists, maps and pointers)": {},
		"done phase":                  {Phase: Phase{Done: true, N: 4}},
		"negative and large numbers":  {Phase: Phase{N: -1}, TotalPhases: MaxPhase},
		"every field set":             full,
		"empty lists and maps":        {LinkedPRs: []PR{}, Repos: []string{}, PerRepoState: map[string]RepoState{}, Gate: &Gate{Verdicts: []Verdict{}, Retries: map[string]int{}}},
		"gate with nil lists":         {Gate: &Gate{}},
		"one PR with null pointers":   {LinkedPRs: []PR{{}}},
		"text to escape":              {SessionID: odd, Command: "\u2028x\u2029", Description: "\x1b[31m", StartedAt: `\`, UpdatedAt: `"`},
		"multi-byte text":             {Description: "日本語 ñ \U0010FFFF", Branch: "\uFFFD"},
		"maps ordered by bytes":       {PerRepoState: map[string]RepoState{"Z": {}, "a": {}, "é": {}, "A": {}}, Gate: &Gate{Retries: map[string]int{"b": 1, "B": 2, "ab": 3}}},
		"scope only":                  {Scope: "x"},
		"worktree, reviewer and note": {PerRepoState: map[string]RepoState{"r": {Worktree: "w"}}, Gate: &Gate{Verdicts: []Verdict{{Reviewer: "x"}, {Note: "y"}}}},
	}
	for name, s := range cases {
		t.Run(name, func(t *testing.T) {
			s := s
			sameAsJSON(t, &s, false)
			sameAsJSON(t, &Registry{Schema: Schema, Sessions: []Session{s, full}}, false)
		})
	}
	t.Run("registries", func(t *testing.T) {
		sameAsJSON(t, &Registry{}, false)
		sameAsJSON(t, &Registry{Schema: 2, Sessions: []Session{}}, false)
		sameAsJSON(t, &Registry{Schema: -1, Sessions: []Session{{}}}, false)
	})
	t.Run("a sessionId", func(t *testing.T) {
		for _, id := range []string{"", "feat-x", odd} {
			sameAsJSON(t, id, false)
		}
	})
	t.Run("invalid UTF-8 is left to encoding/json", func(t *testing.T) {
		for _, s := range []Session{{Description: "a\xffb"}, {Gate: &Gate{Retries: map[string]int{"\xc3": 1}}}, {Repos: []string{"\xed\xa0\x80"}}} {
			sameAsJSON(t, &s, true)
			if _, ok := encode(&s, "", "", 0); ok {
				t.Fatalf("the hand encoder wrote invalid UTF-8 in %+v", s)
			}
			want, _ := marshalJSON(&s, "", "")
			if got, err := marshal(&s, "", ""); err != nil || !bytes.Equal(got, want) {
				t.Fatalf("marshal did not fall back to encoding/json: %q", got)
			}
		}
	})
	t.Run("the registry's testdata", func(t *testing.T) {
		r, err := Parse(readTestdata(t, "full.json"))
		if err != nil {
			t.Fatal(err)
		}
		sameAsJSON(t, r, false)
		for i := range r.Sessions {
			sameAsJSON(t, &r.Sessions[i], false)
		}
	})
}

// source hands out the fuzzer's bytes as the parts of a Session.
type source struct{ data []byte }

func (s *source) byte() byte {
	if len(s.data) == 0 {
		return 0
	}
	b := s.data[0]
	s.data = s.data[1:]
	return b
}

func (s *source) int() int {
	if len(s.data) < 8 {
		return int(int8(s.byte()))
	}
	n := int(int64(binary.LittleEndian.Uint64(s.data)))
	s.data = s.data[8:]
	return n
}

// text is a string of up to 31 bytes, taken raw (any byte, so control
// characters, multi-byte runes and invalid UTF-8 all occur) or, half the
// time, from a few words and characters the encoder treats specially.
func (s *source) text() string {
	n := int(s.byte())
	if n&1 == 0 {
		k := min((n>>1)&31, len(s.data))
		t := string(s.data[:k])
		s.data = s.data[k:]
		return t
	}
	pieces := []string{"", "a", "feat-x", "\"", "\\", "\n", "\t", "\x00", "\x7f", "é", "\u2028", "\u2029", "😀", "<&>", "\xff", "done", "2026-01-02T15:04:05Z"}
	var b []byte
	for range (n >> 1) & 7 {
		b = append(b, pieces[int(s.byte())%len(pieces)]...)
	}
	return string(b)
}

func (s *source) textPtr() *string {
	if s.byte()&1 == 0 {
		return nil
	}
	t := s.text()
	return &t
}

func (s *source) intPtr() *int {
	if s.byte()&1 == 0 {
		return nil
	}
	n := s.int()
	return &n
}

// count is -1 (nil), 0 (empty) or a small length.
func (s *source) count() int { return int(s.byte()%6) - 1 }

func (s *source) session() Session {
	x := Session{
		SessionID: s.text(), Command: s.text(), Branch: s.text(), GitBranch: s.text(),
		Description: s.text(), Status: s.text(), Phase: Phase{N: s.int(), Done: s.byte()&1 == 1},
		PhaseLabel: s.textPtr(), TotalPhases: s.int(), JiraTicket: s.textPtr(), PlanFile: s.textPtr(),
		StartedAt: s.text(), UpdatedAt: s.text(), Scope: s.text(),
	}
	if n := s.count(); n >= 0 {
		x.LinkedPRs = []PR{}
		for range n {
			x.LinkedPRs = append(x.LinkedPRs, PR{Repo: s.text(), URL: s.text(), Number: s.intPtr(),
				StackID: s.textPtr(), StackPosition: s.intPtr(), StackedOn: s.textPtr()})
		}
	}
	if n := s.count(); n >= 0 {
		x.Repos = []string{}
		for range n {
			x.Repos = append(x.Repos, s.text())
		}
	}
	if n := s.count(); n >= 0 {
		x.PerRepoState = map[string]RepoState{}
		for range n {
			x.PerRepoState[s.text()] = RepoState{RepoPath: s.text(), Branch: s.text(), Worktree: s.text(),
				CurrentSlice: s.intPtr(), PRURL: s.textPtr()}
		}
	}
	if s.byte()&1 == 1 {
		x.Gate = &Gate{}
		if n := s.count(); n >= 0 {
			x.Gate.Verdicts = []Verdict{}
			for range n {
				x.Gate.Verdicts = append(x.Gate.Verdicts, Verdict{Phase: s.int(), Verdict: s.text(),
					Reviewer: s.text(), Note: s.text(), At: s.text()})
			}
		}
		if n := s.count(); n >= 0 {
			x.Gate.Retries = map[string]int{}
			for range n {
				x.Gate.Retries[s.text()] = s.int()
			}
		}
	}
	return x
}

// hasInvalidUTF8 reports whether any string of v (a field, an element, a
// map's name or value) is not valid UTF-8.
func hasInvalidUTF8(v reflect.Value) bool {
	switch v.Kind() {
	case reflect.String:
		return !utf8.ValidString(v.String())
	case reflect.Pointer:
		return !v.IsNil() && hasInvalidUTF8(v.Elem())
	case reflect.Struct:
		for i := range v.NumField() {
			if v.Type().Field(i).IsExported() && hasInvalidUTF8(v.Field(i)) {
				return true
			}
		}
	case reflect.Slice:
		for i := range v.Len() {
			if hasInvalidUTF8(v.Index(i)) {
				return true
			}
		}
	case reflect.Map:
		for it := v.MapRange(); it.Next(); {
			if hasInvalidUTF8(it.Key()) || hasInvalidUTF8(it.Value()) {
				return true
			}
		}
	}
	return false
}

// FuzzEncoderMatchesJSON builds random Sessions (and registries of them)
// and holds the hand encoder to encoding/json's bytes in every layout.
func FuzzEncoderMatchesJSON(f *testing.F) {
	f.Add([]byte{})
	f.Add(bytes.Repeat([]byte{1, 3, 5, 7, 9, 11, 13}, 40))
	f.Add(bytes.Repeat([]byte{0xff, 0x20, 0x81, 0x0a}, 80))
	f.Add([]byte("\x0bsession\x05\x01\x02\x03\x04\x05\x06\x07\x08\x09\x0a\x0b\x0c\x0d\x0e\x0f"))
	f.Fuzz(func(t *testing.T, data []byte) {
		src := &source{data: data}
		a, b := src.session(), src.session()
		bad := hasInvalidUTF8(reflect.ValueOf([]Session{a, b}))
		sameAsJSON(t, &a, bad)
		sameAsJSON(t, &Registry{Schema: src.int(), Sessions: []Session{a, b}}, bad)
		sameAsJSON(t, a.SessionID, !utf8.ValidString(a.SessionID))
	})
}
