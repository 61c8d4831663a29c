package state

import (
	"path/filepath"

	"github.com/orc-state/orc-state/internal/fault"
	"github.com/orc-state/orc-state/internal/journal"
	"github.com/orc-state/orc-state/internal/secrets"
)

// refuseCredentials is the credential guard's last line (docs/protocol.md §4,
// "Secrets stay out"): before anything is written it scans every byte the
// transaction would put under the state dir, in every decoded reading
// (JSON and percent escapes): each path it creates, each staged file, each
// append and tombstone, each journal line's arguments and actor, and the
// registry entries it changes. Verbs refuse credential-shaped input earlier
// with their own words; this catches whatever reaches a file by another way.
//
// A credential that was on disk before the transaction (let in by an older
// release) is not refused again, so the session stays usable until
// `repair --redact` removes it; only a new one is.
func (tx *Tx) refuseCredentials() error {
	g := guard{tx: tx}
	for _, path := range tx.order {
		if err := g.name(path); err != nil {
			return err
		}
		if err := g.content(tx.staged[path], path); err != nil {
			return err
		}
	}
	for _, a := range tx.appends {
		if err := g.name(a.path); err != nil {
			return err
		}
		if err := g.content(a.data, a.path); err != nil {
			return err
		}
	}
	for _, r := range tx.renames {
		if err := g.name(filepath.Join(tx.dir.Path, r[1])); err != nil {
			return err
		}
	}
	for _, t := range tx.tombs {
		if err := g.content(t, filepath.Join(tx.dir.Path, RemovedFile)); err != nil {
			return err
		}
	}
	for id, args := range tx.touched {
		if err := g.name(tx.dir.FilesDir(id)); err != nil {
			return err
		}
		if err := g.content(append(args, tx.opts.Actor...), tx.dir.File(id, journal.FileName)); err != nil {
			return err
		}
	}
	if tx.regDirty && tx.Reg != nil {
		if tx.opts.RawRegistry { // migrate rewrites every entry
			data, err := tx.Reg.Marshal()
			if err != nil {
				return err
			}
			return g.content(data, tx.dir.RegistryPath())
		}
		for id := range tx.touched {
			if s := findID(tx.Reg, id); s != nil {
				if err := g.content(s.Canonical(), tx.dir.RegistryPath()); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// guard holds, once it is needed, the fingerprints of the credentials
// already on disk in the files the transaction rewrites.
type guard struct {
	tx     *Tx
	before map[[32]byte]bool
}

// name refuses a path (relative to the state dir) that holds a credential.
func (g *guard) name(path string) error {
	rel, err := filepath.Rel(g.tx.dir.Path, path)
	if err != nil {
		rel = path
	}
	if kind, _, ok := secrets.FindDecoded([]byte(rel)); ok {
		return fault.Usagef("a file name would hold a credential (%s); nothing was written", kind).
			WithHint("name files after what they hold, never after a secret")
	}
	return nil
}

// content refuses data bound for path when it holds a credential that was
// not on disk before.
func (g *guard) content(data []byte, path string) error {
	for _, m := range secrets.All(data) {
		if g.known(m.Sum) {
			continue
		}
		rel, err := filepath.Rel(g.tx.dir.Path, path)
		if err != nil {
			rel = filepath.Base(path)
		}
		return fault.Usagef("%s would hold a credential (%s); nothing was written", filepath.ToSlash(rel), m.Kind).
			WithHint("remove the secret from the input and retry; refer to it by name (an environment variable), never by value")
	}
	return nil
}

// known reports whether a credential with this fingerprint is already in
// orc.json or in the old version of a file the transaction writes.
func (g *guard) known(sum [32]byte) bool {
	if g.before == nil {
		g.before = map[[32]byte]bool{}
		paths := append([]string{g.tx.dir.RegistryPath()}, g.tx.order...)
		for _, a := range g.tx.appends {
			paths = append(paths, a.path)
		}
		for id := range g.tx.touched {
			paths = append(paths, g.tx.dir.File(id, journal.FileName))
		}
		for _, p := range paths {
			old, err := g.tx.dir.readInside(p)
			if err != nil {
				continue
			}
			for _, m := range secrets.All(old) {
				g.before[m.Sum] = true
			}
		}
		if g.tx.Raw != nil {
			for _, m := range secrets.All(g.tx.Raw) {
				g.before[m.Sum] = true
			}
		}
	}
	return g.before[sum]
}
