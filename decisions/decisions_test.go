package decisions

import (
	"bytes"
	"errors"
	"reflect"
	"strconv"
	"strings"
	"testing"
)

const (
	t1 = "2026-01-02T15:04:05Z"
	t2 = "2026-01-03T09:00:00Z"
	t3 = "2026-01-04T10:30:00Z"
)

const sample = `{
  "schema": 1,
  "decisions": {
    "autopilotLevel": {
      "value": "auto",
      "provenance": "asked",
      "settledAt": "2026-01-03T09:00:00Z",
      "history": [
        {
          "value": "manual",
          "provenance": "policy",
          "settledAt": "2026-01-02T15:04:05Z",
          "supersededAt": "2026-01-03T09:00:00Z"
        }
      ]
    },
    "maxRetriesPerSlice": {
      "value": "3",
      "provenance": "flag",
      "settledAt": "2026-01-02T15:04:05Z"
    },
    "targetRepos": {
      "value": "api, web <&>",
      "provenance": "inferred",
      "settledAt": "2026-01-02T15:04:05Z"
    }
  }
}
`

func mustParse(t testing.TB, s string) *File {
	t.Helper()
	f, err := Parse([]byte(s))
	if err != nil {
		t.Fatalf("Parse: %v", err)
	}
	return f
}

func TestParseMarshalCanonical(t *testing.T) {
	f := mustParse(t, sample)
	if got := string(f.Marshal()); got != sample {
		t.Fatalf("Marshal =\n%s", got)
	}
	d, ok := f.Get("autopilotLevel")
	if !ok || d.Value != "auto" || len(d.History) != 1 || d.History[0].Value != "manual" {
		t.Fatalf("Get = %+v, %v", d, ok)
	}
	if got := strings.Join(f.Keys(), ","); got != "autopilotLevel,maxRetriesPerSlice,targetRepos" {
		t.Fatalf("Keys = %s", got)
	}
}

func TestParseEmpty(t *testing.T) {
	for _, in := range []string{"", " \n"} {
		f, err := Parse([]byte(in))
		if err != nil || len(f.Decisions) != 0 {
			t.Fatalf("Parse(%q) = %+v, %v", in, f, err)
		}
		if got := string(f.Marshal()); got != "{\n  \"schema\": 1,\n  \"decisions\": {}\n}\n" {
			t.Fatalf("empty Marshal = %q", got)
		}
	}
	if got := string((&File{}).Marshal()); !strings.Contains(got, `"schema": 1`) {
		t.Fatalf("zero File Marshal = %q", got)
	}
}

