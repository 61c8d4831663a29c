package slices

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"
)

// t0 is the clock of these tests; a claim "until t0+N" is written until(N).
var t0 = time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)

func until(d time.Duration) string { return t0.Add(d).Format(TimeLayout) }

// claimed is a slice's claim fields, for building ledgers.
func claimed(by string, d time.Duration) string {
	return `,"claimedBy":"` + by + `","claimedUntil":"` + until(d) + `"`
}

func TestClaimPicksFirstReady(t *testing.T) {
	tests := []struct {
		name   string
		slices string // the members of the slices array
		agent  string
		wantID string // "" when nothing is ready
		took   string
		reason string // NothingReadyError.Reason when nothing is ready
	}{
		{"first pending", `{"id":1},{"id":2}`, "a", "1", "", ""},
		{"ledger order, not id order", `{"id":9},{"id":1}`, "a", "9", "", ""},
		{"red is claimable", `{"id":1,"status":"green"},{"id":2,"status":"red"}`, "a", "2", "", ""},
		{"green and escalated are not", `{"id":1,"status":"green"},{"id":2,"status":"escalated"},{"id":3}`, "a", "3", "", ""},
		{"finished are not", `{"id":1,"status":"committed"},{"id":2,"status":"skipped"},{"id":3}`, "a", "3", "", ""},
		{"dependencies committed or skipped", `{"id":1,"status":"committed"},{"id":2,"status":"skipped"},{"id":3,"dependsOn":[1,2]}`, "a", "3", "", ""},
		{"a dependency still open", `{"id":1,"status":"green"},{"id":2,"dependsOn":[1]},{"id":3}`, "a", "3", "", ""},
		{"a live claim by another is skipped", `{"id":1` + claimed("b", time.Minute) + `},{"id":2}`, "a", "2", "", ""},
		{"a live claim by the caller is skipped too", `{"id":1` + claimed("a", time.Minute) + `},{"id":2}`, "a", "2", "", ""},
		{"a lease ending now has ended", `{"id":1` + claimed("b", 0) + `},{"id":2}`, "a", "1", "b", ""},
		{"an expired claim is taken", `{"id":1,"status":"red"` + claimed("b", -time.Second) + `}`, "a", "1", "b", ""},
		{"the caller's own expired claim is taken again", `{"id":1` + claimed("a", -time.Hour) + `}`, "a", "1", "a", ""},
		{"all done", `{"id":1,"status":"committed"},{"id":2,"status":"skipped"}`, "a", "", "", "done"},
		{"no slices", ``, "a", "", "", "done"},
		{"all claimed", `{"id":1,"status":"committed"},{"id":2` + claimed("b", time.Minute) + `}`, "a", "", "", "claimed"},
		{"claimed beats blocked", `{"id":1` + claimed("b", time.Minute) + `},{"id":2,"dependsOn":[1]}`, "a", "", "", "claimed"},
		{"blocked", `{"id":1,"status":"green"},{"id":2,"dependsOn":[1]}`, "a", "", "", "blocked"},
		{"waiting on green and escalated", `{"id":1,"status":"green"},{"id":2,"status":"escalated","note":"x"}`, "a", "", "", "waiting"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			l := mustParse(t, `{"slices":[`+tt.slices+`]}`)
			before := string(l.Marshal())
			r, err := l.Claim(tt.agent, t0, 10*time.Minute)
			if tt.wantID == "" {
				var nr *NothingReadyError
				if !errors.As(err, &nr) || nr.Reason() != tt.reason {
					t.Fatalf("Claim = %+v, %v; want NothingReadyError %s", r, err, tt.reason)
				}
				if string(l.Marshal()) != before {
					t.Fatal("a refused Claim changed the ledger")
				}
				return
			}
			if err != nil || r.ID != tt.wantID || r.Took != tt.took || !r.Changed || r.Agent != tt.agent || !r.Until.Equal(t0.Add(10*time.Minute)) {
				t.Fatalf("Claim = %+v, %v; want slice %s, took %q", r, err, tt.wantID, tt.took)
			}
			s, _ := l.Get(tt.wantID)
			if s.ClaimedBy != tt.agent || !s.Live(t0) || s.Live(t0.Add(10*time.Minute)) {
				t.Fatalf("stored claim %q until %v", s.ClaimedBy, s.ClaimedUntil)
			}
			l2 := mustParse(t, string(l.Marshal()))
			if s2, _ := l2.Get(tt.wantID); s2.ClaimedBy != tt.agent || !s2.ClaimedUntil.Equal(s.ClaimedUntil) {
				t.Fatalf("the claim did not survive Marshal and Parse: %+v", s2)
			}
		})
	}
}

