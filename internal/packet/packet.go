// Package packet is the resume packet: what a session is told when it
// picks up its work (orc-state resume, and the SessionStart hook after a
// compaction or on resume), and the shorter brief a subagent is given. It
// owns the packet's data (Packet); gathering it (Build): the checkpoint's
// sections, the git reality verify observes (HEAD, the last commits, the
// dirty list), the slice ledger's re-entry slice and live claims, the
// artifact the digest's Next names, verify's findings, and the
// cross-checks of what the state claims against git; and its bounds and
// rendering: Markdown within a byte bound, At a glance first and whole
// sections omitted by rank, as it says on its last line (Markdown), JSON
// within the same bound (JSON), and the context the host injects, within
// its 10,000 characters (HostContext). It lists problems, never repairs
// them, and writes nothing.
package packet

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"time"

	"github.com/orc-state/orc-state/checkpoint"
	"github.com/orc-state/orc-state/internal/state"
	"github.com/orc-state/orc-state/internal/verify"
	"github.com/orc-state/orc-state/registry"
	"github.com/orc-state/orc-state/slices"
)

// Packet is the resume packet: everything a new session needs to pick up
// the work, with the claims cross-checked against git. It lists problems;
// it never repairs them.
type Packet struct {
	Session      *registry.Session `json:"session"`
	Digest       string            `json:"digest"`
	Auto         string            `json:"autoCheckpoint"`
	Head         string            `json:"head"`
	HeadSubject  string            `json:"headSubject"`
	HeadState    string            `json:"headState"` // branch, detached, unborn, not checked out, missing
	Worktree     string            `json:"worktree"`
	Commits      []string          `json:"commits"`
	Dirty        []string          `json:"dirty"`
	DirtyNote    string            `json:"dirtyNote,omitempty"` // "unknown (why)" or "n/a (why)"
	CrossCheck   []string          `json:"crossCheck"`
	ReentrySlice string            `json:"reentrySlice"`
	Claims       []string          `json:"claims,omitempty"` // live claims, the caller's first
	Mine         []string          `json:"-"`                // the caller's own live claims (the glance)
	NextArtifact *ArtifactRef      `json:"nextArtifact"`
	Open         string            `json:"openDecisions"`
	Findings     []verify.Finding  `json:"findings"`
	Omitted      []string          `json:"omitted,omitempty"`
}

// ArtifactRef is the artifact the digest's Next: names: its path and
// whether it exists (its content is never included).
type ArtifactRef struct {
	Path   string `json:"path"`
	Exists bool   `json:"exists"`
}

// Build gathers the packet of session s, found in d and reg, for agent
// (whose own slice claim is shown first; "" when unknown), with leases
// judged at now. It reads without the lock and writes nothing. Git is
// asked as soon as the checkpoint and the ledger say whether a claim will
// need checking after it, and the session's files are read and checked
// while git status runs; what needs git's answer follows it.
func Build(d *state.Dir, reg *registry.Registry, s *registry.Session, agent string, now time.Time) Packet {
	p := Packet{Session: s, Commits: []string{}, Dirty: []string{}, CrossCheck: []string{}, Findings: []verify.Finding{}}
	var body []byte
	if data, _ := d.ReadFile(s.SessionID, state.CheckpointFile); data != nil {
		body = checkpoint.Parse(data).Body
	}
	digest, _ := checkpoint.Section(body, checkpoint.DigestHeading)
	dg, digestErr := checkpoint.ParseDigest(digest)
	suite := digestErr == nil && dg.SuiteSHA != ""
	var ledger *slices.Ledger
	if data, _ := d.ReadFile(s.SessionID, state.LedgerFile); data != nil {
		if l, err := slices.Parse(data); err == nil {
			ledger = l
		}
	}
	observed := make(chan verify.Reality, 1)
	go func() {
		if suite || committed(ledger) {
			observed <- verify.Observe(d, s.GitBranch, 10) // the claims are checked through its reader
		} else {
			observed <- verify.ObserveOnly(d, s.GitBranch, 10)
		}
	}()

	auto, _ := checkpoint.Section(body, checkpoint.AutoHeading)
	open, _ := checkpoint.Section(body, checkpoint.OpenDecisionsHeading)
	p.Digest, p.Auto, p.Open = trimBlank(digest), trimBlank(auto), trimBlank(open)
	if ledger != nil {
		p.ReentrySlice, p.Claims, p.Mine = reentry(ledger, agent, now)
	}
	p.NextArtifact = nextArtifact(d, s, p.Digest)
	if f, err := verify.Session(d, reg, s, now); err == nil {
		p.Findings = append(p.Findings, f...)
	}

	g := <-observed
	defer g.Close()
	p.Worktree = g.Worktree
	p.HeadState = g.HeadState(s.GitBranch)
	if g.HeadOK && g.Err == nil {
		p.Head, p.HeadSubject = g.Head.SHA, g.Head.Subject
		if suite {
			v := verify.SuiteVerdict(g.Repo, dg.SuiteSHA, g.Head.SHA, s.SessionID)
			if v.Code == "" {
				p.CrossCheck = append(p.CrossCheck, fmt.Sprintf("Suite sha %s equals HEAD", dg.SuiteSHA))
			} else {
				p.CrossCheck = append(p.CrossCheck, v.Message)
			}
		}
	}
	for _, c := range g.Log {
		p.Commits = append(p.Commits, c.SHA[:7]+" "+c.Subject)
	}
	p.Dirty = append(p.Dirty, g.Paths...)
	p.DirtyNote = g.DirtyNote()
	if g.Dirty.TimedOut {
		p.CrossCheck = append(p.CrossCheck, "git status timed out; the dirty list is unknown")
	}
	claims := verify.Claims{Ledger: ledger}
	if digestErr == nil {
		claims.Digest = dg
	}
	p.Findings = append(p.Findings, verify.GitClaims(d, s, g, claims)...)
	for _, f := range p.Findings {
		if strings.HasPrefix(f.Code, "slice.") {
			p.CrossCheck = append(p.CrossCheck, f.Message)
		}
	}
	return p
}

