// Package verify owns every check: it surfaces problems with stable codes
// and the next command, and never repairs anything.
//
// Session cross-checks one session without git: its checkpoint against
// the registry and the caps, its ledger and decisions, its journal chain,
// anchor and last digests against the files (edits made outside
// orc-state), and whether an interrupted transaction left it between two
// states (transaction.interrupted, never reported as an outside edit);
// StoredSecrets, apart because it reads every file, names a credential an
// older release stored (secret.stored). Git (git.go) checks a session's
// claims against git (HEAD, the digest's Suite sha, committed slices) from
// a Reality that Observe gathers before any lock, which verify, resume and
// the Auto-checkpoint share; Bindings checks .orc/worktrees.json against
// the worktrees git has. Full is all of it for one session (the verify
// verb); StateDir (statedir.go) is the whole state dir (the doctor verb):
// the lock, an interrupted transaction, temp files, orphan folders, names,
// the registry and every session.
package verify

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/orc-state/orc-state/decisions"
	"github.com/orc-state/orc-state/slices"

	"github.com/orc-state/orc-state/checkpoint"
	"github.com/orc-state/orc-state/internal/environ"
	"github.com/orc-state/orc-state/internal/journal"
	"github.com/orc-state/orc-state/internal/lock"
	"github.com/orc-state/orc-state/internal/redact"
	"github.com/orc-state/orc-state/internal/safetext"
	"github.com/orc-state/orc-state/internal/state"
	"github.com/orc-state/orc-state/registry"
)

// Finding is one problem: a stable code, a one-line message and the
// command to run next.
type Finding struct {
	Code    string `json:"code"`
	Message string `json:"message"`
	Next    string `json:"next"`
}

// Session runs every check that needs no git on session s; now judges its
// slice claims.
func Session(d *state.Dir, reg *registry.Registry, s *registry.Session, now time.Time) ([]Finding, error) {
	return session(d, reg, s, now, readPending(d))
}

// pending is what the state dir's write-ahead log says is interrupted
// (Dir.Pending), read once by a check of many sessions: the log can hold
// up to a MiB of records, and reading it per session made doctor on 1,000
// sessions cost seconds and a GiB of memory.
type pending struct {
	in  *state.Intent
	err error
}

func readPending(d *state.Dir) pending {
	in, err := d.Pending()
	return pending{in, err}
}

func session(d *state.Dir, reg *registry.Registry, s *registry.Session, now time.Time, p pending) ([]Finding, error) {
	var out []Finding
	add := func(code, next, format string, args ...any) {
		out = append(out, Finding{Code: code, Message: fmt.Sprintf(format, args...), Next: next})
	}
	repair := "orc-state repair --session=" + safetext.Quote(s.SessionID)
	f, mid := interrupted(d, s.SessionID, p)
	if f != nil {
		out = append(out, *f)
	}
	if mid {
		// Its files are between two states: comparing them would report
		// the interrupted change as an outside edit.
		return out, nil
	}
	data, err := d.ReadFile(s.SessionID, state.CheckpointFile)
	if err != nil {
		return nil, err
	}
	if data == nil {
		add("checkpoint.missing", repair, "checkpoint.md does not exist")
	} else {
		for _, f := range checkpoint.Lint(data) {
			add(f.Code, nextFor(f.Code, s.SessionID), "%s", f.Message)
		}
		if doc := checkpoint.Parse(data); doc.Front != nil {
			for _, m := range mirrorDiff(*doc.Front, state.Frontmatter(s)) {
				add("frontmatter.mismatch", repair, "%s", m)
			}
		}
	}
	out = append(out, dataFindings(d, s.SessionID, now)...)
	out = append(out, journalFindings(d, reg, s)...)
	return out, nil
}

