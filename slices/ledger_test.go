package slices

import (
	"errors"
	stdslices "slices"
	"strings"
	"testing"
	"unicode/utf8"
)

// canonical is a plan already in Marshal's layout, with planner fields this
// package does not know at the top level and inside slices, some of them
// formatted in ways Marshal would never produce.
const canonical = `{
  "schema": 1,
  "planPath": "plan.md",
  "planSha256": "` + sha + `",
  "x-planner": {"v": 3,   "tags": ["a",  "b"]},
  "slices": [
    {
      "id": 1,
      "title": "parser",
      "repo": "api",
      "estLoc": 120,
      "shipsAsStack": false,
      "parallelGroup": 1,
      "dependsOn": [],
      "touchpoints": ["parse.go", "parse_test.go"],
      "acceptance": ["parses the header", "refuses a bad header"],
      "context": {
          "files": ["a.go"],
          "symbols": []
      },
      "status": "pending"
    },
    {
      "id": "2",
      "title": "writer",
      "estLoc": 8e1,
      "parallelGroup": "g2",
      "dependsOn": [1],
      "touchpoints": ["write.go", "write_test.go"],
      "acceptance": ["writes", "round-trips"],
      "status": "committed",
      "commit": "abcdef1",
      "ratio": 1.50,
      "\u0065mpty": null
    },
    {
      "id": 3,
      "title": "cli",
      "dependsOn": ["2", 1],
      "touchpoints": ["cmd/cli.go", "cmd/cli_test.go"],
      "acceptance": ["a", "b"],
      "estLoc": 40
    }
  ]
}
`

const sha = "5891b5b522d5df086d0ff0b110fbd9d21bb4fc7163af34d08286a2e846f6be03"

func mustParse(t testing.TB, s string) *Ledger {
	t.Helper()
	l, err := Parse([]byte(s))
	if err != nil {
		t.Fatalf("Parse: %v", err)
	}
	return l
}

func TestParseMarshalIsByteIdentical(t *testing.T) {
	l := mustParse(t, canonical)
	if got := string(l.Marshal()); got != canonical {
		t.Fatalf("Marshal changed a canonical plan:\n%s", got)
	}
}

func TestMarshalLaysOutCompactInput(t *testing.T) {
	in := `{"slices":[{"id":1,"x":{"k": [1,2]}},{"id":"b","dependsOn":[1]}],"schema":1,"slices2":[]}`
	want := `{
  "slices": [
    {
      "id": 1,
      "x": {"k": [1,2]}
    },
    {
      "id": "b",
      "dependsOn": [1]
    }
  ],
  "schema": 1,
  "slices2": []
}
`
	l := mustParse(t, in)
	if got := string(l.Marshal()); got != want {
		t.Fatalf("Marshal =\n%s\nwant\n%s", got, want)
	}
	empty := mustParse(t, `{"slices": [ ], "planPath": null}`)
	if got := string(empty.Marshal()); got != "{\n  \"slices\": [],\n  \"planPath\": null\n}\n" {
		t.Fatalf("empty ledger = %q", got)
	}
	if got := string(mustParse(t, `{"slices":[{"id":1}, {"id": 2, "a": {}}]}`).Marshal()); !strings.Contains(got, `"a": {}`) {
		t.Fatalf("empty nested object lost: %s", got)
	}
}

