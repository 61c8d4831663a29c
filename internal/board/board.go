// Package board owns `orc-state board`: one screen for the person who
// supervises agents. Gather reads, without the lock and without writing,
// what a state dir says about its sessions (each one's phase, status, the
// digest's Next line and open decisions, its slices with their claims,
// leases, unfinished dependencies and attempts against the retry budget,
// the worktrees bound to it with their branch, agent and clean or dirty
// tree, the last journal events, and verify's findings that need no git);
// Render draws that Board as text for a width, with or without colour, as
// a pure function; Watch redraws it on a terminal when the state changes
// or a lease ticks. The Board is also the JSON of `board --json`
// (schema/board.schema.json), a promise to other tools (docs/protocol.md).
package board

import (
	"context"
	"runtime"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/orc-state/orc-state/checkpoint"
	"github.com/orc-state/orc-state/decisions"
	"github.com/orc-state/orc-state/internal/binding"
	"github.com/orc-state/orc-state/internal/environ"
	"github.com/orc-state/orc-state/internal/gitx"
	"github.com/orc-state/orc-state/internal/journal"
	"github.com/orc-state/orc-state/internal/state"
	"github.com/orc-state/orc-state/internal/verify"
	"github.com/orc-state/orc-state/registry"
	"github.com/orc-state/orc-state/slices"
)

// Schema is the version of the Board's JSON.
const Schema = 1

// TimeLayout is the format of every time of the Board: UTC, whole seconds.
const TimeLayout = "2006-01-02T15:04:05Z"

// Events is how many journal events a session shows, newest first.
const Events = 5

// Board is everything the board shows.
type Board struct {
	Schema   int       `json:"schema"`
	At       string    `json:"at"` // the time leases and ages are judged by
	Sessions []Session `json:"sessions"`
	// Problems are what could not be read at all (the bindings file, a
	// session's ledger): shown, never a reason to show nothing.
	Problems []string `json:"problems"`
}

// Session is one session's part of the board.
type Session struct {
	SessionID     string           `json:"sessionId"`
	Command       string           `json:"command"`
	GitBranch     string           `json:"gitBranch"`
	Status        string           `json:"status"`
	Phase         registry.Phase   `json:"phase"` // a number, or "done"
	PhaseLabel    string           `json:"phaseLabel,omitempty"`
	TotalPhases   int              `json:"totalPhases"`
	UpdatedAt     string           `json:"updatedAt"`
	Next          string           `json:"next"` // the digest's Next line, "" when none
	OpenDecisions []string         `json:"openDecisions"`
	Slices        *Slices          `json:"slices"` // nil when the session has no ledger
	Worktrees     []Worktree       `json:"worktrees"`
	Events        []Event          `json:"events"` // the last Events journal lines, newest first
	Findings      []verify.Finding `json:"findings"`
}

// Slices is a session's ledger: counts by status and each open slice.
type Slices struct {
	Done     int            `json:"done"`
	Total    int            `json:"total"`
	ByStatus map[string]int `json:"byStatus"`
	// MaxAttempts is the retry budget as attempts: maxRetriesPerSlice + 1;
	// 0 when the decision holds no count (verify reports it).
	MaxAttempts int     `json:"maxAttempts"`
	Open        []Slice `json:"open"` // the slices not finished, in ledger order
}

// Slice is one open slice.
type Slice struct {
	ID        string   `json:"id"`
	Title     string   `json:"title"`
	Status    string   `json:"status"`
	Attempts  int      `json:"attempts"`
	ClaimedBy string   `json:"claimedBy,omitempty"`
	Until     string   `json:"claimedUntil,omitempty"`
	LeaseLeft int64    `json:"leaseLeftSeconds,omitempty"` // seconds from At; 0 when expired
	Expired   bool     `json:"claimExpired,omitempty"`
	WaitsOn   []string `json:"waitsOn"` // its unfinished dependencies
}

// Worktree is a worktree bound to the session.
type Worktree struct {
	Path   string `json:"path"`
	Branch string `json:"branch"` // "" when detached or unknown
	Agent  string `json:"agent"`  // "" when the binding names none
	// Tree is clean, dirty, gone (the worktree is not there) or unknown
	// (git did not answer).
	Tree string `json:"tree"`
}

// Event is one journal line.
type Event struct {
	Seq   int    `json:"seq"`
	At    string `json:"at"`
	Actor string `json:"actor"`
	Verb  string `json:"verb"`
}

// Options says which sessions Gather reads.
type Options struct {
	Session string // only this sessionId (or gitBranch)
	All     bool   // every session; else the live ones (in progress and paused)
	Now     time.Time
	Env     environ.List // the environment git runs with
	// GitTimeout bounds the git status of all bound worktrees together.
	GitTimeout time.Duration
}

// Live reports whether a session status is shown without --all.
func Live(status string) bool { return status == "in_progress" || status == "paused" }