func TestParseRefuses(t *testing.T) {
	entry := func(fields string) string {
		return `{"schema":1,"decisions":{"k":{` + fields + `}}}`
	}
	ok := `"value":"v","provenance":"flag","settledAt":"` + t1 + `"`
	tests := []struct {
		name, in, want string
		newer          bool
	}{
		{"not json", `{"schema":1,`, "unexpected end", false},
		{"array", `[]`, "the top level is not a JSON object", false},
		{"duplicate key", `{"schema":1,"decisions":{"k":{` + ok + `},"k":{` + ok + `}}}`, `duplicate key "k"`, false},
		{"duplicate field", entry(ok + `,"value":"w"`), `duplicate key "value"`, false},
		{"unknown top field", `{"schema":1,"decisions":{},"extra":1}`, `unknown field "extra"`, false},
		{"unknown entry field", entry(ok + `,"note":"x"`), `unknown field "note"`, false},
		{"schema newer", `{"schema":2,"decisions":{}}`, "schema 2 is newer", true},
		{"schema zero", `{"schema":0,"decisions":{}}`, "schema is 0; expected 1", false},
		{"no schema", `{"decisions":{}}`, "no schema field", false},
		{"no decisions", `{"schema":1}`, "no decisions object", false},
		{"null decisions", `{"schema":1,"decisions":null}`, "null where an object is expected", false},
		{"number value", entry(`"value":3,"provenance":"flag","settledAt":"` + t1 + `"`), "expected string", false},
		{"empty value", entry(`"value":"","provenance":"flag","settledAt":"` + t1 + `"`), "k: value is empty", false},
		{"multi-line value", entry(`"value":"a\nb","provenance":"flag","settledAt":"` + t1 + `"`), "line break", false},
		{"line separator in a value", entry(`"value":"a\u2028b","provenance":"flag","settledAt":"` + t1 + `"`), "line break (U+2028)", false},
		{"bad provenance", entry(`"value":"v","provenance":"guess","settledAt":"` + t1 + `"`), `provenance "guess" is not one of flag, asked, policy, inferred`, false},
		{"missing provenance", entry(`"value":"v","settledAt":"` + t1 + `"`), `provenance "" is not one of`, false},
		{"local time", entry(`"value":"v","provenance":"flag","settledAt":"2026-01-02T15:04:05+01:00"`), "is not a UTC time", false},
		{"date only", entry(`"value":"v","provenance":"flag","settledAt":"2026-01-02"`), "is not a UTC time", false},
		{"fractional seconds", entry(`"value":"v","provenance":"flag","settledAt":"2026-01-02T15:04:05.5Z"`), "is not a UTC time", false},
		{"bad key", `{"schema":1,"decisions":{"a b":{` + ok + `}}}`, `key "a b" is not`, false},
		{"empty key", `{"schema":1,"decisions":{"":{` + ok + `}}}`, `key "" is not`, false},
		{"long key", `{"schema":1,"decisions":{"` + strings.Repeat("k", 129) + `":{` + ok + `}}}`, "is not 1 to 128", false},
		{"bad history time", entry(ok + `,"history":[{"value":"w","provenance":"flag","settledAt":"` + t1 + `","supersededAt":"soon"}]`), `k: history[0]: supersededAt "soon"`, false},
		{"bad history value", entry(ok + `,"history":[{"value":"","provenance":"flag","settledAt":"` + t1 + `","supersededAt":"` + t2 + `"}]`), "k: history[0]: value is empty", false},
		{"legacy shape", `{"schema":1,"decisions":{},"autopilotLevel":{"value":"auto"}}`, `unknown field "autopilotLevel"`, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Parse([]byte(tt.in))
			var ie *InvalidError
			if !errors.As(err, &ie) || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("Parse = %v, want *InvalidError containing %q", err, tt.want)
			}
			if ie.Newer() != tt.newer || strings.ContainsAny(err.Error(), "\n") {
				t.Fatalf("newer %v msg %q", ie.Newer(), err)
			}
		})
	}
}

func TestSet(t *testing.T) {
	f := mustParse(t, "")
	if r, err := f.Set("prMode", "stack", "flag", false, t1); err != nil || r != Created {
		t.Fatalf("create: %v, %v", r, err)
	}
	before := f.Marshal()
	// The same value again converges, whatever the provenance or time.
	for _, prov := range []string{"flag", "asked"} {
		if r, err := f.Set("prMode", "stack", prov, false, t2); err != nil || r != Unchanged {
			t.Fatalf("same value (%s): %v, %v", prov, r, err)
		}
	}
	if r, err := f.Set("prMode", "stack", "policy", true, t2); err != nil || r != Unchanged {
		t.Fatalf("same value with supersede: %v, %v", r, err)
	}
	if !bytes.Equal(before, f.Marshal()) {
		t.Fatal("an unchanged Set changed the file")
	}
	// A different value without supersede loses the compare-and-set.
	_, err := f.Set("prMode", "single", "asked", false, t2)
	var se *SettledError
	if !errors.As(err, &se) || se.Key != "prMode" || se.Value != "stack" || se.Provenance != "flag" ||
		err.Error() != "'prMode' already settled (stack)" {
		t.Fatalf("settled: %v", err)
	}
	if !bytes.Equal(before, f.Marshal()) {
		t.Fatal("a refused Set changed the file")
	}
	// Supersede keeps the old values, oldest first.
	if r, err := f.Set("prMode", "single", "asked", true, t2); err != nil || r != Superseded {
		t.Fatalf("supersede: %v, %v", r, err)
	}
	if r, err := f.Set("prMode", "stack", "policy", true, t3); err != nil || r != Superseded {
		t.Fatalf("supersede again: %v, %v", r, err)
	}
	d, _ := f.Get("prMode")
	want := []HistoryEntry{
		{Value: "stack", Provenance: "flag", SettledAt: t1, SupersededAt: t2},
		{Value: "single", Provenance: "asked", SettledAt: t2, SupersededAt: t3},
	}
	if d.Value != "stack" || d.Provenance != "policy" || d.SettledAt != t3 || len(d.History) != 2 || d.History[0] != want[0] || d.History[1] != want[1] {
		t.Fatalf("after supersedes: %+v", d)
	}
	if _, err := Parse(f.Marshal()); err != nil {
		t.Fatalf("Set produced an invalid file: %v", err)
	}
}

