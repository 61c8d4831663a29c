package cli

import (
	"fmt"

	"github.com/orc-state/orc-state/internal/app"

	"github.com/orc-state/orc-state/internal/archive"
	"github.com/orc-state/orc-state/internal/removal"
)

// ArchiveListCmd is `archive list`.
type ArchiveListCmd struct {
	HeaderFlag
	Session string `help:"Only the archives of this sessionId (or orphan folder name)." placeholder:"S"`
	JSON    bool   `name:"json" help:"The archives as a JSON array."`
}

// Run lists the archives, oldest first per session: what each holds, when
// and by which verb it was made, its size, and, for one no restore would
// take (its metadata or its content fails archive.Check), why. A read: no
// lock, nothing written.
func (c *ArchiveListCmd) Run(o *app.Streams, txn *app.Txn) error {
	all, err := txn.Removal().List(c.Session)
	if err != nil {
		return err
	}
	if c.JSON {
		if all == nil {
			all = []archive.Archive{}
		}
		return printJSON(o.Stdout, all, "  ")
	}
	_, err = fmt.Fprint(o.Stdout, removal.ListText(all, c.Header))
	return err
}
