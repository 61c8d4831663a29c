package gitx

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"path"
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
	typ, _, head, err := o.Read(commit)
	if err != nil {
		return nil, err
	}
	treeID, ok := strings.CutPrefix(string(head), "tree ")
	if typ != "commit" || !ok {
		return nil, fmt.Errorf("%s is a %s: %w", commit, typ, ErrBadTree)
	}
	treeID, _, _ = strings.Cut(treeID, "\n")
	var out []TreeEntry
	return out, o.listTree(&out, "", treeID)
}

func (o *Objects) listTree(out *[]TreeEntry, dir, id string) error {
	typ, _, data, err := o.Read(id)
	if err != nil {
		return err
	}
	if typ != "tree" {
		return fmt.Errorf("%s is a %s, not a tree: %w", dir+"/", typ, ErrBadTree)
	}
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
		case "40000":
			if err := o.listTree(out, p, child); err != nil {
				return err
			}
		case "100644", "100755":
			*out = append(*out, TreeEntry{Path: p, ID: child})
		case "120000":
			*out = append(*out, TreeEntry{Path: p, ID: child, Mode: "symlink"})
		case "160000":
			*out = append(*out, TreeEntry{Path: p, ID: child, Mode: "gitlink"})
		default:
			return fmt.Errorf("%s has mode %s: %w", p, mode, ErrBadTree)
		}
	}
	return nil
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
