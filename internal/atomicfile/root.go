package atomicfile

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
)

// ErrOutside is returned (wrapped) when a path given to a [Root] leaves
// it: absolute, empty, or climbing out with "..".
var ErrOutside = errors.New("the path leaves the folder it must stay in")

// Root is a folder that writes stay beneath: the state dir. Every path its
// methods take is relative to Dir, and is resolved one way, the way every
// write of a transaction and every step of its record is resolved:
//
//   - it must be local (not absolute, no "..", not empty): [ErrOutside];
//   - no component may be a symbolic link, the last one included:
//     [ErrSymlink] (a link is never followed, also when it points inside);
//   - on Linux the folder that holds the last component is opened with
//     openat2(RESOLVE_BENEATH|RESOLVE_NO_SYMLINKS), and the step acts on
//     the last component through that descriptor (openat with O_NOFOLLOW,
//     renameat, unlinkat, mkdirat), so nothing swapped in between a check
//     and the step can lead it elsewhere. Where openat2 is missing (another
//     system, a kernel before 5.6, a sandbox that filters it) each
//     component is checked with lstat before the step acts on the path:
//     the same rule, with a window between the check and the step.
//
// Dir itself is trusted: the caller resolved it (it may lie below a link,
// such as /tmp on macOS).
type Root struct {
	Dir  string
	held *held // the folders kept open (Hold); nil: each step opens its own
}

// abs is rel as a path, for messages and the fault hook.
func (r Root) abs(rel string) string { return filepath.Join(r.Dir, rel) }

// local cleans rel and refuses one that leaves the root; "." is the root.
func (r Root) local(rel string) (string, error) {
	if rel == "." {
		return rel, nil
	}
	if rel == "" || !filepath.IsLocal(rel) {
		return "", &fs.PathError{Op: "resolve", Path: r.abs(rel), Err: ErrOutside}
	}
	return filepath.Clean(rel), nil
}

// at opens the folder holding rel's last component; the caller closes it.
func (r Root) at(rel string) (handle, string, error) {
	rel, err := r.local(rel)
	if err != nil {
		return nil, "", err
	}
	if rel == "." {
		return nil, "", &fs.PathError{Op: "resolve", Path: r.Dir, Err: errors.New("names the root itself")}
	}
	h, err := r.openHeld(filepath.Dir(rel))
	if err != nil {
		return nil, "", err
	}
	return h, filepath.Base(rel), nil
}

// handle is an open folder beneath a Root. Every method acts on one name
// in it and never follows a symbolic link that name is.
type handle interface {
	path() string
	open(name string, flag int, perm fs.FileMode) (*os.File, error)
	lstat(name string) (fs.FileMode, error)
	mkdir(name string) error
	rename(name string, to handle, toName string) error
	remove(name string) error
	sub(name string) (handle, error)
	names() ([]string, error)
	sync() error
	close()
}

// Lstat returns the type bits of rel (never following a link);
// fs.ErrNotExist when it, or a folder on its way, is missing.
func (r Root) Lstat(rel string) (fs.FileMode, error) {
	if rel == "." {
		h, err := openDir(r.Dir, ".")
		if err != nil {
			return 0, err
		}
		h.close()
		return fs.ModeDir, nil
	}
	h, base, err := r.at(rel)
	if err != nil {
		return 0, err
	}
	defer h.close()
	return h.lstat(base)
}

// ReadFile reads the regular file rel.
func (r Root) ReadFile(rel string) ([]byte, error) {
	h, base, err := r.at(rel)
	if err != nil {
		return nil, err
	}
	defer h.close()
	f, err := h.open(base, os.O_RDONLY, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, err
	} else if !st.Mode().IsRegular() {
		return nil, &fs.PathError{Op: "read", Path: r.abs(rel), Err: errNotRegular}
	}
	size := -1
	if st.Size() < 1<<31 {
		size = int(st.Size())
	}
	return readAll(f, size)
}

var errNotRegular = errors.New("not a regular file")