func TestSetRefusesInput(t *testing.T) {
	tests := []struct{ name, key, value, prov, now, want string }{
		{"empty key", "", "v", "flag", t1, `key "" is not`},
		{"slash key", "a/b", "v", "flag", t1, `key "a/b" is not`},
		{"empty value", "k", "", "flag", t1, "value is empty"},
		{"newline value", "k", "a\nb", "flag", t1, "line break (U+000A)"},
		{"line separator value", "k", "a\u2028b", "flag", t1, "line break (U+2028)"},
		{"escape value", "k", "a\x1b[2Jb", "flag", t1, "control character (U+001B)"},
		{"nul value", "k", "a\x00b", "flag", t1, "control character (U+0000)"},
		{"bad utf8", "k", "\xff", "flag", t1, "not valid UTF-8"},
		{"long value", "k", strings.Repeat("v", MaxValue+1), "flag", t1, "value is 4097 bytes"},
		{"bad provenance", "k", "v", "user", t1, `provenance "user" is not one of`},
		{"bad time", "k", "v", "flag", "now", `time "now" is not a UTC time`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := mustParse(t, sample)
			_, err := f.Set(tt.key, tt.value, tt.prov, true, tt.now)
			var ie *InputError
			if !errors.As(err, &ie) || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("Set = %v, want *InputError %q", err, tt.want)
			}
			if string(f.Marshal()) != sample {
				t.Fatal("a refused Set changed the file")
			}
		})
	}
	f := mustParse(t, "")
	if _, err := f.Set("k", "tab\tok", "flag", false, t1); err != nil {
		t.Fatalf("tab refused: %v", err)
	}
	if _, err := f.Set(strings.Repeat("k", 128), strings.Repeat("é", MaxValue/2), "inferred", false, t1); err != nil {
		t.Fatalf("limits refused: %v", err)
	}
}

func TestCount(t *testing.T) {
	good := mustParse(t, "")
	for _, kv := range [][2]string{{MaxRetriesPerSlice, "3"}, {MaxRetriesPerPhase, "0"}} {
		if _, err := good.Set(kv[0], kv[1], "policy", false, t1); err != nil {
			t.Fatal(err)
		}
	}
	for key, want := range map[string]int{MaxRetriesPerSlice: 3, MaxRetriesPerPhase: 0} {
		if got, err := good.Count(key, 2); err != nil || got != want {
			t.Errorf("Count(%s) = %d, %v; want %d", key, got, err, want)
		}
	}
	if got, err := mustParse(t, "").Count(MaxRetriesPerSlice, 2); err != nil || got != 2 {
		t.Errorf("Count of an unsettled key = %d, %v; want the default 2", got, err)
	}
	if p := good.SettingProblems(); len(p) != 0 {
		t.Errorf("SettingProblems = %v, want none", p)
	}
}

