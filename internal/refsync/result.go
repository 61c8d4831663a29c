package refsync

import (
	"fmt"
	"sort"
	"strings"

	"github.com/orc-state/orc-state/internal/fault"
	"github.com/orc-state/orc-state/internal/safetext"
)

// Outcome is what a verb did with one session.
type Outcome string

// The outcomes, as printed.
const (
	Pushed   Outcome = "pushed"
	Imported Outcome = "imported"
	Resolved Outcome = "resolved"
	Restored Outcome = "restored"
	UpToDate Outcome = "up to date"
	// IsAhead: pull left a session that has local changes to push.
	IsAhead Outcome = "ahead"
	// IsBehind: push refused a session the remote has moved on; pull first.
	IsBehind Outcome = "behind"
	// IsDiverged: both sides changed the session; sync resolve.
	IsDiverged Outcome = "diverged"
	// Refused: the session's content may not travel (a credential, an
	// invalid remote state); nothing of it was pushed or imported.
	Refused Outcome = "refused"
	// Rejected: the remote refused the push (a hook, permissions).
	Rejected Outcome = "rejected"
	// Failed: the session could not be read, or changed while the verb ran.
	Failed Outcome = "failed"
	// Superseded: pull imported the remote's side, which replaced changes
	// of this machine (another machine's resolution kept its own side);
	// they are archived.
	Superseded Outcome = "superseded"
)

// Result is one session's line of output: `<outcome>\t<sessionId>\t<detail>`,
// and the indented lines that follow it (what each side changed).
type Result struct {
	Session string
	Outcome Outcome
	Detail  string
	// Extra are lines printed after the result's, each starting with two
	// spaces and holding no tab: the changes a divergence, a resolution or
	// a superseded import concern.
	Extra []string
	// Archive is the archive ref a superseded import or a resolution
	// made, for the hint.
	Archive string
	// Hint, when set, is the next step for this result: it wins over the
	// hint Summary derives from the outcomes.
	Hint string
}

// Line is the result as printed (without its Extra lines).
func (r Result) Line() string { return string(r.Outcome) + "\t" + r.Session + "\t" + r.Detail }

// code is the exit code a result asks for (docs/protocol.md §17): 2 for a session
// refused for its content, 1 for one behind, diverged, rejected or failed.
func (r Result) code() int {
	switch r.Outcome {
	case Refused:
		return fault.Usage
	case IsBehind, IsDiverged, Rejected, Failed, Superseded:
		return fault.NotFound
	}
	return fault.OK
}

// Summary turns a verb's results into its error: nil when every session is
// done (exit 0); else exit 2 when any was refused for its content, else 1;
// the message counts what was not done and the hint names the next step.
func Summary(verb, remote string, results []Result) error {
	code, counts, first := fault.OK, map[Outcome]int{}, map[Outcome]string{}
	archive, own := "", map[int]string{}
	for _, r := range results {
		if r.Outcome == Superseded && archive == "" {
			archive = r.Archive
		}
		if _, ok := own[r.code()]; !ok && r.Hint != "" {
			own[r.code()] = r.Hint
		}
		c := r.code()
		if c == fault.OK {
			continue
		}
		if c == fault.Usage || code == fault.OK {
			code = c
		}
		counts[r.Outcome]++
		if _, ok := first[r.Outcome]; !ok {
			first[r.Outcome] = r.Session
		}
	}
	if code == fault.OK {
		return nil
	}
	var parts []string
	n := 0
	for _, o := range sortedOutcomes(counts) {
		parts = append(parts, fmt.Sprintf("%d %s", counts[o], o))
		n += counts[o]
	}
	e := fault.New(code, "%d of %d session(s) not %s: %s", n, len(results), doneWord(verb), strings.Join(parts, ", "))
	switch {
	case own[code] != "":
		return e.WithHint("%s", own[code])
	case counts[Refused] > 0 && verb == "push":
		return e.WithHint("fix what the refused line of %s names (a credential: remove it, with orc-state repair --redact if the journal holds it), then push again", first[Refused])
	case counts[Refused] > 0:
		return e.WithHint("the remote's state of %s is invalid; fix it on the machine that pushed it", first[Refused])
	case counts[Superseded] > 0:
		return e.WithHint("your replaced changes are kept in %s (git show %s); to take them back over the remote's side: orc-state sync restore %s --force%s, then push", archive, safetext.Quote(archive+":files/journal.jsonl"), safetext.Quote(archive), remoteFlag(remote))
	case counts[IsDiverged] > 0:
		return e.WithHint("keep one side: orc-state sync resolve --keep=SIDE%s %s (SIDE: local or remote)", remoteFlag(remote), safetext.Operand(first[IsDiverged]))
	case counts[IsBehind] > 0:
		return e.WithHint("orc-state sync pull%s, then push again", remoteFlag(remote))
	case counts[Rejected] > 0:
		return e.WithHint("see why the remote refused it (its hooks, your permissions), then push again")
	default:
		return e.WithHint("run orc-state sync %s again", safetext.Quote(verb))
	}
}

func doneWord(verb string) string {
	switch verb {
	case "push":
		return "pushed"
	case "pull":
		return "pulled"
	case "restore":
		return "restored"
	}
	return "resolved"
}

func sortedOutcomes(m map[Outcome]int) []Outcome {
	out := make([]Outcome, 0, len(m))
	for o := range m {
		out = append(out, o)
	}
	sort.Slice(out, func(i, j int) bool { return out[i] < out[j] })
	return out
}

// remoteFlag is the --remote flag a hint needs to name the same remote.
func remoteFlag(remote string) string {
	if remote == "origin" {
		return ""
	}
	return " --remote=" + safetext.Quote(remote)
}