func TestParseView(t *testing.T) {
	l := mustParse(t, canonical)
	if got := l.IDs(); !stdslices.Equal(got, []string{"1", "2", "3"}) {
		t.Fatalf("IDs = %v", got)
	}
	s, ok := l.Get("2")
	if !ok || s.Title != "writer" || s.Status != "committed" || s.Commit != "abcdef1" || *s.EstLoc != 80 ||
		s.ParallelGroup != "g2" || !stdslices.Equal(s.DependsOn, []string{"1"}) || s.Unverified {
		t.Fatalf("Get(2) = %+v, %v", s, ok)
	}
	s, _ = l.Get("3")
	if s.Status != "pending" || !stdslices.Equal(s.DependsOn, []string{"2", "1"}) || s.EstLoc == nil || s.ActualLoc != nil {
		t.Fatalf("Get(3) = %+v", s)
	}
	if st, ok := l.Status("1"); st != "pending" || !ok {
		t.Fatalf("Status(1) = %q, %v", st, ok)
	}
	if _, ok := l.Status("4"); ok {
		t.Fatal("Status(4) found")
	}
	if l.PlanPath() != "plan.md" || l.PlanSHA256() != sha {
		t.Fatalf("plan = %q %q", l.PlanPath(), l.PlanSHA256())
	}
	if d, n := l.Done(); d != 1 || n != 3 {
		t.Fatalf("Done = %d/%d", d, n)
	}
	if got := l.Open(); !stdslices.Equal(got, []string{"1", "3"}) {
		t.Fatalf("Open = %v", got)
	}
	if !l.HasProgress() {
		t.Fatal("HasProgress = false with a committed slice")
	}
	if mustParse(t, `{"slices":[{"id":1},{"id":2,"status":"pending"}]}`).HasProgress() {
		t.Fatal("HasProgress = true for an all-pending ledger")
	}
}

