package registry

import (
	"bytes"
	"errors"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/orc-state/orc-state/internal/portable"
)

// fuzzSeeds are registries of every kind: canonical, compact, legacy,
// invalid and malformed.
func fuzzSeeds(f *testing.F) [][]byte {
	seeds := [][]byte{
		readTestdata(f, "full.json"),
		readTestdata(f, "legacy.json"),
		readTestdata(f, "legacy.migrated.json"),
		withEntry(f, nil),
		withEntry(f, set("phase", "done")),
		withEntry(f, func(e map[string]any) {
			e["scope"] = "workspace"
			e["repos"] = []any{}
			e["perRepoState"] = map[string]any{}
			e["gate"] = map[string]any{}
		}),
		withEntry(f, set("linkedPRs", []any{map[string]any{"repo": "a", "url": "u", "number": 1, "stackId": "s", "stackPosition": 2, "stackedOn": "v"}})),
		legacyWith(f, set("phase", "implement"), set("current_phase", 2)),
		legacyWith(f, set("phase", "done"), set("phaseLabel", "qa-complete")),
		legacyWith(f, del("totalPhases"), set("phase", 4), set("planPath", "p.md"), set("foo", []any{1})),
		legacyWith(f, set("gitBranch", "feat/sso login"), set("branch", "feat-sso login"), set("session_id", "01H")),
		legacyDoc(f, legacyEntry(), legacyEntry()),
		[]byte(`{"schema":1,"sessions":[]}`),
		[]byte(`{"sessions":[]}`),
		[]byte(`{"schema":2,"sessions":[]}`),
		[]byte(`{"schemaVersion":2,"sessions":[{"session_id":"x","branch":"a","current_phase":"3","total_phases":"4","created_at":"2025-01-01T00:00:00+02:00"}]}`),
		[]byte(`{"sessions":[{"gitBranch":"é"},{"gitBranch":"--"}]}`),
		[]byte(`{"sessions":[{"branch":"a/b"},{"branch":"a-b"}]}`),
		[]byte(`{"schema":1,"sessions":[],"sessions":[]}`),
		[]byte(`null`),
		[]byte(`[]`),
		[]byte(``),
		[]byte("\xff"),
	}
	return seeds
}

// normalize maps what Marshal cannot tell apart to one form: an empty repos
// list or perRepoState map is omitted (omitempty), so it reads back as nil.
func normalize(r *Registry) *Registry {
	c := *r
	c.Sessions = append([]Session{}, r.Sessions...)
	for i := range c.Sessions {
		if len(c.Sessions[i].Repos) == 0 {
			c.Sessions[i].Repos = nil
		}
		if len(c.Sessions[i].PerRepoState) == 0 {
			c.Sessions[i].PerRepoState = nil
		}
	}
	return &c
}

func FuzzParse(f *testing.F) {
	for _, s := range fuzzSeeds(f) {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		r, err := Parse(data)
		if err != nil {
			var ie *InvalidError
			if !errors.As(err, &ie) || ie.Problem < Damaged || ie.Problem > Collision {
				t.Fatalf("Parse error %v (%T) is not an InvalidError of a known kind", err, err)
			}
			if r != nil {
				t.Fatal("Parse returned a registry with an error")
			}
			return
		}
		for _, s := range r.Sessions {
			if err := CheckKey(s.SessionID); err != nil {
				t.Fatalf("Parse accepted an unsafe key: %v", err)
			}
			if Sanitize(s.GitBranch) != s.SessionID || s.Branch != s.SessionID {
				t.Fatalf("Parse accepted keys %q/%q/%q", s.SessionID, s.Branch, s.GitBranch)
			}
		}
		b1, err := r.Marshal()
		if err != nil {
			t.Fatalf("Marshal: %v", err)
		}
		r2, err := Parse(b1)
		if err != nil {
			t.Fatalf("Parse(Marshal(x)) = %v\n%s", err, b1)
		}
		if !reflect.DeepEqual(normalize(r), r2) {
			t.Fatalf("Parse(Marshal(x)) differs:\n%+v\n%+v", r, r2)
		}
		b2, err := r2.Marshal()
		if err != nil || !bytes.Equal(b1, b2) {
			t.Fatalf("Marshal is not idempotent (%v):\n%s\n%s", err, b1, b2)
		}
		for i := range r.Sessions {
			if !bytes.Equal(r.Sessions[i].Canonical(), r2.Sessions[i].Canonical()) {
				t.Fatalf("Canonical changed across a round trip for %q", r.Sessions[i].SessionID)
			}
		}
		m, err := Migrate(data, "2026-01-01T00:00:00Z")
		if err != nil || m.Changed {
			t.Fatalf("Migrate of a valid registry: changed=%v err=%v", m != nil && m.Changed, err)
		}
	})
}

