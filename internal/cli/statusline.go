package cli

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/orc-state/orc-state/checkpoint"
	"github.com/orc-state/orc-state/internal/gitx"
	"github.com/orc-state/orc-state/registry"
)

// statusPayload is the part of Claude Code's statusline JSON we use.
type statusPayload struct {
	Cwd       string `json:"cwd"`
	Workspace struct {
		CurrentDir string `json:"current_dir"`
	} `json:"workspace"`
	Model struct {
		DisplayName string `json:"display_name"`
	} `json:"model"`
	ContextWindow struct {
		UsedPercentage any `json:"used_percentage"` // a number; anything else is left out
	} `json:"context_window"`
}

// statuslineStdinTimeout bounds the wait for stdin: some hosts never close
// it, and a statusline that waits is a statusline that never shows.
const statuslineStdinTimeout = 250 * time.Millisecond

// Run renders one or two lines (see runStatusline).
func (c *StatuslineCmd) Run(e *Env) error {
	runStatusline(e.Stdin, e.Stdout)
	return nil
}

// runStatusline is the statusline path, dispatched before the parser is
// built (like line). It takes no lock and runs no git subprocess: the
// registry, the checkpoint and the branch ref are read as files. Garbage
// or empty stdin still renders, and it always exits 0.
func runStatusline(stdin io.Reader, stdout io.Writer) {
	p := readStatusPayload(stdin)
	wd := p.Workspace.CurrentDir
	if wd == "" {
		wd = p.Cwd
	}
	if wd == "" {
		wd = cwd()
	}
	color := os.Getenv("NO_COLOR") == ""
	fmt.Fprint(stdout, renderStatus(p, wd, color))
}

// ANSI styles used by the statusline.
const (
	ansiReset  = "\x1b[0m"
	ansiBold   = "\x1b[1m"
	ansiCyan   = "\x1b[36m"
	ansiGreen  = "\x1b[32m"
	ansiYellow = "\x1b[33m"
	ansiRed    = "\x1b[31m"
	ansiDim    = "\x1b[2m"
)

func renderStatus(p statusPayload, wd string, color bool) string {
	paint := func(style, s string) string {
		if !color || s == "" {
			return s
		}
		return style + s + ansiReset
	}
	var layout *gitx.Layout
	branch := ""
	if l, err := gitx.Discover(wd); err == nil {
		layout = &l
		if b, detached, _ := l.CurrentBranch(); detached {
			branch = "(detached)"
		} else {
			branch = b
		}
	}
	var first []string
	l, ok := lineFor("", "", wd)
	if !ok {
		first = append(first, paint(ansiDim, "orc: no session"))
	} else {
		phase := fmt.Sprintf("%v", l.Phase)
		if t := l.TotalPhases; t != nil {
			phase += fmt.Sprintf("/%v", t)
		}
		label, _ := l.PhaseLabel.(string)
		first = append(first, paint(ansiBold, "orc "+clip(l.Command, 30))+" "+paint(ansiCyan, clip(strings.TrimSpace(phase+" "+label), 40)))
		if l.SlicesTotal > 0 {
			sl := fmt.Sprintf("slices %d/%d", l.SlicesDone, l.SlicesTotal)
			if l.SlicesClaimed > 0 {
				sl += fmt.Sprintf(", %d claimed", l.SlicesClaimed)
			}
			first = append(first, sl)
		}
		if l.Current != nil && !*l.Current {
			first = append(first, paint(ansiYellow, "(session of "+clip(l.GitBranch, 40)+")"))
		}
	}
	if branch != "" {
		mark := ""
		dirty, stale := false, false
		if ok && layout != nil {
			dirty, stale = sessionMarks(layout, l.GitBranch)
		}
		if dirty {
			mark = paint(ansiYellow, "*")
		}
		first = append(first, clip(branch, 60)+mark)
		if stale {
			first = append(first, paint(ansiRed, "digest behind HEAD"))
		}
	}
	out := strings.Join(first, " · ") + "\n"
	var second []string
	if p.Model.DisplayName != "" {
		second = append(second, clip(p.Model.DisplayName, 40))
	}
	if u, ok := p.ContextWindow.UsedPercentage.(float64); ok && u >= 0 && u <= 100 {
		style := ansiGreen
		switch {
		case u >= 80:
			style = ansiRed
		case u >= 60:
			style = ansiYellow
		}
		second = append(second, paint(style, fmt.Sprintf("ctx %.0f%%", u)))
	}
	if len(second) > 0 {
		out += strings.Join(second, " · ") + "\n"
	}
	return out
}

var suiteSHA = lazyRegexp(`(?m)^- Suite: \S+ @ ([0-9a-fA-F]{7,40})\b`)
var dirtyCount = lazyRegexp(`(?m)^- Dirty: ([0-9]+) file`)

// sessionMarks reads the session's checkpoint: dirty when the last
// Auto-checkpoint counted dirty files, stale when the digest's Suite sha is
// not the branch head.
func sessionMarks(l *gitx.Layout, gitBranch string) (dirty, stale bool) {
	dir := os.Getenv("ORC_STATE_DIR")
	if dir == "" {
		dir = filepath.Join(l.MainRoot(), ".orc")
	}
	id := registry.Sanitize(gitBranch)
	if registry.CheckKey(id) != nil {
		return false, false
	}
	data, err := os.ReadFile(filepath.Join(dir, id, "files", "checkpoint.md"))
	if err != nil {
		return false, false
	}
	body := checkpoint.QuickBody(data)
	auto, _ := checkpoint.Section(body, checkpoint.AutoHeading)
	if m := dirtyCount().FindSubmatch(auto); m != nil && string(m[1]) != "0" {
		dirty = true
	}
	digest, _ := checkpoint.Section(body, checkpoint.DigestHeading)
	if m := suiteSHA().FindSubmatch(digest); m != nil {
		if head, ok := l.BranchSHA(gitBranch); ok {
			stale = !strings.HasPrefix(head, strings.ToLower(string(m[1])))
		}
	}
	return dirty, stale
}

// readStatusPayload decodes the statusline JSON as soon as one complete
// value has arrived: some hosts never close stdin, and waiting for EOF
// would throw away a payload that is already whole. It waits at most
// statuslineStdinTimeout; garbage gives an empty payload.
func readStatusPayload(r io.Reader) statusPayload {
	ch := make(chan statusPayload, 1)
	go func() {
		var p statusPayload
		_ = json.NewDecoder(io.LimitReader(r, 1<<20)).Decode(&p)
		ch <- p
	}()
	select {
	case p := <-ch:
		return p
	case <-time.After(statuslineStdinTimeout):
		return statusPayload{}
	}
}
