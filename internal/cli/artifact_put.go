package cli

import (
	"bytes"
	"encoding/json"

	"github.com/orc-state/orc-state/internal/fault"
	"github.com/orc-state/orc-state/internal/journal"
	"github.com/orc-state/orc-state/internal/safetext"
	"github.com/orc-state/orc-state/internal/state"
	"github.com/orc-state/orc-state/internal/strictjson"
	"github.com/orc-state/orc-state/registry"
)

// ArtifactPutCmd is `artifact put NAME -`.
type ArtifactPutCmd struct {
	BranchFlag
	Name   string `arg:"" help:"Relative path inside files/, ending in .json."`
	Source string `arg:"" optional:"" help:"Must be - (stdin)."`
}

// Run stores a JSON object from stdin as files/NAME, stamped with HEAD.
func (c *ArtifactPutCmd) Run(e *Env) error {
	if c.Source != "-" {
		return fault.Usagef("the artifact is read from stdin only").WithHint("orc-state artifact put %s - < file.json", safetext.Quote(c.Name))
	}
	if err := checkArtifactName(c.Name, true); err != nil {
		return err
	}
	data, err := e.readStdin()
	if err != nil {
		return err
	}
	var obj map[string]json.RawMessage
	if err := strictjson.Check(data); err != nil {
		return fault.Usagef("stdin is not valid JSON: %v", err)
	}
	if err := json.Unmarshal(data, &obj); err != nil || obj == nil {
		return fault.Usagef("stdin must be a JSON object")
	}
	if err := checkText("the artifact", data); err != nil {
		return err
	}
	head, err := e.headSHA()
	if err != nil {
		return err
	}
	obj["headSha"], _ = json.Marshal(head)
	obj["generatedAt"], _ = json.Marshal(registry.Now())
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(obj); err != nil {
		return err
	}
	return e.onSession(c.Branch, func(tx *state.Tx, s *registry.Session) error {
		if err := noSymlinks(tx.Dir().FilesDir(s.SessionID), c.Name); err != nil {
			return err
		}
		if err := caseVariant(tx.Dir().FilesDir(s.SessionID), c.Name); err != nil {
			return err
		}
		if old, err := tx.Read(s.SessionID, c.Name); err != nil {
			return err
		} else if old == nil {
			if err := newArtifactName(c.Name); err != nil {
				return err
			}
		}
		tx.Write(s.SessionID, c.Name, buf.Bytes())
		tx.Touch(s.SessionID, map[string]string{"name": c.Name, "headSha": head, "sha256": journal.Sum(buf.Bytes())})
		return nil
	})
}
