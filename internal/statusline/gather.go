package statusline

// Gathering what a render shows: the place (git, read as files), the orc
// session (sessionline), the cached dirty mark and the context level it
// records for hook post-tool-use. The detached refresher is here too.

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/orc-state/orc-state/checkpoint"
	"github.com/orc-state/orc-state/internal/atomicfile"
	"github.com/orc-state/orc-state/internal/environ"
	"github.com/orc-state/orc-state/internal/gitx"
	"github.com/orc-state/orc-state/internal/input"
	"github.com/orc-state/orc-state/internal/sessionline"
	"github.com/orc-state/orc-state/internal/state"
	"github.com/orc-state/orc-state/registry"
)

// World is what a render sees of the process it runs in, given
// explicitly (the CLI fills it from its Process).
type World struct {
	Dir     string       // the working directory, absolute
	Environ environ.List // the run's environment
	TempDir string       // where the private files live (OpenFiles)
	Home    string       // the user's home directory ("" when unset)
	// ClaimsAt is the time slice claims are judged by.
	ClaimsAt time.Time
	// PlaceWait is the longest a render waits for git on a cache miss.
	PlaceWait time.Duration
	// Executable is the program the detached refresher runs.
	Executable func() (string, error)
}

// stdinTimeout bounds the wait for stdin: some hosts never close it, and
// a statusline that waits is a statusline that never shows.
const stdinTimeout = 250 * time.Millisecond

// Show is the statusline for the payload on stdin with opts. It takes no
// lock and runs no git on the render path: the registry, the checkpoint
// and the refs are read as files, and the dirty mark comes from the
// per-session cache (a miss starts a detached refresher and waits for it
// at most w.PlaceWait). Garbage or empty stdin still renders; the text is
// at most two rows.
func Show(w World, stdin io.Reader, opts Options) string {
	now := time.Now()
	p := ParsePayload(readPayload(stdin))
	wd := p.Dir
	switch {
	case wd == "":
		wd = w.Dir
	case !filepath.IsAbs(wd):
		wd = filepath.Join(w.Dir, wd)
	}
	in := Input{Payload: p, Options: opts, Term: terminalOf(w.Environ, w.Home)}
	var layout *gitx.Layout
	stateDir := "" // the state dir every verb uses; "" when it is refused
	if d, err := state.Resolve("", wd, w.Environ); err == nil {
		layout, stateDir = d.Git, d.Path
	} else if l, err := gitx.Discover(wd, w.Environ); err == nil {
		layout = &l // no session to show, but the place still does
	}
	root := wd
	var branch, head string
	if layout != nil {
		if layout.WorktreeRoot != "" {
			root = layout.WorktreeRoot
		}
		var detached bool
		branch, detached, head = placeIdentity(*layout)
		in.Place = Place{InRepo: true, Branch: branch, Detached: detached, Linked: layout.Linked}
	} else {
		in.Place = Place{Dir: wd}
	}
	if l, ok := sessionline.With(stateDir, sessionline.Choice{Branch: branch, IsBranch: branch != "", AnyStatus: true, Env: w.Environ.Get("ORC_SESSION")}, layout, w.ClaimsAt); ok {
		in.Session = sessionView(l)
		if layout != nil {
			in.Session.DigestBehind = digestBehind(*layout, stateDir, l.SessionID, l.GitBranch)
		}
	}

	files, err := OpenFiles(w.TempDir)
	if err == nil {
		key := Key(p.SessionID)
		// The git cache is per place: a session whose renders come from two
		// work trees (a linked one and the main one) would otherwise find
		// the other's look every time and wait on git for each render.
		sum := sha256.Sum256([]byte(root))
		placeKey := "dir-" + hex.EncodeToString(sum[:8])
		if key != "" {
			placeKey = key + "-" + hex.EncodeToString(sum[:4])
		}
		if opts.Off {
			// nothing is shown: no look at git
		} else if rec, ok := w.lookPlace(files, placeKey, root, branch, head, now); ok {
			if rec.Known {
				in.Place.Dirty = Clean
				if rec.Dirty {
					in.Place.Dirty = Modified
				}
			}
			in.Place.Workspace, in.Place.Live = rec.Workspace, rec.Live
		}
		if key != "" && p.Context != nil {
			raw, eff, _ := Effective(*p.Context, opts.Reserve)
			lvl := Level{At: now.Unix(), Raw: raw, Effective: eff, Tier: TierOf(eff).String()}
			if in.Session != nil && in.Session.Current {
				lvl.Session = in.Session.Branch
			}
			_ = files.WriteLevel(key, lvl)
		}
	}
	return Render(in)
}

