package slices

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/orc-state/orc-state/internal/hexid"

	"github.com/orc-state/orc-state/internal/textin"
)

// Slice is the typed view of one slice: the fields this package validates.
// Every other field stays in the raw object and is never decoded.
type Slice struct {
	ID            string   // a JSON number or string, as a string
	Title         string   // "" when absent
	Repo          string   // "" when absent
	Status        string   // "pending" when absent
	Commit        string   // "" when absent
	Unverified    bool     // "commitVerified": false
	ActualLoc     *int     // nil when absent
	Note          string   // "" when absent
	Attempts      int      // entries into red; 0 when absent
	DependsOn     []string // ids, as strings
	Touchpoints   []string // paths owned by the slice
	Acceptance    []string // acceptance criteria
	EstLoc        *float64 // nil when absent
	ShipsAsStack  bool
	ParallelGroup string    // "" when absent; a number or a string, as a string
	ClaimedBy     string    // the agent holding a claim; "" when unclaimed
	ClaimedUntil  time.Time // when that claim's lease ends; zero when unclaimed
	History       []Retired // earlier commits of the slice, oldest first (commitHistory)
}

// Retired is an entry of commitHistory: a commit the slice had until it
// was reopened (left committed) or given another commit.
type Retired struct {
	Commit       string
	Unverified   bool
	ActualLoc    *int
	SupersededAt time.Time
}

// naturalLit reports whether v is a JSON literal of digits only (no sign,
// fraction or exponent).
func naturalLit(v []byte) bool {
	for _, c := range v {
		if c < '0' || c > '9' {
			return false
		}
	}
	return len(v) > 0
}

// integerLit is naturalLit with an optional leading minus.
func integerLit(v []byte) bool {
	if len(v) > 0 && v[0] == '-' {
		v = v[1:]
	}
	return naturalLit(v)
}

// decodeSlice validates the fields of one slice object and returns its view.
// A null value counts as absent, except for id.
func decodeSlice(o object) (Slice, error) {
	s := Slice{Status: "pending"}
	hasID := false
	for _, m := range o {
		v := m.val
		if m.key != "id" && string(v) == "null" {
			continue
		}
		var err error
		switch m.key {
		case "id":
			s.ID, err = idOf(v, "id")
			hasID = err == nil
		case "title":
			s.Title, err = str(v, m.key)
		case "repo":
			s.Repo, err = str(v, m.key)
		case "note":
			s.Note, err = str(v, m.key)
		case "status":
			if s.Status, err = str(v, m.key); err == nil && !isStatus(s.Status) {
				err = fmt.Errorf("status %q is not one of %s", s.Status, strings.Join(Statuses, ", "))
			}
		case "commit":
			if s.Commit, err = str(v, m.key); err == nil && !hexid.Commit(s.Commit) {
				err = fmt.Errorf("commit %q is not 7 to 64 hex digits", s.Commit)
			}
		case "commitVerified":
			var ok bool
			ok, err = boolean(v, m.key)
			s.Unverified = !ok
		case "actualLoc":
			var n int
			n, err = count(v, m.key)
			s.ActualLoc = &n
		case "attempts":
			s.Attempts, err = count(v, m.key)
		case "dependsOn":
			s.DependsOn, err = list(v, m.key, idOf)
		case "touchpoints", "acceptance":
			var l []string
			l, err = list(v, m.key, str)
			if m.key == "touchpoints" {
				s.Touchpoints = l
			} else {
				s.Acceptance = l
			}
		case "estLoc":
			var f float64
			if err = json.Unmarshal(v, &f); err != nil || v[0] == '"' || f < 0 {
				err = fmt.Errorf("estLoc must be a non-negative number, got %s", clip(v))
			}
			s.EstLoc = &f
		case "shipsAsStack":
			s.ShipsAsStack, err = boolean(v, m.key)
		case "parallelGroup":
			s.ParallelGroup, err = idOf(v, m.key)
		case "claimedBy":
			s.ClaimedBy, err = agentOf(v, m.key)
		case "claimedUntil":
			s.ClaimedUntil, err = timeOf(v, m.key)
		case "commitHistory":
			s.History, err = historyOf(v)
		}
		if err != nil {
			return s, err
		}
	}
	if !hasID {
		return s, fmt.Errorf("id is missing")
	}
	if (s.ClaimedBy == "") != s.ClaimedUntil.IsZero() {
		return s, fmt.Errorf("claimedBy and claimedUntil go together: both or neither")
	}
	return s, nil
}

