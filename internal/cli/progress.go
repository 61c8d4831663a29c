package cli

import (
	"bytes"
	"fmt"

	"github.com/orc-state/orc-state/internal/fault"
	"github.com/orc-state/orc-state/internal/journal"
	"github.com/orc-state/orc-state/internal/state"
	"github.com/orc-state/orc-state/registry"
)

// Run appends a dated section to progress.md; earlier bytes are never
// rewritten.
func (c *ProgressAppendCmd) Run(e *Env) error {
	if c.Source != "-" {
		return fault.Usagef("the text is read from stdin only").WithHint("orc-state progress append - --title T <<'EOF' ... EOF")
	}
	if err := registry.SingleLine("--title", c.Title); err != nil {
		return fault.Usagef("%v", err)
	}
	text, err := e.readStdin()
	if err != nil {
		return err
	}
	text = bytes.TrimRight(text, "\n")
	if len(bytes.TrimSpace(text)) == 0 {
		return fault.Usagef("stdin is empty; nothing to append")
	}
	if err := checkText("the progress text", text); err != nil {
		return err
	}
	if err := refuseSecrets("--title", []byte(c.Title)); err != nil {
		return err
	}
	title := c.Title
	if title == "" {
		title = "Progress"
	}
	section := fmt.Sprintf("\n## %s — %s\n\n%s\n", title, registry.Now(), text)
	return e.onSession(c.Branch, func(tx *state.Tx, s *registry.Session) error {
		tx.Append(s.SessionID, state.ProgressFile, []byte(section))
		tx.Touch(s.SessionID, map[string]string{"title": title, "sha256": journal.Sum(text)})
		return nil
	})
}

// checkText refuses invalid UTF-8, NUL bytes and credential-shaped text.
func checkText(what string, text []byte) error {
	if !validUTF8(text) {
		return fault.Usagef("%s is not valid UTF-8", what)
	}
	if bytes.IndexByte(text, 0) >= 0 {
		return fault.Usagef("%s contains a NUL byte", what)
	}
	return refuseSecrets(what, text)
}

// onSession runs fn in a transaction on the session for the explicit key
// (or the current branch), without touching the registry entry.
func (e *Env) onSession(explicit string, fn func(tx *state.Tx, s *registry.Session) error) error {
	c, err := e.choose(explicit)
	if err != nil {
		return err
	}
	return e.onChoice(c, fn)
}

// onChoice runs fn in a transaction on the chosen session.
func (e *Env) onChoice(c choice, fn func(tx *state.Tx, s *registry.Session) error) error {
	return e.Update(func(tx *state.Tx) error {
		s, err := c.find(tx.Reg)
		if err != nil {
			return err
		}
		return fn(tx, s)
	})
}