// TestRetryCounts holds the retry budgets to decimal counts: Set refuses
// any other value (nothing changes), and one stored by hand parses but is
// reported by Count and SettingProblems, never read as the default.
func TestRetryCounts(t *testing.T) {
	for _, key := range Counts {
		for _, v := range []string{"abc", "99999999999999999999", " 3", "3 ", "03", "0x3", "+3", "-1", "2147483648", "1e3", "3.0"} {
			f := mustParse(t, "")
			_, err := f.Set(key, v, "policy", false, t1)
			var in *InputError
			if !errors.As(err, &in) || !strings.Contains(err.Error(), key+" must be a retry count") {
				t.Errorf("Set(%s, %q) = %v; want an *InputError naming the rule", key, v, err)
			}
			if len(f.Decisions) != 0 {
				t.Errorf("Set(%s, %q) changed the file", key, v)
			}
			stored := mustParse(t, `{"schema":1,"decisions":{"`+key+`":{"value":`+strconv.Quote(v)+`,"provenance":"policy","settledAt":"`+t1+`"}}}`)
			n, err := stored.Count(key, 2)
			var se *SettingError
			if !errors.As(err, &se) || se.Key != key || n != 0 {
				t.Errorf("Count(%s) over %q = %d, %v; want a *SettingError", key, v, n, err)
			}
			if p := stored.SettingProblems(); len(p) != 1 || p[0].Key != key {
				t.Errorf("SettingProblems over %q = %v", v, p)
			}
			// Superseding it with a count is the way out.
			if _, err := stored.Set(key, "4", "policy", true, t1); err != nil {
				t.Errorf("supersede %q: %v", v, err)
			}
			if n, err := stored.Count(key, 2); err != nil || n != 4 {
				t.Errorf("after supersede: %d, %v", n, err)
			}
		}
		for _, v := range []string{"0", "7", "2147483647"} {
			if err := CheckSetting(key, v); err != nil {
				t.Errorf("CheckSetting(%s, %q) = %v", key, v, err)
			}
		}
	}
	// Other keys are free text.
	if err := CheckSetting("autopilotLevel", "abc"); err != nil {
		t.Errorf("CheckSetting(autopilotLevel) = %v", err)
	}
}

func TestEcho(t *testing.T) {
	d := Decision{Value: "auto", Provenance: "asked"}
	if got := Echo("autopilotLevel", d); got != "using settled decision: autopilotLevel=auto (asked)" {
		t.Fatalf("Echo = %q", got)
	}
}

func TestSetResultString(t *testing.T) {
	if Created.String() != "created" || Unchanged.String() != "unchanged" || Superseded.String() != "superseded" || SetResult(0).String() != "SetResult(0)" {
		t.Fatal("SetResult names")
	}
}

