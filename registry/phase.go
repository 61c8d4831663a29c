package registry

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"

	"github.com/orc-state/orc-state/internal/textin"
)

// Phase is a session's phase: an integer ≥ 1, or done.
type Phase struct {
	N    int  // the phase number when !Done
	Done bool // the literal "done"
}

// MaxPhase bounds a phase number: at most 9 digits.
const MaxPhase = 999_999_999

// ParsePhase reads "done" or a decimal integer from 1 to MaxPhase
// (textin.Decimal: no sign, no leading zeros, nothing after the digits:
// "5abc" and "05" are refused).
func ParsePhase(s string) (Phase, error) {
	if s == "done" {
		return Phase{Done: true}, nil
	}
	n, err := textin.Decimal(s, 1, MaxPhase)
	if err != nil {
		return Phase{}, fmt.Errorf("phase %q is neither done nor an integer ≥ 1", s)
	}
	return Phase{N: int(n)}, nil
}

// String renders the phase as stored: "3" or "done".
func (p Phase) String() string {
	if p.Done {
		return "done"
	}
	return strconv.Itoa(p.N)
}

// MarshalJSON writes a number or "done".
func (p Phase) MarshalJSON() ([]byte, error) {
	if p.Done {
		return []byte(`"done"`), nil
	}
	return []byte(strconv.Itoa(p.N)), nil
}

// UnmarshalJSON accepts an integer ≥ 1 or the string "done".
func (p *Phase) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	if len(b) > 0 && b[0] == '"' {
		var s string
		if err := json.Unmarshal(b, &s); err != nil {
			return err
		}
		if s != "done" {
			return fmt.Errorf("phase %q is neither done nor an integer ≥ 1", s)
		}
		*p = Phase{Done: true}
		return nil
	}
	q, err := ParsePhase(string(b))
	if err != nil {
		return err
	}
	*p = q
	return nil
}
