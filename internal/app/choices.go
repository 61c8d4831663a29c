package app

import (
	"github.com/orc-state/orc-state/decisions"
	"github.com/orc-state/orc-state/registry"
	"github.com/orc-state/orc-state/slices"
)

// Choices are the closed sets a verb's value is one of, as the formats
// that define them list them; the command line shows them in its help
// and lets kong refuse anything else.
type Choices struct {
	SessionStatuses []string // a session's status (registry)
	SliceStatuses   []string // a slice's status (slices)
	Verdicts        []string // a gate's verdict (registry)
	Provenances     []string // a decision's provenance (decisions), checked by decision set itself
	ScopeWorkspace  string   // the scope of a workspace decision (registry)
}

// TheChoices are the sets of this version's formats.
func TheChoices() Choices {
	return Choices{SessionStatuses: registry.Statuses, SliceStatuses: slices.Statuses, Verdicts: registry.Verdicts,
		Provenances: decisions.Provenances, ScopeWorkspace: registry.ScopeWorkspace}
}
