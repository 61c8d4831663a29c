package gitx

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"

	"github.com/orc-state/orc-state/internal/atomicfile"
)

// BranchSHA reads refs/heads/<branch> by hand (loose ref, then
// packed-refs) without opening the repository: a few small reads, for the
// statusline path. ok is false when the branch has no commit, and when the
// refs are not stored as files (the statusline then shows no staleness).
func (l Layout) BranchSHA(branch string) (sha string, ok bool) {
	if !l.RefFiles || !validBranch(branch) {
		return "", false
	}
	ref := "refs/heads/" + branch
	if b, err := atomicfile.ReadFile(filepath.Join(l.CommonDir, filepath.FromSlash(ref))); err == nil {
		s := strings.TrimSpace(string(b))
		return strings.ToLower(s), isObjectID(s)
	}
	f, err := atomicfile.Open(filepath.Join(l.CommonDir, "packed-refs"))
	if err != nil {
		return "", false
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		id, name, found := bytes.Cut(sc.Bytes(), []byte(" "))
		if found && string(name) == ref && isObjectID(string(id)) {
			return strings.ToLower(string(id)), true
		}
	}
	return "", false
}

// validBranch reports whether name is a valid branch name (git
// check-ref-format rules, as go-git implements them).
func validBranch(name string) bool {
	return name != "" && plumbing.NewBranchReferenceName(name).Validate() == nil
}

// BranchHead returns the full id refs/heads/<name> points at; ok is false
// when the branch does not exist (or is unborn), or git cannot answer
// (err says why). The ref files answer when they can give git's exact
// answer (refFromFiles); git otherwise.
func (r *Repo) BranchHead(name string) (sha string, ok bool, err error) {
	if !validBranch(name) {
		return "", false, nil
	}
	if id, exists, ok := r.layout.refFromFiles("refs/heads/" + name); ok {
		return id, exists, nil
	}
	objs, err := r.objects()
	if err != nil {
		return "", false, err
	}
	id, err := objs.ref("refs/heads/" + name)
	if errors.Is(err, errMissing) {
		return "", false, nil
	}
	if err != nil {
		return "", false, err
	}
	return id, true, nil
}

// BranchExists reports whether refs/heads/<name> exists. Invalid ref names
// are reported as absent; so is everything when git cannot answer.
func (r *Repo) BranchExists(name string) bool {
	_, ok, _ := r.BranchHead(name)
	return ok
}

// Branches lists every branch (refs/heads/*) with the id it points at, as
// `git for-each-ref refs/heads/` does.
func (r *Repo) Branches() (map[string]string, error) {
	return r.refsUnder("refs/heads/", "")
}

// RemoteBranches lists the remote-tracking refs (refs/remotes/*) by full
// name, without the symbolic <remote>/HEAD.
func (r *Repo) RemoteBranches() (map[string]string, error) {
	refs, err := r.refsUnder("refs/remotes/", "")
	for name := range refs {
		if strings.HasSuffix(name, "/HEAD") {
			delete(refs, name)
		}
	}
	return refs, err
}

// Merged lists the branches whose tip is reachable from the commit target
// (`git for-each-ref --merged=<target> refs/heads/`).
func (r *Repo) Merged(target string) (map[string]bool, error) {
	if !IsClaim(target) {
		return nil, fmt.Errorf("merged: %q is not a commit id", target)
	}
	refs, err := r.refsUnder("refs/heads/", target)
	out := map[string]bool{}
	for name := range refs {
		out[name] = true
	}
	return out, err
}

// refsUnder lists the refs under prefix (names with the prefix removed for
// refs/heads/, full otherwise), optionally only those merged into merged.
// Without merged the ref files answer when they can give git's exact
// answer (refsFromFiles); git otherwise.
func (r *Repo) refsUnder(prefix, merged string) (map[string]string, error) {
	out := map[string]string{}
	trim := func(name string) string {
		if prefix == "refs/heads/" {
			return strings.TrimPrefix(name, prefix)
		}
		return name
	}
	if merged == "" {
		if refs, ok := r.layout.refsFromFiles(prefix); ok {
			for name, id := range refs {
				out[trim(name)] = id
			}
			return out, nil
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), Timeout)
	defer cancel()
	args := []string{"for-each-ref", "--format=%(objectname) %(refname)"}
	if merged != "" {
		args = append(args, "--merged="+merged)
	}
	data, err := r.layout.here().output(ctx, nil, append(args, prefix)...)
	if err != nil {
		return nil, err
	}
	for _, line := range strings.Split(string(data), "\n") {
		id, name, ok := strings.Cut(line, " ")
		if ok && isObjectID(id) && strings.HasPrefix(name, prefix) {
			out[trim(name)] = id
		}
	}
	return out, nil
}
