package cli

import (
	"fmt"
	"path"
	"path/filepath"
	"strings"

	"github.com/orc-state/orc-state/internal/app"

	"github.com/orc-state/orc-state/internal/fault"
	"github.com/orc-state/orc-state/internal/safetext"
	"github.com/orc-state/orc-state/internal/selection"
)

// SessionRemoveCmd is `session remove`.
type SessionRemoveCmd struct {
	BranchFlag
	Key   string `arg:"" optional:"" help:"Branch or sessionId (or pass --branch or --session)."`
	Force bool   `help:"Also remove an in_progress or paused session (archived first, like every removal)."`
}

// Run removes one session: entry, folder, tombstone, after keeping its
// entry and files in an archive (removal.Run.Remove; session restore
// brings them back).
func (c *SessionRemoveCmd) Run(o *app.Streams, where *selection.Where, txn *app.Txn) error {
	key := c.keyOr(c.Key)
	if key == "" && where.Flag == "" {
		return fault.Usagef("name the session to remove").WithHint("orc-state session remove B, or --session S (archived first: orc-state session restore brings it back)")
	}
	ch, err := where.Choose(key)
	if err != nil {
		return err
	}
	done, err := txn.Removal().Remove(ch, c.Force)
	if err != nil || done.Archive == "" {
		return err
	}
	at := path.Base(strings.TrimSuffix(filepath.ToSlash(done.Archive), "/"))
	fmt.Fprintf(o.Stderr, "removed session %s, archived first as %s; to bring it back: orc-state session restore %s\n",
		safetext.Escape(done.Session), safetext.Escape(done.Archive), safetext.Operand(done.Session+"@"+at))
	return nil
}