// StoredSecrets names each place of the session (its entry, each file's
// content or name) that holds a credential an older orc-state let in:
// one secret.stored finding per file, never the credential itself. It
// reads every file of the session, so verify and doctor run it and
// resume, on the hooks' path, does not.
func StoredSecrets(d *state.Dir, s *registry.Session) []Finding {
	next := "orc-state repair --redact --session=" + safetext.Quote(s.SessionID)
	files, err := redact.Read(d.FilesDir(s.SessionID))
	var plan *redact.Plan
	if err == nil {
		plan, err = redact.Session(*s, files)
	}
	if err != nil {
		return []Finding{{Code: "secret.unreadable", Message: "cannot scan the session for stored credentials: " + err.Error(), Next: "orc-state doctor"}}
	}
	var order []string
	where := map[string][]string{} // file → its places
	for _, h := range plan.Hits {
		file, place := h.File, fmt.Sprintf("line %d (%s)", h.Line, h.Kind)
		switch {
		case h.Name:
			file, place = "a file name under files/", "("+h.Kind+")"
		case h.Line == 0:
			place = "(" + h.Kind + ")"
		}
		if where[file] == nil {
			order = append(order, file)
		}
		where[file] = append(where[file], place)
	}
	var out []Finding
	for _, file := range order {
		out = append(out, Finding{Code: "secret.stored", Next: next,
			Message: fmt.Sprintf("a credential is stored in %s %s, written by an older orc-state; sync push refuses the session until it is redacted",
				file, strings.Join(where[file], ", "))})
	}
	return out
}

// interrupted reports whether session id is in the middle of a
// transaction: one recorded as interrupted (a finding), or one another
// process is running now (no finding; its files settle when it ends).
func interrupted(d *state.Dir, id string, p pending) (*Finding, bool) {
	in, err := p.in, p.err
	if err != nil {
		return &Finding{Code: "transaction.unreadable", Message: err.Error(), Next: "orc-state doctor"}, true
	}
	if in != nil && in.Invalid != nil {
		return &Finding{Code: "transaction.invalid",
			Message: state.IntentFile + " is not a record orc-state wrote: " + in.Invalid.Error() + "; repair and every writer refuse it",
			Next:    state.UntrustedNext}, false
	}
	if in == nil || (!in.Torn && !in.Touches(id)) {
		return nil, false
	}
	if held, _ := lock.Held(d.Path); held {
		return nil, true
	}
	return &Finding{Code: "transaction.interrupted",
		Message: "the session is in the middle of " + in.Describe() + ", which was interrupted; its record is " + state.IntentFile,
		Next:    "orc-state repair (completes it)"}, true
}

// mirrorDiff names each frontmatter field that differs from the registry.
func mirrorDiff(got, want checkpoint.Frontmatter) []string {
	fields := []struct{ name, got, want string }{
		{"schema", strconv.Itoa(got.Schema), strconv.Itoa(want.Schema)},
		{"command", got.Command, want.Command},
		{"branch", got.Branch, want.Branch},
		{"gitBranch", got.GitBranch, want.GitBranch},
		{"phase", got.Phase, want.Phase},
		{"phaseLabel", got.PhaseLabel, want.PhaseLabel},
		{"totalPhases", strconv.Itoa(got.TotalPhases), strconv.Itoa(want.TotalPhases)},
		{"status", got.Status, want.Status},
		{"jiraTicket", got.JiraTicket, want.JiraTicket},
		{"updatedAt", got.UpdatedAt, want.UpdatedAt},
	}
	var out []string
	for _, f := range fields {
		if f.got != f.want {
			out = append(out, fmt.Sprintf("frontmatter %s is %q; the registry says %q", f.name, f.got, f.want))
		}
	}
	return out
}

func nextFor(code, id string) string {
	switch code {
	case checkpoint.CodeFrontmatterMissing, checkpoint.CodeFrontmatterInvalid:
		return "orc-state repair --session=" + safetext.Quote(id)
	case checkpoint.CodeOverCap, checkpoint.CodeOpenDecisionsCap:
		return "move history to progress.md (orc-state progress append - --session=" + safetext.Quote(id) + "), then shorten checkpoint.md"
	default:
		return "orc-state digest write - --session=" + safetext.Quote(id)
	}
}

