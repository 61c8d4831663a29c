package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/orc-state/orc-state/internal/clitest"
)

// tmuxPane is one board --watch running in a terminal of its own: a tmux
// server on a private socket, its one pane running a shell that runs
// orc-state board --watch (a real process), then records the terminal's
// modes after it ended.
type tmuxPane struct {
	t    *testing.T
	sock string
	env  []string
	done string // the file the shell writes stty -a into once board has ended
}

func (p *tmuxPane) tmux(args ...string) string {
	p.t.Helper()
	cmd := exec.Command("tmux", append([]string{"-S", p.sock, "-f", "/dev/null"}, args...)...)
	cmd.Env = p.env
	out, err := cmd.CombinedOutput()
	if err != nil {
		p.t.Fatalf("tmux %s: %v: %s", strings.Join(args, " "), err, out)
	}
	return string(out)
}

// capture is what the pane shows now.
func (p *tmuxPane) capture() string { return p.tmux("capture-pane", "-p", "-t", "board") }

// await waits until the pane shows what ok accepts, failing after 10s
// with what it showed last.
func (p *tmuxPane) await(what string, ok func(screen string) bool) string {
	p.t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		s := p.capture()
		if ok(s) {
			return s
		}
		if time.Now().After(deadline) {
			p.t.Fatalf("the pane never showed %s; it shows:\n%s", what, s)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// startWatch starts board --watch in a 100×30 pane in the rig.
func startWatch(t *testing.T, r *clitest.Rig) *tmuxPane {
	if _, err := exec.LookPath("tmux"); err != nil {
		t.Skip("tmux is not installed: the terminal tests of board --watch need it")
	}
	dir, err := os.MkdirTemp("", "orc-tmux-") // short: a socket path has a length limit
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	p := &tmuxPane{t: t, sock: filepath.Join(dir, "s"), env: append(append([]string{}, r.Env...), "TERM=xterm-256color"), done: filepath.Join(dir, "stty")}
	script := fmt.Sprintf("orc-state board --watch; stty -a > %s; sleep 60", p.done)
	p.tmux("new-session", "-d", "-s", "board", "-x", "100", "-y", "30", "-c", r.Dir, "sh", "-c", script)
	t.Cleanup(func() {
		cmd := exec.Command("tmux", "-S", p.sock, "kill-server")
		cmd.Env = p.env
		cmd.Run()
	})
	return p
}

// TestBoardWatchInATerminal: board --watch draws full screen in a real
// terminal, redraws when another process changes the registry (phase set)
// or only a session's files and journal (slice claim), fits a resized
// terminal, and q ends it with the terminal restored: the alternate
// screen left, the cursor shown, canonical mode and echo back on.
func TestBoardWatchInATerminal(t *testing.T) {
	r := clitest.NewRig(t, "main")
	r.MustOrc(`{"slices": [{"id": "a", "title": "api"}, {"id": "b", "title": "a very long title that will not fit a narrow terminal at all"}]}`, "slice", "init", "-")
	p := startWatch(t, r)
	p.await("the board", func(s string) bool { return strings.Contains(s, "main  flow  on main  [in_progress]") })
	if got := p.tmux("display-message", "-p", "-t", "board", "#{alternate_on} #{cursor_flag}"); got != "1 0\n" {
		t.Errorf("while watching: alternate screen and cursor flag %q, want 1 0", got)
	}
	if styled := p.tmux("capture-pane", "-p", "-e", "-t", "board"); !strings.Contains(styled, "\x1b[") {
		t.Errorf("no colour on a terminal without NO_COLOR:\n%q", styled)
	}

	r.MustOrc("", "phase", "set", "3")
	p.await("the new phase", func(s string) bool { return strings.Contains(s, "phase 3/9") })
	r.MustOrc("", "slice", "claim", "--agent", "agent-z")
	p.await("the claim", func(s string) bool {
		return strings.Contains(s, "held by agent-z  lease 29m left") || strings.Contains(s, "held by agent-z  lease 30m left")
	})

	p.tmux("resize-window", "-t", "board", "-x", "40", "-y", "12")
	s := p.await("the board fitted to 40 columns", func(s string) bool { return strings.Contains(s, "…") })
	for _, l := range strings.Split(s, "\n") {
		if n := len([]rune(l)); n > 40 {
			t.Errorf("a line of %d columns in a 40-column terminal: %q", n, l)
		}
	}

	p.tmux("send-keys", "-t", "board", "q")
	p.await("the shell's screen again", func(string) bool { _, err := os.Stat(p.done); return err == nil })
	if got := p.tmux("display-message", "-p", "-t", "board", "#{alternate_on} #{cursor_flag}"); got != "0 1\n" {
		t.Errorf("after q: alternate screen and cursor flag %q, want 0 1", got)
	}
	stty, err := os.ReadFile(p.done)
	if err != nil {
		t.Fatal(err)
	}
	for _, mode := range []string{" icanon", " echo ", " icrnl", " opost"} {
		if !strings.Contains(" "+strings.ReplaceAll(string(stty), "\n", " ")+" ", mode) {
			t.Errorf("after q the terminal is not restored: no %q in stty -a:\n%s", mode, stty)
		}
	}
}

// TestBoardWatchCtrlC: Ctrl-C ends board --watch as q does, the terminal
// restored; under NO_COLOR it draws no colour.
func TestBoardWatchCtrlC(t *testing.T) {
	r := clitest.NewRig(t, "main")
	r.Env = append(r.Env, "NO_COLOR=1")
	p := startWatch(t, r)
	p.await("the board", func(s string) bool { return strings.Contains(s, "main  flow") })
	if styled := p.tmux("capture-pane", "-p", "-e", "-t", "board"); strings.Contains(styled, "\x1b[") {
		t.Errorf("colour under NO_COLOR:\n%q", styled)
	}
	p.tmux("send-keys", "-t", "board", "C-c")
	p.await("the end of board", func(string) bool { _, err := os.Stat(p.done); return err == nil })
	if got := p.tmux("display-message", "-p", "-t", "board", "#{alternate_on} #{cursor_flag}"); got != "0 1\n" {
		t.Errorf("after Ctrl-C: alternate screen and cursor flag %q, want 0 1", got)
	}
}
