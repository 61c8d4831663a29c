package cli

import (
	"fmt"

	"github.com/orc-state/orc-state/internal/app"
)

// ArchiveListCmd is `archive list`.
type ArchiveListCmd struct {
	HeaderFlag
	Session string `help:"Only the archives of this sessionId (or orphan folder name)." placeholder:"S"`
	JSON    bool   `name:"json" help:"The archives as a JSON array."`
}

// Run lists the archives, oldest first per session (app.ArchiveList): what
// each holds, when and by which verb it was made, its size, and, for one
// no restore would take, why. A read: no lock, nothing written.
func (c *ArchiveListCmd) Run(o *app.Streams, txn *app.Txn) error {
	l, err := app.ArchiveList(txn, c.Session)
	if err != nil {
		return err
	}
	if c.JSON {
		return printJSON(o.Stdout, l.Archives, "  ")
	}
	_, err = fmt.Fprint(o.Stdout, l.Text(c.Header))
	return err
}
