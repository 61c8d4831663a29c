package archive

import (
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"

	"github.com/orc-state/orc-state/internal/atomicfile"
	"github.com/orc-state/orc-state/internal/gitx"
	"github.com/orc-state/orc-state/internal/safetext"
	"github.com/orc-state/orc-state/internal/state"
)

// Reading an archive back is bounded by what a verb could have written:
// its entries and their sizes are known before any file is read (a
// folder's from the directory, a commit's from its trees and `git cat-file
// --batch-check`), so a file over its cap (state.SizeProblem), a symlink,
// a gitlink or anything but a regular file makes the archive invalid
// without its content being read. Listing every archive checked
// (CheckAll) runs two git processes however many archives there are, and
// asks one of them as many times as the trees are deep, plus once per
// readBatchBytes of files.

// Load reads an archive's files, within the budget above. In a repository
// it runs git: never call it under the lock.
func (s *Store) Load(a Archive) (Snapshot, error) {
	var snap Snapshot
	err := s.read([]Archive{a}, func(_ int, tree gitx.Tree, err error) error {
		snap = tree.Snapshot()
		return err
	})
	return snap, err
}

// CheckAll validates by its content (Check, as Restore does) every archive
// of all that its metadata left valid, and marks each that fails Invalid
// with the reason: archive list and cleanup --archives then name it, and
// the sweep can remove it. An error is one of git or of the disk, not of
// an archive. In a repository it runs git: never call it under the lock.
func (s *Store) CheckAll(all []Archive) error {
	var todo []Archive
	var at []int
	for i, a := range all {
		if a.Invalid == "" {
			todo = append(todo, a)
			at = append(at, i)
		}
	}
	return s.read(todo, func(i int, tree gitx.Tree, err error) error {
		a := &all[at[i]]
		if err == nil {
			_, err = Check(*a, tree)
		}
		var inv *InvalidError
		if errors.As(err, &inv) {
			a.Invalid = inv.Reason
			return nil
		}
		return err
	})
}

// read reads each archive of all within the budget and calls each with its
// index and its files, or with why they could not be read (an
// *InvalidError when the archive is what is wrong). It stops at the first
// error each returns.
func (s *Store) read(all []Archive, each func(i int, tree gitx.Tree, err error) error) error {
	var inGit []int
	for i, a := range all {
		if a.Commit != "" && s.git != nil {
			inGit = append(inGit, i)
			continue
		}
		tree, err := s.readFolder(a)
		if err := each(i, tree, err); err != nil {
			return err
		}
	}
	if len(inGit) == 0 {
		return nil
	}
	c, cancel := ctx()
	defer cancel()
	objects, err := s.git.OpenObjects(c)
	if err != nil {
		return err
	}
	defer objects.Close()
	commits := make([]string, len(inGit))
	for k, i := range inGit {
		commits[k] = all[i].Commit
	}
	lists, errs, err := objects.ListTrees(commits)
	if err != nil {
		return err
	}
	var ids []string
	for k, i := range inGit {
		if err := errs[k]; err != nil {
			if errors.Is(err, gitx.ErrMissing) || errors.Is(err, gitx.ErrBadTree) {
				err = &InvalidError{Name: all[i].Name, Reason: fmt.Sprintf("its objects cannot be read: %v", err)}
			}
			if err := each(i, nil, err); err != nil {
				return err
			}
			continue
		}
		for _, e := range lists[k] {
			if e.Mode == "" {
				ids = append(ids, e.ID)
			}
		}
	}
	sizes, err := s.git.ObjectSizes(c, ids)
	if err != nil {
		return err
	}
	// The files to read, of as many archives at a time as fit in
	// readBatchBytes (one at least): one round trip per batch.
	var batch []planned
	var batchBytes int64
	flush := func() error {
		err := readBatch(objects, batch)
		for _, p := range batch {
			if err := each(p.at, p.tree, p.err); err != nil {
				return err
			}
		}
		batch, batchBytes = batch[:0], 0
		return err
	}
	for k, i := range inGit {
		if errs[k] != nil {
			continue
		}
		p := plan(all[i], lists[k], sizes)
		p.at = i
		if len(batch) > 0 && batchBytes+p.bytes > readBatchBytes {
			if err := flush(); err != nil {
				return err
			}
		}
		batch = append(batch, p)
		batchBytes += p.bytes
	}
	return flush()
}

// readBatchBytes bounds the bytes of the files one request to git reads,
// over several archives: a few round trips for many small archives, and
// no more than this (or one archive, within its caps) held at once.
const readBatchBytes = 8 << 20

// planned is one archive's commit as read back: its entries judged by
// kind and size, the files still to read, then its tree (or why not).
type planned struct {
	at     int // the archive's index
	a      Archive
	tree   gitx.Tree
	toRead []gitx.TreeEntry
	bytes  int64
	err    error
}

