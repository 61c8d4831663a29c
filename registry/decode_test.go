package registry

import (
	"bytes"
	"reflect"
	"testing"

	"github.com/orc-state/orc-state/internal/strictjson"
)

// sameAsStrict fails if the hand decoder accepts entry (or, whole, a
// registry) and json v2 decodes it to anything else, or refuses it.
func sameAsStrict(t *testing.T, data []byte, whole bool) (handled bool) {
	t.Helper()
	var got, want any
	var ok bool
	var err error
	if whole {
		var r Registry
		got, ok = decodeRegistry(data)
		err = strictjson.Decoded(data, &r)
		want = r
	} else {
		var s Session
		got, ok = decodeEntry(data)
		err = strictjson.Decoded(data, &s)
		want = s
	}
	if !ok {
		return false
	}
	if err != nil {
		t.Fatalf("the hand decoder accepted what json v2 refuses (%v):\n%s", err, data)
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("the hand decoder read\n%#v\njson v2\n%#v\nfrom\n%s", got, want, data)
	}
	return true
}

// entryBytes is s as splice writes it into orc.json.
func entryBytes(t *testing.T, s *Session) []byte {
	b, err := marshalJSON(s, entryIndent, "  ")
	if err != nil {
		t.Fatal(err)
	}
	return bytes.TrimSuffix(b, []byte("\n"))
}

func TestHandDecoderReadsWhatJSONV2ReadsFromProvenBytes(t *testing.T) {
	data := readTestdata(t, "full.json")
	r, err := Parse(data)
	if err != nil {
		t.Fatal(err)
	}
	canon, err := r.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	if !sameAsStrict(t, canon, true) {
		t.Fatalf("the hand decoder left a canonical registry to json v2:\n%s", canon)
	}
	for i := range r.Sessions {
		sp, ok := entryWithID(canon, r.Sessions[i].SessionID)
		if !ok {
			t.Fatalf("no entry %q", r.Sessions[i].SessionID)
		}
		if !sameAsStrict(t, canon[sp.start:sp.end], false) {
			t.Fatalf("the hand decoder left a canonical entry to json v2:\n%s", canon[sp.start:sp.end])
		}
	}
	n := 2
	label, odd := "qa", "a\"b\\c\b\f\n\r\t\x00\x1f\x7f<>&é\u2028\u2029😀"
	for name, s := range map[string]Session{
		"zero value":           {},
		"done phase":           {Phase: Phase{Done: true}, TotalPhases: 1},
		"text to escape":       {SessionID: odd, Description: odd, PhaseLabel: &label, PlanFile: &odd},
		"empty lists and maps": {LinkedPRs: []PR{}, Gate: &Gate{Verdicts: []Verdict{}, Retries: map[string]int{}}},
		"gate with nulls":      {Gate: &Gate{}},
		"every member": {Phase: Phase{N: 3}, LinkedPRs: []PR{{Repo: "r", URL: "u", Number: &n, StackID: &label, StackPosition: &n, StackedOn: &odd}, {}},
			Scope: ScopeWorkspace, Repos: []string{"a", odd}, PerRepoState: map[string]RepoState{"b": {}, "a": {RepoPath: "p", Branch: "x", Worktree: "w", CurrentSlice: &n, PRURL: &odd}},
			Gate: &Gate{Verdicts: []Verdict{{Phase: 1, Verdict: "approved", Reviewer: "r", Note: odd, At: "t"}}, Retries: map[string]int{"1": 2, "": -1}}},
	} {
		t.Run(name, func(t *testing.T) {
			if s.Phase == (Phase{}) {
				s.Phase.N = 1
			}
			e := entryBytes(t, &s)
			if !sameAsStrict(t, e, false) {
				t.Fatalf("the hand decoder left an entry the encoder wrote to json v2:\n%s", e)
			}
			reg := Registry{Schema: Schema, Sessions: []Session{s}}
			whole, _ := marshalJSON(&reg, "", "  ")
			if !sameAsStrict(t, whole, true) {
				t.Fatalf("the hand decoder left a registry the encoder wrote to json v2:\n%s", whole)
			}
		})
	}
	t.Run("what it leaves to json v2", func(t *testing.T) {
		e := entryBytes(t, &Session{Phase: Phase{N: 1}, Description: "é"})
		for name, in := range map[string][]byte{
			"compact":                            []byte(`{"sessionId":"a"}`),
			"an unknown field":                   bytes.Replace(e, []byte(`"command"`), []byte(`"Command"`), 1),
			"an escape the encoder never writes": bytes.Replace(e, []byte("é"), []byte(`\u00e9`), 1),
			"a lone surrogate":                   bytes.Replace(e, []byte("é"), []byte(`\ud800`), 1),
			"a member twice":                     bytes.Replace(e, []byte(`"command": ""`), []byte(`"command": "", "command": ""`), 1),
			"a quoted phase":                     bytes.Replace(e, []byte(`"phase": 1`), []byte(`"phase": "1"`), 1),
			"phase 0":                            bytes.Replace(e, []byte(`"phase": 1`), []byte(`"phase": 0`), 1),
			"a null string":                      bytes.Replace(e, []byte(`"command": ""`), []byte(`"command": null`), 1),
			"trailing bytes":                     append(append([]byte{}, e...), ' '),
			"truncated":                          e[:len(e)-1],
		} {
			if _, ok := decodeEntry(in); ok {
				t.Errorf("%s: the hand decoder accepted\n%s", name, in)
			}
		}
	})
}

// FuzzDecoderMatchesJSONV2 holds the hand decoder to json v2's result on
// every input it accepts: random Sessions as the encoder writes them, and
// the raw bytes themselves.
func FuzzDecoderMatchesJSONV2(f *testing.F) {
	f.Add([]byte{})
	f.Add(bytes.Repeat([]byte{1, 3, 5, 7, 9, 11, 13}, 40))
	f.Add(readTestdata(f, "full.json"))
	f.Add([]byte("{\n      \"sessionId\": \"a\",\n      \"phase\": \"done\"\n    }"))
	f.Fuzz(func(t *testing.T, data []byte) {
		sameAsStrict(t, data, false)
		sameAsStrict(t, data, true)
		src := &source{data: data}
		s := src.session()
		e := entryBytes(t, &s)
		handled := sameAsStrict(t, e, false)
		if !handled && s.Validate() == nil && !hasInvalidUTF8(reflect.ValueOf(s)) {
			t.Fatalf("the hand decoder left a valid entry to json v2:\n%s", e)
		}
		whole, _ := marshalJSON(&Registry{Schema: src.int(), Sessions: []Session{s}}, "", "  ")
		sameAsStrict(t, whole, true)
	})
}