// lookPlace returns the cached look at root for a render: a fresh one as
// is; a stale one as is, with a refresh started for the next render; on a
// miss it starts a refresh and waits for it at most the run's PlaceWait,
// and when another render's refresh is already running, waits as long for
// that one's answer. Past the wait the look is missing, and the render
// shows the dirty state as unknown, never as clean.
func (w World) lookPlace(files *Files, key, root, branch, head string, now time.Time) (PlaceRecord, bool) {
	rec, age := files.ReadPlace(key, root, branch, head, now)
	switch age {
	case Fresh:
		return rec, true
	case Stale:
		w.startRefresh(files, key, root, 0)
		return rec, true
	}
	deadline := time.Now().Add(w.PlaceWait)
	if w.startRefresh(files, key, root, w.PlaceWait) {
		rec, age = files.ReadPlace(key, root, branch, head, time.Now())
		return rec, age != Missing
	}
	for time.Now().Before(deadline) { // another refresher runs: its answer may still come in time
		time.Sleep(placePoll)
		if rec, age = files.ReadPlace(key, root, branch, head, time.Now()); age != Missing {
			return rec, true
		}
	}
	return rec, false
}

// placePoll is how often a render waiting on another render's refresher
// looks for its answer.
const placePoll = 5 * time.Millisecond

// startRefresh starts a detached `orc-state statusline --refresh-place`
// for key unless one is running, and waits up to wait for it to finish;
// true when it finished in time.
func (w World) startRefresh(files *Files, key, root string, wait time.Duration) bool {
	if !files.ClaimRefresh(key, time.Now()) {
		return false
	}
	exe, err := w.Executable()
	if err != nil {
		files.EndRefresh(key)
		return false
	}
	// argv[0] is the verb's own name whatever the file is called.
	cmd := &exec.Cmd{Path: exe, Args: []string{"orc-state", "statusline", "--refresh-place", root, key}, Dir: root, Env: w.Environ}
	detach(cmd)
	if err := cmd.Start(); err != nil {
		files.EndRefresh(key)
		return false
	}
	if wait <= 0 {
		_ = cmd.Process.Release()
		return false
	}
	done := make(chan struct{})
	go func() { _ = cmd.Wait(); close(done) }()
	select {
	case <-done:
		return true
	case <-time.After(wait):
		return false // it goes on alone and writes the cache for the next render
	}
}

// Refresh is the detached refresher: it looks at dir (git status for
// a repository, the child repositories of a workspace folder otherwise),
// records the look for key, and sweeps the private files older than a day.
func Refresh(w World, dir, key string) {
	files, err := OpenFiles(w.TempDir)
	if err != nil {
		return
	}
	defer files.EndRefresh(key)
	started := time.Now()
	rec := PlaceRecord{Dir: dir, At: started.UnixMilli()}
	if l, err := gitx.Discover(dir, w.Environ); err == nil && l.WorktreeRoot == dir {
		rec.Branch, _, rec.Head = placeIdentity(l)
		ctx, cancel := context.WithTimeout(context.Background(), RefreshBound-5*time.Second)
		out, err := l.Read(ctx, "status", "--porcelain", "-z", "--untracked-files=normal")
		cancel()
		rec.Known, rec.Dirty = err == nil, err == nil && len(out) > 0
	} else {
		rec.Workspace, rec.Live = workspacePlace(dir)
	}
	_ = files.WritePlace(key, rec)
	files.Sweep(started)
}

