package board

import (
	"context"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/fsnotify/fsnotify"
	"golang.org/x/term"
)

// Screen is the terminal Watch draws on: In must be a terminal (it is put
// in raw mode to read q and Ctrl-C), Out the terminal to draw on.
type Screen struct {
	In, Out *os.File
	Color   bool
}

// Source is what Watch redraws from: Gather reads the board again, Paths
// the files and folders whose change means a new board (the state dir, for
// orc.json and worktrees.json, and each shown session's files folder, for
// its journal's tip), Now the time a frame is judged by.
type Source struct {
	Gather func() Board
	Paths  func(Board) []string
	Now    func() time.Time
}

// Timing of Watch.
const (
	tick    = time.Second      // ages and leases count down
	regrab  = 10 * time.Second // re-read even without a change: git's dirty marks
	settle  = 30 * time.Millisecond
	pollDur = time.Second // without change notification: how often files are stat'ed
)

// Watch draws the board full screen (the alternate screen, the cursor
// hidden) and redraws it when a watched path changes, when a lease or an
// age ticks, and when the terminal is resized, until q, Q, Ctrl-C, Ctrl-D,
// end of input, SIGINT, SIGTERM or SIGHUP; then it leaves the alternate
// screen, shows the cursor and restores the terminal's mode, whatever
// ended it. Change notification is fsnotify's; where it cannot watch,
// the paths' modification times are polled every second.
func Watch(ctx context.Context, scr Screen, src Source) error {
	inFd, outFd := int(scr.In.Fd()), int(scr.Out.Fd())
	old, err := term.MakeRaw(inFd)
	if err != nil {
		return err
	}
	restore := sync.OnceFunc(func() {
		io.WriteString(scr.Out, "\x1b[?25h\x1b[?1049l")
		term.Restore(inFd, old)
	})
	defer restore()
	io.WriteString(scr.Out, "\x1b[?1049h\x1b[?25l")

	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	sig := make(chan os.Signal, 4)
	signal.Notify(sig, syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP)
	defer signal.Stop(sig)
	resized := make(chan os.Signal, 1)
	notifyResize(resized)
	defer signal.Stop(resized)

	keys := make(chan struct{})
	go func() {
		defer close(keys)
		buf := make([]byte, 64)
		for {
			n, err := scr.In.Read(buf)
			for _, c := range buf[:n] {
				if c == 'q' || c == 'Q' || c == 3 || c == 4 {
					return
				}
			}
			if err != nil {
				return
			}
		}
	}()

	changes := make(chan struct{}, 1)
	b := src.Gather()
	w := newWatcher(changes)
	defer w.close()
	w.set(src.Paths(b))

	draw := func() {
		cols, rows, err := term.GetSize(outFd)
		if err != nil || cols <= 0 {
			cols, rows = 80, 24
		}
		frame := Frame(b, View{Width: cols, Color: scr.Color, Now: src.Now()}, rows)
		io.WriteString(scr.Out, frame)
	}
	draw()
	ticker := time.NewTicker(tick)
	defer ticker.Stop()
	last := time.Now()
	for {
		select {
		case <-ctx.Done():
			return nil
		case <-sig:
			return nil
		case <-keys:
			return nil
		case <-resized:
			draw()
		case <-changes:
			time.Sleep(settle) // a transaction renames several files
			drain(changes)
			b = src.Gather()
			w.set(src.Paths(b))
			last = time.Now()
			draw()
		case <-ticker.C:
			if w.poll() || time.Since(last) >= regrab {
				b = src.Gather()
				w.set(src.Paths(b))
				last = time.Now()
			}
			draw()
		}
	}
}

func drain(c chan struct{}) {
	for {
		select {
		case <-c:
		default:
			return
		}
	}
}

// Frame is one full-screen frame: home, the board's lines (each erased to
// its end, at most rows-1 of them, then a line saying how many more), the
// rest of the screen erased, and the footer. Lines end in \r\n, since a
// terminal in raw mode does not return the carriage by itself.
func Frame(b Board, v View, rows int) string {
	text := strings.TrimSuffix(Render(b, v), "\n")
	lines := strings.Split(text, "\n")
	room := rows - 1
	if room < 1 {
		room = 1
	}
	if len(lines) > room {
		more := len(lines) - room + 1
		lines = append(lines[:room-1], fit(line{sp(dim, "… "+strconv.Itoa(more)+" more lines (a taller terminal, or orc-state board --session S)")}, v.Width, v.Color))
	}
	var out strings.Builder
	out.WriteString("\x1b[H")
	for _, l := range lines {
		out.WriteString(l + "\x1b[K\r\n")
	}
	out.WriteString("\x1b[J")
	footer := fit(line{sp(dim, "board · "+v.Now.UTC().Format("15:04:05")+" UTC · q or Ctrl-C quits")}, v.Width, v.Color)
	out.WriteString(footer)
	return out.String()
}

// watcher signals changes under a set of paths: through fsnotify, or,
// where that cannot watch, by comparing modification times on poll.
type watcher struct {
	mu      sync.Mutex
	fs      *fsnotify.Watcher
	watched map[string]bool
	polled  map[string]time.Time
	changes chan struct{}
}

func newWatcher(changes chan struct{}) *watcher {
	w := &watcher{watched: map[string]bool{}, polled: map[string]time.Time{}, changes: changes}
	fw, err := fsnotify.NewWatcher()
	if err != nil {
		return w
	}
	w.fs = fw
	go func() {
		for {
			select {
			case ev, ok := <-fw.Events:
				if !ok {
					return
				}
				if ev.Op == fsnotify.Chmod || strings.HasPrefix(filepath.Base(ev.Name), ".lock") {
					continue
				}
				select {
				case changes <- struct{}{}:
				default:
				}
			case _, ok := <-fw.Errors:
				if !ok {
					return
				}
			}
		}
	}()
	return w
}

// set watches exactly paths.
func (w *watcher) set(paths []string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	want := map[string]bool{}
	for _, p := range paths {
		want[p] = true
	}
	for p := range w.watched {
		if !want[p] {
			if w.fs != nil {
				w.fs.Remove(p)
			}
			delete(w.watched, p)
		}
	}
	for p := range w.polled {
		if !want[p] {
			delete(w.polled, p)
		}
	}
	for p := range want {
		if w.watched[p] {
			continue
		}
		if _, polled := w.polled[p]; polled {
			continue
		}
		if w.fs != nil && w.fs.Add(p) == nil {
			w.watched[p] = true
			continue
		}
		w.polled[p] = mtime(p)
	}
}

// poll reports whether a polled path changed since the last look.
func (w *watcher) poll() bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	changed := false
	for p, t := range w.polled {
		if now := mtime(p); !now.Equal(t) {
			w.polled[p] = now
			changed = true
		}
	}
	return changed
}

func (w *watcher) close() {
	if w.fs != nil {
		w.fs.Close()
	}
}

// mtime is the latest modification time of p and, for a folder, of the
// files directly in it.
func mtime(p string) time.Time {
	fi, err := os.Stat(p)
	if err != nil {
		return time.Time{}
	}
	t := fi.ModTime()
	if fi.IsDir() {
		entries, _ := os.ReadDir(p)
		for _, e := range entries {
			if info, err := e.Info(); err == nil && info.ModTime().After(t) {
				t = info.ModTime()
			}
		}
	}
	return t
}