func TestClaimNeverTakesOneSliceTwice(t *testing.T) {
	l := mustParse(t, `{"slices":[{"id":1},{"id":2,"status":"red"},{"id":3,"dependsOn":[1]},{"id":4}]}`)
	got := map[string]string{}
	for _, agent := range []string{"a", "b", "c", "d", "a"} {
		r, err := l.Claim(agent, t0, time.Minute)
		if err != nil {
			var nr *NothingReadyError
			if !errors.As(err, &nr) || len(got) != 3 {
				t.Fatalf("agent %s: %v after %v", agent, err, got)
			}
			continue
		}
		if prev, ok := got[r.ID]; ok {
			t.Fatalf("slice %s given to %s and %s", r.ID, prev, agent)
		}
		got[r.ID] = agent
	}
	if got["1"] != "a" || got["2"] != "b" || got["4"] != "c" {
		t.Fatalf("claims = %v", got)
	}
	// Once the leases end, the next claim takes the first of them again.
	r, err := l.Claim("e", t0.Add(time.Minute), time.Minute)
	if err != nil || r.ID != "1" || r.Took != "a" {
		t.Fatalf("after expiry: %+v, %v", r, err)
	}
}

func TestClaimWritesOnlyTheClaimKeys(t *testing.T) {
	l := mustParse(t, canonical)
	if _, err := l.Claim("agent:x", t0.Add(400*time.Millisecond), 30*time.Minute); err != nil {
		t.Fatal(err)
	}
	// The lease is rounded up to a whole second, never down.
	want := strings.Replace(canonical, `      "status": "pending"
    },`, `      "status": "pending",
      "claimedBy": "agent:x",
      "claimedUntil": "2026-03-01T12:30:01Z"
    },`, 1)
	if got := string(l.Marshal()); got != want {
		t.Fatalf("Marshal after Claim:\n%s", got)
	}
	if _, err := l.Release("1", "agent:x", t0, false); err != nil {
		t.Fatal(err)
	}
	if got := string(l.Marshal()); got != canonical {
		t.Fatalf("Release did not restore the bytes:\n%s", got)
	}
}

func TestClaimRefusesBadInput(t *testing.T) {
	tests := []struct {
		name  string
		agent string
		lease time.Duration
		want  string
	}{
		{"empty agent", "", time.Minute, "the agent id is empty"},
		{"newline", "a\nb", time.Minute, "line break (U+000A)"},
		{"line separator", "a\u2028b", time.Minute, "line break (U+2028)"},
		{"NEL", "a\u0085b", time.Minute, "line break (U+0085)"},
		{"escape", "a\x1b[31m", time.Minute, "control character"},
		{"not utf8", "\xff", time.Minute, "not valid UTF-8"},
		{"too long", strings.Repeat("a", MaxAgent+1), time.Minute, "the limit is 1024"},
		{"zero lease", "a", 0, "lease 0s is outside 1s..24h0m0s"},
		{"negative lease", "a", -time.Minute, "outside"},
		{"sub-second lease", "a", 500 * time.Millisecond, "outside"},
		{"lease over a day", "a", 25 * time.Hour, "outside"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			l := mustParse(t, `{"slices":[{"id":1,"claimedBy":"z","claimedUntil":"`+until(time.Hour)+`"}]}`)
			for verb, call := range map[string]func() error{
				"claim": func() error { _, err := l.Claim(tt.agent, t0, tt.lease); return err },
				"renew": func() error { _, err := l.Renew("1", tt.agent, t0, tt.lease); return err },
			} {
				var ue *UsageError
				if err := call(); !errors.As(err, &ue) || !strings.Contains(err.Error(), tt.want) || (ue.Field != "Agent" && ue.Field != "Lease") {
					t.Fatalf("%s = %v, want *UsageError %q", verb, err, tt.want)
				}
			}
		})
	}
	l := mustParse(t, `{"slices":[{"id":1}]}`)
	var ue *UsageError
	if _, err := l.Release("1", "", t0, false); !errors.As(err, &ue) {
		t.Fatalf("Release with no agent = %v", err)
	}
}

