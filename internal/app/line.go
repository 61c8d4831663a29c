package app

import (
	"encoding/json"
	"time"

	"github.com/orc-state/orc-state/internal/environ"
	"github.com/orc-state/orc-state/internal/sessionline"
)

// LineParams are what `line` reads of its run, as plain values (it is
// dispatched before the parser: no World, no state dir): the --dir,
// --branch and --session it was given ("" when not), the working
// directory, the environment and the time claims are judged by.
type LineParams struct {
	Dir, Branch, Session string
	Wd                   string
	Environ              environ.List
	Now                  time.Time
}

// Line is `line`: the session the flags, $ORC_SESSION or the branch choose
// (sessionline.Choice), read with no lock, no git process and a lenient
// registry read (sessionline.For). It returns the one line of JSON to
// print, newline included, or nil when there is nothing to show.
func Line(p LineParams) []byte {
	c := sessionline.Choice{Branch: p.Branch, ID: p.Session, Named: p.Branch != "", Env: p.Environ.Get("ORC_SESSION")}
	out, ok := sessionline.For(p.Dir, p.Wd, p.Environ, c, p.Now)
	if !ok {
		return nil
	}
	b, err := json.Marshal(out)
	if err != nil {
		return nil
	}
	return append(b, '\n')
}
