package gitx

import (
	"fmt"
	"io"
	"path"
	"sort"
	"strings"
	"time"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/object"
	"github.com/go-git/go-git/v5/plumbing/storer"
)

// Snapshot is a set of files by slash-separated path, the content of a
// commit that orc-state writes on its own refs (sync).
//
// The snapshot functions below read and write through the built-in
// (go-git) storage, so they work only where it can read the repository
// (not SHA-256); sync is moving to git's plumbing (Layout.Run, RunInput).
type Snapshot map[string][]byte

// CommitSnapshot stores files as a tree and a commit whose parent is
// parent ("" for none), directly in the object store: the index and the
// working tree are never touched. It returns the commit's sha.
func (r *Repo) CommitSnapshot(files Snapshot, parent, message string, when time.Time) (string, error) {
	st, err := r.storage()
	if err != nil {
		return "", err
	}
	tree, err := r.writeTree(files, "")
	if err != nil {
		return "", err
	}
	sig := object.Signature{Name: "orc-state", Email: "orc-state@localhost", When: when}
	c := &object.Commit{Author: sig, Committer: sig, Message: message, TreeHash: tree}
	if parent != "" {
		c.ParentHashes = []plumbing.Hash{plumbing.NewHash(parent)}
	}
	obj := st.NewEncodedObject()
	if err := c.Encode(obj); err != nil {
		return "", err
	}
	h, err := st.SetEncodedObject(obj)
	return h.String(), err
}

// writeTree writes the subtree of files under dir (recursively).
func (r *Repo) writeTree(files Snapshot, dir string) (plumbing.Hash, error) {
	children := map[string]bool{}
	var entries []object.TreeEntry
	for p, data := range files {
		rel, ok := strings.CutPrefix(p, dir)
		if !ok {
			continue
		}
		if name, _, nested := strings.Cut(rel, "/"); nested {
			children[name] = true
		} else {
			h, err := r.writeBlob(data)
			if err != nil {
				return plumbing.ZeroHash, err
			}
			entries = append(entries, object.TreeEntry{Name: rel, Mode: filemode.Regular, Hash: h})
		}
	}
	for name := range children {
		h, err := r.writeTree(files, dir+name+"/")
		if err != nil {
			return plumbing.ZeroHash, err
		}
		entries = append(entries, object.TreeEntry{Name: name, Mode: filemode.Dir, Hash: h})
	}
	sort.Slice(entries, func(i, j int) bool { return treeKey(entries[i]) < treeKey(entries[j]) })
	st, err := r.storage()
	if err != nil {
		return plumbing.ZeroHash, err
	}
	obj := st.NewEncodedObject()
	if err := (&object.Tree{Entries: entries}).Encode(obj); err != nil {
		return plumbing.ZeroHash, err
	}
	return st.SetEncodedObject(obj)
}

// treeKey is git's tree order: directories sort as if their name ended in /.
func treeKey(e object.TreeEntry) string {
	if e.Mode == filemode.Dir {
		return e.Name + "/"
	}
	return e.Name
}

func (r *Repo) writeBlob(data []byte) (plumbing.Hash, error) {
	st, err := r.storage()
	if err != nil {
		return plumbing.ZeroHash, err
	}
	obj := st.NewEncodedObject()
	obj.SetType(plumbing.BlobObject)
	w, err := obj.Writer()
	if err != nil {
		return plumbing.ZeroHash, err
	}
	if _, err := w.Write(data); err != nil {
		return plumbing.ZeroHash, err
	}
	if err := w.Close(); err != nil {
		return plumbing.ZeroHash, err
	}
	return st.SetEncodedObject(obj)
}

// ReadSnapshot returns the files of a commit's tree.
func (r *Repo) ReadSnapshot(commit string) (Snapshot, error) {
	c, err := r.commit(plumbing.NewHash(commit))
	if err != nil {
		return nil, fmt.Errorf("commit %s: %w", commit, err)
	}
	tree, err := c.Tree()
	if err != nil {
		return nil, err
	}
	out := Snapshot{}
	err = tree.Files().ForEach(func(f *object.File) error {
		rd, err := f.Reader()
		if err != nil {
			return err
		}
		defer rd.Close()
		data, err := io.ReadAll(rd)
		out[path.Clean(f.Name)] = data
		return err
	})
	return out, err
}

// TreeOf returns the tree sha of a commit.
func (r *Repo) TreeOf(commit string) (string, error) {
	c, err := r.commit(plumbing.NewHash(commit))
	if err != nil {
		return "", err
	}
	return c.TreeHash.String(), nil
}

// Ref returns the sha a full ref name points at; ok false when absent.
func (r *Repo) Ref(name string) (string, bool) {
	st, err := r.storage()
	if err != nil {
		return "", false
	}
	ref, err := storer.ResolveReference(st, plumbing.ReferenceName(name))
	if err != nil {
		return "", false
	}
	return ref.Hash().String(), true
}

// SetRef points a full ref name at sha.
func (r *Repo) SetRef(name, sha string) error {
	st, err := r.storage()
	if err != nil {
		return err
	}
	return st.SetReference(plumbing.NewHashReference(plumbing.ReferenceName(name), plumbing.NewHash(sha)))
}

// Refs lists the refs under prefix (e.g. "refs/orc/remotes/origin/") with
// their shas.
func (r *Repo) Refs(prefix string) (map[string]string, error) {
	st, err := r.storage()
	if err != nil {
		return nil, err
	}
	it, err := st.IterReferences()
	if err != nil {
		return nil, err
	}
	out := map[string]string{}
	err = it.ForEach(func(ref *plumbing.Reference) error {
		if n := ref.Name().String(); strings.HasPrefix(n, prefix) && ref.Type() == plumbing.HashReference {
			out[n] = ref.Hash().String()
		}
		return nil
	})
	return out, err
}