func TestRenew(t *testing.T) {
	tests := []struct {
		name, slice, id, agent string
		wantErr                string // "" for success
		wantType               string // the refusal's type
		lapsed, changed        bool
	}{
		{"own live claim", `{"id":1` + claimed("a", time.Minute) + `}`, "1", "a", "", "", false, true},
		{"own expired claim, not taken", `{"id":1` + claimed("a", -time.Minute) + `}`, "1", "a", "", "", true, true},
		{"same end again", `{"id":1` + claimed("a", 10*time.Minute) + `}`, "1", "a", "", "", false, false},
		{"unknown id", `{"id":1}`, "2", "a", `no slice with id "2"`, "*slices.NotFoundError", false, false},
		{"not claimed", `{"id":1,"status":"red"}`, "1", "a", "slice 1 (red) is not claimed", "*slices.NotClaimedError", false, false},
		{"another's live claim", `{"id":1` + claimed("b", time.Minute) + `}`, "1", "a", "slice 1 is claimed by b until 2026-03-01T12:01:00Z", "*slices.ClaimedError", false, false},
		{"another's expired claim", `{"id":1` + claimed("b", -time.Minute) + `}`, "1", "a", "claimed by b, whose lease ended at 2026-03-01T11:59:00Z", "*slices.ClaimedError", false, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			l := mustParse(t, `{"slices":[`+tt.slice+`]}`)
			before := string(l.Marshal())
			r, err := l.Renew(tt.id, tt.agent, t0, 10*time.Minute)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) || fmt.Sprintf("%T", err) != tt.wantType {
					t.Fatalf("Renew = %+v, %v; want %s %q", r, err, tt.wantType, tt.wantErr)
				}
				if string(l.Marshal()) != before {
					t.Fatal("a refused Renew changed the ledger")
				}
				return
			}
			if err != nil || r.Lapsed != tt.lapsed || r.Changed != tt.changed || !r.Until.Equal(t0.Add(10*time.Minute)) {
				t.Fatalf("Renew = %+v, %v", r, err)
			}
			if s, _ := l.Get(tt.id); !s.ClaimedUntil.Equal(r.Until) || s.ClaimedBy != tt.agent {
				t.Fatalf("stored %+v", s)
			}
		})
	}
}