// ReadRange reads the bytes of the regular file rel from offset from up to
// to (fewer when the file ends first).
func (r Root) ReadRange(rel string, from, to int64) ([]byte, error) {
	h, base, err := r.at(rel)
	if err != nil {
		return nil, err
	}
	defer h.close()
	f, err := h.open(base, os.O_RDONLY, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	buf := make([]byte, max(to-from, 0))
	n, err := f.ReadAt(buf, from)
	if err != nil && !errors.Is(err, io.EOF) {
		return nil, err
	}
	return buf[:n], nil
}

// Stage is [Stage] beneath the root: the temp file is created in the
// folder that holds rel, and its Commit and Discard act beneath the root
// too.
func (r Root) Stage(rel string, data []byte, perm os.FileMode) (t *Temp, err error) {
	return r.stage(rel, data, perm, true)
}

// StageLazy is [Root.Stage] without the fsync: for a transaction whose
// write-ahead record carries the content, so that the record's one fsync
// makes the change durable and the file's own can wait (package state).
func (r Root) StageLazy(rel string, data []byte, perm os.FileMode) (t *Temp, err error) {
	return r.stage(rel, data, perm, false)
}

func (r Root) stage(rel string, data []byte, perm os.FileMode, durable bool) (t *Temp, err error) {
	target := r.abs(rel)
	h, base, err := r.at(rel)
	if err != nil {
		return nil, fmt.Errorf("write %s: %w", target, err)
	}
	defer h.close()
	if m, err := h.lstat(base); err == nil && m&fs.ModeSymlink != 0 {
		return nil, fmt.Errorf("write %s: %w", target, ErrSymlink)
	}
	if err := step(OpCreate, target); err != nil {
		return nil, fmt.Errorf("write %s: %w", target, err)
	}
	f, name, err := createTemp(h, base)
	if err != nil {
		return nil, fmt.Errorf("write %s: %w", target, err)
	}
	tempRel := filepath.Join(filepath.Dir(filepath.Clean(rel)), name)
	defer func() {
		if err != nil {
			_ = f.Close()
			_ = h.remove(name)
		}
	}()
	if err = step(OpWrite, target); err == nil {
		if !durable {
			preallocate(f, len(data)) // the fsync of a durable one allocates it anyway
		}
		_, err = f.Write(data)
	}
	if err == nil {
		err = f.Chmod(perm)
	}
	if err != nil {
		return nil, fmt.Errorf("write %s: %w", target, err)
	}
	if durable {
		if err = step(OpSync, target); err == nil {
			err = fsync(f)
		}
		if err != nil {
			return nil, fmt.Errorf("write %s: fsync: %w", target, err)
		}
	}
	if err = f.Close(); err != nil {
		return nil, fmt.Errorf("write %s: %w", target, err)
	}
	return &Temp{Path: r.abs(tempRel), Target: target, root: &r, rel: tempRel, targetRel: filepath.Clean(rel)}, nil
}

// createTemp creates ".<base>.tmp-<digits>" in h, as os.CreateTemp would.
func createTemp(h handle, base string) (*os.File, string, error) {
	prefix := base
	if len(prefix) > MaxTempBase {
		prefix = prefix[:MaxTempBase]
	}
	for range 10000 {
		name := "." + prefix + tempInfix + strconv.FormatUint(uint64(rand.Uint32()), 10)
		f, err := h.open(name, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o600)
		if errors.Is(err, fs.ErrExist) {
			continue
		}
		return f, name, err
	}
	return nil, "", &fs.PathError{Op: "createtemp", Path: filepath.Join(h.path(), "."+prefix+tempInfix+"*"), Err: fs.ErrExist}
}

// Create is [Create] beneath the root.
func (r Root) Create(rel string, data []byte, perm os.FileMode) (err error) {
	path := r.abs(rel)
	if err := step(OpCreate, path); err != nil {
		return err
	}
	h, base, err := r.at(rel)
	if err != nil {
		return err
	}
	defer h.close()
	f, err := h.open(base, os.O_WRONLY|os.O_CREATE|os.O_EXCL, perm)
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			_ = f.Close()
			_ = h.remove(base)
		}
	}()
	return fill(f, path, data)
}

// OpenAppend is [OpenAppend] beneath the root.
func (r Root) OpenAppend(rel string) (*Appender, error) {
	path := r.abs(rel)
	h, base, err := r.at(rel)
	if err != nil {
		return nil, fmt.Errorf("append %s: %w", path, err)
	}
	defer h.close()
	if err := step(OpOpenAppend, path); err != nil {
		return nil, fmt.Errorf("append %s: %w", path, err)
	}
	f, err := h.open(base, os.O_WRONLY, 0)
	if err != nil {
		return nil, fmt.Errorf("append %s: %w", path, err)
	}
	st, err := f.Stat()
	if err == nil && !st.Mode().IsRegular() {
		err = errNotRegular
	}
	if err != nil {
		_ = f.Close()
		return nil, fmt.Errorf("append %s: %w", path, err)
	}
	return &Appender{f: f, Path: path, Size: st.Size()}, nil
}

// Rename is [Rename] beneath the root: both names are resolved beneath
// it, and newRel, when it exists, is replaced (a link there is refused).
func (r Root) Rename(oldRel, newRel string) error {
	newPath := r.abs(newRel)
	from, oldBase, err := r.at(oldRel)
	if err != nil {
		return err
	}
	defer from.close()
	to, newBase, err := r.at(newRel)
	if err != nil {
		return err
	}
	defer to.close()
	if m, err := to.lstat(newBase); err == nil && m&fs.ModeSymlink != 0 {
		return &fs.PathError{Op: "rename", Path: newPath, Err: ErrSymlink}
	}
	if err := step(OpRename, newPath); err != nil {
		return err
	}
	r.forget(oldRel)
	r.forget(newRel)
	return from.rename(oldBase, to, newBase)
}

