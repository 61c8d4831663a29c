package cli

import (
	"github.com/orc-state/orc-state/internal/selection"
	"github.com/orc-state/orc-state/internal/state"
)

// isLinkFolder reports whether a folder of the state dir holds a workspace
// back-pointer (selection.IsLinkFolder).
func isLinkFolder(d *state.Dir, name string) bool { return selection.IsLinkFolder(d, name) }