func TestRelease(t *testing.T) {
	tests := []struct {
		name, slice, agent string
		force              bool
		wantErr            string
		took               string
		changed            bool
	}{
		{"own live claim", `{"id":1` + claimed("a", time.Minute) + `}`, "a", false, "", "", true},
		{"own expired claim", `{"id":1` + claimed("a", -time.Minute) + `}`, "a", false, "", "", true},
		{"nobody's: a no-op", `{"id":1}`, "a", false, "", "", false},
		{"another's live claim", `{"id":1` + claimed("b", time.Minute) + `}`, "a", false, "slice 1 is claimed by b until", "", false},
		{"another's expired claim", `{"id":1` + claimed("b", -time.Minute) + `}`, "a", false, "whose lease ended at", "", false},
		{"another's claim, forced", `{"id":1` + claimed("b", time.Minute) + `}`, "a", true, "", "b", true},
		{"a claim left on a committed slice, forced", `{"id":1,"status":"committed","commit":"abcdef1"` + claimed("b", time.Minute) + `}`, "a", true, "", "b", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			l := mustParse(t, `{"slices":[`+tt.slice+`]}`)
			before := string(l.Marshal())
			r, err := l.Release("1", tt.agent, t0, tt.force)
			if tt.wantErr != "" {
				var ce *ClaimedError
				if !errors.As(err, &ce) || !strings.Contains(err.Error(), tt.wantErr) || ce.Verb != "release" {
					t.Fatalf("Release = %v, want *ClaimedError %q", err, tt.wantErr)
				}
				if string(l.Marshal()) != before {
					t.Fatal("a refused Release changed the ledger")
				}
				return
			}
			if err != nil || r.Took != tt.took || r.Changed != tt.changed {
				t.Fatalf("Release = %+v, %v", r, err)
			}
			if s, _ := l.Get("1"); s.ClaimedBy != "" || !s.ClaimedUntil.IsZero() {
				t.Fatalf("claim left: %+v", s)
			}
			if got := string(l.Marshal()); strings.Contains(got, "claimed") {
				t.Fatalf("claim keys left:\n%s", got)
			}
		})
	}
	var nf *NotFoundError
	if _, err := mustParse(t, `{"slices":[{"id":1}]}`).Release("2", "a", t0, true); !errors.As(err, &nf) {
		t.Fatalf("Release of an unknown id = %v", err)
	}
}

func TestSetRespectsClaims(t *testing.T) {
	tests := []struct {
		name     string
		slice    string
		u        Update
		wantErr  string
		overrode string
		released string
		keeps    bool // the claim is still recorded afterwards
	}{
		{"the holder moves its slice", claimed("a", time.Minute), Update{Status: "red", Agent: "a", Now: t0}, "", "", "", true},
		{"nobody claims it: anyone may", ``, Update{Status: "red", Agent: "z", Now: t0}, "", "", "", false},
		{"another's live claim is refused", claimed("b", time.Minute), Update{Status: "red", Agent: "a", Now: t0},
			"slice 1 is claimed by b until 2026-03-01T12:01:00Z", "", "", true},
		{"an expired claim does not refuse", claimed("b", -time.Minute), Update{Status: "red", Agent: "a", Now: t0}, "", "", "", true},
		{"force acts over a live claim", claimed("b", time.Minute), Update{Status: "red", Agent: "a", Now: t0, Force: true}, "", "b", "", true},
		{"a zero clock counts every claim as live", claimed("b", -time.Hour), Update{Status: "red", Agent: "a"},
			"slice 1 is claimed by b until", "", "", true},
		{"committed releases", claimed("a", time.Minute), Update{Status: "committed", Commit: "abcdef1", Agent: "a", Now: t0}, "", "", "a", false},
		{"skipped releases", claimed("a", time.Minute), Update{Status: "skipped", Note: "n", Agent: "a", Now: t0}, "", "", "a", false},
		{"escalated releases", claimed("a", time.Minute), Update{Status: "escalated", Note: "n", Agent: "a", Now: t0}, "", "", "a", false},
		{"forced commit over another's claim releases it", claimed("b", time.Minute),
			Update{Status: "committed", Commit: "abcdef1", Agent: "a", Now: t0, Force: true}, "", "b", "b", false},
		{"an expired claim is released by a closing status", claimed("b", -time.Minute),
			Update{Status: "skipped", Note: "n", Agent: "a", Now: t0}, "", "", "b", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			l := mustParse(t, `{"slices":[{"id":1,"title":"t"`+tt.slice+`}]}`)
			before := string(l.Marshal())
			r, err := l.Set("1", tt.u)
			if tt.wantErr != "" {
				var ce *ClaimedError
				if !errors.As(err, &ce) || !strings.Contains(err.Error(), tt.wantErr) || ce.Verb != "set" {
					t.Fatalf("Set = %v, want *ClaimedError %q", err, tt.wantErr)
				}
				if string(l.Marshal()) != before {
					t.Fatal("a refused Set changed the ledger")
				}
				return
			}
			if err != nil || r.Overrode != tt.overrode || r.Released != tt.released || r.To != tt.u.Status {
				t.Fatalf("Set = %+v, %v", r, err)
			}
			s, _ := l.Get("1")
			if keeps := s.ClaimedBy != ""; keeps != tt.keeps {
				t.Fatalf("claim after Set: %q until %v", s.ClaimedBy, s.ClaimedUntil)
			}
			mustParse(t, string(l.Marshal()))
		})
	}
	// Force still does not open an illegal edge over a claim.
	l := mustParse(t, `{"slices":[{"id":1`+claimed("b", time.Minute)+`}]}`)
	var ee *EdgeError
	if _, err := l.Set("1", Update{Status: "green", Agent: "a", Now: t0, Force: true}); !errors.As(err, &ee) {
		t.Fatalf("pending → green with force over a claim: %v", err)
	}
}

