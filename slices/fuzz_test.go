package slices

import (
	"bytes"
	"reflect"
	"testing"
	"time"
)

// FuzzLedgerParse: Parse never panics; whatever it accepts marshals to bytes
// that parse back to the same slices and marshal identically; a Set keeps
// the ledger parseable.
func FuzzLedgerParse(f *testing.F) {
	for _, s := range []string{
		canonical,
		`{"slices":[]}`,
		`{"slices":[{"id":1},{"id":"2","dependsOn":[1]}]}`,
		`{"slices":[{"id":1,"x":{"a":[1,{"b":"\"}"}]},"status":"red","attempts":1}],"top":"\u00e9"}`,
		`{"schema":1,"slices":[{"id":1,"dependsOn":[2]},{"id":2,"dependsOn":[1]}]}`,
		`{"slices":[{"id":1,"commit":"ABCDEF0","commitVerified":false,"note":null}]}`,
		"{\"slices\":[{\"id\":1}],\r\n\t\"k\" : [ 1 , 2 ] }",
		`[]`,
		`{"slices":[{"id":1,"id":2}]}`,
		`{"slices":[{"id":1,"claimedBy":"a","claimedUntil":"2026-03-01T12:00:00Z"},{"id":2,"dependsOn":[1]}]}`,
		`{"slices":[{"id":1,"status":"red","claimedBy":"b","claimedUntil":"2026-03-01T11:00:00Z"}]}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		l, err := Parse(data)
		if err != nil {
			return
		}
		m1 := l.Marshal()
		l2, err := Parse(m1)
		if err != nil {
			t.Fatalf("Marshal output does not parse: %v\n%s", err, m1)
		}
		if m2 := l2.Marshal(); !bytes.Equal(m1, m2) {
			t.Fatalf("Marshal not idempotent:\n%s\n---\n%s", m1, m2)
		}
		if !reflect.DeepEqual(l.Slices(), l2.Slices()) {
			t.Fatalf("slices changed across a round trip")
		}
		// Claims keep the ledger parseable and never hand out a live claim.
		if r, err := l.Claim("fuzz", t0, time.Minute); err == nil {
			if s, _ := l2.Get(r.ID); s.Live(t0) {
				t.Fatalf("Claim took slice %s, claimed live by %s", r.ID, s.ClaimedBy)
			}
			if _, err := Parse(l.Marshal()); err != nil {
				t.Fatalf("after Claim: %v\n%s", err, l.Marshal())
			}
			if _, err := l.Release(r.ID, "fuzz", t0, false); err != nil {
				t.Fatalf("Release of one's own claim: %v", err)
			}
		}
		ids := l.IDs()
		if len(ids) == 0 {
			return
		}
		if _, err := l.Set(ids[0], Update{Status: "skipped", Note: "fuzz", Force: true}); err != nil {
			t.Fatalf("Set: %v", err)
		}
		l3, err := Parse(l.Marshal())
		if err != nil {
			t.Fatalf("after Set: %v\n%s", err, l.Marshal())
		}
		if s, _ := l3.Get(ids[0]); s.Status != "skipped" || s.ClaimedBy != "" {
			t.Fatalf("after Set to skipped: %+v", s)
		}
	})
}
