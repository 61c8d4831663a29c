package state

import (
	"errors"
	"fmt"
	"strings"

	"github.com/orc-state/orc-state/checkpoint"
	"github.com/orc-state/orc-state/decisions"
	"github.com/orc-state/orc-state/internal/journal"
	"github.com/orc-state/orc-state/slices"
)

// Names of the files a session's files/ folder holds (SessionFiles).
const (
	CheckpointFile = "checkpoint.md"
	LedgerFile     = "slices.json"
	DecisionsFile  = "decisions.json"
	ProgressFile   = "progress.md"
	ReadinessFile  = "readiness.json" // slice verify's verdict, stamped like an artifact
)

// SessionFile is what orc-state does with one file of a session's files/
// folder: the one statement of it, which the journal's digests, artifact
// put's owned names, sync, verify, the archives and repair --redact read.
// docs/protocol.md §2 ("Session files") states the same table; a test in
// schema/ holds the two together.
type SessionFile struct {
	Name string
	// Validate applies the checks the file's own verb would to content from
	// elsewhere (a remote's commit, an archive); nil when it has none.
	Validate func(data []byte) error
	// Digest is the member of journal.Digests that records the file's
	// sha256 in every journal line ("" when it is not digested), so a
	// change made outside orc-state is found.
	Digest string
	// Invalid is the code verify reports when the file on disk fails
	// Validate ("" when verify checks it by its own rules: the
	// checkpoint's lint, the journal's chain).
	Invalid string
	// Writer names the verbs that write the file ("" for an artifact):
	// artifact put refuses the name, in any case.
	Writer string
	// Stamped: the file carries an artifact's stamp (headSha,
	// generatedAt), so artifact check reads it.
	Stamped bool
	// Travels: sync commits carry it (docs/protocol.md §17).
	Travels bool
	// Archived: an archive of the session keeps it (docs/protocol.md §21).
	Archived bool
	// Redact is how repair --redact and verify's secret.stored scan it.
	Redact Redaction
}

// Redaction is how repair --redact reads a file for credentials and
// rewrites it (internal/redact).
type Redaction int

const (
	// RedactByName: by the name's ending: .json and .jsonl as JSON, any
	// other line by line (an artifact).
	RedactByName Redaction = iota
	// RedactJSON: as JSON, each string holding a credential re-encoded.
	RedactJSON
	// RedactLines: line by line.
	RedactLines
	// RedactJournal: each line as JSON, the hash chain carried over the
	// edited lines.
	RedactJournal
	// RedactCheckpoint: the body line by line; the frontmatter, when it
	// held a credential or mirrors an entry that did, regenerated from the
	// redacted entry.
	RedactCheckpoint
)

// String is how docs/protocol.md §2 names the redaction.
func (r Redaction) String() string {
	switch r {
	case RedactJSON:
		return "as JSON"
	case RedactLines:
		return "line by line"
	case RedactJournal:
		return "each line as JSON, the chain carried over"
	case RedactCheckpoint:
		return "body line by line, frontmatter from the entry"
	}
	return "by its ending: .json as JSON, else line by line"
}

// SessionFiles are the files of files/ with a fixed name, in the order
// the journal's digests and verify name them. Adding a session file is
// one row here (a digested one also needs its member in journal.Digests).
var SessionFiles = []SessionFile{
	{Name: CheckpointFile, Validate: validCheckpoint, Digest: "checkpoint",
		Writer: "the verbs that change the session", Travels: true, Archived: true, Redact: RedactCheckpoint},
	{Name: LedgerFile, Validate: validLedger, Digest: "ledger", Invalid: "ledger.invalid",
		Writer: "slice init and the slice verbs", Travels: true, Archived: true, Redact: RedactJSON},
	{Name: DecisionsFile, Validate: validDecisions, Digest: "decisions", Invalid: "decisions.invalid",
		Writer: "decision set", Travels: true, Archived: true, Redact: RedactJSON},
	{Name: ProgressFile,
		Writer: "progress append", Travels: true, Archived: true, Redact: RedactLines},
	{Name: journal.FileName, Validate: validJournal,
		Writer: "every change of the session", Travels: true, Archived: true, Redact: RedactJournal},
	// The anchor is checked against the journal beside it
	// (journal.CheckAnchor), not on its own.
	{Name: journal.AnchorName,
		Writer: "every change of the session", Travels: true, Archived: true, Redact: RedactLines},
	{Name: ReadinessFile,
		Writer: "slice verify", Stamped: true, Travels: true, Archived: true, Redact: RedactJSON},
}

// Artifact is what holds for a name of files/ that no row of SessionFiles
// has: an artifact (docs/protocol.md §12), which artifact put writes.
var Artifact = SessionFile{Travels: true, Archived: true, Redact: RedactByName}

// SessionFileOf returns the row of the file at a slash path under files/:
// its row in SessionFiles, or Artifact (with Name set to name).
func SessionFileOf(name string) SessionFile {
	for _, f := range SessionFiles {
		if f.Name == name {
			return f
		}
	}
	a := Artifact
	a.Name = name
	return a
}

// ValidateSessionFile applies to the file at a slash path under files/,
// come from elsewhere, the checks its own verb would (none for an
// artifact).
func ValidateSessionFile(name string, data []byte) error {
	if f := SessionFileOf(name); f.Validate != nil {
		return f.Validate(data)
	}
	return nil
}

// Kept reports whether the file at a slash path under a session's folder
// is kept by an archive of it (a file outside files/ is).
func Kept(rel string) bool {
	name, ok := strings.CutPrefix(rel, "files/")
	return !ok || SessionFileOf(name).Archived
}

func validCheckpoint(data []byte) error {
	if doc := checkpoint.Parse(data); doc.Front == nil {
		return errors.New("no valid frontmatter")
	}
	return nil
}

func validLedger(data []byte) error {
	_, err := slices.Parse(data)
	return err
}

func validDecisions(data []byte) error {
	_, err := decisions.Parse(data)
	return err
}

// validJournal refuses a journal whose chain is broken (or a line torn or
// not an entry), or a line whose actor, verb or time is not one line.
func validJournal(data []byte) error {
	entries, problems, _ := journal.Parse(data)
	if len(problems) > 0 {
		return errors.New(problems[0].Message)
	}
	for i, e := range entries { // without problems, entry i is line i+1
		if err := e.TextProblem(); err != nil {
			return fmt.Errorf("line %d: %v", i+1, err)
		}
	}
	return nil
}