func TestParseClaimFields(t *testing.T) {
	one := func(fields string) string { return `{"slices":[{"id":1` + fields + `}]}` }
	for _, tt := range []struct{ name, in, want string }{
		{"by without until", one(`,"claimedBy":"a"`), "claimedBy and claimedUntil go together"},
		{"until without by", one(`,"claimedUntil":"2026-01-01T00:00:00Z"`), "claimedBy and claimedUntil go together"},
		{"empty by", one(`,"claimedBy":"","claimedUntil":"2026-01-01T00:00:00Z"`), "claimedBy \"\" must be non-empty"},
		{"by on two lines", one(`,"claimedBy":"a\nb","claimedUntil":"2026-01-01T00:00:00Z"`), "on one line"},
		{"by with LINE SEPARATOR", one(`,"claimedBy":"a\u2028b","claimedUntil":"2026-01-01T00:00:00Z"`), "on one line"},
		{"by a number", one(`,"claimedBy":7,"claimedUntil":"2026-01-01T00:00:00Z"`), "claimedBy must be a string"},
		{"until with an offset", one(`,"claimedBy":"a","claimedUntil":"2026-01-01T00:00:00+01:00"`), "is not a UTC time"},
		{"until with fractions", one(`,"claimedBy":"a","claimedUntil":"2026-01-01T00:00:00.5Z"`), "is not a UTC time"},
		{"until not a date", one(`,"claimedBy":"a","claimedUntil":"2026-02-30T00:00:00Z"`), "is not a UTC time"},
		{"until a number", one(`,"claimedBy":"a","claimedUntil":1767225600`), "claimedUntil must be a string"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Parse([]byte(tt.in))
			var ie *InvalidError
			if !errors.As(err, &ie) || ie.Input || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("Parse = %v, want %q", err, tt.want)
			}
		})
	}
	l := mustParse(t, one(`,"claimedBy":null,"claimedUntil":null`))
	if s, _ := l.Get("1"); s.ClaimedBy != "" || s.Live(t0) {
		t.Fatalf("null claim fields: %+v", s)
	}
}

