package gitx

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"path"
	"sort"
	"strconv"
	"strings"
)

// TreeEntry is one entry of a commit's tree as listed without reading its
// blob: a file, or (Mode set, as in Blob) a symlink or a gitlink.
type TreeEntry struct {
	Path string
	ID   string
	Mode string // "" for a regular file; "symlink" or "gitlink"
}

// ErrBadTree is returned for a commit or tree that is not what a
// well-formed commit holds: a malformed tree, an entry of an unknown mode,
// an object of another type than its entry says.
var ErrBadTree = errors.New("not a well-formed commit")

// ListTree lists every entry under the tree of commit, recursively,
// reading only the commit and its trees (never a blob): what a reader
// with a budget decides from before it reads any file. An error wraps
// ErrMissing or ErrBadTree when the objects are what is wrong.
func (o *Objects) ListTree(commit string) ([]TreeEntry, error) {
	lists, errs, err := o.ListTrees([]string{commit})
	if err != nil {
		return nil, err
	}
	return lists[0], errs[0]
}

// ListTrees is ListTree for many commits at once, a level of trees at a
// time (ReadMany): as many round trips to git as the trees are deep,
// however many commits. errs[i] says why commits[i] could not be listed;
// err, why git could not answer at all.
func (o *Objects) ListTrees(commits []string) (lists [][]TreeEntry, errs []error, err error) {
	lists, errs = make([][]TreeEntry, len(commits)), make([]error, len(commits))
	type pending struct {
		of  int // the commit's index
		dir string
		id  string
	}
	var level []pending
	err = o.ReadMany(commits, func(i int, typ, _ string, head []byte, err error) {
		treeID, ok := strings.CutPrefix(string(head), "tree ")
		switch {
		case err != nil:
			errs[i] = err
		case typ != "commit" || !ok:
			errs[i] = fmt.Errorf("%s is a %s: %w", commits[i], typ, ErrBadTree)
		default:
			treeID, _, _ = strings.Cut(treeID, "\n")
			level = append(level, pending{of: i, id: treeID})
		}
	})
	for err == nil && len(level) > 0 {
		ids := make([]string, len(level))
		for k, p := range level {
			ids[k] = p.id
		}
		var next []pending
		err = o.ReadMany(ids, func(k int, typ, _ string, data []byte, err error) {
			p := level[k]
			if errs[p.of] != nil {
				return
			}
			if err == nil && typ != "tree" {
				err = fmt.Errorf("%s is a %s, not a tree: %w", p.dir+"/", typ, ErrBadTree)
			}
			if err == nil {
				err = parseTree(p.id, p.dir, data, func(path, mode, child string) {
					switch mode {
					case "40000":
						next = append(next, pending{of: p.of, dir: path, id: child})
					case "120000":
						lists[p.of] = append(lists[p.of], TreeEntry{Path: path, ID: child, Mode: "symlink"})
					case "160000":
						lists[p.of] = append(lists[p.of], TreeEntry{Path: path, ID: child, Mode: "gitlink"})
					default:
						lists[p.of] = append(lists[p.of], TreeEntry{Path: path, ID: child})
					}
				})
			}
			if err != nil {
				errs[p.of], lists[p.of] = err, nil
			}
		})
		level = next
	}
	for i := range lists {
		if errs[i] == nil {
			sort.Slice(lists[i], func(a, b int) bool { return lists[i][a].Path < lists[i][b].Path })
		}
	}
	return lists, errs, err
}

// parseTree calls each with every entry of tree id (data, read from the
// folder dir): its path, its mode ("40000" for a tree) and its object
// id; a malformed tree, or an entry of a mode git does not write, is
// ErrBadTree.
func parseTree(id, dir string, data []byte, each func(path, mode, child string)) error {
	idLen := len(id) / 2 // raw id bytes: 20 (SHA-1) or 32 (SHA-256)
	for len(data) > 0 {
		sp := bytes.IndexByte(data, ' ')
		nul := bytes.IndexByte(data, 0)
		if sp < 0 || nul < sp || len(data) < nul+1+idLen {
			return fmt.Errorf("tree %s is malformed: %w", id, ErrBadTree)
		}
		mode, name := string(data[:sp]), string(data[sp+1:nul])
		child := fmt.Sprintf("%x", data[nul+1:nul+1+idLen])
		data = data[nul+1+idLen:]
		p := path.Join(dir, name)
		switch mode {
		case "40000", "100644", "100755", "120000", "160000":
			each(p, mode, child)
		default:
			return fmt.Errorf("%s has mode %s: %w", p, mode, ErrBadTree)
		}
	}
	return nil
}

// ReadMany reads the objects revs name in one round trip: every request
// is written (by a goroutine, so that git never waits on a full pipe)
// while the answers are read, in order, and each is called with each
// (its error wraps ErrMissing for an object the repository lacks). The
// error returned is git's, when it could not answer; the rest of the
// answers are then not read.
func (o *Objects) ReadMany(revs []string, each func(i int, typ, id string, data []byte, err error)) error {
	for _, rev := range revs {
		if strings.ContainsAny(rev, "\n\x00") {
			return fmt.Errorf("invalid object name %q", rev)
		}
	}
	asked := make(chan error, 1)
	go func() {
		for _, rev := range revs {
			if err := o.ask(rev); err != nil {
				asked <- err
				return
			}
		}
		if err := o.in.Flush(); err != nil {
			asked <- o.failed(err)
			return
		}
		asked <- nil
	}()
	var failed error
	for i, rev := range revs {
		typ, id, data, err := o.answer(rev)
		if err != nil && !errors.Is(err, ErrMissing) {
			failed = err
			break
		}
		each(i, typ, id, data, err)
	}
	if failed != nil {
		o.inPipe.Close() // the writer, if blocked on a full pipe, stops
		<-asked
		return failed
	}
	return <-asked
}

// ObjectSizes returns the type and size of each object of ids that the
// repository has (absent: missing), with one `git cat-file --batch-check`
// in sync's environment, reading no content.
func (l Layout) ObjectSizes(ctx context.Context, ids []string) (map[string]ObjectSize, error) {
	out := make(map[string]ObjectSize, len(ids))
	if len(ids) == 0 {
		return out, nil
	}
	var in bytes.Buffer
	for _, id := range ids {
		if !isObjectID(id) {
			return nil, fmt.Errorf("invalid object id %q", id)
		}
		in.WriteString(id + "\n")
	}
	answer, err := l.RunWith(ctx, in.Bytes(), nil, "cat-file", "--batch-check")
	if err != nil {
		return nil, err
	}
	sc := bufio.NewScanner(bytes.NewReader(answer))
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) != 3 {
			continue // "<id> missing"
		}
		n, err := strconv.ParseInt(f[2], 10, 64)
		if err != nil || n < 0 {
			return nil, fmt.Errorf("git cat-file --batch-check: unexpected answer %q", sc.Text())
		}
		out[f[0]] = ObjectSize{Type: f[1], Size: n}
	}
	return out, nil
}

// ObjectSize is an object's type and size in bytes, as git stores it.
type ObjectSize struct {
	Type string
	Size int64
}