// Remove is [Remove] beneath the root: a file or an empty folder, and a
// missing one (or a missing folder on its way) is no error.
func (r Root) Remove(rel string) error {
	if err := step(OpRemove, r.abs(rel)); err != nil {
		return err
	}
	h, base, err := r.at(rel)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	defer h.close()
	r.forget(rel)
	return ignoreMissing(h.remove(base))
}

// RemoveAll is [RemoveAll] beneath the root: rel and everything under
// it, entry by entry, never following a link (a link is removed, not what
// it points to). A missing rel is no error.
func (r Root) RemoveAll(rel string) error {
	h, base, err := r.at(rel)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	defer h.close()
	r.forget(rel)
	return removeAllIn(h, base)
}

func removeAllIn(h handle, name string) error {
	m, err := h.lstat(name)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	if m.IsDir() {
		sub, err := h.sub(name)
		if err != nil {
			return err
		}
		names, err := sub.names()
		for _, n := range names {
			if err == nil {
				err = removeAllIn(sub, n)
			}
		}
		sub.close()
		if err != nil {
			return err
		}
	}
	if err := step(OpRemove, filepath.Join(h.path(), name)); err != nil {
		return err
	}
	return ignoreMissing(h.remove(name))
}

func ignoreMissing(err error) error {
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	return err
}

// MkdirAll is [MkdirAll] beneath the root: it creates the folder rel and
// the missing folders on its way, fsyncing the parent of each, and returns
// the ones it created (relative to the root), outermost first.
func (r Root) MkdirAll(rel string) (created []string, err error) {
	return r.mkdirAll(rel, true)
}

// MkdirAllLazy is [Root.MkdirAll] without the fsyncs of the parents: for a
// transaction whose write-ahead record lets a recovery create the folders
// again (package state).
func (r Root) MkdirAllLazy(rel string) (created []string, err error) {
	return r.mkdirAll(rel, false)
}

func (r Root) mkdirAll(rel string, durable bool) (created []string, err error) {
	rel, err = r.local(rel)
	if err != nil || rel == "." {
		return nil, err
	}
	h, err := openDir(r.Dir, ".")
	if err != nil {
		return nil, err
	}
	done := ""
	for _, part := range splitPath(rel) {
		cur := filepath.Join(done, part)
		next, err := h.sub(part)
		if errors.Is(err, fs.ErrNotExist) {
			err = step(OpMkdir, r.abs(cur))
			if err == nil {
				err = h.mkdir(part)
			}
			if err == nil || errors.Is(err, fs.ErrExist) {
				if err == nil {
					created = append(created, cur)
					if durable {
						if err = step(OpSyncDir, r.abs(done)); err == nil && dirSync {
							err = h.sync()
						}
					}
				}
				if err == nil {
					next, err = h.sub(part)
				}
			}
		}
		h.close()
		if err != nil {
			return created, fmt.Errorf("mkdir %s: %w", r.abs(rel), err)
		}
		h, done = next, cur
	}
	h.close()
	return created, nil
}

// splitPath splits a clean relative path into its components.
func splitPath(rel string) []string {
	var parts []string
	for rel != "." && rel != "" {
		dir, base := filepath.Split(rel)
		parts = append([]string{base}, parts...)
		rel = filepath.Clean(dir)
	}
	return parts
}

// SyncDir is [SyncDir] for the folder rel ("." is the root).
func (r Root) SyncDir(rel string) error {
	if !dirSync {
		return nil
	}
	rel, err := r.local(rel)
	if err != nil {
		return err
	}
	if err := step(OpSyncDir, r.abs(rel)); err != nil {
		return err
	}
	h, err := openDir(r.Dir, rel)
	if err != nil {
		return err
	}
	defer h.close()
	return h.sync()
}