func TestNothingReadyMessages(t *testing.T) {
	tests := []struct {
		name, slices, agent, msg string
	}{
		{"done", `{"id":1,"status":"committed"},{"id":2,"status":"skipped"}`, "a",
			"nothing to claim: all 2 slices are done"},
		{"claimed by others and by you",
			`{"id":1` + claimed("b", 5*time.Minute) + `},{"id":2` + claimed("a", time.Minute) + `},{"id":3,"status":"red"` + claimed("c", 2*time.Minute) + `}`, "a",
			"nothing to claim (0 of 3 slices done); claimed by others: 1 by b until 2026-03-01T12:05:00Z, 3 by c until 2026-03-01T12:02:00Z; claimed by you: 2 until 2026-03-01T12:01:00Z"},
		{"only yours", `{"id":1` + claimed("a", time.Minute) + `}`, "a",
			"nothing to claim (0 of 1 slices done); claimed by you: 1 until 2026-03-01T12:01:00Z"},
		{"blocked and waiting", `{"id":1,"status":"green"},{"id":2,"dependsOn":[1]},{"id":3,"status":"escalated"}`, "a",
			"nothing to claim (0 of 3 slices done); blocked by dependencies: 2; not claimable: 1 green, 3 escalated"},
		{"waiting only", `{"id":1,"status":"green"}`, "a",
			"nothing to claim (0 of 1 slices done); not claimable: 1 green"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := mustParse(t, `{"slices":[`+tt.slices+`]}`).Claim(tt.agent, t0, time.Minute)
			var nr *NothingReadyError
			if !errors.As(err, &nr) || err.Error() != tt.msg {
				t.Fatalf("got  %v\nwant %s", err, tt.msg)
			}
		})
	}
	// Long lists are capped.
	var many []string
	for i := 1; i <= 8; i++ {
		many = append(many, `{"id":`+string(rune('0'+i))+claimed("b", time.Minute)+`}`)
	}
	_, err := mustParse(t, `{"slices":[`+strings.Join(many, ",")+`]}`).Claim("a", t0, time.Minute)
	if err == nil || !strings.HasSuffix(err.Error(), "(+3 more)") {
		t.Fatalf("long list: %v", err)
	}
}

func TestClaimProblems(t *testing.T) {
	l := mustParse(t, `{"slices":[
		{"id":1`+claimed("a", time.Minute)+`},
		{"id":2,"status":"red"`+claimed("b", -time.Minute)+`},
		{"id":3,"status":"committed","commit":"abcdef1"`+claimed("c", time.Minute)+`},
		{"id":4,"status":"escalated","note":"n"`+claimed("d", -time.Minute)+`},
		{"id":5},
		{"id":6`+claimed("e", MaxLease)+`},
		{"id":7`+claimed("f", MaxLease+time.Second)+`}]}`)
	got := l.ClaimProblems(t0)
	want := []ClaimProblem{
		{"2", "claim.expired", "slice 2 (red) is claimed by b, whose lease ended at 2026-03-01T11:59:00Z"},
		{"3", "claim.closed", "slice 3 is committed but still claimed by c"},
		{"4", "claim.closed", "slice 4 is escalated but still claimed by d"},
		{"7", "claim.too-long", "slice 7 is claimed by f until 2026-03-02T12:00:01Z, more than 24h0m0s from now"},
	}
	if len(got) != len(want) {
		t.Fatalf("ClaimProblems = %+v", got)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("problem %d = %+v, want %+v", i, got[i], want[i])
		}
	}
	if h := l.Holdings(t0); len(h) != 4 || h[0].ID != "1" || h[1].ID != "3" || h[2].ID != "6" {
		t.Fatalf("Holdings = %+v", h)
	}
}

func TestCount(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want Counts
		ok   bool
	}{
		{"claims live and expired",
			`{"slices":[{"id":1,"status":"committed"},{"id":2` + claimed("a", time.Minute) + `},{"id":3` + claimed("b", -time.Minute) + `},{"id":4,"status":"skipped"}]}`,
			Counts{Done: 2, Total: 4, Claimed: 1}, true},
		{"lenient about what it does not need",
			`{"schema":9,"slices":[{"status":3},{"claimedBy":1,"claimedUntil":"x"},{"claimedBy":"a","claimedUntil":"` + until(time.Hour) + `","status":"red"}]}`,
			Counts{Total: 3, Claimed: 1}, true},
		{"no slices yet", `{"slices":[]}`, Counts{}, true},
		{"no slices array", `{"x":1}`, Counts{}, false},
		{"not JSON", `{"slices":[`, Counts{}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := Count([]byte(tt.in), t0)
			if got != tt.want || ok != tt.ok {
				t.Fatalf("Count = %+v, %v; want %+v, %v", got, ok, tt.want, tt.ok)
			}
		})
	}
}