// Gather reads the board of d for the registry reg (read by the caller):
// no lock, nothing written. A session file that cannot be read is a
// finding, an unusable worktrees.json a problem of the board, never the
// end of it. o.Session names the session by its sessionId or, when no
// session has that id, by its branch.
func Gather(d *state.Dir, reg *registry.Registry, o Options) Board {
	b := Board{Schema: Schema, At: o.Now.UTC().Format(TimeLayout), Sessions: []Session{}, Problems: []string{}}
	var binds []binding.Binding
	if data, err := d.ReadStateFile(binding.FileName); err != nil {
		b.Problems = append(b.Problems, err.Error())
	} else if f, err := binding.Parse(data); err != nil {
		b.Problems = append(b.Problems, err.Error())
	} else {
		binds = f.Worktrees
	}
	var chosen []*registry.Session
	byID := false
	for i := range reg.Sessions {
		byID = byID || o.Session != "" && reg.Sessions[i].SessionID == o.Session
	}
	for i := range reg.Sessions {
		s := &reg.Sessions[i]
		switch {
		case byID:
			if s.SessionID != o.Session {
				continue
			}
		case o.Session != "":
			if s.GitBranch != o.Session {
				continue
			}
		case !o.All && !Live(s.Status):
			continue
		}
		chosen = append(chosen, s)
	}
	in, err := d.Pending()
	pending := err != nil || in != nil
	b.Sessions = make([]Session, len(chosen))
	work := make(chan int)
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), len(chosen)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range work {
				b.Sessions[i] = gatherSession(d, reg, chosen[i], o.Now, pending)
			}
		}()
	}
	for i := range chosen {
		work <- i
	}
	close(work)
	wg.Wait()
	trees(b.Sessions, binds, o)
	return b
}

// gatherSession reads one session's files, each once. Its findings are
// verify's that need no git: when the session is as orc-state last
// journaled it (no transaction record, a journal without problems whose
// end matches its anchor, no outside edit noticed since the last repair,
// and the last line's digests those of the entry and the files read), the
// content passed orc-state's checks when it was written and only
// verify.Timely can say more; otherwise verify.Session runs in full.
// Reading once, and verify only where something changed behind
// orc-state's back, is what keeps a board of 100 sessions within the read
// budget (docs/performance.md).
func gatherSession(d *state.Dir, reg *registry.Registry, s *registry.Session, now time.Time, pending bool) Session {
	out := Session{SessionID: s.SessionID, Command: s.Command, GitBranch: s.GitBranch, Status: s.Status,
		Phase: s.Phase, TotalPhases: s.TotalPhases, UpdatedAt: s.UpdatedAt,
		OpenDecisions: []string{}, Worktrees: []Worktree{}, Events: []Event{}, Findings: []verify.Finding{}}
	if s.PhaseLabel != nil {
		out.PhaseLabel = *s.PhaseLabel
	}
	id := s.SessionID
	files, err := openFiles(d, id)
	if files != nil {
		defer files.Close()
	}
	read := func(name string) ([]byte, bool) {
		if err != nil {
			return nil, false
		}
		return files.read(name)
	}
	cp, cpOK := read(state.CheckpointFile)
	ledgerData, ledgerOK := read(state.LedgerFile)
	decData, decOK := read(state.DecisionsFile)
	journalData, journalOK := read(journal.FileName)
	anchor, anchorOK := read(journal.AnchorName)
	if cp != nil {
		out.Next, out.OpenDecisions = digestLines(checkpoint.QuickBody(cp))
	}
	var dec *decisions.File
	if f, err := decisions.Parse(decData); err == nil {
		dec = f
	}
	var l *slices.Ledger
	ledgerValid := ledgerData == nil
	if ledgerData != nil {
		if parsed, err := slices.Parse(ledgerData); err == nil {
			l, ledgerValid = parsed, true
			out.Slices = ledger(l, budget(dec), now)
		}
	}
	entries, problems, err := journal.Parse(journalData)
	journalOK = journalOK && err == nil
	for i := len(entries) - 1; i >= 0 && len(out.Events) < Events; i-- {
		e := entries[i]
		out.Events = append(out.Events, Event{Seq: e.Seq, At: e.At, Actor: e.Actor, Verb: e.Verb})
	}
	clean := !pending && cpOK && ledgerOK && decOK && journalOK && anchorOK && cp != nil &&
		ledgerValid && (decData == nil || dec != nil) && len(problems) == 0 && len(entries) > 0 &&
		journal.CheckAnchor(anchor, journal.TailOf(journalData)) == nil && !noticed(entries)
	if clean {
		last := entries[len(entries)-1].Digests
		now := journal.Digests{Entry: journal.Sum(s.Canonical())}
		for _, f := range state.SessionFiles {
			if f.Digest == "" {
				continue
			}
			var data []byte
			switch f.Name {
			case state.CheckpointFile:
				data = cp
			case state.LedgerFile:
				data = ledgerData
			case state.DecisionsFile:
				data = decData
			default:
				clean = false // a digested file this board does not read: verify judges it
			}
			*now.Field(f.Digest) = journal.Sum(data)
		}
		clean = clean && last == now
	}
	if clean {
		if f := verify.Timely(id, l, dec, now); f != nil {
			out.Findings = f
		}
	} else if f, err := verify.Session(d, reg, s, now); err == nil && f != nil {
		out.Findings = f
	}
	return out
}