// plan judges the entries of an archive's commit before any is read:
// symlinks and gitlinks are marked, unread (Check refuses them); a
// regular file is to be read when git has it as a blob within its cap,
// else the archive is invalid.
func plan(a Archive, entries []gitx.TreeEntry, sizes map[string]gitx.ObjectSize) planned {
	in := state.Incoming{ID: a.Session, Side: "archived"}
	p := planned{a: a, tree: make(gitx.Tree, len(entries))}
	for _, e := range entries {
		if e.Mode != "" {
			p.tree[e.Path] = gitx.Blob{ID: e.ID, Mode: e.Mode}
			continue
		}
		size, ok := sizes[e.ID]
		if !ok || size.Type != "blob" {
			p.err = &InvalidError{Name: a.Name, Reason: fmt.Sprintf("its file %s is no blob this repository has", safetext.Escape(e.Path))}
		} else if err := state.SizeProblem(in, e.Path, size.Size); err != nil {
			p.err = &InvalidError{Name: a.Name, Reason: err.Error()}
		}
		if p.err != nil {
			p.tree, p.toRead, p.bytes = nil, nil, 0
			return p
		}
		p.toRead = append(p.toRead, e)
		p.bytes += size.Size
	}
	return p
}

// readBatch reads the files of the planned archives with one ReadMany,
// into their trees; an archive whose file git cannot give is invalid.
// The error is git's, when it could not answer.
func readBatch(objects *gitx.Objects, batch []planned) error {
	var ids []string
	type file struct {
		p *planned
		e gitx.TreeEntry
	}
	var files []file
	for k := range batch {
		if batch[k].err != nil {
			continue
		}
		for _, e := range batch[k].toRead {
			ids = append(ids, e.ID)
			files = append(files, file{&batch[k], e})
		}
	}
	err := objects.ReadMany(ids, func(k int, typ, _ string, data []byte, err error) {
		p, e := files[k].p, files[k].e
		switch {
		case p.err != nil:
		case err != nil:
			p.err = &InvalidError{Name: p.a.Name, Reason: fmt.Sprintf("its objects cannot be read: %v", err)}
		case typ != "blob":
			p.err = &InvalidError{Name: p.a.Name, Reason: fmt.Sprintf("its file %s is a %s", safetext.Escape(e.Path), safetext.Escape(typ))}
		default:
			p.tree[e.Path] = gitx.Blob{ID: e.ID, Data: data}
		}
	})
	for k := range batch {
		if batch[k].err != nil {
			batch[k].tree = nil
		} else if err != nil {
			batch[k].tree, batch[k].err = nil, fmt.Errorf("cannot read %s: %w", batch[k].a.Name, err)
		}
	}
	return err
}

// readFolder reads a folder archive's files: a symlink, anything but a
// regular file, or a file over its cap makes it invalid, unread.
func (s *Store) readFolder(a Archive) (gitx.Tree, error) {
	rel := filepath.FromSlash(a.Name)
	if err := noLink(s.Dir, rel); err != nil {
		return nil, err
	}
	in := state.Incoming{ID: a.Session, Side: "archived"}
	tree := gitx.Tree{}
	root := filepath.Join(s.Dir.Path, rel)
	err := filepath.WalkDir(root, func(p string, de fs.DirEntry, err error) error {
		if err != nil {
			if p == root && errors.Is(err, fs.ErrNotExist) {
				return nil
			}
			return err
		}
		r, _ := filepath.Rel(root, p)
		r = filepath.ToSlash(r)
		switch {
		case de.Type()&fs.ModeSymlink != 0:
			return &InvalidError{Name: a.Name, Reason: fmt.Sprintf("it holds a symlink %s: only regular files are restored", safetext.Escape(r))}
		case de.IsDir() || atomicfile.IsTemp(de.Name()):
			return nil // a temp file of an interrupted write is no part of it
		case !de.Type().IsRegular():
			return &InvalidError{Name: a.Name, Reason: fmt.Sprintf("it holds %s, which is no regular file", safetext.Escape(r))}
		}
		info, err := de.Info()
		if err != nil {
			return err
		}
		if err := state.SizeProblem(in, r, info.Size()); err != nil {
			return &InvalidError{Name: a.Name, Reason: err.Error()}
		}
		data, err := atomicfile.ReadFile(p)
		if err != nil {
			return err
		}
		tree[r] = gitx.Blob{Data: data}
		return nil
	})
	var inv *InvalidError
	if errors.As(err, &inv) {
		return nil, inv
	}
	if err != nil { // an unreadable file: no restore could take it either
		return nil, &InvalidError{Name: a.Name, Reason: fmt.Sprintf("it cannot be read: %v", err)}
	}
	return tree, nil
}
