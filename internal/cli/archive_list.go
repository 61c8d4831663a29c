package cli

import (
	"fmt"
	"strings"

	"github.com/orc-state/orc-state/internal/archive"
	"github.com/orc-state/orc-state/internal/fault"
	"github.com/orc-state/orc-state/internal/safetext"
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
func (c *ArchiveListCmd) Run(e *Env) error {
	d, err := e.Dir()
	if err != nil {
		return err
	}
	store := archive.Open(d)
	all, err := store.List(c.Session)
	if err == nil {
		err = store.CheckAll(all) // each validated whole, as a restore would
	}
	if err != nil {
		return fault.Wrap(fault.Invalid, err, "cannot list the archives").WithHint("run git status to see why git cannot answer")
	}
	if c.JSON {
		if all == nil {
			all = []archive.Archive{}
		}
		return printJSON(e, all, "  ")
	}
	var b strings.Builder
	printHeader(&b, c.Header, "session", "time", "kind", "verb", "at", "files", "size", "where")
	for _, a := range all {
		fmt.Fprintf(&b, "%s\t%s\t%s\t%s\t%s\t%d files\t%d bytes\t%s", safetext.Escape(a.Session), safetext.Escape(a.Time), safetext.Escape(a.Kind),
			safetext.Escape(a.Verb), safetext.Escape(a.At), a.Files, a.Size, safetext.Escape(a.Name))
		if a.Invalid != "" {
			fmt.Fprintf(&b, "\tinvalid: %s", safetext.Escape(a.Invalid))
		}
		b.WriteByte('\n')
	}
	_, err = fmt.Fprint(e.Stdout, b.String())
	return err
}
