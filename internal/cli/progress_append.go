package cli

import (
	"bytes"

	"github.com/orc-state/orc-state/internal/app"
	"github.com/orc-state/orc-state/internal/fault"
	"github.com/orc-state/orc-state/internal/input"
	"github.com/orc-state/orc-state/internal/textin"
)

// ProgressAppendCmd is `progress append -`.
type ProgressAppendCmd struct {
	BranchFlag
	Source string `arg:"" optional:"" help:"Must be - (stdin)."`
	Title  string `help:"Section title (one line); default Progress." placeholder:"T"`
}

// Run appends a dated section to progress.md (app.ProgressAppend);
// earlier bytes are never rewritten.
func (c *ProgressAppendCmd) Run(o *app.Streams, w *app.World, txn *app.Txn) error {
	if c.Source != "-" {
		return fault.Usagef("the text is read from stdin only").WithHint("orc-state progress append - --title=TITLE reads the text from stdin: give it as a here-document or through a pipe")
	}
	if err := textin.SingleLine("--title", c.Title); err != nil {
		return fault.Usagef("%v", err)
	}
	text, err := o.ReadStdin()
	if err != nil {
		return err
	}
	text = bytes.TrimRight(text, "\n")
	if len(bytes.TrimSpace(text)) == 0 {
		return fault.Usagef("stdin is empty; nothing to append")
	}
	if err := input.CheckText("the progress text", text); err != nil {
		return err
	}
	if err := input.RefuseSecrets("--title", []byte(c.Title)); err != nil {
		return err
	}
	return app.ProgressAppend(w, txn, c.Branch, c.Title, text)
}
