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

// ParseLoose reads any registry shape (schema 1, legacy, or invalid) and
// returns what it can. It never fails: garbage yields no sessions.
func ParseLoose(data []byte) []Loose {
	var doc struct {
		Sessions []map[string]any `json:"sessions"`
	}
	if json.Unmarshal(data, &doc) != nil {
		return nil
	}
	out := make([]Loose, 0, len(doc.Sessions))
	for _, m := range doc.Sessions {
		l := Loose{
			SessionID:   first(m, "sessionId", "branch", "session_id"),
			GitBranch:   first(m, "gitBranch", "branch"),
			Command:     first(m, "command"),
			Status:      first(m, "status"),
			Phase:       firstAny(m, "phase", "current_phase"),
			PhaseLabel:  m["phaseLabel"],
			TotalPhases: firstAny(m, "totalPhases", "total_phases"),
			JiraTicket:  m["jiraTicket"],
			UpdatedAt:   first(m, "updatedAt", "updated_at", "startedAt", "created_at"),
		}
		out = append(out, l)
	}
	return out
}

func first(m map[string]any, keys ...string) string {
	for _, k := range keys {
		if s, ok := m[k].(string); ok && s != "" {
			return s
		}
	}
	return ""
}

func firstAny(m map[string]any, keys ...string) any {
	for _, k := range keys {
		if v, ok := m[k]; ok && v != nil {
			return v
		}
	}
	return nil
}
