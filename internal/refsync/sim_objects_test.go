package refsync_test

import (
	"bufio"
	"fmt"
	"io"
	"os/exec"
	"strconv"
	"strings"
)

// objectReader answers the simulation's own object reads in one git dir
// from one long-running `git cat-file --batch` (the test's reader,
// independent of the code under test): a world's reads cost one process
// per repository, not one per read. Objects written after it started are
// found too (git looks again when an object is missing).
type objectReader struct {
	cmd *exec.Cmd
	in  io.WriteCloser
	out *bufio.Reader
}

func newObjectReader(gitDir string) (*objectReader, error) {
	cmd := exec.Command("git", "--git-dir="+gitDir, "cat-file", "--batch")
	in, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	return &objectReader{cmd: cmd, in: in, out: bufio.NewReader(out)}, nil
}

// read returns the content of rev (any revision git names, such as
// commit:path); found is false when the repository has no such object.
func (r *objectReader) read(rev string) (content []byte, found bool, err error) {
	if strings.ContainsAny(rev, "\n") {
		return nil, false, fmt.Errorf("cannot ask for %q", rev)
	}
	if _, err := io.WriteString(r.in, rev+"\n"); err != nil {
		return nil, false, err
	}
	header, err := r.out.ReadString('\n')
	if err != nil {
		return nil, false, err
	}
	header = strings.TrimSuffix(header, "\n")
	if strings.HasSuffix(header, " missing") || strings.HasSuffix(header, " ambiguous") {
		return nil, false, nil
	}
	f := strings.Fields(header)
	if len(f) != 3 {
		return nil, false, fmt.Errorf("cat-file said %q for %s", header, rev)
	}
	size, err := strconv.Atoi(f[2])
	if err != nil {
		return nil, false, fmt.Errorf("cat-file said %q for %s", header, rev)
	}
	content = make([]byte, size+1) // and the newline after it
	if _, err := io.ReadFull(r.out, content); err != nil {
		return nil, false, err
	}
	return content[:size], true, nil
}

func (r *objectReader) close() {
	r.in.Close()
	r.cmd.Wait()
}