func TestParseRefuses(t *testing.T) {
	one := func(fields string) string { return `{"slices":[{"id":1` + fields + `}]}` }
	tests := []struct{ name, in, want string }{
		{"not json", `{"slices":`, "unexpected end"},
		{"empty", ``, "unexpected end"},
		{"top array", `[]`, "top level is not a JSON object"},
		{"duplicate top key", `{"slices":[],"slices":[]}`, `duplicate key "slices"`},
		{"duplicate slice key", one(`,"status":"red","status":"green"`), `duplicate key "status"`},
		{"duplicate nested planner key", one(`,"ctx":{"a":1,"a":2}`), `duplicate key "a"`},
		{"schema newer", `{"schema":2,"slices":[]}`, "schema 2 is newer"},
		{"schema zero", `{"schema":0,"slices":[]}`, "schema is 0; expected 1"},
		{"schema string", `{"schema":"1","slices":[]}`, "schema must be an integer"},
		{"planPath number", `{"planPath":3,"slices":[]}`, "planPath must be a string"},
		{"no slices", `{"schema":1}`, "no slices array"},
		{"slices object", `{"slices":{}}`, "slices must be an array"},
		{"commitHistory object", one(`,"commitHistory":{}`), "commitHistory must be an array"},
		{"commitHistory entry without commit", one(`,"commitHistory":[{"supersededAt":"2026-01-02T15:04:05Z"}]`), "commitHistory[0] needs commit and supersededAt"},
		{"commitHistory entry without time", one(`,"commitHistory":[{"commit":"abcdef1"}]`), "commitHistory[0] needs commit and supersededAt"},
		{"commitHistory bad commit", one(`,"commitHistory":[{"commit":"HEAD","supersededAt":"2026-01-02T15:04:05Z"}]`), `commitHistory[0].commit "HEAD" is not 7 to 64 hex digits`},
		{"commitHistory unknown member", one(`,"commitHistory":[{"commit":"abcdef1","supersededAt":"2026-01-02T15:04:05Z","why":"x"}]`), "commitHistory[0].why is not a field of commitHistory"},
		{"commitHistory local time", one(`,"commitHistory":[{"commit":"abcdef1","supersededAt":"2026-01-02T15:04:05+01:00"}]`), "is not a UTC time"},
		{"slice not object", `{"slices":[1]}`, "slices[0] is not an object"},
		{"missing id", `{"slices":[{"title":"x"}]}`, "slices[0]: id is missing"},
		{"null id", `{"slices":[{"id":null}]}`, "slices[0]: id must be an integer or a string"},
		{"fraction id", `{"slices":[{"id":1.5}]}`, "id must be an integer or a string"},
		{"empty id", `{"slices":[{"id":""}]}`, "must be non-empty"},
		{"multi-line id", `{"slices":[{"id":"a\nb"}]}`, "on one line"},
		{"id with LINE SEPARATOR", `{"slices":[{"id":"a\u2028b"}]}`, "on one line"},
		{"id with NEL", `{"slices":[{"id":"a\u0085b"}]}`, "on one line"},
		{"parallelGroup with PARAGRAPH SEPARATOR", `{"slices":[{"id":1,"parallelGroup":"g\u2029"}]}`, "on one line"},
		{"dependsOn with ESC", `{"slices":[{"id":1},{"id":2,"dependsOn":["1\u001b"]}]}`, "on one line"},
		{"duplicate id", `{"slices":[{"id":1},{"id":2},{"id":"1"}]}`, "duplicate slice id 1"},
		{"bad status", one(`,"status":"done"`), `slice 1: status "done" is not one of pending, red, green, committed, escalated, skipped`},
		{"status number", one(`,"status":3`), "status must be a string"},
		{"short commit", one(`,"commit":"abc"`), `commit "abc" is not 7 to 64 hex digits`},
		{"non-hex commit", one(`,"commit":"zzzzzzzz"`), "not 7 to 64 hex digits"},
		{"commit number", one(`,"commit":1234567`), "commit must be a string"},
		{"commitVerified string", one(`,"commitVerified":"no"`), "commitVerified must be true or false"},
		{"negative actualLoc", one(`,"actualLoc":-1`), "actualLoc must be a non-negative integer"},
		{"fraction actualLoc", one(`,"actualLoc":1.5`), "actualLoc must be a non-negative integer"},
		{"string actualLoc", one(`,"actualLoc":"3"`), "actualLoc must be a non-negative integer"},
		{"negative attempts", one(`,"attempts":-2`), "attempts must be a non-negative integer"},
		{"note number", one(`,"note":5`), "note must be a string"},
		{"title object", one(`,"title":{}`), "title must be a string"},
		{"touchpoints numbers", one(`,"touchpoints":[1]`), "touchpoints[0] must be a string"},
		{"acceptance string", one(`,"acceptance":"x"`), "acceptance must be an array"},
		{"estLoc string", one(`,"estLoc":"100"`), "estLoc must be a non-negative number"},
		{"estLoc negative", one(`,"estLoc":-5`), "estLoc must be a non-negative number"},
		{"shipsAsStack string", one(`,"shipsAsStack":"yes"`), "shipsAsStack must be true or false"},
		{"parallelGroup array", one(`,"parallelGroup":[1]`), "parallelGroup must be an integer or a string"},
		{"dependsOn not array", one(`,"dependsOn":2`), "dependsOn must be an array"},
		{"dependsOn object", one(`,"dependsOn":[{}]`), "dependsOn[0] must be an integer or a string"},
		{"dangling dependsOn", `{"slices":[{"id":1},{"id":2,"dependsOn":[9]}]}`, "slice 2: depends on unknown slice 9"},
		{"self dependency", `{"slices":[{"id":1,"dependsOn":["1"]}]}`, "slice 1: depends on itself"},
		{"two-cycle", `{"slices":[{"id":1,"dependsOn":[2]},{"id":2,"dependsOn":[1]}]}`, "slice 1: dependsOn cycle: 1 → 2 → 1"},
		{"three-cycle", `{"slices":[{"id":"a","dependsOn":["b"]},{"id":"b","dependsOn":["c"]},{"id":"c","dependsOn":["a"]}]}`,
			"slice a: dependsOn cycle: a → b → c → a"},
		{"cycle behind a chain", `{"slices":[{"id":1,"dependsOn":[2]},{"id":2,"dependsOn":[3]},{"id":3,"dependsOn":[2]}]}`,
			"slice 2: dependsOn cycle: 2 → 3 → 2"},
		{"invalid utf8", "{\"slices\":[{\"id\":\"\xff\"}]}", "not valid UTF-8"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Parse([]byte(tt.in))
			var ie *InvalidError
			if !errors.As(err, &ie) || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("Parse = %v, want *InvalidError containing %q", err, tt.want)
			}
			if ie.Input || !strings.HasPrefix(err.Error(), "slices.json is invalid: ") {
				t.Fatalf("disk error %q: input %v", err, ie.Input)
			}
			if newer := strings.Contains(tt.want, "newer"); ie.Newer() != newer {
				t.Fatalf("Newer = %v, want %v", ie.Newer(), newer)
			}
			_, err = ParseInput([]byte(tt.in))
			if !errors.As(err, &ie) || !ie.Input || !strings.HasPrefix(err.Error(), "slice plan is invalid: ") {
				t.Fatalf("ParseInput = %v", err)
			}
			if strings.ContainsAny(err.Error(), "\n\r") {
				t.Fatalf("error is not one line: %q", err)
			}
		})
	}
}

