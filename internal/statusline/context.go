package statusline

import (
	"encoding/json"
	"fmt"
	"math"
	"time"
)

// Tier is a band of context use, on the effective percentage: the one scale
// the statusline's colours and hook post-tool-use's warnings share.
type Tier int

// The tiers, from the original: green < 60 %, yellow 60–79 %, red 80–89 %,
// critical ≥ 90 %.
const (
	Green Tier = iota
	Yellow
	Red
	Critical
)

var tierNames = [...]string{"green", "yellow", "red", "critical"}

func (t Tier) String() string {
	if t < Green || t > Critical {
		return "unknown"
	}
	return tierNames[t]
}

// ParseTier reads a tier's name.
func ParseTier(s string) (Tier, bool) {
	for i, n := range tierNames {
		if n == s {
			return Tier(i), true
		}
	}
	return Green, false
}

// TierOf is the tier of an effective percentage.
func TierOf(eff int) Tier {
	switch {
	case eff >= 90:
		return Critical
	case eff >= 80:
		return Red
	case eff >= 60:
		return Yellow
	}
	return Green
}

// MaxReserve bounds the context reserve option (a percentage of the window
// kept back, e.g. for the auto-compact buffer).
const MaxReserve = 99

// Effective turns the window's raw used percentage into the share of the
// usable window (the window less the reserve), whole percent, capped at
// 100. The raw value is truncated, as the original does. approx is true
// when a reserve applied (the statusline prefixes the figure with "~").
func Effective(raw float64, reserve int) (rawPct, eff int, approx bool) {
	rawPct = int(math.Trunc(raw))
	if reserve <= 0 || reserve > MaxReserve {
		return rawPct, rawPct, false
	}
	eff = rawPct * 100 / (100 - reserve)
	if eff > 100 {
		eff = 100
	}
	return rawPct, eff, true
}

// Level is the context file the statusline writes on every render with a
// context reading, for hook post-tool-use (which gets no context_window of
// its own). It keeps the original bridge file's fields, less warned_tier
// (the warnings are recorded apart, see Dir.MarkWarned), plus the orc
// session live on the branch the render was for.
type Level struct {
	Schema    int    `json:"schema"`
	At        int64  `json:"ts"` // Unix seconds of the render
	Raw       int    `json:"raw_pct"`
	Effective int    `json:"effective_pct"`
	Tier      string `json:"tier"`
	Session   string `json:"session,omitempty"` // the branch's live orc session; "" when none
}

// StaleAfter is how old a Level may be before the monitor ignores it: the
// statusline renders on every assistant message, so an older reading
// belongs to a session that is idle or gone.
const StaleAfter = 120 * time.Second

// parseLevel decodes a context file; ok is false for anything but a
// complete schema-1 record with a known tier.
func parseLevel(data []byte) (Level, bool) {
	var l Level
	if json.Unmarshal(data, &l) != nil || l.Schema != 1 || l.At <= 0 {
		return Level{}, false
	}
	if _, ok := ParseTier(l.Tier); !ok || l.Effective < 0 || l.Effective > 100 {
		return Level{}, false
	}
	return l, true
}

// Warning is what hook post-tool-use decides for one tool call: the tier
// to warn at and the advice, or ok false for silence. warned reports
// whether a warning at that tier was already given in this Claude Code
// session. It warns only at red and critical, only for a fresh reading
// with a live orc session, and at most once per tier; a critical warning
// may follow a red one, never the reverse.
func Warning(l Level, now time.Time, warned func(Tier) bool) (Tier, string, bool) {
	tier, ok := ParseTier(l.Tier)
	if !ok || tier < Red || l.Session == "" {
		return Green, "", false
	}
	age := now.Sub(time.Unix(l.At, 0))
	if age > StaleAfter || age < -StaleAfter {
		return Green, "", false
	}
	for t := tier; t <= Critical; t++ {
		if warned(t) {
			return Green, "", false
		}
	}
	return tier, advice(tier, l), true
}

// advice is the text injected for the agent: facts and the commands that
// act on them, no orders.
func advice(t Tier, l Level) string {
	head := fmt.Sprintf("orc-state: the context window is %d%% full (%s", l.Effective, t)
	if l.Effective != l.Raw {
		head += fmt.Sprintf("; %d%% raw, less the configured reserve", l.Raw)
	}
	head += ")."
	soon := "Auto-compaction will come before long."
	if t == Critical {
		soon = "Auto-compaction is close."
	}
	return fmt.Sprintf("%s %s What survives it for the orc session %s is its Resume digest, so this is the time to "+
		"record where the work stands with `orc-state digest write -` (Done / Next / Open decisions / Artifacts / Suite), "+
		"commit the work that is finished, and bring the current step to a clean stopping point; "+
		"large new reads are better left until after compaction. Tell the user the context is at %d%%. "+
		"No handoff files are needed beyond the digest unless the user asks for them.",
		head, soon, l.Session, l.Effective)
}