// historyOf reads commitHistory: an array of objects with commit and
// supersededAt, and optionally commitVerified (false) and actualLoc; no
// other member, and no null.
func historyOf(v json.RawMessage) ([]Retired, error) {
	elems, ok := splitArray(v)
	if !ok {
		return nil, fmt.Errorf("commitHistory must be an array, got %s", clip(v))
	}
	out := make([]Retired, 0, len(elems))
	for i, el := range elems {
		obj, ok := splitObject(el)
		if !ok {
			return nil, fmt.Errorf("commitHistory[%d] must be an object, got %s", i, clip(el))
		}
		var r Retired
		var hasCommit, hasAt bool
		for _, m := range obj {
			field := fmt.Sprintf("commitHistory[%d].%s", i, m.key)
			var err error
			switch m.key {
			case "commit":
				if r.Commit, err = str(m.val, field); err == nil && !hexid.Commit(r.Commit) {
					err = fmt.Errorf("%s %q is not 7 to 64 hex digits", field, r.Commit)
				}
				hasCommit = true
			case "commitVerified": // only ever written false: a verified commit carries none
				if string(m.val) != "false" {
					err = fmt.Errorf("%s must be false when present, got %s", field, clip(m.val))
				}
				r.Unverified = true
			case "actualLoc":
				var n int
				n, err = count(m.val, field)
				r.ActualLoc = &n
			case "supersededAt":
				r.SupersededAt, err = timeOf(m.val, field)
				hasAt = true
			default:
				err = fmt.Errorf("%s is not a field of commitHistory (commit, commitVerified, actualLoc, supersededAt)", field)
			}
			if err != nil {
				return nil, err
			}
		}
		if !hasCommit || !hasAt {
			return nil, fmt.Errorf("commitHistory[%d] needs commit and supersededAt", i)
		}
		out = append(out, r)
	}
	return out, nil
}

// idOf reads an id (or a parallelGroup): an integer literal or a non-empty
// one-line string, returned as a string.
func idOf(v json.RawMessage, field string) (string, error) {
	if len(v) > 0 && v[0] == '"' {
		s, _ := str(v, field)
		if s == "" || textin.SingleLine(field, s) != nil {
			return "", fmt.Errorf("%s %s must be non-empty and on one line", field, clip(v))
		}
		return s, nil
	}
	if !integerLit(v) {
		return "", fmt.Errorf("%s must be an integer or a string, got %s", field, clip(v))
	}
	return string(v), nil
}

func str(v json.RawMessage, field string) (string, error) {
	var s string
	if len(v) == 0 || v[0] != '"' || json.Unmarshal(v, &s) != nil {
		return "", fmt.Errorf("%s must be a string, got %s", field, clip(v))
	}
	return s, nil
}

func boolean(v json.RawMessage, field string) (bool, error) {
	switch string(v) {
	case "true":
		return true, nil
	case "false":
		return false, nil
	}
	return false, fmt.Errorf("%s must be true or false, got %s", field, clip(v))
}

func count(v json.RawMessage, field string) (int, error) {
	n, err := strconv.Atoi(string(v))
	if err != nil || !naturalLit(v) {
		return 0, fmt.Errorf("%s must be a non-negative integer, got %s", field, clip(v))
	}
	return n, nil
}

// list reads an array whose elements each pass elem.
func list(v json.RawMessage, field string, elem func(json.RawMessage, string) (string, error)) ([]string, error) {
	elems, ok := splitArray(v)
	if !ok {
		return nil, fmt.Errorf("%s must be an array, got %s", field, clip(v))
	}
	out := make([]string, 0, len(elems))
	for i, e := range elems {
		s, err := elem(e, fmt.Sprintf("%s[%d]", field, i))
		if err != nil {
			return nil, err
		}
		out = append(out, s)
	}
	return out, nil
}

func isStatus(s string) bool {
	for _, st := range Statuses {
		if s == st {
			return true
		}
	}
	return false
}

// clip shortens a raw value for an error message and keeps it on one line.
func clip(v json.RawMessage) string {
	s := string(bytes.Join(bytes.Fields(v), []byte(" ")))
	if len(s) > 40 {
		n := 37
		for n > 0 && !utf8.RuneStart(s[n]) {
			n--
		}
		s = s[:n] + "..."
	}
	return s
}
