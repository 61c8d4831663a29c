package statusline

import (
	"strings"
	"testing"
	"time"
)

func TestTierOf(t *testing.T) {
	for _, tc := range []struct {
		eff  int
		want Tier
	}{{0, Green}, {59, Green}, {60, Yellow}, {79, Yellow}, {80, Red}, {89, Red}, {90, Critical}, {100, Critical}} {
		if got := TierOf(tc.eff); got != tc.want {
			t.Errorf("TierOf(%d) = %v, want %v", tc.eff, got, tc.want)
		}
	}
}

func TestEffective(t *testing.T) {
	for _, tc := range []struct {
		raw       float64
		reserve   int
		rawPct    int
		eff       int
		approx    bool
		wantTier  Tier
		explained string
	}{
		{68, 0, 68, 68, false, Yellow, "no reserve"},
		{79.9, 0, 79, 79, false, Yellow, "truncated, as the original does"},
		{68, 20, 68, 85, true, Red, "68 of the 80 usable"},
		{72, 10, 72, 80, true, Red, "the reserve moves a reading into red"},
		{95, 20, 95, 100, true, Critical, "capped at 100"},
		{50, 100, 50, 50, false, Green, "a reserve of 100 is ignored"},
		{50, -5, 50, 50, false, Green, "a negative reserve is ignored"},
	} {
		raw, eff, approx := Effective(tc.raw, tc.reserve)
		if raw != tc.rawPct || eff != tc.eff || approx != tc.approx || TierOf(eff) != tc.wantTier {
			t.Errorf("%s: Effective(%v, %d) = %d, %d, %v (tier %v)", tc.explained, tc.raw, tc.reserve, raw, eff, approx, TierOf(eff))
		}
	}
}

func TestWarning(t *testing.T) {
	now := time.Unix(1_800_000_000, 0)
	level := func(tier string, eff int, age time.Duration, session string) Level {
		return Level{Schema: 1, At: now.Add(-age).Unix(), Raw: eff, Effective: eff, Tier: tier, Session: session}
	}
	none := func(Tier) bool { return false }
	only := func(ts ...Tier) func(Tier) bool {
		return func(t Tier) bool {
			for _, x := range ts {
				if x == t {
					return true
				}
			}
			return false
		}
	}
	tests := []struct {
		name   string
		level  Level
		warned func(Tier) bool
		want   Tier
		ok     bool
	}{
		{"green: silent", level("green", 40, 0, "main"), none, Green, false},
		{"yellow: silent", level("yellow", 65, 0, "main"), none, Green, false},
		{"red: warns", level("red", 84, 0, "main"), none, Red, true},
		{"red again: silent", level("red", 86, 0, "main"), only(Red), Green, false},
		{"critical after red: warns", level("critical", 92, 0, "main"), only(Red), Critical, true},
		{"critical again: silent", level("critical", 95, 0, "main"), only(Red, Critical), Green, false},
		{"straight to critical: warns", level("critical", 91, 0, "main"), none, Critical, true},
		{"red after critical: silent", level("red", 85, 0, "main"), only(Critical), Green, false},
		{"no orc session: silent", level("critical", 95, 0, ""), none, Green, false},
		{"stale reading: silent", level("red", 84, StaleAfter+time.Second, "main"), none, Green, false},
		{"just within the window: warns", level("red", 84, StaleAfter, "main"), none, Red, true},
		{"a reading from the future: silent", level("red", 84, -StaleAfter-time.Second, "main"), none, Green, false},
		{"unknown tier: silent", level("purple", 84, 0, "main"), none, Green, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tier, msg, ok := Warning(tc.level, now, tc.warned)
			if ok != tc.ok || tier != tc.want {
				t.Fatalf("Warning = %v, %v; want %v, %v", tier, ok, tc.want, tc.ok)
			}
			if !ok {
				if msg != "" {
					t.Errorf("silent but a message: %q", msg)
				}
				return
			}
			for _, want := range []string{"orc-state digest write -", "commit", "clean stopping point", tc.level.Session, "%"} {
				if !strings.Contains(msg, want) {
					t.Errorf("advice lacks %q: %s", want, msg)
				}
			}
			// The original's suite: the wording stays advisory.
			for _, banned := range []string{"must", "MUST", "immediately", "IMPORTANT"} {
				if strings.Contains(msg, banned) {
					t.Errorf("advice says %q: %s", banned, msg)
				}
			}
		})
	}
}

func TestAdviceNamesTheReserve(t *testing.T) {
	l := Level{Schema: 1, At: 1, Raw: 72, Effective: 90, Tier: "critical", Session: "feat/x"}
	msg := advice(Critical, l)
	if !strings.Contains(msg, "90% full (critical; 72% raw") || !strings.Contains(msg, "feat/x") {
		t.Errorf("advice: %s", msg)
	}
}

func TestParseLevel(t *testing.T) {
	good := `{"schema":1,"ts":5,"raw_pct":84,"effective_pct":84,"tier":"red","session":"main"}`
	if l, ok := parseLevel([]byte(good)); !ok || l.Tier != "red" || l.Session != "main" {
		t.Errorf("good level: %+v %v", l, ok)
	}
	for _, bad := range []string{``, `{}`, `garbage`, `{"schema":2,"ts":5,"effective_pct":84,"tier":"red"}`,
		`{"schema":1,"ts":0,"effective_pct":84,"tier":"red"}`, `{"schema":1,"ts":5,"effective_pct":184,"tier":"red"}`,
		`{"schema":1,"ts":5,"effective_pct":84,"tier":"hot"}`, `{"schema":1,"ts":"5","effective_pct":84,"tier":"red"}`} {
		if l, ok := parseLevel([]byte(bad)); ok {
			t.Errorf("%s read as %+v", bad, l)
		}
	}
}
