package gitx

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/orc-state/orc-state/internal/atomicfile"
)

// Errors of an object reader.
var (
	errMissing   = errors.New("no such object")
	errAmbiguous = errors.New("ambiguous abbreviation")
	errNotCommit = errors.New("not a commit")
)

// commitInfo is what orc-state needs from a commit object.
type commitInfo struct {
	ID      string
	Parents []string  // empty for a root, and for a shallow clone's boundary commits
	Cut     bool      // parents were cut off by the shallow boundary
	When    time.Time // committer time
	Subject string    // git's %s: the first paragraph, lines joined by a space
}

// catFile reads objects through one `git cat-file --batch` process in the
// place the repository was opened from, started on first use and started
// again after git exits (a partial clone's missing object ends it).
type catFile struct {
	p       place
	shallow map[string]bool

	mu     sync.Mutex
	cmd    *exec.Cmd
	cancel context.CancelFunc
	in     io.WriteCloser
	out    *bufio.Reader
	stderr *bytes.Buffer
}

func newCatFile(p place, shallow map[string]bool) *catFile {
	return &catFile{p: p, shallow: shallow}
}

func (c *catFile) start() error {
	ctx, cancel := context.WithCancel(context.Background())
	cmd, err := c.p.command(ctx, true, "cat-file", "--batch")
	if err != nil {
		cancel()
		return err
	}
	in, err := cmd.StdinPipe()
	if err != nil {
		cancel()
		return err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		cancel()
		return err
	}
	c.stderr = &bytes.Buffer{}
	cmd.Stderr = c.stderr
	if err := cmd.Start(); err != nil {
		cancel()
		return fmt.Errorf("start git cat-file: %w", err)
	}
	c.cmd, c.cancel, c.in, c.out = cmd, cancel, in, bufio.NewReaderSize(out, 64<<10)
	return nil
}

// stop ends the process (and with it any child it started).
func (c *catFile) stop() {
	if c.cmd == nil {
		return
	}
	c.in.Close()
	done := make(chan struct{})
	go func() { c.cmd.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(time.Second):
		c.cancel()
		<-done
	}
	c.cancel()
	c.cmd = nil
}

// close stops the process, if any.
func (c *catFile) close() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.stop()
}