// SyncFile fsyncs the regular file rel, so what was written to it is
// durable; a missing file (removed since) is no error.
func (r Root) SyncFile(rel string) error {
	if err := step(OpSync, r.abs(rel)); err != nil {
		return err
	}
	h, base, err := r.at(rel)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	defer h.close()
	f, err := h.open(base, syncOpenFlag, 0)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	err = fsync(f)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// OpenLog opens the append-only file rel for reading and writing, creating
// it (mode perm) when missing; created says it did. The caller positions
// each write itself ([Appender.Size]).
func (r Root) OpenLog(rel string, perm os.FileMode) (a *Appender, created bool, err error) {
	path := r.abs(rel)
	h, base, err := r.at(rel)
	if err != nil {
		return nil, false, fmt.Errorf("open %s: %w", path, err)
	}
	defer h.close()
	if err := step(OpOpenAppend, path); err != nil {
		return nil, false, fmt.Errorf("open %s: %w", path, err)
	}
	f, err := h.open(base, os.O_RDWR, 0)
	if errors.Is(err, fs.ErrNotExist) {
		if err = step(OpCreate, path); err == nil {
			f, err = h.open(base, os.O_RDWR|os.O_CREATE|os.O_EXCL, perm)
			created = err == nil
		}
	}
	if err != nil {
		return nil, false, fmt.Errorf("open %s: %w", path, err)
	}
	st, err := f.Stat()
	if err == nil && !st.Mode().IsRegular() {
		err = errNotRegular
	}
	if err != nil {
		_ = f.Close()
		return nil, false, fmt.Errorf("open %s: %w", path, err)
	}
	return &Appender{f: f, Path: path, Size: st.Size()}, created, nil
}

// Probe is [Probe] for the folder rel ("." is the root).
func (r Root) Probe(rel string) error {
	rel, err := r.local(rel)
	if err != nil {
		return err
	}
	if err := step(OpCreate, r.abs(rel)); err != nil {
		return err
	}
	h, err := openDir(r.Dir, rel)
	if err != nil {
		return err
	}
	defer h.close()
	f, name, err := createTemp(h, "probe")
	if err != nil {
		return err
	}
	_ = f.Close()
	return h.remove(name)
}

// walkedDir is the portable handle: a folder reached by checking every
// component with lstat, acting on paths.
type walkedDir struct{ dir string }

// openWalked opens rel beneath root by checking each component: a
// folder, not a link.
func openWalked(root, rel string) (handle, error) {
	h := walkedDir{root}
	if rel == "." {
		if st, err := os.Stat(root); err != nil {
			return nil, err
		} else if !st.IsDir() {
			return nil, &fs.PathError{Op: "open", Path: root, Err: errors.New("not a directory")}
		}
		return h, nil
	}
	for _, part := range splitPath(rel) {
		next, err := h.sub(part)
		if err != nil {
			return nil, err
		}
		h = next.(walkedDir)
	}
	return h, nil
}

func (w walkedDir) path() string { return w.dir }

func (w walkedDir) open(name string, flag int, perm fs.FileMode) (*os.File, error) {
	p := filepath.Join(w.dir, name)
	if m, err := w.lstat(name); err == nil && m&fs.ModeSymlink != 0 {
		return nil, &fs.PathError{Op: "open", Path: p, Err: ErrSymlink}
	}
	if flag == os.O_RDONLY {
		return Open(p) // delete sharing on Windows
	}
	f, err := os.OpenFile(p, flag|oNoFollow, perm)
	if err != nil && isNoFollowErr(p, err) {
		return nil, &fs.PathError{Op: "open", Path: p, Err: ErrSymlink}
	}
	return f, err
}

func (w walkedDir) lstat(name string) (fs.FileMode, error) {
	st, err := os.Lstat(filepath.Join(w.dir, name))
	if err != nil {
		return 0, err
	}
	return st.Mode().Type(), nil
}

func (w walkedDir) mkdir(name string) error { return os.Mkdir(filepath.Join(w.dir, name), 0o755) }

func (w walkedDir) rename(name string, to handle, toName string) error {
	return renameRetrying(filepath.Join(w.dir, name), filepath.Join(to.path(), toName))
}

func (w walkedDir) remove(name string) error { return os.Remove(filepath.Join(w.dir, name)) }

func (w walkedDir) sub(name string) (handle, error) {
	p := filepath.Join(w.dir, name)
	st, err := os.Lstat(p)
	switch {
	case err != nil:
		return nil, err
	case st.Mode()&fs.ModeSymlink != 0:
		return nil, &fs.PathError{Op: "open", Path: p, Err: ErrSymlink}
	case !st.IsDir():
		return nil, &fs.PathError{Op: "open", Path: p, Err: errors.New("not a directory")}
	}
	return walkedDir{p}, nil
}

func (w walkedDir) names() ([]string, error) {
	entries, err := os.ReadDir(w.dir)
	out := make([]string, 0, len(entries))
	for _, e := range entries {
		out = append(out, e.Name())
	}
	return out, err
}

func (w walkedDir) sync() error { return syncDirPath(w.dir) }

func (w walkedDir) close() {}

// Unmake removes rel, a file or an empty folder the caller created, to
// undo a failed step: without the fault hook, and a missing one is no
// error.
func (r Root) Unmake(rel string) error {
	h, base, err := r.at(rel)
	if err != nil {
		return ignoreMissing(err)
	}
	defer h.close()
	r.forget(rel)
	return ignoreMissing(h.remove(base))
}