// placeIdentity is what a cached look is about besides the directory: the
// branch checked out ("" when detached) and its commit.
func placeIdentity(l gitx.Layout) (branch string, detached bool, head string) {
	branch, detached, _ = l.CurrentBranch()
	head, _ = l.BranchSHA(branch)
	return branch, detached, head
}

// workspacePlace names a folder holding two or more repositories (the
// original's workspace place) and counts the live sessions of its
// registry.
func workspacePlace(dir string) (name string, live int) {
	entries, err := os.ReadDir(dir)
	if err != nil || len(entries) > 2000 {
		return "", 0
	}
	repos := 0
	for _, e := range entries {
		if e.IsDir() {
			if _, err := os.Lstat(filepath.Join(dir, e.Name(), ".git")); err == nil {
				repos++
			}
		}
	}
	if repos < 2 {
		return "", 0
	}
	if data, err := atomicfile.ReadOnly(filepath.Join(dir, ".orc", "orc.json")); err == nil {
		for _, s := range registry.ParseLoose(data) {
			if s.Status == "in_progress" {
				live++
			}
		}
	}
	return fmt.Sprintf("%s (%d repos)", filepath.Base(dir), repos), live
}

// sessionView turns `line`'s answer into what the statusline shows.
func sessionView(l sessionline.Line) *Session {
	s := &Session{
		Command: l.Command, Phase: sessionline.PhaseText(l.Phase), Branch: l.GitBranch,
		SlicesDone: l.SlicesDone, SlicesTotal: l.SlicesTotal, SlicesClaimed: l.SlicesClaimed, Current: l.Current == nil,
		SlicesEscalated: l.SlicesEscalated, Status: l.Status,
	}
	if t, ok := l.TotalPhases.(float64); ok {
		s.Total = strconv.FormatFloat(t, 'g', -1, 64)
	}
	s.Label, _ = l.PhaseLabel.(string)
	s.Jira, _ = l.JiraTicket.(string)
	s.Policy, _ = l.Policy.(string)
	return s
}

// terminalOf reads the screen's width, colour and character set from the
// environment the host gives the statusline; home is the user's home.
func terminalOf(env environ.List, home string) Terminal {
	t := Terminal{Color: env.Get("NO_COLOR") == "", Location: time.Local}
	if n, err := strconv.Atoi(strings.TrimSpace(env.Get("COLUMNS"))); err == nil && n > 0 {
		t.Columns = n
	}
	locale := ""
	for _, v := range []string{"LC_ALL", "LC_CTYPE", "LANG"} {
		if locale = env.Get(v); locale != "" {
			break
		}
	}
	locale = strings.ToLower(locale)
	t.UTF8 = strings.Contains(locale, "utf-8") || strings.Contains(locale, "utf8")
	t.Home = home
	return t
}

// digestBehind reads session id's checkpoint: true when the digest's
// Suite sha is not the head of gitBranch. The folder is the entry's
// sessionId, which for an entry an earlier version keyed is not
// Sanitize(gitBranch) (registry.Keys).
func digestBehind(l gitx.Layout, stateDir, id, gitBranch string) bool {
	if stateDir == "" || registry.CheckKey(id) != nil {
		return false
	}
	data, err := atomicfile.ReadFile(filepath.Join(stateDir, id, "files", "checkpoint.md"))
	if err != nil {
		return false
	}
	digest, _ := checkpoint.Section(checkpoint.QuickBody(data), checkpoint.DigestHeading)
	if sha := checkpoint.SuiteSHA(digest); sha != "" {
		if head, ok := l.BranchSHA(gitBranch); ok {
			return !strings.HasPrefix(head, strings.ToLower(sha))
		}
	}
	return false
}

// readPayload returns the statusline JSON as soon as one complete
// value has arrived: some hosts never close stdin, and waiting for EOF
// would throw away a payload that is already whole. It waits at most
// stdinTimeout; garbage gives nil.
func readPayload(r io.Reader) []byte {
	data, _ := input.Within(r, 1<<20, stdinTimeout, func(b []byte) bool {
		_, decided := input.FirstJSON(b)
		return decided
	})
	raw, _ := input.FirstJSON(data)
	return raw
}
