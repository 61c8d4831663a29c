package atomicfile

import (
	"path/filepath"
	"strings"
	"sync"
)

// held keeps the folders a Root's steps opened, by their path relative to
// the root, until it is released: a transaction acts on a handful of files
// in two or three folders, and opening the folder anew for every step (the
// root, then the folder beneath it, then closing both) was most of its
// system calls.
type held struct {
	mu       sync.Mutex // a verb may read from goroutines while the lock is held
	dirs     map[string]handle
	released bool
}

// keptDir is a folder of a held Root: a step's close leaves it open.
type keptDir struct{ handle }

func (keptDir) close() {}

// unkept is the folder h keeps, or h itself.
func unkept(h handle) handle {
	if k, ok := h.(keptDir); ok {
		return k.handle
	}
	return h
}

// Hold returns r with the folders its steps open kept open, and the
// function that closes them (after which r opens each folder anew again).
// A folder is resolved beneath the root (no link, not out of it) when it
// is first opened; a later step acts through that descriptor, as every
// step does on the folder it opened. Renaming or removing a folder, or
// anything holding it, forgets it and what is beneath it, so a later step
// resolves the path again. Safe for the goroutines of the lock's holder;
// a step in one goroutine that renames a folder another is writing in is
// the caller's race, as without Hold.
func (r Root) Hold() (Root, func()) {
	h := &held{dirs: map[string]handle{}}
	r.held = h
	return r, func() {
		h.mu.Lock()
		defer h.mu.Unlock()
		for _, d := range h.dirs {
			d.close()
		}
		h.dirs, h.released = nil, true
	}
}

// openHeld opens the folder rel beneath the root, or returns the one held.
func (r Root) openHeld(rel string) (handle, error) {
	if r.held == nil {
		return openDir(r.Dir, rel)
	}
	r.held.mu.Lock()
	defer r.held.mu.Unlock()
	if r.held.released {
		return openDir(r.Dir, rel)
	}
	if d, ok := r.held.dirs[rel]; ok {
		return keptDir{d}, nil
	}
	d, err := openDir(r.Dir, rel)
	if err != nil {
		return nil, err
	}
	r.held.dirs[rel] = d
	return keptDir{d}, nil
}

// forget closes and drops the held folders at or beneath rel: rel was
// renamed or removed, and its path may now name another folder, or none.
func (r Root) forget(rel string) {
	if r.held == nil {
		return
	}
	r.held.mu.Lock()
	defer r.held.mu.Unlock()
	if r.held.released {
		return
	}
	rel = filepath.Clean(rel)
	for name, d := range r.held.dirs {
		if rel == "." || name == rel || strings.HasPrefix(name, rel+string(filepath.Separator)) {
			d.close()
			delete(r.held.dirs, name)
		}
	}
}

// Resolved reports whether the folder rel, or a folder beneath it, is
// held open (Hold): it was resolved beneath the root through no link, so
// rel is a folder and no link, and no step renamed or removed it, or
// anything holding it, since.
func (r Root) Resolved(rel string) bool {
	if r.held == nil {
		return false
	}
	r.held.mu.Lock()
	defer r.held.mu.Unlock()
	if r.held.released {
		return false
	}
	rel = filepath.Clean(rel)
	for name := range r.held.dirs {
		if name == rel || strings.HasPrefix(name, rel+string(filepath.Separator)) {
			return true
		}
	}
	return false
}
