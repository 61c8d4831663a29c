package checkpoint

import (
	"fmt"
	"strconv"
	"strings"
)

// Display caps for the Auto-checkpoint section, which must fit the file cap.
const (
	maxSubjectRunes = 72 // commit subject
	maxPathRunes    = 100
	maxShownPaths   = 5
	maxShownSlices  = 20
	maxNoteRunes    = 200 // why the dirty list is unknown
)

// Auto is what `checkpoint --auto` gathered; RenderAuto turns it into the
// content of the Auto-checkpoint section.
type Auto struct {
	At      string // UTC time
	Trigger string // e.g. "pre-compact"; omitted when empty

	Phase       string
	TotalPhases int
	PhaseLabel  string

	HasLedger   bool // false: no Slices line
	SlicesDone  int
	SlicesTotal int
	OpenSlices  []string // ids of the slices still open

	HeadState   string // "unborn", "detached", or "" for a branch head
	HeadShort   string
	HeadSubject string

	DirtyKnown    bool     // false: git did not answer
	DirtyTimedOut bool     // git timed out (wins over DirtyKnown)
	DirtyNote     string   // when not known: "unknown (why)" or "n/a (why)"; "unknown" when empty
	DirtyCount    int      // dirty files, .orc/ excluded by the caller
	DirtyPaths    []string // the first paths, .orc/ excluded by the caller
}

// RenderAuto returns the Auto-checkpoint section content, one "- " line per
// item, each ending in "\n":
//
//   - At: <at> (trigger: <trigger>)
//   - Phase: <phase>/<total>[ <label>]
//   - Slices: <done>/<total> done; open: <ids|none>     (only with a ledger)
//   - HEAD: <short> <subject> | unborn (no commits) | detached at <short> <subject>
//   - Dirty: <n> file(s)[: <first 5 paths>][ (+k more)] | unknown (timed out) | <DirtyNote>
//
// Every value is forced onto one line (control characters, bidirectional
// controls, line separators and invalid UTF-8 are shown escaped, as in
// every human-readable output: safetext.Escape); the subject is capped at 72 runes, paths at
// 100 runes, and at most 20 open slice ids are listed.
func RenderAuto(a Auto) []byte {
	var b strings.Builder
	line := func(format string, args ...any) {
		b.WriteString("- ")
		fmt.Fprintf(&b, format, args...)
		b.WriteByte('\n')
	}

	if a.Trigger != "" {
		line("At: %s (trigger: %s)", oneLine(a.At), oneLine(a.Trigger))
	} else {
		line("At: %s", oneLine(a.At))
	}

	phase := oneLine(a.Phase) + "/" + strconv.Itoa(a.TotalPhases)
	if a.PhaseLabel != "" {
		phase += " " + oneLine(a.PhaseLabel)
	}
	line("Phase: %s", phase)

	if a.HasLedger {
		line("Slices: %d/%d done; open: %s", a.SlicesDone, a.SlicesTotal, list(a.OpenSlices, maxShownSlices, 40, len(a.OpenSlices)))
	}

	line("HEAD: %s", head(a))
	line("Dirty: %s", dirty(a))
	return []byte(b.String())
}

func head(a Auto) string {
	commit := strings.TrimSpace(oneLine(a.HeadShort) + " " + clip(oneLine(a.HeadSubject), maxSubjectRunes))
	switch a.HeadState {
	case "":
		if commit == "" {
			return "unknown"
		}
		return commit
	case "unborn":
		return "unborn (no commits)"
	case "detached":
		return strings.TrimSpace("detached at " + commit)
	default:
		return oneLine(a.HeadState)
	}
}

func dirty(a Auto) string {
	if a.DirtyTimedOut {
		return "unknown (timed out)"
	}
	if !a.DirtyKnown {
		if a.DirtyNote != "" {
			return clip(oneLine(a.DirtyNote), maxNoteRunes)
		}
		return "unknown"
	}
	n := max(a.DirtyCount, len(a.DirtyPaths))
	s := strconv.Itoa(n) + " files"
	if n == 1 {
		s = "1 file"
	}
	if len(a.DirtyPaths) > 0 {
		s += ": " + list(a.DirtyPaths, maxShownPaths, maxPathRunes, n)
	}
	return s
}

// list joins up to shown items with ", " (each one-lined and clipped to
// runes) and notes how many of total are left out; "none" when empty.
func list(items []string, shown, runes, total int) string {
	if len(items) == 0 {
		return "none"
	}
	k := min(len(items), shown)
	parts := make([]string, k)
	for i := range k {
		parts[i] = clip(oneLine(items[i]), runes)
	}
	s := strings.Join(parts, ", ")
	if total > k {
		s += fmt.Sprintf(" (+%d more)", total-k)
	}
	return s
}