// committed reports whether the ledger has a slice committed at a commit,
// which verify.Git checks against git.
func committed(l *slices.Ledger) bool {
	if l == nil {
		return false
	}
	for _, sl := range l.Slices() {
		if sl.Status == "committed" && sl.Commit != "" {
			return true
		}
	}
	return false
}

// reentry names the slice to continue: the agent's own live claim, else
// the re-entry slice of Next (with its holder when another agent claims
// it). claims lists the live claims, the agent's first.
func reentry(l *slices.Ledger, agent string, now time.Time) (slice string, claims, own []string) {
	done, total := l.Done()
	describe := func(id string) string {
		sl, _ := l.Get(id)
		return fmt.Sprintf("%s (%s) %s", sl.ID, sl.Status, sl.Title)
	}
	var mine, others []string
	first := ""
	for _, h := range l.Holdings(now) {
		until := h.Until.Format(slices.TimeLayout)
		if h.By == agent {
			if first == "" {
				first = describe(h.ID) + " — claimed by you until " + until
			}
			mine = append(mine, describe(h.ID)+": yours until "+until)
			own = append(own, describe(h.ID)+" until "+until)
		} else {
			others = append(others, describe(h.ID)+": claimed by "+h.By+" until "+until)
		}
	}
	claims = append(mine, others...)
	switch id, ok := l.Next(); {
	case first != "":
		slice = first
	case ok:
		slice = describe(id)
		if sl, _ := l.Get(id); sl.Live(now) {
			slice += " — claimed by " + sl.ClaimedBy + " until " + sl.ClaimedUntil.Format(slices.TimeLayout)
		}
	default:
		slice = "none ready"
	}
	return fmt.Sprintf("%s — %d/%d slices done", slice, done, total), claims, own
}

// artifactName finds a file name in the digest's Next: bullet. It is
// compiled on first use: start-up, which every hook pays, compiles
// nothing it does not need.
var artifactName = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`[A-Za-z0-9_./-]*[A-Za-z0-9_-]\.(md|json|jsonl|txt|yaml|yml|diff|patch|html)\b`)
})

// nextArtifact is the file the digest's Next: bullet names, looked for in
// the session's files (a "files/" prefix is theirs), else in the work
// tree; nil when Next names none, or one outside both.
func nextArtifact(d *state.Dir, s *registry.Session, digest string) *ArtifactRef {
	for _, line := range strings.Split(digest, "\n") {
		if !strings.HasPrefix(line, "- Next:") {
			continue
		}
		name := artifactName().FindString(line)
		if name == "" || !filepath.IsLocal(filepath.FromSlash(name)) {
			return nil // outside the files folder and the work tree ("a..b.md" is inside)
		}
		rel := strings.TrimPrefix(name, "files/")
		ref := &ArtifactRef{Path: filepath.Join(d.FilesDir(s.SessionID), filepath.FromSlash(rel))}
		if _, err := os.Stat(ref.Path); err == nil {
			ref.Exists = true
		} else if d.Git != nil {
			alt := filepath.Join(d.Git.WorktreeRoot, filepath.FromSlash(name))
			if _, err := os.Stat(alt); err == nil {
				ref.Path, ref.Exists = alt, true
			}
		}
		return ref
	}
	return nil
}

func trimBlank(b []byte) string { return strings.Trim(string(b), "\n") }
