package cli

import (
	"bytes"
	"io"

	"github.com/orc-state/orc-state/checkpoint"
	"github.com/orc-state/orc-state/internal/fault"
	"github.com/orc-state/orc-state/internal/gitx"
	"github.com/orc-state/orc-state/internal/journal"
	"github.com/orc-state/orc-state/internal/secrets"
	"github.com/orc-state/orc-state/internal/state"
	"github.com/orc-state/orc-state/registry"
)

// maxStdin bounds what a verb reads from stdin; more is refused, not cut.
const maxStdin = 1 << 20

// readStdin reads all of stdin up to maxStdin bytes, as fromWindows
// leaves it.
func (e *Env) readStdin() ([]byte, error) {
	data, err := io.ReadAll(io.LimitReader(e.Stdin, maxStdin+1))
	if err != nil {
		return nil, fault.Usagef("cannot read stdin: %v", err)
	}
	if len(data) > maxStdin {
		return nil, fault.Usagef("stdin is over %d bytes", maxStdin)
	}
	return fromWindows("stdin", data)
}

// fromWindows turns text from a Windows shell or editor into what
// orc-state stores, which always has LF line endings: CRLF becomes LF
// (PowerShell pipes CRLF), and a leading UTF-8 byte order mark is dropped
// (Windows PowerShell 5 and older editors write one). UTF-16, Windows
// PowerShell's default for files it writes, is refused with the way out.
// Every verb that reads text from stdin or a file reads it through here.
func fromWindows(what string, data []byte) ([]byte, error) {
	if bytes.HasPrefix(data, []byte{0xff, 0xfe}) || bytes.HasPrefix(data, []byte{0xfe, 0xff}) {
		return nil, fault.Usagef("%s is UTF-16 text; orc-state reads UTF-8", what).
			WithHint("in PowerShell, write it with -Encoding utf8 (Out-File, Set-Content), or set $OutputEncoding = [Text.UTF8Encoding]::new() before piping")
	}
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	return bytes.ReplaceAll(data, []byte("\r\n"), []byte("\n")), nil
}

// refuseSecrets refuses text that looks like a credential, without echoing it.
func refuseSecrets(what string, text []byte) error {
	if kind, line, ok := secrets.Find(text); ok {
		return fault.Usagef("%s line %d looks like a credential (%s); it was not stored", what, line, kind).
			WithHint("remove the secret and retry; reference it by name instead")
	}
	return nil
}

// Run replaces the Resume digest with stdin.
func (c *DigestWriteCmd) Run(e *Env) error {
	if c.Source != "-" {
		return fault.Usagef("the digest is read from stdin only").WithHint("orc-state digest write - <<'EOF' ... EOF")
	}
	text, err := e.readStdin()
	if err != nil {
		return err
	}
	if err := refuseSecrets("the digest", text); err != nil {
		return err
	}
	dg, err := checkpoint.ParseDigest(text)
	if err != nil {
		return digestRefusal(err)
	}
	if dg.SuiteSHA != "" {
		if err := e.checkCommit(dg.SuiteSHA); err != nil {
			return err
		}
	}
	args := map[string]string{"suite": dg.SuiteVerdict + " @ " + dg.SuiteSHA, "sha256": journal.Sum(dg.Text)}
	return e.Mutate(c.Branch, args, func(tx *state.Tx, s *registry.Session) error {
		body, err := tx.Body(s.SessionID)
		if err != nil {
			return err
		}
		newBody := checkpoint.SetSection(body, checkpoint.DigestHeading, dg.Text)
		if string(newBody) == string(body) {
			return nil
		}
		return tx.WriteCheckpoint(s, newBody)
	})
}

func digestRefusal(err error) error {
	f := fault.Usagef("%v", err)
	if de, ok := err.(*checkpoint.DigestError); ok && de.Overflow != "" {
		f.Msg += "; over the cap: " + de.Overflow
	}
	return f.WithHint("shorten the digest (30 lines, 2048 bytes; bullets Done, Next, Open decisions, Artifacts, Suite) and move history to progress.md")
}

// checkCommit refuses a sha that is not a commit of the repository. Git
// work happens before any lock is taken.
func (e *Env) checkCommit(sha string) error {
	d, err := e.Dir()
	if err != nil {
		return err
	}
	if d.Git == nil {
		return fault.Usagef("cannot check Suite sha %s: not inside a git repository", sha).WithHint("run inside the repository, or write Suite: unknown")
	}
	r, err := gitx.Open(d.Git.WorktreeRoot)
	if err != nil {
		return fault.Wrap(fault.Invalid, err, "cannot open the repository")
	}
	if _, ok := r.ResolveCommit(sha); !ok {
		return fault.Usagef("Suite sha %s is not a commit of this repository", sha).WithHint("cite the sha the suite ran at (git rev-parse HEAD), or write Suite: unknown")
	}
	return nil
}
