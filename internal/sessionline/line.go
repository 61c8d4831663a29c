// Package sessionline owns `line`'s answer: which session the status
// line shows and what of it (command, phase, slices, policy, title),
// chosen as docs/protocol.md §3 and §16 say. It is the statusline's path,
// so it takes no lock, runs no git process (refs are read by hand), reads
// the registry leniently (a legacy or invalid one still renders) and only
// the entries it can choose when the proof vouches for a large file. It
// writes nothing; `line` prints its Line as JSON, the statusline renders it.
package sessionline

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/orc-state/orc-state/internal/atomicfile"
	"github.com/orc-state/orc-state/internal/binding"
	"github.com/orc-state/orc-state/internal/environ"
	"github.com/orc-state/orc-state/internal/gitx"
	"github.com/orc-state/orc-state/internal/selection"
	"github.com/orc-state/orc-state/internal/state"
	"github.com/orc-state/orc-state/registry"
	"github.com/orc-state/orc-state/slices"
)

// Line is `line`'s JSON, in the original's field order.
type Line struct {
	Command     string `json:"command"`
	Phase       any    `json:"phase"`
	TotalPhases any    `json:"totalPhases"`
	PhaseLabel  any    `json:"phaseLabel"`
	Status      string `json:"status"`
	JiraTicket  any    `json:"jiraTicket"`
	GitBranch   string `json:"gitBranch"`
	SlicesDone  int    `json:"slicesDone"`
	SlicesTotal int    `json:"slicesTotal"`
	// SlicesClaimed counts live slice claims; absent when none, so a
	// ledger nobody claims renders as before.
	SlicesClaimed int    `json:"slicesClaimed,omitempty"`
	Policy        any    `json:"policy"`
	Title         string `json:"title"`
	Current       *bool  `json:"current,omitempty"`
	// SessionID names the session's folder for the statusline; line does
	// not print it.
	SessionID string `json:"-"`
	// SlicesEscalated counts escalated slices for the statusline; line
	// does not print it (the original's line has no such key).
	SlicesEscalated int `json:"-"`
}

// Choice is the session line shows: by --session, by --branch, else
// by the current branch (isBranch: known to name a git branch).
type Choice struct {
	Branch, ID string
	IsBranch   bool
	// unsure: the hand read cannot tell whether branch is a branch (refs
	// not stored as files), so a sessionId match is not taken for it.
	unsure bool
	Named  bool // Branch came from --branch, not from HEAD
	// AnyStatus shows the chosen session whatever its status (the
	// statusline's design); line shows only a session in progress.
	AnyStatus bool
	// Env is $ORC_SESSION, which selects like --session when neither flag
	// is given (then the worktree's binding, then the branch).
	Env string
	// own is the branch checked out here when $ORC_SESSION or the binding
	// chose id: its own session, if another (for $ORC_SESSION: another
	// live one), makes the choice ambiguous and line shows nothing.
	own     string
	ownLive bool
}

// For is the line for c in the state dir that dir (a --dir value, "" for
// none), the working directory wd and env resolve to, as every verb
// resolves it (its refusals show nothing); now judges the slice claims.
func For(dir, wd string, env environ.List, c Choice, now time.Time) (Line, bool) {
	d, err := state.Resolve(dir, wd, env) // the state dir every verb uses; its refusals show nothing
	if err != nil {
		return Line{}, false
	}
	if c.Branch != "" && d.Git != nil {
		_, c.IsBranch = d.Git.BranchSHA(c.Branch) // a hand-rolled read: no git process on this path
		c.unsure = !c.IsBranch && !d.Git.RefFiles
	}
	return With(d.Path, c, d.Git, now)
}

