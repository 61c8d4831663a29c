package cli

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/orc-state/orc-state/checkpoint"
	"github.com/orc-state/orc-state/internal/fault"
	"github.com/orc-state/orc-state/internal/safetext"
	"github.com/orc-state/orc-state/internal/state"
	"github.com/orc-state/orc-state/internal/verify"
	"github.com/orc-state/orc-state/registry"
	"github.com/orc-state/orc-state/slices"
)

// ResumeCmd is `resume`.
type ResumeCmd struct {
	BranchFlag
	Key      string `arg:"" optional:"" help:"Branch or sessionId (default: the current branch's session)." predictor:"session"`
	JSON     bool   `name:"json" help:"The packet as JSON."`
	MaxBytes int    `name:"max-bytes" default:"4096" help:"Upper bound of the packet, in bytes."`
}

// DefaultResumeBytes bounds the resume packet.
const DefaultResumeBytes = 4096

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

// Run prints the resume packet of the given session, else the current
// branch's (docs/protocol.md §11). Without one it lists the in-progress sessions on
// stdout for a picker and exits 1, naming on stderr what it looked for; a
// name that can never be a session, or another branch's session, is exit 2.
func (c *ResumeCmd) Run(e *Env) error {
	if c.MaxBytes < 512 {
		return fault.Usagef("--max-bytes %d is below 512", c.MaxBytes)
	}
	key := c.Key
	if key == "" {
		key = c.Branch
	}
	d, reg, err := e.readRegistry()
	if err != nil {
		return err
	}
	s, err := e.pickSession(d, reg, key)
	if err != nil {
		return err
	}
	if s.d != nil {
		d, reg = s.d, s.reg // a member repository's workspace session
	}
	agent, _ := e.agent("")
	p := buildPacket(d, reg, s.Session, agent, e.now())
	if c.JSON {
		_, err := e.Stdout.Write(fitJSONText(p, c.MaxBytes))
		return err
	}
	_, err = fmt.Fprint(e.Stdout, renderPacket(p, c.MaxBytes))
	return err
}

// picked is the session resume shows, with the state dir it lives in when
// that is a workspace's, found through this repository's link.
type picked struct {
	*registry.Session
	d   *state.Dir
	reg *registry.Registry
}

// pickSession returns the session selection.Where.Pick finds; when there
// is none it lists the sessions in progress on stdout for a picker and
// returns Pick's exit-1 error.
func (e *Env) pickSession(d *state.Dir, reg *registry.Registry, key string) (picked, error) {
	p, err := e.where().Pick(d, reg, key)
	for _, s := range p.Live {
		fmt.Fprintf(e.Stdout, "%s\t%s\t%s/%d\t%s\t%s\n", safetext.Escape(s.SessionID), safetext.Escape(s.Command), s.Phase, s.TotalPhases, safetext.Escape(s.Status), safetext.Escape(s.GitBranch))
	}
	if err != nil {
		return picked{}, err
	}
	return picked{Session: p.Session, d: p.Dir, reg: p.Reg}, nil
}

// buildPacket gathers the packet of session s for agent (whose own slice
// claim is shown first; "" when unknown).
func buildPacket(d *state.Dir, reg *registry.Registry, s *registry.Session, agent string, now time.Time) Packet {
	p := Packet{Session: s, Commits: []string{}, Dirty: []string{}, CrossCheck: []string{}, Findings: []verify.Finding{}}
	var body []byte
	if data, _ := d.ReadFile(s.SessionID, state.CheckpointFile); data != nil {
		body = checkpoint.Parse(data).Body
	}
	digest, _ := checkpoint.Section(body, checkpoint.DigestHeading)
	auto, _ := checkpoint.Section(body, checkpoint.AutoHeading)
	open, _ := checkpoint.Section(body, checkpoint.OpenDecisionsHeading)
	p.Digest, p.Auto, p.Open = trimBlank(digest), trimBlank(auto), trimBlank(open)

	g := verify.Observe(d, s.GitBranch, 10)
	defer g.Close()
	p.Worktree = g.Worktree
	p.HeadState = g.HeadState(s.GitBranch)
	if g.HeadOK && g.Err == nil {
		p.Head, p.HeadSubject = g.Head.SHA, g.Head.Subject
		if dg, ok := verify.SessionDigest(d, s); ok && dg.SuiteSHA != "" {
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
	if data, _ := d.ReadFile(s.SessionID, state.LedgerFile); data != nil {
		if l, err := slices.Parse(data); err == nil {
			p.ReentrySlice, p.Claims, p.Mine = reentry(l, agent, now)
		}
	}
	p.NextArtifact = nextArtifact(d, s, p.Digest)
	if f, err := verify.Session(d, reg, s, now); err == nil {
		p.Findings = append(p.Findings, f...)
	}
	p.Findings = append(p.Findings, verify.Git(d, s, g)...)
	for _, f := range p.Findings {
		if strings.HasPrefix(f.Code, "slice.") {
			p.CrossCheck = append(p.CrossCheck, f.Message)
		}
	}
	return p
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

// artifactName finds a file name in the digest's Next: bullet.
var artifactName = lazyRegexp(`[A-Za-z0-9_./-]*[A-Za-z0-9_-]\.(md|json|jsonl|txt|yaml|yml|diff|patch|html)\b`)

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
