package schemaver_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/orc-state/orc-state/decisions"
	"github.com/orc-state/orc-state/internal/binding"
	"github.com/orc-state/orc-state/internal/schemaver"
	"github.com/orc-state/orc-state/registry"
	"github.com/orc-state/orc-state/slices"
)

// TestProbe: the probe reads only the top-level schema, strictly typed.
func TestProbe(t *testing.T) {
	tests := []struct {
		name string
		in   string
		n    int
		kind schemaver.Kind // 0: accepted
		msg  string
	}{
		{"current", `{"schema":1}`, 1, 0, ""},
		{"older", `{"schema":0}`, 0, 0, ""},
		{"negative", `{"schema":-3}`, -3, 0, ""},
		{"newer", `{"schema":2}`, 2, schemaver.Newer, "schema 2 is newer than this orc-state understands (1)"},
		{"much newer, rest unreadable", "{\"schema\":99,\"x\":1,\"x\":\"caf\xe9\"}", 99, schemaver.Newer, "schema 99 is newer than this orc-state understands (1)"},
		{"absent", `{"sessions":[]}`, 0, schemaver.Missing, "no schema field"},
		{"null", `{"schema":null}`, 0, schemaver.Missing, "no schema field"},
		{"not an object", `[{"schema":2}]`, 0, schemaver.Missing, "no schema field"},
		{"not JSON", `{"schema":2`, 0, schemaver.Missing, "no schema field"},
		{"nested only", `{"a":{"schema":2}}`, 0, schemaver.Missing, "no schema field"},
		{"fraction", `{"schema":1.5}`, 0, schemaver.NotInteger, "schema must be an integer, got 1.5"},
		{"integral fraction", `{"schema":2.0}`, 0, schemaver.NotInteger, "schema must be an integer, got 2.0"},
		{"exponent", `{"schema":1e0}`, 0, schemaver.NotInteger, "schema must be an integer, got 1e0"},
		{"string", `{"schema":"2"}`, 0, schemaver.NotInteger, `schema must be an integer, got "2"`},
		{"bool", `{"schema":true}`, 0, schemaver.NotInteger, "schema must be an integer, got true"},
		{"overflow", `{"schema":99999999999999999999}`, 0, schemaver.NotInteger, "schema must be an integer, got 99999999999999999999"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			n, err := schemaver.Probe([]byte(tt.in), 1)
			if tt.kind == 0 {
				if err != nil || n != tt.n {
					t.Fatalf("Probe = %d, %v; want %d, nil", n, err, tt.n)
				}
				return
			}
			if err == nil || err.Kind != tt.kind || err.Error() != tt.msg {
				t.Fatalf("Probe = %d, %v; want kind %d %q", n, err, tt.kind, tt.msg)
			}
			if tt.kind == schemaver.Newer && (n != tt.n || err.Got != tt.n) {
				t.Fatalf("Probe = %d (Got %d), want %d", n, err.Got, tt.n)
			}
			inv := err.Invalid("x.json")
			numberAbove := tt.name == "fraction" || tt.name == "integral fraction" || tt.name == "overflow"
			if above := tt.kind == schemaver.Newer || numberAbove; err.Above() != above || inv.Newer() != above {
				t.Fatalf("Above %v, Invalid newer %v; want %v", err.Above(), inv.Newer(), above)
			}
			if numberAbove {
				if want := "x.json is invalid: schema " + err.Raw + " is newer than this orc-state understands (1)"; inv.Error() != want {
					t.Fatalf("Invalid = %q, want %q", inv, want)
				}
				return
			}
			if inv.Error() != "x.json is invalid: "+tt.msg {
				t.Fatalf("Invalid = %q newer %v", inv, inv.Newer())
			}
		})
	}
}