func FuzzMigrate(f *testing.F) {
	for _, s := range fuzzSeeds(f) {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		m, err := Migrate(data, "2026-01-01T00:00:00Z")
		if err != nil {
			var ie *InvalidError
			if !errors.As(err, &ie) || ie.Problem < Damaged || ie.Problem > Collision {
				t.Fatalf("Migrate error %v (%T) is not an InvalidError of a known kind", err, err)
			}
			if m != nil {
				t.Fatal("Migrate returned a result with an error")
			}
			return
		}
		checkMigration(t, m)
		if !m.Changed {
			if _, err := Parse(data); err != nil {
				t.Fatalf("Changed is false but the input does not parse: %v", err)
			}
		}
	})
}

func FuzzSanitize(f *testing.F) {
	for _, s := range []string{
		"", "main", "feat/x", "a b", "é", "feat/café x", "..", "../x", ".hidden", "knowledge",
		"a\x00b\xff", strings.Repeat("a", 201), strings.Repeat("é", 100), "😀/\t\n",
		"con", "NUL.txt", "aux.a/b", "lpt9", "com1.", "v1.", "a..", "Knowledge", "ORC.json",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		orig := OriginalKey(s)
		if len(orig) != len(s) {
			t.Fatalf("OriginalKey(%q) = %q: %d bytes from %d", s, orig, len(orig), len(s))
		}
		for i := 0; i < len(s); i++ {
			want := byte('-')
			if keyByte(s[i]) {
				want = s[i]
			}
			if orig[i] != want {
				t.Fatalf("OriginalKey(%q) = %q: byte %d is %q, want %q", s, orig, i, orig[i], want)
			}
		}
		out := Sanitize(s)
		switch {
		case orig == "" || orig[0] == '.' || portable.Problem(orig) == "":
			if out != orig {
				t.Fatalf("Sanitize(%q) = %q changed a name the original rule made usable (%q)", s, out, orig)
			}
		case portable.Problem(out) != "":
			t.Fatalf("Sanitize(%q) = %q, which Windows cannot use: %s", s, out, portable.Problem(out))
		case len(out) > len(orig)+2 || strings.ReplaceAll(out, "-", "") != strings.ReplaceAll(orig, "-", ""):
			t.Fatalf("Sanitize(%q) = %q is not %q with at most two dashes inserted", s, out, orig)
		}
		if Sanitize(out) != out {
			t.Fatalf("Sanitize is not idempotent on %q: %q then %q", s, out, Sanitize(out))
		}
		id, err := KeyFor(s)
		if err != nil {
			if s != "" && CheckPortable(out) == nil {
				t.Fatalf("KeyFor(%q) refused (%v) but CheckPortable accepts %q", s, err, out)
			}
			return
		}
		if id != out {
			t.Fatalf("KeyFor(%q) = %q, Sanitize = %q", s, id, out)
		}
		if err := CheckKey(id); err != nil {
			t.Fatalf("KeyFor(%q) = %q, which CheckKey refuses: %v", s, id, err)
		}
		if portable.Problem(id) != "" {
			t.Fatalf("KeyFor(%q) = %q, which Windows cannot use: %s", s, id, portable.Problem(id))
		}
		root := filepath.Join("/state", ".orc")
		if p := filepath.Join(root, id); filepath.Dir(p) != root {
			t.Fatalf("KeyFor(%q) = %q escapes the state dir: %q", s, id, p)
		}
	})
}
