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
	Name   string `arg:"" help:"Relative path inside files/, ending in .json (a JSON object), or .md or .txt (text)."`
	Source string `arg:"" optional:"" help:"Must be - (stdin)."`
}

// Help is the detail of artifact put --help: the two kinds and their
// stamps.
func (c *ArtifactPutCmd) Help() string {
	return `A NAME ending in .json stores the JSON object on stdin with two members added:
headSha (HEAD when stored) and generatedAt. A NAME ending in .md or .txt stores
the text on stdin as it is (LF line endings), for a plan or a diagnosis the
next phase reads; its stamp (headSha, generatedAt and the text's sha256) is
the journal line of this put. Either is at most 1 MiB, UTF-8, without NUL or
anything shaped like a credential, and a NAME another verb owns (checkpoint.md,
progress.md, slices.json, ...) is refused. artifact check NAME says whether it
was stored at HEAD (and, for text, not changed since). Example:

    orc-state artifact put plan.md - < plan.md
    orc-state artifact check plan.md`
}

// Run stores stdin as files/NAME, stamped with HEAD: a JSON object with
// headSha and generatedAt added, or text as given with its stamp in the
// journal line (docs/protocol.md §12).
func (c *ArtifactPutCmd) Run(e *Env) error {
	if c.Source != "-" {
		return fault.Usagef("the artifact is read from stdin only").WithHint("orc-state artifact put %s - reads the artifact from stdin: redirect the file into it", safetext.Operand(c.Name))
	}
	if err := checkArtifactName(c.Name, true); err != nil {
		return err
	}
	data, err := e.readStdin()
	if err != nil {
		return err
	}
	if isTextArtifact(c.Name) {
		return c.putText(e, data)
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
	obj["generatedAt"], _ = json.Marshal(e.stamp())
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(obj); err != nil {
		return err
	}
	return c.store(e, buf.Bytes(), map[string]string{"name": c.Name, "headSha": head, "sha256": journal.Sum(buf.Bytes())})
}

// putText stores text as files/NAME; its stamp is the journal line.
func (c *ArtifactPutCmd) putText(e *Env, text []byte) error {
	if len(text) == 0 {
		return fault.Usagef("stdin is empty; a text artifact holds its text").
			WithHint("orc-state artifact put %s - reads the artifact from stdin: redirect the file into it", safetext.Operand(c.Name))
	}
	if err := checkText("the artifact", text); err != nil {
		return err
	}
	head, err := e.headSHA()
	if err != nil {
		return err
	}
	return c.store(e, text, map[string]string{"name": c.Name, "headSha": head, "sha256": journal.Sum(text), "generatedAt": e.stamp()})
}

// store writes data as files/NAME of the session under the lock, with
// stamp as the journal line's arguments.
func (c *ArtifactPutCmd) store(e *Env, data []byte, stamp map[string]string) error {
	return e.onSession(c.Branch, func(tx *state.Tx, s *registry.Session) error {
		if err := noSymlinks(tx.Dir().FilesDir(s.SessionID), c.Name); err != nil {
			return err
		}
		if err := caseVariant(tx.Dir().FilesDir(s.SessionID), c.Name); err != nil {
			return err
		}
		old, err := tx.Read(s.SessionID, c.Name)
		if err != nil {
			return err
		}
		if old == nil {
			if err := newArtifactName(c.Name); err != nil {
				return err
			}
		}
		if isTextArtifact(c.Name) && string(old) == string(data) {
			// The same text at the same HEAD again: its stamp stands.
			if st, ok, err := lastStamp(tx.Dir(), s.SessionID, c.Name); err != nil {
				return err
			} else if ok && st.HeadSha == stamp["headSha"] && st.Sha256 == stamp["sha256"] {
				return nil
			}
		}
		tx.Write(s.SessionID, c.Name, data)
		tx.Touch(s.SessionID, stamp)
		return nil
	})
}
