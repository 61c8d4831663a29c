//go:build linux

package atomicfile

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"sync/atomic"

	"golang.org/x/sys/unix"
)

// noOpenat2 is set once openat2 turned out to be missing (a kernel before
// 5.6, or a sandbox that filters the call): every later resolution walks.
var noOpenat2 atomic.Bool

// beneath is how a folder beneath a root is resolved: never through a
// symbolic link, never out of the root ("..", an absolute link, a mount
// crossing is no escape either: RESOLVE_BENEATH refuses them all).
const beneath = unix.RESOLVE_BENEATH | unix.RESOLVE_NO_SYMLINKS

// openDir opens the folder rel beneath root with openat2, so every later
// step acts through a descriptor of the folder that was checked.
func openDir(root, rel string) (handle, error) {
	if noOpenat2.Load() {
		return openWalked(root, rel)
	}
	rfd, err := openRetrying(func() (int, error) {
		return unix.Open(root, unix.O_PATH|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	})
	if err != nil {
		return nil, &fs.PathError{Op: "open", Path: root, Err: err}
	}
	if rel == "." {
		return fdDir{rfd, root}, nil
	}
	how := &unix.OpenHow{Flags: unix.O_PATH | unix.O_DIRECTORY | unix.O_CLOEXEC, Resolve: beneath}
	fd, err := openRetrying(func() (int, error) { return unix.Openat2(rfd, rel, how) })
	_ = unix.Close(rfd)
	if errors.Is(err, unix.ENOSYS) || errors.Is(err, unix.EPERM) {
		noOpenat2.Store(true)
		return openWalked(root, rel)
	}
	if err != nil {
		return nil, &fs.PathError{Op: "open", Path: filepath.Join(root, rel), Err: resolveErr(err)}
	}
	return fdDir{fd, filepath.Join(root, rel)}, nil
}

// openRetrying retries an open interrupted by a signal, and an openat2
// that saw a concurrent rename under the root (EAGAIN) a few times.
func openRetrying(open func() (int, error)) (int, error) {
	for again := 0; ; {
		fd, err := open()
		switch {
		case err == unix.EINTR:
			continue
		case err == unix.EAGAIN && again < 16:
			again++
			continue
		}
		return fd, err
	}
}

// resolveErr names what openat2 refused: a symbolic link on the way
// (ELOOP with RESOLVE_NO_SYMLINKS), or a way out of the root (EXDEV).
func resolveErr(err error) error {
	switch {
	case errors.Is(err, unix.ELOOP):
		return ErrSymlink
	case errors.Is(err, unix.EXDEV):
		return ErrOutside
	}
	return err
}

// fdDir is a folder open as an O_PATH descriptor; name is its path, for
// messages.
type fdDir struct {
	fd   int
	name string
}

func (d fdDir) path() string { return d.name }

func (d fdDir) err(op, name string, err error) error {
	if errors.Is(err, unix.ELOOP) {
		err = ErrSymlink
	}
	return &fs.PathError{Op: op, Path: filepath.Join(d.name, name), Err: err}
}

func (d fdDir) open(name string, flag int, perm fs.FileMode) (*os.File, error) {
	fd, err := openRetrying(func() (int, error) {
		return unix.Openat(d.fd, name, flag|unix.O_NOFOLLOW|unix.O_CLOEXEC, uint32(perm.Perm()))
	})
	if err != nil {
		return nil, d.err("open", name, err)
	}
	return os.NewFile(uintptr(fd), filepath.Join(d.name, name)), nil
}

func (d fdDir) lstat(name string) (fs.FileMode, error) {
	var st unix.Stat_t
	if err := unix.Fstatat(d.fd, name, &st, unix.AT_SYMLINK_NOFOLLOW); err != nil {
		return 0, d.err("lstat", name, err)
	}
	switch st.Mode & unix.S_IFMT {
	case unix.S_IFDIR:
		return fs.ModeDir, nil
	case unix.S_IFLNK:
		return fs.ModeSymlink, nil
	case unix.S_IFREG:
		return 0, nil
	}
	return fs.ModeIrregular, nil
}

func (d fdDir) mkdir(name string) error {
	if err := unix.Mkdirat(d.fd, name, 0o755); err != nil {
		return d.err("mkdir", name, err)
	}
	return nil
}

func (d fdDir) rename(name string, to handle, toName string) error {
	t, ok := unkept(to).(fdDir)
	if !ok {
		return renameRetrying(filepath.Join(d.name, name), filepath.Join(to.path(), toName))
	}
	if err := unix.Renameat(d.fd, name, t.fd, toName); err != nil {
		return &os.LinkError{Op: "rename", Old: filepath.Join(d.name, name), New: filepath.Join(t.name, toName), Err: err}
	}
	return nil
}

func (d fdDir) remove(name string) error {
	err := unix.Unlinkat(d.fd, name, 0)
	if errors.Is(err, unix.EISDIR) {
		err = unix.Unlinkat(d.fd, name, unix.AT_REMOVEDIR)
	}
	if err != nil {
		return d.err("remove", name, err)
	}
	return nil
}

func (d fdDir) sub(name string) (handle, error) {
	fd, err := openRetrying(func() (int, error) {
		return unix.Openat(d.fd, name, unix.O_PATH|unix.O_DIRECTORY|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
	})
	if err != nil {
		if errors.Is(err, unix.ENOTDIR) {
			if m, lerr := d.lstat(name); lerr == nil && m&fs.ModeSymlink != 0 {
				err = ErrSymlink
			}
		}
		return nil, d.err("open", name, err)
	}
	return fdDir{fd, filepath.Join(d.name, name)}, nil
}

// readable reopens the folder for reading (an O_PATH descriptor can name
// it, not list or fsync it).
func (d fdDir) readable() (*os.File, error) {
	fd, err := openRetrying(func() (int, error) {
		return unix.Openat(d.fd, ".", unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	})
	if err != nil {
		return nil, &fs.PathError{Op: "open", Path: d.name, Err: err}
	}
	return os.NewFile(uintptr(fd), d.name), nil
}

func (d fdDir) names() ([]string, error) {
	f, err := d.readable()
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return f.Readdirnames(-1)
}

func (d fdDir) sync() error {
	f, err := d.readable()
	if err != nil {
		return err
	}
	err = fsync(f)
	if unsupportedSync(err) {
		err = nil
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

func (d fdDir) close() { _ = unix.Close(d.fd) }