// noticed reports whether a journal line since the last repair recorded
// an outside edit (verify reports it until repair acknowledges it).
func noticed(entries []journal.Entry) bool {
	for i := len(entries) - 1; i >= 0 && entries[i].Verb != "repair"; i-- {
		if len(entries[i].Outside) > 0 {
			return true
		}
	}
	return false
}

// digestLines is the Resume digest's Next line and the open decisions:
// the digest's bullet unless it says none, then the lines of an older
// "## Open decisions" section.
func digestLines(body []byte) (next string, open []string) {
	open = []string{}
	digest, _ := checkpoint.Section(body, checkpoint.DigestHeading)
	for _, line := range strings.Split(string(digest), "\n") {
		if v, ok := strings.CutPrefix(line, "- Next:"); ok && next == "" {
			next = strings.TrimSpace(v)
		}
		if v, ok := strings.CutPrefix(line, "- Open decisions:"); ok {
			if v = strings.TrimSpace(v); v != "" && !strings.EqualFold(v, "none") {
				open = append(open, v)
			}
		}
	}
	section, _ := checkpoint.Section(body, checkpoint.OpenDecisionsHeading)
	for _, line := range strings.Split(string(section), "\n") {
		line = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(line), "- "))
		if line != "" && !strings.EqualFold(line, "none") {
			open = append(open, line)
		}
	}
	return next, open
}

// budget is the retry budget as attempts (maxRetriesPerSlice + 1, the
// default when not settled); 0 when the decision holds no count or the
// file cannot be read.
func budget(f *decisions.File) int {
	if f == nil {
		return 0
	}
	n, err := f.Count(decisions.MaxRetriesPerSlice, slices.DefaultMaxRetries)
	if err != nil {
		return 0
	}
	return n + 1
}

// ledger summarizes l at now.
func ledger(l *slices.Ledger, maxAttempts int, now time.Time) *Slices {
	out := &Slices{ByStatus: map[string]int{}, MaxAttempts: maxAttempts, Open: []Slice{}}
	out.Done, out.Total = l.Done()
	all := l.Slices()
	status := map[string]string{}
	for _, sl := range all {
		status[sl.ID] = sl.Status
		out.ByStatus[sl.Status]++
	}
	for _, sl := range all {
		if slices.Finished[sl.Status] {
			continue
		}
		o := Slice{ID: sl.ID, Title: sl.Title, Status: sl.Status, Attempts: sl.Attempts, WaitsOn: []string{}}
		for _, dep := range sl.DependsOn {
			if !slices.Finished[status[dep]] {
				o.WaitsOn = append(o.WaitsOn, dep)
			}
		}
		if sl.ClaimedBy != "" {
			o.ClaimedBy, o.Until = sl.ClaimedBy, sl.ClaimedUntil.UTC().Format(TimeLayout)
			if sl.Live(now) {
				o.LeaseLeft = int64(sl.ClaimedUntil.Sub(now).Round(time.Second) / time.Second)
			} else {
				o.Expired = true
			}
		}
		out.Open = append(out.Open, o)
	}
	return out
}

// trees fills each session's bound worktrees: the binding's path and
// agent, and what git says of the tree (its branch, clean or dirty), all
// asked at once within o.GitTimeout.
func trees(sessions []Session, binds []binding.Binding, o Options) {
	at := map[string]int{}
	for i, s := range sessions {
		at[s.SessionID] = i
	}
	type job struct {
		session int
		b       binding.Binding
	}
	var jobs []job
	for _, b := range binds {
		if i, ok := at[b.Session]; ok {
			jobs = append(jobs, job{i, b})
		}
	}
	sort.SliceStable(jobs, func(i, j int) bool { return jobs[i].b.Path < jobs[j].b.Path })
	results := make([]Worktree, len(jobs))
	timeout := o.GitTimeout
	if timeout <= 0 {
		timeout = 2 * time.Second
	}
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	var wg sync.WaitGroup
	for k, j := range jobs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			results[k] = tree(ctx, j.b, o.Env)
		}()
	}
	wg.Wait()
	for k, j := range jobs {
		s := &sessions[j.session]
		s.Worktrees = append(s.Worktrees, results[k])
	}
}

// tree is what git says of one bound worktree.
func tree(ctx context.Context, b binding.Binding, env environ.List) Worktree {
	w := Worktree{Path: b.Path, Agent: b.Agent, Tree: "gone"}
	l, err := gitx.Discover(b.Path, gitx.CleanEnv(env))
	if err != nil || !gitx.SameDir(l.WorktreeRoot, b.Path) || !gitx.SameDir(l.GitDir, b.GitDir) {
		return w
	}
	if branch, detached, err := l.CurrentBranch(); err == nil && !detached {
		w.Branch = branch
	}
	w.Tree = "unknown"
	repo, err := gitx.OpenLayout(l)
	if err != nil {
		return w
	}
	defer repo.Close()
	st, err := repo.Status(ctx)
	if err != nil || st.TimedOut {
		return w
	}
	w.Tree = "clean"
	if st.Dirty() {
		w.Tree = "dirty"
	}
	return w
}
