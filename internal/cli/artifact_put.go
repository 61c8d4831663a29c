package cli

import (
	"github.com/orc-state/orc-state/internal/app"
	"github.com/orc-state/orc-state/internal/fault"
	"github.com/orc-state/orc-state/internal/safetext"
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
// journal line (app.ArtifactPut, docs/protocol.md §12).
func (c *ArtifactPutCmd) Run(o *app.Streams, w *app.World, sd *app.StateDir, txn *app.Txn) error {
	if c.Source != "-" {
		return fault.Usagef("the artifact is read from stdin only").WithHint("orc-state artifact put %s - reads the artifact from stdin: redirect the file into it", safetext.Operand(c.Name))
	}
	return app.ArtifactPut(o, w, sd, txn, c.Branch, c.Name)
}
