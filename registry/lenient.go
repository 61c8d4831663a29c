package registry

import "encoding/json"

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

// looseRaw holds the members ParseLoose looks at, undecoded: a member of
// the wrong type then spoils only itself, and the rest of the entry (and of
// the file) is never turned into maps, which is what makes `line` cheap on
// a large registry.
type looseRaw struct {
	SessionID   json.RawMessage `json:"sessionId"`
	SessionIDx  json.RawMessage `json:"session_id"`
	Branch      json.RawMessage `json:"branch"`
	GitBranch   json.RawMessage `json:"gitBranch"`
	Command     json.RawMessage `json:"command"`
	Status      json.RawMessage `json:"status"`
	Phase       json.RawMessage `json:"phase"`
	PhaseX      json.RawMessage `json:"current_phase"`
	PhaseLabel  json.RawMessage `json:"phaseLabel"`
	TotalPhases json.RawMessage `json:"totalPhases"`
	TotalX      json.RawMessage `json:"total_phases"`
	JiraTicket  json.RawMessage `json:"jiraTicket"`
	UpdatedAt   json.RawMessage `json:"updatedAt"`
	UpdatedX    json.RawMessage `json:"updated_at"`
	StartedAt   json.RawMessage `json:"startedAt"`
	CreatedX    json.RawMessage `json:"created_at"`
}

// ParseLoose reads any registry shape (schema 1, legacy, or invalid) and
// returns what it can. It never fails: garbage yields no sessions, and an
// entry that is not an object is skipped.
func ParseLoose(data []byte) []Loose {
	var doc struct {
		Sessions []json.RawMessage `json:"sessions"`
	}
	if json.Unmarshal(data, &doc) != nil {
		return nil
	}
	out := make([]Loose, 0, len(doc.Sessions))
	for _, raw := range doc.Sessions {
		var m looseRaw
		if json.Unmarshal(raw, &m) != nil {
			continue
		}
		out = append(out, Loose{
			SessionID:   firstString(m.SessionID, m.Branch, m.SessionIDx),
			GitBranch:   firstString(m.GitBranch, m.Branch),
			Command:     firstString(m.Command),
			Status:      firstString(m.Status),
			Phase:       firstValue(m.Phase, m.PhaseX),
			PhaseLabel:  firstValue(m.PhaseLabel),
			TotalPhases: firstValue(m.TotalPhases, m.TotalX),
			JiraTicket:  firstValue(m.JiraTicket),
			UpdatedAt:   firstString(m.UpdatedAt, m.UpdatedX, m.StartedAt, m.CreatedX),
		})
	}
	return out
}

func firstString(raws ...json.RawMessage) string {
	for _, r := range raws {
		var s string
		if len(r) > 0 && json.Unmarshal(r, &s) == nil && s != "" {
			return s
		}
	}
	return ""
}

func firstValue(raws ...json.RawMessage) any {
	for _, r := range raws {
		var v any
		if len(r) > 0 && json.Unmarshal(r, &v) == nil && v != nil {
			return v
		}
	}
	return nil
}
