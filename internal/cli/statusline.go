package cli

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
	"github.com/orc-state/orc-state/internal/gitx"
	"github.com/orc-state/orc-state/internal/input"
	"github.com/orc-state/orc-state/internal/sessionline"
	"github.com/orc-state/orc-state/internal/state"
	"github.com/orc-state/orc-state/internal/statusline"
	"github.com/orc-state/orc-state/registry"
)

// StatuslineCmd is `statusline`. Main dispatches it before the parser and
// reads these flags leniently (statuslineArgs); they are here for --help.
type StatuslineCmd struct {
	Style          string `help:"full (the default; narrows with the terminal) or compact (always one line)." placeholder:"STYLE"`
	ContextReserve int    `name:"context-reserve" help:"Percent of the context window kept back (e.g. the auto-compact buffer); the figure shown is the share of the rest." placeholder:"N"`
	Off            bool   `help:"Print nothing (the context level is still recorded for hook post-tool-use)."`
}

// Help is the detail of statusline --help: the payload fields read.
func (c *StatuslineCmd) Help() string {
	return `Claude Code runs it for every render with its statusline JSON on stdin (an
example is in hooks/README.md). Of that JSON it reads: session_id, cwd,
workspace.current_dir, workspace.repo.name, workspace.git_worktree,
worktree.name, model.display_name, effort.level, thinking.enabled, fast_mode,
context_window.used_percentage, exceeds_200k_tokens, cost.total_cost_usd,
cost.total_lines_added, cost.total_lines_removed, pr.number,
pr.review_state, rate_limits.five_hour.used_percentage,
rate_limits.five_hour.resets_at, rate_limits.seven_day.used_percentage,
rate_limits.seven_day.resets_at; every other field is ignored, and a
missing, null or mistyped one reads as absent (garbage on stdin still
renders). It prints at most two rows, takes no lock, runs no git on the
render path, and exits 0.`
}

// statuslineStdinTimeout bounds the wait for stdin: some hosts never close
// it, and a statusline that waits is a statusline that never shows.
const statuslineStdinTimeout = 250 * time.Millisecond

// Run renders the statusline (see runStatusline); kong reaches it only for
// --help, which Main does not dispatch early.
func (c *StatuslineCmd) Run(e *Env) error {
	runStatusline(e.proc, nil)
	return nil
}

// statuslineArgs reads the statusline's arguments leniently (it never
// fails): --style, --context-reserve and --off, over the original's
// userConfig variables CLAUDE_PLUGIN_OPTION_STATUSLINE{,_STYLE,_CONTEXT_RESERVE}.
// --refresh-place DIR KEY is the detached refresher's internal mode.
func statuslineArgs(proc *Process, args []string) (opts statusline.Options, refresh []string) {
	if v := strings.ToLower(proc.getenv("CLAUDE_PLUGIN_OPTION_STATUSLINE")); v == "false" || v == "off" || v == "0" {
		opts.Off = true
	}
	opts.Style = proc.getenv("CLAUDE_PLUGIN_OPTION_STATUSLINE_STYLE")
	opts.Reserve = reserveOption(proc.getenv("CLAUDE_PLUGIN_OPTION_STATUSLINE_CONTEXT_RESERVE"))
	for i := 0; i < len(args); i++ {
		name, value, inline := strings.Cut(args[i], "=")
		next := func() string {
			if inline {
				return value
			}
			if i+1 < len(args) {
				i++
				return args[i]
			}
			return ""
		}
		switch name {
		case "--style":
			opts.Style = next()
		case "--context-reserve":
			opts.Reserve = reserveOption(next())
		case "--off":
			opts.Off = true
		case "--refresh-place":
			if i+2 < len(args) {
				return opts, args[i+1 : i+3]
			}
		}
	}
	return opts, nil
}

// reserveOption reads a context reserve: a whole percentage 0–99; anything
// else is no reserve.
func reserveOption(s string) int {
	n, err := strconv.Atoi(strings.TrimSpace(s))
	if err != nil || n < 0 || n > statusline.MaxReserve {
		return 0
	}
	return n
}

