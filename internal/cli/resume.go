package cli

import (
	"fmt"

	"github.com/orc-state/orc-state/internal/app"
	"github.com/orc-state/orc-state/internal/fault"
	"github.com/orc-state/orc-state/internal/safetext"
)

// ResumeCmd is `resume`.
type ResumeCmd struct {
	BranchFlag
	Key      string `arg:"" optional:"" help:"Branch or sessionId (default: the current branch's session)." predictor:"session"`
	JSON     bool   `name:"json" help:"The packet as JSON."`
	MaxBytes int    `name:"max-bytes" default:"4096" help:"Upper bound of the packet, in bytes."`
}

// DefaultResumeBytes bounds the resume packet.
const DefaultResumeBytes = 4096

// Run prints the resume packet of the given session, else the current
// branch's (docs/protocol.md §11; app.Resume finds it and builds the
// packet). Without one it lists the in-progress sessions on stdout for a
// picker and exits 1, naming on stderr what it looked for; a name that can
// never be a session, or another branch's session, is exit 2.
func (c *ResumeCmd) Run(o *app.Streams, w *app.World, sd *app.StateDir, txn *app.Txn) error {
	if c.MaxBytes < 512 {
		return fault.Usagef("--max-bytes %d is below 512", c.MaxBytes)
	}
	shown, err := app.Resume(w, sd, txn, app.ResumeParams{Key: c.keyOr(c.Key), JSON: c.JSON, MaxBytes: c.MaxBytes})
	for _, s := range shown.Live {
		fmt.Fprintf(o.Stdout, "%s\t%s\t%s/%d\t%s\t%s\n", safetext.Escape(s.SessionID), safetext.Escape(s.Command), s.Phase, s.TotalPhases, safetext.Escape(s.Status), safetext.Escape(s.GitBranch))
	}
	if err != nil {
		return err
	}
	_, err = o.Stdout.Write(shown.Packet)
	return err
}