// journalFindings checks the chain and compares the last recorded digests
// with the files now on disk.
func journalFindings(d *state.Dir, reg *registry.Registry, s *registry.Session) []Finding {
	var out []Finding
	entries, problems, err := journal.Read(d.File(s.SessionID, journal.FileName))
	if err != nil {
		return []Finding{{Code: "journal.unreadable", Message: err.Error(), Next: "orc-state doctor"}}
	}
	for _, p := range problems {
		out = append(out, Finding{Code: p.Code, Message: p.Message, Next: "orc-state log --session=" + safetext.Quote(s.SessionID) + " (inspect), then orc-state doctor"})
	}
	if len(entries) == 0 {
		return append(out, Finding{Code: "journal.missing", Message: "the session has no journal; changes cannot be checked",
			Next: "orc-state repair --session=" + safetext.Quote(s.SessionID)})
	}
	if p, err := anchorProblem(d, s.SessionID); err != nil || p != nil {
		msg := ""
		if err != nil {
			msg = err.Error()
		} else {
			msg = p.Message
		}
		out = append(out, Finding{Code: "journal.anchor", Message: msg,
			Next: "orc-state log --session=" + safetext.Quote(s.SessionID) + " (inspect the last lines), then orc-state repair --session=" + safetext.Quote(s.SessionID) + " to acknowledge it"})
	}
	out = append(out, noticedEdits(entries, s.SessionID)...)
	now, err := d.Digests(reg, s.SessionID)
	if err != nil {
		return append(out, Finding{Code: "journal.unreadable", Message: err.Error(), Next: "orc-state doctor"})
	}
	last := entries[len(entries)-1].Digests
	for _, what := range digested() {
		if *last.Field(what) != *now.Field(what) {
			out = append(out, Finding{Code: "edited." + what,
				Message: fmt.Sprintf("%s changed outside orc-state since journal seq %d", fileOf(what), entries[len(entries)-1].Seq),
				Next:    "orc-state log --session=" + safetext.Quote(s.SessionID) + " (see the last change), then orc-state repair --session=" + safetext.Quote(s.SessionID) + ", which keeps your edit and re-baselines the journal (to drop the edit, restore the file by hand first)"})
		}
	}
	return out
}

// noticedEdits reports the outside edits that later writers noticed and
// recorded (since the last repair, which acknowledges them).
func noticedEdits(entries []journal.Entry, id string) []Finding {
	var out []Finding
	seen := map[string]bool{}
	for i := len(entries) - 1; i >= 0 && entries[i].Verb != "repair"; i-- {
		for _, what := range entries[i].Outside {
			if seen[what] {
				continue
			}
			seen[what] = true
			code := "edited." + what
			if what == "journal" {
				code = "journal.anchor"
			}
			out = append(out, Finding{Code: code,
				Message: fmt.Sprintf("%s was changed outside orc-state before journal seq %d (noticed by %s)", fileOf(what), entries[i].Seq, entries[i].Verb),
				Next:    "orc-state log --session=" + safetext.Quote(id) + " (see when), then orc-state repair --session=" + safetext.Quote(id) + ", which keeps your edit and re-baselines the journal (to drop the edit, restore the file by hand first)"})
		}
	}
	return out
}

// anchorProblem compares the journal's end with its anchor file.
func anchorProblem(d *state.Dir, id string) (*journal.Problem, error) {
	anchor, err := d.ReadFile(id, journal.AnchorName)
	if err != nil || anchor == nil {
		return nil, err
	}
	tail, err := journal.ReadTail(d.File(id, journal.FileName))
	if err != nil {
		return nil, err
	}
	return journal.CheckAnchor(anchor, tail), nil
}

