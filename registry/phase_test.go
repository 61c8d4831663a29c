package registry

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestParsePhase(t *testing.T) {
	tests := []struct {
		in   string
		want Phase
		ok   bool
	}{
		{"done", Phase{Done: true}, true},
		{"1", Phase{N: 1}, true},
		{"9", Phase{N: 9}, true},
		{"12", Phase{N: 12}, true},
		{"999999999", Phase{N: 999999999}, true},
		{"0", Phase{}, false},
		{"-1", Phase{}, false},
		{"+1", Phase{}, false},
		{"5abc", Phase{}, false},
		{"01", Phase{}, false},
		{"00", Phase{}, false},
		{"", Phase{}, false},
		{" 3", Phase{}, false},
		{"3 ", Phase{}, false},
		{"3\n", Phase{}, false},
		{"3.0", Phase{}, false},
		{"1e3", Phase{}, false},
		{"0x10", Phase{}, false},
		{"1_000", Phase{}, false},
		{"١", Phase{}, false}, // Arabic-Indic digit one
		{"1234567890", Phase{}, false},
		{"99999999999999999999999", Phase{}, false},
		{"Done", Phase{}, false},
		{"DONE", Phase{}, false},
		{"done ", Phase{}, false},
		{`"done"`, Phase{}, false},
		{"implement", Phase{}, false},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got, err := ParsePhase(tt.in)
			if !tt.ok {
				if err == nil {
					t.Fatalf("ParsePhase(%q) = %+v, want an error", tt.in, got)
				}
				if !strings.Contains(err.Error(), "neither done nor an integer") {
					t.Fatalf("ParsePhase(%q) error %q does not say what is expected", tt.in, err)
				}
				return
			}
			if err != nil {
				t.Fatalf("ParsePhase(%q) = %v", tt.in, err)
			}
			if got != tt.want {
				t.Fatalf("ParsePhase(%q) = %+v, want %+v", tt.in, got, tt.want)
			}
			if got.String() != tt.in {
				t.Fatalf("ParsePhase(%q).String() = %q", tt.in, got.String())
			}
		})
	}
}

func TestPhaseJSONRoundTrip(t *testing.T) {
	tests := []struct {
		p    Phase
		json string
	}{
		{Phase{N: 1}, `1`},
		{Phase{N: 12}, `12`},
		{Phase{N: 999999999}, `999999999`},
		{Phase{Done: true}, `"done"`},
		{Phase{Done: true, N: 7}, `"done"`}, // Done wins; N is ignored
	}
	for _, tt := range tests {
		t.Run(tt.json, func(t *testing.T) {
			b, err := json.Marshal(tt.p)
			if err != nil {
				t.Fatal(err)
			}
			if string(b) != tt.json {
				t.Fatalf("Marshal(%+v) = %s, want %s", tt.p, b, tt.json)
			}
			var back Phase
			if err := json.Unmarshal(b, &back); err != nil {
				t.Fatalf("Unmarshal(%s) = %v", b, err)
			}
			want := tt.p
			if want.Done {
				want.N = 0
			}
			if back != want {
				t.Fatalf("round trip of %+v gave %+v", tt.p, back)
			}
		})
	}
}

func TestPhaseUnmarshalJSON(t *testing.T) {
	tests := []struct {
		in   string
		want Phase
		ok   bool
	}{
		{`1`, Phase{N: 1}, true},
		{`42`, Phase{N: 42}, true},
		{`"done"`, Phase{Done: true}, true},
		{`"\u0064one"`, Phase{Done: true}, true},
		{`"5"`, Phase{}, false},
		{`"Done"`, Phase{}, false},
		{`"done "`, Phase{}, false},
		{`""`, Phase{}, false},
		{`0`, Phase{}, false},
		{`-1`, Phase{}, false},
		{`-0`, Phase{}, false},
		{`3.5`, Phase{}, false},
		{`3.0`, Phase{}, false},
		{`1e3`, Phase{}, false},
		{`1E0`, Phase{}, false},
		{`1234567890`, Phase{}, false},
		{`null`, Phase{}, false},
		{`true`, Phase{}, false},
		{`[]`, Phase{}, false},
		{`{}`, Phase{}, false},
		{`[1]`, Phase{}, false},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			// Through encoding/json, as Parse does, inside a struct field.
			var v struct {
				P Phase `json:"p"`
			}
			err := json.Unmarshal([]byte(`{"p":`+tt.in+`}`), &v)
			if !tt.ok {
				if err == nil {
					t.Fatalf("phase %s accepted as %+v", tt.in, v.P)
				}
				return
			}
			if err != nil {
				t.Fatalf("phase %s refused: %v", tt.in, err)
			}
			if v.P != tt.want {
				t.Fatalf("phase %s = %+v, want %+v", tt.in, v.P, tt.want)
			}
		})
	}
}

func TestPhaseUnmarshalDirect(t *testing.T) {
	var p Phase
	if err := p.UnmarshalJSON([]byte(" 3 ")); err != nil || p != (Phase{N: 3}) {
		t.Fatalf("UnmarshalJSON(\" 3 \") = %+v, %v", p, err)
	}
	if err := p.UnmarshalJSON([]byte(`"x`)); err == nil {
		t.Fatal("UnmarshalJSON of a broken string succeeded")
	}
	before := Phase{N: 2}
	p = before
	if err := p.UnmarshalJSON([]byte("0")); err == nil || p != before {
		t.Fatalf("a refused value changed the phase: %+v, %v", p, err)
	}
}