// With is For once the state dir and the repository (nil outside one)
// are known; now judges the slice claims.
func With(dir string, c Choice, layout *gitx.Layout, now time.Time) (Line, bool) {
	if dir == "" {
		return Line{}, false
	}
	if c.ID == "" && !c.Named {
		c = c.implicit(dir, layout)
	}
	if c.Branch == "" && c.ID == "" && layout != nil {
		c.Branch, _, _ = layout.CurrentBranch()
		c.IsBranch = c.Branch != ""
	}
	data, err := atomicfile.ReadOnly(filepath.Join(dir, "orc.json"))
	if err != nil {
		return Line{}, false
	}
	s, current := pickLine(lineCandidates(dir, data, c), c)
	if s == nil {
		return Line{}, false
	}
	out := Line{
		Command: s.Command, Phase: s.Phase, TotalPhases: s.TotalPhases, PhaseLabel: s.PhaseLabel,
		Status: s.Status, JiraTicket: s.JiraTicket, GitBranch: s.GitBranch, SessionID: s.SessionID,
	}
	if out.Command == "" {
		out.Command = "session"
	}
	if out.Phase == nil {
		out.Phase = "?"
	}
	if !current {
		f := false
		out.Current = &f
	}
	if registry.CheckKey(s.SessionID) == nil {
		files := filepath.Join(dir, s.SessionID, "files")
		if data, err := atomicfile.ReadFile(filepath.Join(files, "slices.json")); err == nil {
			c, _ := slices.Count(data, now)
			out.SlicesDone, out.SlicesTotal, out.SlicesClaimed, out.SlicesEscalated = c.Done, c.Total, c.Claimed, c.Escalated
		}
		out.Policy = Policy(filepath.Join(files, "decisions.json"))
	}
	out.Title = fmt.Sprintf("orc: %s %s [%s]", out.Command, out.GitBranch, PhaseText(out.Phase))
	return out, true
}

// implicit is the choice when no flag names a session (docs/protocol.md
// §3): $ORC_SESSION, else the binding of the linked worktree line runs in
// (worktrees.json, read by hand; a file it cannot read binds nothing),
// else c as it is, the branch checked out.
func (c Choice) implicit(dir string, layout *gitx.Layout) Choice {
	head := c.Branch
	if head == "" && layout != nil {
		head, _, _ = layout.CurrentBranch()
	}
	switch {
	case c.Env != "":
		c.ID, c.own, c.ownLive = c.Env, head, true
	case layout != nil && layout.Linked && layout.WorktreeRoot != "":
		data, err := atomicfile.ReadFile(filepath.Join(dir, binding.FileName))
		if err != nil {
			break
		}
		if b := binding.Find(binding.Loose(data), layout.GitDir); b != nil && gitx.SameDir(b.Path, layout.WorktreeRoot) {
			c.ID, c.own = b.Session, head
		}
	}
	if c.ID == "" && c.Branch == "" && head != "" {
		c.Branch, c.IsBranch = head, true // HEAD read once
	}
	return c
}

// looseWhole is the size of orc.json below which line parses it whole and
// leniently rather than reading the proof, hashing the bytes and decoding
// the chosen entry strictly: for a few sessions that costs more than the
// lenient parse (measured with callgrind: 3.3 M against 3.7 M instructions
// for a process at one session).
const looseWhole = 64 << 10

// lineCandidates is the registry as line reads it: leniently, every entry;
// but when the proof beside orc.json vouches for its bytes, only the
// entries pickLine can choose, decoded alone: those the choice names,
// whatever their status, and only when there are none the newest live
// entry of all.
func lineCandidates(dir string, data []byte, c Choice) []registry.Loose {
	if len(data) < looseWhole {
		return registry.ParseLoose(data)
	}
	proof, _ := os.ReadFile(filepath.Join(dir, state.ProofFile))
	if !registry.Proven(data, proof) {
		return registry.ParseLoose(data)
	}
	var keys []string
	switch {
	case c.ID != "" && c.own != "":
		keys = append([]string{c.ID}, selection.BranchKeys(c.own)...)
	case c.ID != "":
		keys = []string{c.ID}
	case c.Branch != "":
		keys = selection.BranchKeys(c.Branch)
	}
	var out []registry.Loose
	if len(keys) > 0 {
		reg, err := registry.ReadProven(data, keys...)
		if err != nil {
			return registry.ParseLoose(data)
		}
		for i := range reg.Sessions {
			out = append(out, registry.LooseOf(&reg.Sessions[i]))
		}
	}
	// An entry the keys found is the choice's own session or another
	// branch's that owns its key: pickLine answers from it alone. Only a
	// choice that found none falls back to the newest live entry of all
	// (a scan of the whole file), and a --session choice never does.
	if len(out) == 0 && c.ID == "" {
		if s, ok := registry.NewestLive(data); ok {
			out = append(out, registry.LooseOf(s))
		}
	}
	return out
}

