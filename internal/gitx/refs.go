package gitx

import (
	"bufio"
	"bytes"
	"os"
	"path/filepath"
	"strings"

	"github.com/orc-state/orc-state/internal/hexid"
)

// BranchSHA reads refs/heads/<branch> by hand (loose ref, then
// packed-refs) without opening the repository: a few small reads, for the
// statusline path. ok is false when the branch has no commit.
func (l Layout) BranchSHA(branch string) (sha string, ok bool) {
	if branch == "" || strings.Contains(branch, "..") {
		return "", false
	}
	ref := "refs/heads/" + branch
	if b, err := os.ReadFile(filepath.Join(l.CommonDir, filepath.FromSlash(ref))); err == nil {
		s := strings.TrimSpace(string(b))
		return s, hexid.Valid(s, 40, 40)
	}
	f, err := os.Open(filepath.Join(l.CommonDir, "packed-refs"))
	if err != nil {
		return "", false
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	want := []byte(" " + ref)
	for sc.Scan() {
		line := sc.Bytes()
		if len(line) > 41 && bytes.Equal(line[40:], want) && hexid.Valid(string(line[:40]), 40, 40) {
			return string(line[:40]), true
		}
	}
	return "", false
}