// digested are the members of the journal's digests, in their order: the
// entry, then each digested session file (state.SessionFiles).
func digested() []string {
	out := []string{"entry"}
	for _, f := range state.SessionFiles {
		if f.Digest != "" {
			out = append(out, f.Digest)
		}
	}
	return out
}

// fileOf names what an outside edit changed: "journal" or a member of the
// journal's digests.
func fileOf(what string) string {
	switch what {
	case "journal":
		return "the journal's last line (or its length)"
	case "entry":
		return "the registry entry"
	}
	for _, f := range state.SessionFiles {
		if f.Digest == what {
			return f.Name
		}
	}
	return state.CheckpointFile
}

// Timely are the findings of Session that can appear while a session's
// files stay byte for byte as orc-state last journaled them: its ledger's
// claims judged at now, and retry budgets stored by an older release that
// are no count. ledger and dec may be nil (absent or unreadable).
func Timely(id string, ledger *slices.Ledger, dec *decisions.File, now time.Time) []Finding {
	var out []Finding
	if dec != nil {
		// A retry budget that is no count: the verbs that need it refuse
		// (exit 3) rather than use the default in its place.
		for _, p := range dec.SettingProblems() {
			out = append(out, Finding{Code: "decision.value", Message: p.Error(),
				Next: "orc-state decision set " + safetext.Quote(p.Key) + " N --provenance policy --supersede --session=" + safetext.Quote(id)})
		}
	}
	if ledger == nil {
		return out
	}
	for _, p := range ledger.ClaimProblems(now) {
		next := "orc-state slice release --force --session=" + safetext.Quote(id) + " " + safetext.Operand(p.ID)
		if p.Code == "claim.expired" {
			next += " (or let the next orc-state slice claim take it)"
		}
		out = append(out, Finding{Code: p.Code, Message: p.Message, Next: next})
	}
	return out
}

// dataFindings checks the session files verify judges by their verbs'
// rules (those with an Invalid code in state.SessionFiles: the ledger and
// the decisions file), and the ledger's claims at the claim clock's now.
func dataFindings(d *state.Dir, id string, now time.Time) []Finding {
	var out []Finding
	var ledger *slices.Ledger
	var dec *decisions.File
	// The two whose content is checked further are parsed once, kept.
	keep := map[string]func([]byte) error{
		state.LedgerFile:    func(b []byte) (err error) { ledger, err = slices.Parse(b); return err },
		state.DecisionsFile: func(b []byte) (err error) { dec, err = decisions.Parse(b); return err },
	}
	for _, f := range state.SessionFiles {
		if f.Invalid == "" {
			continue
		}
		check := f.Validate
		if k := keep[f.Name]; k != nil {
			check = k
		}
		data, err := d.ReadFile(id, f.Name)
		if err == nil && data != nil {
			err = check(data)
		}
		if err != nil {
			out = append(out, Finding{Code: f.Invalid, Message: err.Error(),
				Next: "restore " + f.Name + " (orc-state log --session=" + safetext.Quote(id) + " shows its last recorded change), or fix it by hand"})
		}
	}
	return append(out, Timely(id, ledger, dec, now)...)
}

// Full runs every check of session s, git's included, in the order verify
// prints them: Session, StoredSecrets, StrayFiles, the bindings to it
// (env is the process's, for git) and Git, from what Observe reads now.
// reg holds s, and may be partial. It takes no lock.
func Full(d *state.Dir, reg *registry.Registry, s *registry.Session, now time.Time, env environ.List) ([]Finding, error) {
	out, err := Session(d, reg, s, now)
	if err != nil {
		return nil, err
	}
	out = append(out, StoredSecrets(d, s)...)
	out = append(out, StrayFiles(d, s.SessionID)...)
	out = append(out, Bindings(d, env, s.SessionID, reg)...)
	g := Observe(d, s.GitBranch, 0)
	defer g.Close()
	return append(out, Git(d, s, g)...), nil
}
