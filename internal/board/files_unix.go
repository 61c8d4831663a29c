//go:build unix

package board

import (
	"errors"
	"fmt"
	"path/filepath"

	"golang.org/x/sys/unix"

	"github.com/orc-state/orc-state/internal/state"
)

// sessionFiles is one session's files folder, open for reading by name.
// On unix it is a descriptor read with plain system calls: openat with
// O_NOFOLLOW and fstat, never the runtime's poller. Through os.Root every
// file cost about ten system calls (the poller's registration, refused
// for a regular file, among them); here it costs four, and a board reads
// five files of every session.
type sessionFiles struct{ fd int }

// openFiles opens session id's files folder after checking that neither it
// nor its session folder is a symlink (or anything but a folder): as the
// state dir's readers do, the board reads through no symlink. A session
// without a folder is (nil, nil).
func openFiles(d *state.Dir, id string) (*sessionFiles, error) {
	const dirFlags = unix.O_RDONLY | unix.O_DIRECTORY | unix.O_NOFOLLOW | unix.O_CLOEXEC
	session := filepath.Join(d.Path, id)
	top, err := openNoIntr(unix.AT_FDCWD, session, dirFlags)
	if err != nil {
		return nil, folderError(session, err)
	}
	fd, err := openNoIntr(top, filepath.Base(d.FilesDir(id)), dirFlags)
	_ = unix.Close(top)
	if err != nil {
		return nil, folderError(d.FilesDir(id), err)
	}
	return &sessionFiles{fd: fd}, nil
}

// folderError is (nil) for a folder that is not there, else why it cannot
// be read.
func folderError(path string, err error) error {
	switch {
	case errors.Is(err, unix.ENOENT):
		return nil
	case errors.Is(err, unix.ELOOP), errors.Is(err, unix.ENOTDIR):
		return fmt.Errorf("%s is not a folder", path)
	}
	return fmt.Errorf("%s: %w", path, err)
}

func (f *sessionFiles) Close() error { return unix.Close(f.fd) }

// read reads the regular file name: nil and true when there is none (or no
// folder: f is nil), false when it cannot be read or is not a regular
// file (a symlink included). O_NONBLOCK keeps a FIFO from blocking the
// open; fstat then refuses it.
func (f *sessionFiles) read(name string) ([]byte, bool) {
	if f == nil {
		return nil, true
	}
	fd, err := openNoIntr(f.fd, name, unix.O_RDONLY|unix.O_NOFOLLOW|unix.O_NONBLOCK|unix.O_CLOEXEC)
	if errors.Is(err, unix.ENOENT) {
		return nil, true
	}
	if err != nil {
		return nil, false
	}
	defer unix.Close(fd)
	var st unix.Stat_t
	if err := unix.Fstat(fd, &st); err != nil || st.Mode&unix.S_IFMT != unix.S_IFREG {
		return nil, false
	}
	buf := make([]byte, 0, int(st.Size)+1) // one more byte: the read that sees the end
	for {
		n, err := unix.Read(fd, buf[len(buf):cap(buf)])
		if errors.Is(err, unix.EINTR) {
			continue
		}
		if err != nil {
			return nil, false
		}
		if n == 0 {
			return buf, true
		}
		buf = buf[:len(buf)+n]
		if len(buf) == cap(buf) { // grown since the fstat
			buf = append(buf, 0)[:len(buf)]
		}
	}
}

func openNoIntr(dir int, name string, flags int) (int, error) {
	for {
		fd, err := unix.Openat(dir, name, flags, 0)
		if !errors.Is(err, unix.EINTR) {
			return fd, err
		}
	}
}