// FuzzDecisionsParse: Parse never panics; what it accepts marshals to
// bytes that parse back and marshal identically.
func FuzzDecisionsParse(f *testing.F) {
	for _, s := range []string{sample, ``, `{"schema":1,"decisions":{}}`, `{"schema":2}`,
		`{"schema":1,"decisions":{"k":{"value":"\u2028<>&","provenance":"flag","settledAt":"` + t1 + `","history":[]}}}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		d, err := Parse(data)
		sameAsThePasses(t, data, d, err)
		if err != nil {
			return
		}
		m1 := d.Marshal()
		d2, err := Parse(m1)
		if err != nil {
			t.Fatalf("Marshal output does not parse: %v\n%s", err, m1)
		}
		if m2 := d2.Marshal(); !bytes.Equal(m1, m2) {
			t.Fatalf("Marshal not idempotent:\n%s\n---\n%s", m1, m2)
		}
	})
}

// sameAsThePasses fails unless d and err, what Parse returned for data,
// are what parseSlow's passes (check, lenient probe, strict decode) give.
func sameAsThePasses(t *testing.T, data []byte, d *File, err error) {
	t.Helper()
	want, wantErr := parseSlow(data)
	if len(bytes.TrimSpace(data)) == 0 {
		want, wantErr = &File{Schema: Schema, Decisions: map[string]Decision{}}, nil
	}
	if (err == nil) != (wantErr == nil) || err != nil && err.Error() != wantErr.Error() {
		t.Fatalf("Parse(%q) = %v; the passes give %v", data, err, wantErr)
	}
	var ie, wantIE *InvalidError
	if errors.As(err, &ie) != errors.As(wantErr, &wantIE) || ie != nil && (ie.Newer() != wantIE.Newer() || *ie != *wantIE) {
		t.Fatalf("Parse(%q) = %#v; the passes give %#v", data, err, wantErr)
	}
	if !reflect.DeepEqual(d, want) {
		t.Fatalf("Parse(%q) = %+v; the passes give %+v", data, d, want)
	}
}

func TestParseInOnePassRefusesAsThePassesDo(t *testing.T) {
	ok := `"k":{"value":"v","provenance":"flag","settledAt":"` + t1 + `"}`
	inputs := []string{
		sample, "", " \n", `{"schema":1,"decisions":{}}`, `{"schema":1,"decisions":{` + ok + `}}`,
		`{"schema":1,`, `[]`, `null`, `1`, `"x"`, `{}`, ` {"schema":1,"decisions":{}} `,
		`{"schema":1,"decisions":{}} x`, `{"schema":1,"decisions":{}}{}`, "{\"schema\":1,\"decisions\":{\"\xff\":{}}}",
		`{"schema":1,"schema":1,"decisions":{}}`, `{"schema":1,"decisions":{` + ok + `,` + ok + `}}`,
		`{"schema":2,"decisions":{}}`, `{"schema":2,"decisions":{},"x":1}`, `{"schema":2}`, `{"schema":2,"decisions":[1,2`,
		`{"schema":0,"decisions":{}}`, `{"schema":-1,"decisions":{}}`, `{"schema":-0,"decisions":{}}`,
		`{"schema":1.0,"decisions":{}}`, `{"schema":2.0,"decisions":{}}`, `{"schema":1e0,"decisions":{}}`, `{"schema":2e0,"decisions":{}}`,
		`{"schema":"1","decisions":{}}`, `{"schema":"2","decisions":{}}`, `{"schema":true,"decisions":{}}`, `{"schema":null,"decisions":{}}`,
		`{"schema":99999999999999999999,"decisions":{}}`, `{"schema":{},"decisions":{}}`, `{"schema":[2],"decisions":{}}`,
		`{"decisions":{}}`, `{"schema":1}`, `{"schema":1,"decisions":null}`, `{"schema":1,"decisions":[]}`, `{"schema":1,"decisions":"x"}`,
		`{"Schema":2,"decisions":{}}`, `{"SCHEMA":1,"decisions":{}}`, `{"schema":1,"SCHEMA":2,"decisions":{}}`, `{"schema":2,"Schema":1,"decisions":{}}`,
		`{"\u017fchema":2,"decisions":{}}`, `{"schema":1,"Decisions":{}}`, `{"schema":1,"DECISIONS":null}`, `{"schema":1,"decision\u017f":{}}`,
		`{"schema":1,"decisions":{},"extra":1}`, `{"schema":1,"decisions":{"k":{"value":"v"}}}`, `{"schema":1,"decisions":{"k":null}}`,
		`{"schema":1,"decisions":{"a b":{"value":"v","provenance":"flag","settledAt":"` + t1 + `"}}}`,
		`{"schema":1,"decisions":{"k":{"value":"v","provenance":"flag","settledAt":"` + t1 + `","history":null}}}`,
		`{"schema":1,"decisions":{"k":{"value":"v","provenance":"flag","settledAt":"` + t1 + `","history":[]}}}`,
		`{"schema":1,"decisions":{"k":{"value":"\ud800","provenance":"flag","settledAt":"` + t1 + `"}}}`,
		`{"schema":2,"decisions":{"k":{"value":"","provenance":"x","settledAt":"soon"}}}`,
		strings.Repeat("[", 70) + strings.Repeat("]", 70), `{"schema":1,"decisions":` + strings.Repeat(`{"k":`, 70) + `1` + strings.Repeat("}", 71),
		`{"schema":2,"decisions":` + strings.Repeat(`[`, 70) + strings.Repeat("]", 70) + `}`,
	}
	for _, in := range inputs {
		d, err := Parse([]byte(in))
		sameAsThePasses(t, []byte(in), d, err)
	}
}
