package decisions

import (
	"fmt"
	"math"
	"strconv"

	"github.com/orc-state/orc-state/internal/textin"
)

// The retry budgets (docs/protocol.md §7, §13) are decisions whose value
// orc-state reads as a number: how many retries a slice or a phase gets.
const (
	MaxRetriesPerSlice = "maxRetriesPerSlice"
	MaxRetriesPerPhase = "maxRetriesPerPhase"
)

// MaxCount bounds a retry budget.
const MaxCount = math.MaxInt32

// Counts are the keys whose value is a retry count.
var Counts = []string{MaxRetriesPerSlice, MaxRetriesPerPhase}

func isCount(key string) bool {
	for _, k := range Counts {
		if k == key {
			return true
		}
	}
	return false
}

// CheckSetting refuses a value that a key orc-state reads cannot hold: a
// retry budget is a decimal count from 0 to MaxCount ("3"; not "abc",
// " 3", "03" or a number past the bound). Any other key takes what
// CheckValue accepts.
func CheckSetting(key, value string) error {
	if !isCount(key) {
		return nil
	}
	if _, err := textin.Decimal(value, 0, MaxCount); err != nil {
		return fmt.Errorf("%s must be a retry count: %w", key, err)
	}
	return nil
}

// SettingError is a settled value CheckSetting refuses, found in a file
// written by hand or by an older release: the session's state is invalid
// until the key is superseded with a valid value.
type SettingError struct {
	Key, Value string
}

func (e *SettingError) Error() string {
	return fmt.Sprintf("decision %s holds %s, not a retry count from 0 to %d", e.Key, clipValue(e.Value), MaxCount)
}

// Count reads a retry budget: def when key is not settled, the settled
// count otherwise, and a *SettingError when the settled value is no count
// (never def in its place: the caller says what to fix).
func (f *File) Count(key string, def int) (int, error) {
	d, ok := f.Decisions[key]
	if !ok {
		return def, nil
	}
	n, err := textin.Decimal(d.Value, 0, MaxCount)
	if err != nil {
		return 0, &SettingError{Key: key, Value: d.Value}
	}
	return int(n), nil
}

// SettingProblems lists, in key order, each settled value CheckSetting
// refuses.
func (f *File) SettingProblems() []*SettingError {
	var out []*SettingError
	for _, k := range f.Keys() {
		if CheckSetting(k, f.Decisions[k].Value) != nil {
			out = append(out, &SettingError{Key: k, Value: f.Decisions[k].Value})
		}
	}
	return out
}

// clipValue quotes a value for a message: at most 40 bytes, escaped.
func clipValue(v string) string {
	if len(v) > 40 {
		return strconv.QuoteToASCII(v[:40]) + "..."
	}
	return strconv.QuoteToASCII(v)
}