// pickLine picks what line shows (docs/protocol.md §3, §16): the chosen
// session when it is in progress (a branch selects only the session whose
// gitBranch is exactly that branch; --session a sessionId), and nothing
// when it is paused, completed or abandoned: line is the live-session line,
// and another branch's session in its place would pass that off as this
// branch's (c.AnyStatus, the statusline, shows it whatever its status).
// When the branch has no session at all, the newest in_progress session of
// any branch, marked current false. A branch whose sessionId belongs to
// another branch's session (branch feat-x, session of feat/x) shows
// nothing: that session is not this branch's, and a fallback would pass
// it off as live work elsewhere.
func pickLine(list []registry.Loose, c Choice) (*registry.Loose, bool) {
	newest := func(match func(l *registry.Loose) bool) *registry.Loose {
		var best *registry.Loose
		for i := range list {
			if l := &list[i]; match(l) && (best == nil || l.UpdatedAt > best.UpdatedAt) {
				best = l
			}
		}
		return best
	}
	live := func(s *registry.Loose) (*registry.Loose, bool) {
		if s == nil || !c.AnyStatus && s.Status != "in_progress" {
			return nil, false
		}
		return s, true
	}
	switch {
	case c.ID != "":
		if c.own != "" {
			own := newest(func(l *registry.Loose) bool { return l.GitBranch == c.own })
			if own != nil && own.SessionID != c.ID && (!c.ownLive || own.Status == "in_progress" || own.Status == "paused") {
				return nil, false // the branch's own session and another: the verbs refuse this, line shows neither
			}
		}
		return live(newest(func(l *registry.Loose) bool { return l.SessionID == c.ID }))
	case c.Branch != "":
		sid, err := registry.KeyFor(c.Branch)
		if err != nil && c.Named {
			return nil, false // a name no session can have
		}
		own := newest(func(l *registry.Loose) bool {
			// a legacy entry without gitBranch can only be matched by its id
			return l.GitBranch == c.Branch || l.GitBranch == "" && sid != "" && l.SessionID == sid
		})
		if own == nil && !c.IsBranch && !c.unsure {
			own = newest(func(l *registry.Loose) bool { return l.SessionID == c.Branch })
		}
		if own != nil {
			return live(own)
		}
		if sid != "" && newest(func(l *registry.Loose) bool { return l.SessionID == sid }) != nil {
			return nil, false // another branch's session
		}
	}
	return newest(func(l *registry.Loose) bool { return l.Status == "in_progress" }), false
}

// PhaseText is a phase as the title shows it: the number, a word as it
// is, else "?".
func PhaseText(p any) string {
	switch v := p.(type) {
	case float64:
		return fmt.Sprintf("%g", v)
	case string:
		return v
	}
	return "?"
}

// Policy is the autopilotLevel value of the decisions file at path; nil
// when the file, the decision or its value is missing or unreadable.
func Policy(path string) any {
	data, err := atomicfile.ReadFile(path)
	if err != nil {
		return nil
	}
	var doc struct {
		Decisions map[string]struct {
			Value any `json:"value"`
		} `json:"decisions"`
	}
	if json.Unmarshal(data, &doc) != nil {
		return nil
	}
	if d, ok := doc.Decisions["autopilotLevel"]; ok && d.Value != nil {
		return d.Value
	}
	return nil
}
