package registry

import (
	"encoding/json"
	"errors"
)

// Loose is an entry read leniently, for display only (the statusline's
// `line`): legacy vocabulary and wrong types degrade to empty values.
type Loose struct {
	SessionID   string
	GitBranch   string
	Command     string
	Status      string
	Phase       any // number, string, or nil
	PhaseLabel  any
	TotalPhases any
	JiraTicket  any
	UpdatedAt   string
}

// looseEntry is an entry read leniently: encoding/json fills what fits and
// leaves a member of the wrong type at its zero value (reporting only the
// first such error, which ParseLoose ignores), so one pass over the file is
// enough even for a large or damaged registry.
type looseEntry struct {
	SessionID   string `json:"sessionId"`
	SessionIDx  string `json:"session_id"`
	Branch      string `json:"branch"`
	GitBranch   string `json:"gitBranch"`
	Command     string `json:"command"`
	Status      string `json:"status"`
	Phase       any    `json:"phase"`
	PhaseX      any    `json:"current_phase"`
	PhaseLabel  any    `json:"phaseLabel"`
	TotalPhases any    `json:"totalPhases"`
	TotalX      any    `json:"total_phases"`
	JiraTicket  any    `json:"jiraTicket"`
	UpdatedAt   string `json:"updatedAt"`
	UpdatedX    string `json:"updated_at"`
	StartedAt   string `json:"startedAt"`
	CreatedX    string `json:"created_at"`
}

// ParseLoose reads any registry shape (schema 1, legacy, or invalid) and
// returns what it can. It never fails: garbage yields no sessions, and an
// entry that is not an object, or a member of the wrong type, is left out.
func ParseLoose(data []byte) []Loose {
	var doc struct {
		Sessions []looseEntry `json:"sessions"`
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		var te *json.UnmarshalTypeError
		if !errors.As(err, &te) {
			return nil
		}
	}
	out := make([]Loose, 0, len(doc.Sessions))
	for _, m := range doc.Sessions {
		if m.empty() {
			continue // not an object, or nothing usable in it
		}
		out = append(out, Loose{
			SessionID:   firstString(m.SessionID, m.Branch, m.SessionIDx),
			GitBranch:   firstString(m.GitBranch, m.Branch),
			Command:     m.Command,
			Status:      m.Status,
			Phase:       firstValue(m.Phase, m.PhaseX),
			PhaseLabel:  m.PhaseLabel,
			TotalPhases: firstValue(m.TotalPhases, m.TotalX),
			JiraTicket:  m.JiraTicket,
			UpdatedAt:   firstString(m.UpdatedAt, m.UpdatedX, m.StartedAt, m.CreatedX),
		})
	}
	return out
}

// LooseOf is a schema-1 entry as ParseLoose would read it.
func LooseOf(s *Session) Loose {
	l := Loose{SessionID: s.SessionID, GitBranch: s.GitBranch, Command: s.Command, Status: s.Status,
		TotalPhases: float64(s.TotalPhases), UpdatedAt: s.UpdatedAt}
	if s.Phase.Done {
		l.Phase = "done"
	} else {
		l.Phase = float64(s.Phase.N)
	}
	if s.PhaseLabel != nil {
		l.PhaseLabel = *s.PhaseLabel
	}
	if s.JiraTicket != nil {
		l.JiraTicket = *s.JiraTicket
	}
	return l
}

func firstString(vs ...string) string {
	for _, v := range vs {
		if v != "" {
			return v
		}
	}
	return ""
}

func firstValue(vs ...any) any {
	for _, v := range vs {
		if v != nil {
			return v
		}
	}
	return nil
}

// empty reports whether nothing usable was read (compared field by field:
// an interface holding a decoded object cannot be compared with ==).
func (e looseEntry) empty() bool {
	return e.SessionID == "" && e.SessionIDx == "" && e.Branch == "" && e.GitBranch == "" &&
		e.Command == "" && e.Status == "" && e.UpdatedAt == "" && e.UpdatedX == "" &&
		e.StartedAt == "" && e.CreatedX == "" && e.Phase == nil && e.PhaseX == nil &&
		e.PhaseLabel == nil && e.TotalPhases == nil && e.TotalX == nil && e.JiraTicket == nil
}