// runStatusline is the statusline path, dispatched before the parser is
// built (like line). It takes no lock and runs no git on the render path:
// the registry, the checkpoint and the refs are read as files, and the dirty
// mark comes from the per-session cache (a miss starts a detached refresher
// and waits for it at most the run's PlaceWait). Garbage or empty stdin
// still renders; it prints at most two rows and always exits 0.
func runStatusline(proc *Process, args []string) {
	stdout := proc.Stdout
	defer func() {
		if recover() != nil {
			io.WriteString(stdout, "orc\n")
		}
	}()
	opts, refresh := statuslineArgs(proc, args)
	if refresh != nil {
		refreshPlace(proc, refresh[0], refresh[1])
		return
	}
	now := time.Now()
	p := statusline.ParsePayload(readStatusPayload(proc.Stdin))
	wd := p.Dir
	switch {
	case wd == "":
		wd = proc.Dir
	case !filepath.IsAbs(wd):
		wd = filepath.Join(proc.Dir, wd)
	}
	in := statusline.Input{Payload: p, Options: opts, Term: terminal(proc)}
	var layout *gitx.Layout
	stateDir := "" // the state dir every verb uses; "" when it is refused
	if d, err := state.Resolve("", wd, proc.Environ); err == nil {
		layout, stateDir = d.Git, d.Path
	} else if l, err := gitx.Discover(wd, proc.Environ); err == nil {
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
		in.Place = statusline.Place{InRepo: true, Branch: branch, Detached: detached, Linked: layout.Linked}
	} else {
		in.Place = statusline.Place{Dir: wd}
	}
	if l, ok := sessionline.With(stateDir, sessionline.Choice{Branch: branch, IsBranch: branch != "", AnyStatus: true, Env: proc.getenv("ORC_SESSION")}, layout, proc.Now()); ok {
		in.Session = sessionView(l)
		if layout != nil {
			in.Session.DigestBehind = digestBehind(*layout, stateDir, l.SessionID, l.GitBranch)
		}
	}

	files, err := statusline.OpenFiles(proc.tempDir())
	if err == nil {
		key := statusline.Key(p.SessionID)
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
		} else if rec, ok := lookPlace(proc, files, placeKey, root, branch, head, now); ok {
			if rec.Known {
				in.Place.Dirty = statusline.Clean
				if rec.Dirty {
					in.Place.Dirty = statusline.Modified
				}
			}
			in.Place.Workspace, in.Place.Live = rec.Workspace, rec.Live
		}
		if key != "" && p.Context != nil {
			raw, eff, _ := statusline.Effective(*p.Context, opts.Reserve)
			lvl := statusline.Level{At: now.Unix(), Raw: raw, Effective: eff, Tier: statusline.TierOf(eff).String()}
			if in.Session != nil && in.Session.Current {
				lvl.Session = in.Session.Branch
			}
			_ = files.WriteLevel(key, lvl)
		}
	}
	io.WriteString(stdout, statusline.Render(in))
}

// lookPlace returns the cached look at root for a render: a fresh one as
// is; a stale one as is, with a refresh started for the next render; on a
// miss it starts a refresh and waits for it at most the run's PlaceWait,
// and when another render's refresh is already running, waits as long for
// that one's answer. Past the wait the look is missing, and the render
// shows the dirty state as unknown, never as clean.
func lookPlace(proc *Process, files *statusline.Files, key, root, branch, head string, now time.Time) (statusline.PlaceRecord, bool) {
	rec, age := files.ReadPlace(key, root, branch, head, now)
	switch age {
	case statusline.Fresh:
		return rec, true
	case statusline.Stale:
		startRefresh(proc, files, key, root, 0)
		return rec, true
	}
	deadline := time.Now().Add(proc.PlaceWait)
	if startRefresh(proc, files, key, root, proc.PlaceWait) {
		rec, age = files.ReadPlace(key, root, branch, head, time.Now())
		return rec, age != statusline.Missing
	}
	for time.Now().Before(deadline) { // another refresher runs: its answer may still come in time
		time.Sleep(placePoll)
		if rec, age = files.ReadPlace(key, root, branch, head, time.Now()); age != statusline.Missing {
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
func startRefresh(proc *Process, files *statusline.Files, key, root string, wait time.Duration) bool {
	if !files.ClaimRefresh(key, time.Now()) {
		return false
	}
	exe, err := proc.executable()
	if err != nil {
		files.EndRefresh(key)
		return false
	}
	// argv[0] is the verb's own name whatever the file is called.
	cmd := &exec.Cmd{Path: exe, Args: []string{"orc-state", "statusline", "--refresh-place", root, key}, Dir: root, Env: proc.Environ}
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

// refreshPlace is the detached refresher: it looks at dir (git status for
// a repository, the child repositories of a workspace folder otherwise),
// records the look for key, and sweeps the private files older than a day.
func refreshPlace(proc *Process, dir, key string) {
	files, err := statusline.OpenFiles(proc.tempDir())
	if err != nil {
		return
	}
	defer files.EndRefresh(key)
	started := time.Now()
	rec := statusline.PlaceRecord{Dir: dir, At: started.UnixMilli()}
	if l, err := gitx.Discover(dir, proc.Environ); err == nil && l.WorktreeRoot == dir {
		rec.Branch, _, rec.Head = placeIdentity(l)
		ctx, cancel := context.WithTimeout(context.Background(), statusline.RefreshBound-5*time.Second)
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
func sessionView(l sessionline.Line) *statusline.Session {
	s := &statusline.Session{
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

// terminal reads the screen's width, colour and character set from the
// environment the host gives the statusline.
func terminal(proc *Process) statusline.Terminal {
	t := statusline.Terminal{Color: proc.getenv("NO_COLOR") == "", Location: time.Local}
	if n, err := strconv.Atoi(strings.TrimSpace(proc.getenv("COLUMNS"))); err == nil && n > 0 {
		t.Columns = n
	}
	locale := ""
	for _, v := range []string{"LC_ALL", "LC_CTYPE", "LANG"} {
		if locale = proc.getenv(v); locale != "" {
			break
		}
	}
	locale = strings.ToLower(locale)
	t.UTF8 = strings.Contains(locale, "utf-8") || strings.Contains(locale, "utf8")
	t.Home = proc.homeDir()
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

// readStatusPayload returns the statusline JSON as soon as one complete
// value has arrived: some hosts never close stdin, and waiting for EOF
// would throw away a payload that is already whole. It waits at most
// statuslineStdinTimeout; garbage gives nil.
func readStatusPayload(r io.Reader) []byte {
	data, _ := readWithin(r, 1<<20, statuslineStdinTimeout, func(b []byte) bool {
		_, decided := input.FirstJSON(b)
		return decided
	})
	raw, _ := input.FirstJSON(data)
	return raw
}