// TestFormatsAgree: every format refuses a newer, a missing and a
// wrongly typed schema with the one InvalidError, newer ones as Newer with
// the one message.
func TestFormatsAgree(t *testing.T) {
	formats := []struct {
		name  string
		parse func([]byte) error
		body  string // the rest of a minimal valid document
		bare  bool   // a document without a schema is accepted (a ledger or plan)
	}{
		{"orc.json", func(b []byte) error { _, err := registry.Parse(b); return err }, `"sessions":[]`, false},
		{"orc.json", func(b []byte) error { _, err := registry.Migrate(b, "2026-01-01T00:00:00Z"); return err }, `"sessions":[]`, false},
		{"slices.json", func(b []byte) error { _, err := slices.Parse(b); return err }, `"slices":[]`, true},
		{"slice plan", func(b []byte) error { _, err := slices.ParseInput(b); return err }, `"slices":[]`, true},
		{"decisions.json", func(b []byte) error { _, err := decisions.Parse(b); return err }, `"decisions":{}`, false},
		{"worktrees.json", func(b []byte) error { _, err := binding.Parse(b); return err }, `"worktrees":[]`, false},
	}
	for _, f := range formats {
		if err := f.parse([]byte(`{"schema":1,` + f.body + `}`)); err != nil {
			t.Errorf("%s: a valid document refused: %v", f.name, err)
		}
		for _, schema := range []string{"2", "1000"} {
			err := f.parse([]byte(`{"schema":` + schema + `,` + f.body + `}`))
			var ie *schemaver.InvalidError
			want := f.name + " is invalid: schema " + schema + " is newer than this orc-state understands (1)"
			if !errors.As(err, &ie) || !ie.Newer() || ie.Name != f.name || err.Error() != want {
				t.Errorf("%s schema %s: %v; want %q, Newer", f.name, schema, err, want)
			}
		}
		// A newer schema wins over any other fault of the document.
		if err := f.parse([]byte(`{"schema":3,"unknown":1}`)); !newer(err) {
			t.Errorf("%s: newer schema with an unknown field: %v, not Newer", f.name, err)
		}
		if f.name == "orc.json" {
			continue // a missing or odd schema is migrate's to convert
		}
		for _, in := range []string{`{` + f.body + `}`, `{"schema":null,` + f.body + `}`, `{"schema":"1",` + f.body + `}`, `{"schema":1.5,` + f.body + `}`} {
			err := f.parse([]byte(in))
			if f.bare && err == nil && !strings.Contains(in, `"schema":"`) && !strings.Contains(in, "1.5") {
				continue
			}
			var ie *schemaver.InvalidError
			if !errors.As(err, &ie) || ie.Newer() || ie.Name != f.name {
				t.Errorf("%s %s: %v; want a %s InvalidError, not Newer", f.name, in, err, f.name)
			}
		}
	}
}

// TestMigrateRefusesNumbersAbove: migrate never converts a document whose
// schema is a number above the version understood, integer or not, while
// Parse calls a non-integer schema damaged.
func TestMigrateRefusesNumbersAbove(t *testing.T) {
	for _, v := range []string{"1.5", "2.0", "3e0"} {
		in := []byte(`{"schema":` + v + `,"sessions":[]}`)
		_, err := registry.Migrate(in, "2026-01-01T00:00:00Z")
		want := "orc.json is invalid: schema " + v + " is newer than this orc-state understands (1)"
		if !newer(err) || err.Error() != want {
			t.Errorf("Migrate schema %s: %v; want %q, Newer", v, err, want)
		}
		_, err = registry.Parse(in)
		var ie *registry.InvalidError
		if !errors.As(err, &ie) || ie.Problem != registry.Damaged {
			t.Errorf("Parse schema %s: %v; want Damaged", v, err)
		}
	}
	for _, v := range []string{"0.5", `"2"`} {
		if _, err := registry.Migrate([]byte(`{"schema":`+v+`,"sessions":[]}`), "2026-01-01T00:00:00Z"); err != nil {
			t.Errorf("Migrate schema %s refused: %v (recorded, not refused)", v, err)
		}
	}
}

func newer(err error) bool {
	var ie *schemaver.InvalidError
	return errors.As(err, &ie) && ie.Newer()
}
