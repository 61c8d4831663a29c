package cli

import (
	"encoding/json"
	"fmt"

	"github.com/orc-state/orc-state/internal/fault"
	"github.com/orc-state/orc-state/internal/journal"
	"github.com/orc-state/orc-state/internal/safetext"
	"github.com/orc-state/orc-state/internal/state"
)

// ArtifactCheckCmd is `artifact check NAME`.
type ArtifactCheckCmd struct {
	BranchFlag
	Name string `arg:"" help:"Relative path inside files/ (.json, .md or .txt)."`
}

// Run exits 0 when the artifact's stamp equals HEAD, 1 when stale or missing.
func (c *ArtifactCheckCmd) Run(e *Env) error {
	if err := checkArtifactName(c.Name, false); err != nil {
		return err
	}
	d, _, s, err := e.Session(c.Branch)
	if err != nil {
		return err
	}
	head, err := e.headSHA()
	if err != nil {
		return err
	}
	if err := noSymlinks(d.FilesDir(s.SessionID), c.Name); err != nil {
		return err
	}
	if err := caseVariant(d.FilesDir(s.SessionID), c.Name); err != nil {
		return err
	}
	data, err := d.ReadFile(s.SessionID, c.Name)
	if err != nil {
		return err
	}
	if data == nil {
		fmt.Fprintf(e.Stdout, "missing\t-\t%s\n", head)
		return fault.NotFoundf("artifact %s does not exist", c.Name).WithHint("produce it, then orc-state artifact put --session=%s %s -", safetext.Quote(s.SessionID), safetext.Operand(c.Name))
	}
	if isTextArtifact(c.Name) {
		return c.checkText(e, d, s.SessionID, data, head)
	}
	var stamp struct {
		HeadSha string `json:"headSha"`
	}
	if json.Unmarshal(data, &stamp) != nil || stamp.HeadSha == "" {
		fmt.Fprintf(e.Stdout, "stale\t-\t%s\n", head)
		return fault.NotFoundf("artifact %s carries no headSha stamp", c.Name).WithHint("regenerate it, then orc-state artifact put --session=%s %s -", safetext.Quote(s.SessionID), safetext.Operand(c.Name))
	}
	if stamp.HeadSha != head {
		fmt.Fprintf(e.Stdout, "stale\t%s\t%s\n", safetext.Escape(stamp.HeadSha), head)
		return fault.NotFoundf("artifact %s was generated at %s; HEAD is %s", c.Name, short(stamp.HeadSha), short(head)).
			WithHint("regenerate it at HEAD, then orc-state artifact put --session=%s %s -", safetext.Quote(s.SessionID), safetext.Operand(c.Name))
	}
	fmt.Fprintf(e.Stdout, "fresh\t%s\t%s\n", stamp.HeadSha, head)
	return nil
}

// checkText judges a text artifact by its stamp, the journal line of the
// artifact put that stored it: fresh when that was at HEAD and the file
// still holds those bytes.
func (c *ArtifactCheckCmd) checkText(e *Env, d *state.Dir, id string, data []byte, head string) error {
	st, ok, err := lastStamp(d, id, c.Name)
	if err != nil {
		return err
	}
	switch {
	case !ok:
		fmt.Fprintf(e.Stdout, "stale\t-\t%s\n", head)
		return fault.NotFoundf("artifact %s was not stored by artifact put; it carries no stamp", c.Name).
			WithHint("store it with orc-state artifact put --session=%s %s -", safetext.Quote(id), safetext.Operand(c.Name))
	case journal.Sum(data) != st.Sha256:
		fmt.Fprintf(e.Stdout, "stale\t%s\t%s\n", safetext.Escape(st.HeadSha), head)
		return fault.NotFoundf("artifact %s changed since artifact put stored it at %s", c.Name, st.GeneratedAt).
			WithHint("store it again with orc-state artifact put --session=%s %s -", safetext.Quote(id), safetext.Operand(c.Name))
	case st.HeadSha != head:
		fmt.Fprintf(e.Stdout, "stale\t%s\t%s\n", safetext.Escape(st.HeadSha), head)
		return fault.NotFoundf("artifact %s was generated at %s; HEAD is %s", c.Name, short(st.HeadSha), short(head)).
			WithHint("regenerate it at HEAD, then orc-state artifact put --session=%s %s -", safetext.Quote(id), safetext.Operand(c.Name))
	}
	fmt.Fprintf(e.Stdout, "fresh\t%s\t%s\n", st.HeadSha, head)
	return nil
}
