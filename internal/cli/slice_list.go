package cli

import (
	"fmt"
	"strings"

	"github.com/orc-state/orc-state/internal/app"
)

// SliceListCmd is `slice list`.
type SliceListCmd struct {
	BranchFlag
	HeaderFlag
	Status []string `sep:"," enum:"${slice_statuses}" help:"Only these statuses (comma-separated)."`
	JSON   bool     `name:"json" help:"JSON rows."`
}

// Run lists slices (app.SliceList); with --status it is the "all done"
// query: exit 1 while any slice matches, 0 when none does. When any slice
// carries a claim, every row gets a last column: "AGENT until TIME",
// "(expired)" appended when the lease has ended, or "-". A ledger nobody
// claims lists as before.
func (c *SliceListCmd) Run(o *app.Streams, w *app.World, txn *app.Txn) error {
	ls, err := app.SliceList(w, txn, c.Branch, c.Status)
	if err != nil {
		return err
	}
	if c.JSON {
		if err := printJSON(o.Stdout, ls.Rows, "  "); err != nil {
			return err
		}
	} else {
		var b strings.Builder
		printHeader(&b, c.Header, ls.Columns()...)
		for _, line := range ls.Lines() {
			b.WriteString(line + "\n")
		}
		fmt.Fprint(o.Stdout, b.String())
	}
	return ls.Unfinished()
}