func TestParseAccepts(t *testing.T) {
	for _, in := range []string{
		`{"slices":[]}`,
		`{"schema":null,"planPath":null,"slices":[]}`,
		`{"slices":[{"id":1,"status":null,"commit":null,"actualLoc":null,"note":null,"estLoc":null,"dependsOn":null,"touchpoints":null,"acceptance":null,"parallelGroup":null,"shipsAsStack":null,"title":null}]}`,
		`{"slices":[{"id":-3},{"id":"x y","dependsOn":[-3]}]}`,
		`{"slices":[{"\u0069d":7,"commit":"ABCDEF0123","commitVerified":true,"actualLoc":0,"attempts":0}]}`,
		`{"slices":[{"id":1},{"id":2,"dependsOn":[1,1]}],"unknown":{"deep":[[[]]]}}`,
	} {
		if _, err := Parse([]byte(in)); err != nil {
			t.Errorf("Parse(%s) = %v", in, err)
		}
	}
}

func TestNext(t *testing.T) {
	tests := []struct {
		name, slices string
		want         string // "" for none
	}{
		{"first pending", `{"id":1},{"id":2}`, "1"},
		{"work in progress wins over earlier pending", `{"id":1},{"id":2,"status":"green"}`, "2"},
		{"first of red and green", `{"id":1,"status":"red"},{"id":2,"status":"green"}`, "1"},
		{"waits for dependencies", `{"id":1,"status":"escalated","note":"n"},{"id":2,"dependsOn":[1]},{"id":3}`, "3"},
		{"skipped counts as done", `{"id":1,"status":"skipped","note":"n"},{"id":2,"dependsOn":[1]}`, "2"},
		{"committed counts as done", `{"id":1,"status":"committed","commit":"abcdef0"},{"id":2,"dependsOn":[1]}`, "2"},
		{"escalated is never next", `{"id":1,"status":"escalated","note":"n"}`, ""},
		{"pending blocked by pending", `{"id":1,"dependsOn":[2]},{"id":2,"dependsOn":[3]},{"id":3}`, "3"},
		{"all done", `{"id":1,"status":"committed","commit":"abcdef0"},{"id":2,"status":"skipped","note":"n"}`, ""},
		{"empty", ``, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := mustParse(t, `{"slices":[`+tt.slices+`]}`).Next()
			if got != tt.want || ok != (tt.want != "") {
				t.Fatalf("Next = %q, %v; want %q", got, ok, tt.want)
			}
		})
	}
}

func TestFaultQuotesAreShortAndValid(t *testing.T) {
	_, err := Parse([]byte(`{"slices":[{"id":1,"title":{"a":"` + strings.Repeat("é", 40) + `",
	 "b": 2}}]}`))
	msg := err.Error()
	if !strings.HasSuffix(msg, `title must be a string, got {"a":"`+strings.Repeat("é", 15)+`...`) || !utf8.ValidString(msg) {
		t.Fatalf("err = %q", msg)
	}
}