// get asks for one object by name and returns its id, type and content.
func (c *catFile) get(name string) (id, kind string, content []byte, err error) {
	if strings.ContainsAny(name, "\n\r") {
		return "", "", nil, errMissing
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.cmd == nil {
		if err := c.start(); err != nil {
			return "", "", nil, err
		}
	}
	// A query that hangs (a lock, a slow disk) is bounded: the process
	// is killed and the query fails.
	timer := time.AfterFunc(Timeout, c.cancel)
	defer timer.Stop()
	id, kind, content, err = c.exchange(name)
	if err != nil {
		c.stop() // waits for git, so its stderr is complete
		msg := stderrLine(c.stderr.Bytes())
		if msg != "" {
			err = &gitError{msg: "git: " + msg, err: err}
		}
	}
	return id, kind, content, err
}

func (c *catFile) exchange(name string) (id, kind string, content []byte, err error) {
	if _, err := io.WriteString(c.in, name+"\n"); err != nil {
		return "", "", nil, fmt.Errorf("git cat-file: %w", err)
	}
	header, err := c.out.ReadString('\n')
	if err != nil {
		return "", "", nil, fmt.Errorf("git cat-file ended: %w", err)
	}
	header = strings.TrimSuffix(header, "\n")
	switch header {
	case name + " missing":
		return "", "", nil, errMissing
	case name + " ambiguous":
		return "", "", nil, errAmbiguous
	}
	f := strings.Fields(header)
	if len(f) != 3 || !isObjectID(f[0]) {
		return "", "", nil, fmt.Errorf("git cat-file: unexpected answer %q", truncate(header, 100))
	}
	size, err := strconv.ParseInt(f[2], 10, 64)
	if err != nil || size < 0 {
		return "", "", nil, fmt.Errorf("git cat-file: unexpected size %q", f[2])
	}
	if f[1] != "commit" && f[1] != "tag" {
		// Only commits and tags are read; anything else is skipped.
		if _, err := io.CopyN(io.Discard, c.out, size+1); err != nil {
			return "", "", nil, fmt.Errorf("git cat-file ended: %w", err)
		}
		return f[0], f[1], nil, nil
	}
	buf := make([]byte, size+1)
	if _, err := io.ReadFull(c.out, buf); err != nil {
		return "", "", nil, fmt.Errorf("git cat-file ended: %w", err)
	}
	return f[0], f[1], buf[:size], nil
}

// claim resolves 7 to 64 hex digits to the full id of the one commit they
// abbreviate: errMissing when no object has that name (or it is no
// commit), errAmbiguous when several commits match.
func (c *catFile) claim(claim string) (string, error) {
	claim = strings.ToLower(claim)
	id, kind, _, err := c.get(claim + "^{commit}")
	if err != nil {
		return "", err
	}
	if kind != "commit" || !strings.HasPrefix(id, claim) {
		return "", errNotCommit // a tag's commit, or a ref of that name
	}
	return id, nil
}

// commit reads a commit by full id (errMissing when absent).
func (c *catFile) commit(id string) (commitInfo, error) {
	got, kind, content, err := c.get(id)
	if err != nil {
		return commitInfo{}, err
	}
	if kind != "commit" {
		return commitInfo{}, fmt.Errorf("%s is a %s: %w", id, kind, errNotCommit)
	}
	return parseCommit(got, content, c.shallow)
}

// peel follows an object (an annotated tag) down to a commit.
func (c *catFile) peel(id string) (string, error) {
	got, kind, _, err := c.get(id + "^{commit}")
	if err != nil {
		return "", err
	}
	if kind != "commit" {
		return "", errNotCommit
	}
	return got, nil
}

// ref returns what "HEAD" or a full ref name points at (errMissing when
// the ref does not exist or is unborn).
func (c *catFile) ref(name string) (string, error) {
	id, _, _, err := c.get(name)
	return id, err
}

// parseCommit reads the parents, committer time and subject of a raw
// commit object. A commit listed in the shallow file has no parents, as
// in git.
func parseCommit(id string, data []byte, shallow map[string]bool) (commitInfo, error) {
	ci := commitInfo{ID: id}
	header, msg, _ := bytes.Cut(data, []byte("\n\n"))
	for _, line := range strings.Split(string(header), "\n") {
		key, val, _ := strings.Cut(line, " ")
		switch key {
		case "parent":
			ci.Parents = append(ci.Parents, val)
		case "committer":
			i := strings.LastIndexByte(val, '>')
			f := strings.Fields(val[i+1:])
			if i < 0 || len(f) == 0 {
				return ci, fmt.Errorf("commit %s: malformed committer line", id)
			}
			sec, err := strconv.ParseInt(f[0], 10, 64)
			if err != nil {
				return ci, fmt.Errorf("commit %s: malformed committer time", id)
			}
			ci.When = time.Unix(sec, 0)
		}
	}
	if shallow[id] && len(ci.Parents) > 0 {
		ci.Parents, ci.Cut = nil, true
	}
	ci.Subject = subject(string(msg))
	return ci, nil
}

// subject is git's %s: blank lines skipped, then the first paragraph with
// each line's trailing space removed and the lines joined by a space.
func subject(msg string) string {
	var parts []string
	for _, line := range strings.Split(msg, "\n") {
		line = strings.TrimRight(line, " \t\r\f\v")
		if line == "" {
			if len(parts) > 0 {
				break
			}
			continue
		}
		parts = append(parts, line)
	}
	return strings.Join(parts, " ")
}

// readShallow reads the common dir's shallow file: the commits whose
// parents a shallow clone does not have.
func readShallow(commonDir string) map[string]bool {
	data, err := atomicfile.ReadFile(filepath.Join(commonDir, "shallow"))
	if err != nil {
		return nil
	}
	out := map[string]bool{}
	for _, l := range strings.Fields(string(data)) {
		if isObjectID(l) {
			out[strings.ToLower(l)] = true
		}
	}
	return out
}

// IsShallow reports whether the repository is a shallow clone.
func (l Layout) IsShallow() bool {
	fi, err := os.Stat(filepath.Join(l.CommonDir, "shallow"))
	return err == nil && fi.Size() > 0
}
