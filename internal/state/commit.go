package state

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"syscall"

	"github.com/orc-state/orc-state/internal/atomicfile"
	"github.com/orc-state/orc-state/internal/fault"
	"github.com/orc-state/orc-state/internal/journal"
)

// plan is what a transaction writes, in the order it writes it. Paths are
// absolute and final (where the file is once the folder moves are done).
type plan struct {
	writes   []fileWrite // replaced or created files: temp, then rename
	appends  []appendReq // existing append-only files, extended in place
	moves    [][2]string // session folders renamed (migrate), relative names
	removes  []string    // files removed
	folders  []string    // folders removed
	sessions []string
	// purge says the transaction rewrites an append-only file (a
	// redaction): the log, whose earlier records hold the old bytes, is
	// checkpointed and removed right after it.
	purge bool
}

type fileWrite struct {
	path string
	data []byte
}

// commit writes what the transaction staged (see the package doc for the
// order and what a failure at each point leaves).
func (tx *Tx) commit() error {
	if !tx.writes() {
		return nil
	}
	if err := tx.refuseCredentials(); err != nil {
		return err
	}
	p, err := tx.plan()
	if err != nil {
		return err
	}
	return tx.dir.run(tx.opts, p, tx.touched, tx.physical, tx.log)
}

// physical maps a final path to where it is before the transaction's folder
// moves (migrate stages files under a session's new folder name).
func (tx *Tx) physical(path string) string {
	for _, r := range tx.renames {
		newDir := filepath.Join(tx.dir.Path, r[1])
		if rel, err := filepath.Rel(newDir, path); err == nil && rel != ".." && !filepath.IsAbs(rel) && !startsDotDot(rel) {
			return filepath.Join(tx.dir.Path, r[0], rel)
		}
	}
	return path
}

// diskID is the folder a session's files are in before the transaction's
// folder moves.
func (tx *Tx) diskID(id string) string {
	for _, r := range tx.renames {
		if r[1] == id {
			return r[0]
		}
	}
	return id
}

func startsDotDot(rel string) bool {
	return len(rel) >= 2 && rel[:2] == ".." && (len(rel) == 2 || rel[2] == filepath.Separator)
}

// plan turns what fn staged into the transaction's writes: the journal line
// and anchor of each touched session, the registry, the appends and the
// removals. It reads what it needs (journal tails, anchors, the files an
// outside edit would have changed) before anything is written.
func (tx *Tx) plan() (*plan, error) {
	p := &plan{}
	if tx.regDirty {
		if err := tx.Reg.Validate(); err != nil {
			return nil, fault.Invalidf("refusing to write an invalid registry: %v", err)
		}
		data, proof, err := tx.Reg.MarshalProof()
		if err != nil {
			return nil, err
		}
		tx.stage(tx.dir.RegistryPath(), data)
		// Validated above and rendered by Marshal: the proof may vouch for
		// these bytes (registry.Read). Written in the same transaction, so
		// the two land together or are completed together by repair.
		tx.stage(filepath.Join(tx.dir.Path, ProofFile), proof)
	}
	var appendOrder []string
	pending := map[string][]byte{}
	addAppend := func(path string, data []byte) {
		if _, ok := pending[path]; !ok {
			appendOrder = append(appendOrder, path)
		}
		pending[path] = append(pending[path], data...)
	}
	for _, a := range tx.appends {
		addAppend(a.path, a.data)
	}
	for _, id := range sortedKeys(tx.touched) {
		if tx.removed[id] {
			continue
		}
		line, anchor, err := tx.journalLine(id)
		if err != nil {
			return nil, err
		}
		addAppend(tx.dir.File(id, journal.FileName), line)
		tx.Write(id, journal.AnchorName, anchor)
		p.sessions = append(p.sessions, id)
	}
	for _, t := range tx.tombs {
		addAppend(filepath.Join(tx.dir.Path, RemovedFile), t)
	}
	for _, path := range appendOrder {
		data := pending[path]
		if old, ok := tx.staged[path]; ok {
			tx.staged[path] = append(old[:len(old):len(old)], data...)
			continue
		}
		if _, err := os.Lstat(tx.physical(path)); errors.Is(err, fs.ErrNotExist) {
			tx.stage(path, data) // a new file has no earlier bytes to keep
			continue
		}
		p.appends = append(p.appends, appendReq{path, data})
	}
	// orc.json goes last: a reader sees session files no older than it.
	// Its proof follows it (a proof of bytes not yet in place vouches for
	// nothing, and a failure names orc.json first).
	removedPath := filepath.Join(tx.dir.Path, RemovedFile)
	for _, path := range tx.order {
		if base := filepath.Base(path); base == journal.FileName || base == ProgressFile || path == removedPath {
			if _, err := os.Lstat(tx.physical(path)); err == nil {
				p.purge = true
			}
		}
	}
	reg, proof := tx.dir.RegistryPath(), filepath.Join(tx.dir.Path, ProofFile)
	for _, path := range tx.order {
		if path != reg && path != proof {
			p.writes = append(p.writes, fileWrite{path, tx.staged[path]})
		}
	}
	for _, path := range [...]string{reg, proof} {
		if data, ok := tx.staged[path]; ok {
			p.writes = append(p.writes, fileWrite{path, data})
		}
	}
	p.moves = tx.renames
	for _, rel := range tx.deletes {
		p.removes = append(p.removes, filepath.Join(tx.dir.Path, rel))
	}
	for _, id := range sortedKeys(tx.removed) {
		p.folders = append(p.folders, filepath.Join(tx.dir.Path, id))
		p.sessions = append(p.sessions, id)
	}
	for _, rel := range tx.archives {
		p.folders = append(p.folders, filepath.Join(tx.dir.Path, rel))
	}
	for _, r := range tx.renames {
		p.sessions = append(p.sessions, r[0])
	}
	sort.Strings(p.sessions)
	return p, tx.safe(p)
}

// journalLine renders session id's next journal line and its new anchor.
// The line records the outside edits noticed before this change: files
// whose digests differ from the journal's last line, and a journal whose
// tip no longer matches its anchor.
func (tx *Tx) journalLine(id string) (line, anchor []byte, err error) {
	jpath := tx.dir.File(id, journal.FileName)
	if err := tx.dir.safePath(tx.physical(jpath)); err != nil {
		return nil, nil, err
	}
	var tail journal.Tail
	staged, replaced := tx.staged[jpath]
	if replaced {
		tail = journal.TailOf(staged)
	} else if tail, err = journal.ReadTail(tx.physical(jpath)); err != nil {
		return nil, nil, fault.Wrap(fault.Invalid, err, "cannot read the journal of %s", id)
	}
	judged := tail // what outside edits are judged against: the journal on disk
	if tx.rewritten[id] {
		if judged, err = journal.ReadTail(tx.physical(jpath)); err != nil {
			return nil, nil, fault.Wrap(fault.Invalid, err, "cannot read the journal of %s", id)
		}
	}
	outside, err := tx.outside(id, judged, replaced && !tx.rewritten[id])
	if err != nil {
		return nil, nil, err
	}
	after, err := digestsOf(tx.Reg, id, func(name string) ([]byte, error) { return tx.Read(id, name) })
	if err != nil {
		return nil, nil, err
	}
	line, e, err := tail.Next(journal.Entry{At: tx.dir.Now(), Actor: tx.opts.Actor, Verb: tx.opts.Verb,
		Args: tx.touched[id], Digests: after, Outside: outside})
	if err != nil {
		return nil, nil, err
	}
	raw := bytes.Trim(line, "\n") // e as encoded, without the newlines around it
	next := journal.Tail{Last: e, Raw: raw, Size: tail.Size + int64(len(line)), EndsClean: true}
	return line, journal.AnchorOf(next).Marshal(), nil
}

// outside names what changed outside orc-state since the journal's last
// line, before this transaction (nothing for a session replaced wholesale).
func (tx *Tx) outside(id string, tail journal.Tail, replaced bool) ([]string, error) {
	orig, noted := tx.original[id]
	if replaced || (noted && orig == "") || tail.Raw == nil {
		return nil, nil
	}
	now, err := digestsOf(tx.Reg, id, func(name string) ([]byte, error) { return tx.readDisk(tx.diskID(id), name) })
	if err != nil {
		return nil, err
	}
	if noted {
		now.Entry = orig
	}
	out := journal.Changed(tail.Last.Digests, now)
	anchor, err := readMaybe(tx.physical(tx.dir.File(id, journal.AnchorName)))
	if err != nil {
		return nil, fault.Wrap(fault.Invalid, err, "cannot read the journal anchor of %s", id)
	}
	if journal.CheckAnchor(anchor, tail) != nil {
		out = append(out, "journal")
	}
	return out, nil
}

// readMaybe reads a file; a missing one is nil.
func readMaybe(path string) ([]byte, error) {
	data, err := readRegular(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	return data, err
}

// safe refuses, before anything is written, a write that would go through
// a symlink or onto something that is not a regular file: a session
// folder, its files/ folder, or a target (the journal included) that leads
// outside the state dir.
func (tx *Tx) safe(p *plan) error {
	var paths []string
	for _, w := range p.writes {
		paths = append(paths, w.path, tx.physical(w.path))
	}
	for _, a := range p.appends {
		paths = append(paths, tx.physical(a.path))
	}
	paths = append(paths, p.removes...)
	seen := map[string]bool{}
	for _, path := range paths {
		if seen[path] {
			continue // a path and where it is before the moves are most often one
		}
		seen[path] = true
		if err := tx.dir.safePath(path); err != nil {
			return err
		}
	}
	for _, m := range p.moves {
		for _, name := range m {
			if err := tx.dir.walk(filepath.Join(tx.dir.Path, name), false); err != nil {
				return err
			}
		}
	}
	return nil
}

// largeFile is the size from which a new file is not carried in its
// record but made durable as a temp file, with its name, before the
// record: a large registry's orc.json (440 KB at 1,000 sessions, 4 MB at
// 10,000), which the record would copy and its fsync flush a second time.
// Small files (a one-session registry, every session file) ride in the
// record. Where one flush makes the temp durable (syncfs: two fsyncs for
// the mutation) the line is the log's checkpoint size; elsewhere the temp
// and its folder are fsynced one by one (three), so only a file of 1 MiB
// or more is worth them.
var largeFile = pick(atomicfile.CanSyncAll, 256<<10, 1<<20)

// prepared is what the transaction created before its commit point, so it
// can be undone.
type prepared struct {
	root      atomicfile.Root // the state dir, which every step stays beneath
	dirs      []string        // created, relative to root, outermost first
	temps     []*atomicfile.Temp
	appenders []*atomicfile.Appender
	appended  int // how many appenders appended
	log       *atomicfile.Appender
	logBefore int64 // the log's length before the record
	logEnd    int64 // and after it
	logMade   bool  // the log was created for the record
	recorded  bool  // the record is in the log
}

// run writes a plan: everything that can fail for want of space or
// permission happens before the first visible change, then the record
// (the one fsync), then the changes, then the record's marker. st is the
// log as finish read it under the same lock (nil: read it here).
func (d *Dir) run(opts Options, p *plan, args map[string]json.RawMessage, physical func(string) string, st *logState) (err error) {
	pr := &prepared{root: d.root()}
	defer func() {
		for _, a := range pr.appenders {
			_ = a.Close()
		}
		if pr.log != nil {
			_ = pr.log.Close()
		}
	}()
	if st == nil {
		read, err := d.readLog()
		if err != nil {
			return refused(err, "cannot read "+IntentFile)
		}
		st = &read
	}
	// Where the whole file system can be flushed at once (Linux's
	// syncfs), a checkpoint is that one flush, taken before the record
	// instead of after the change: it makes every earlier record's files
	// durable (and a large file's temp, and the log's own name), so the
	// record replaces the log's lines instead of following them.
	//
	// A redaction (purge) is the exception: its own record names what it
	// redacts (a file whose name held a credential is removed), so the log
	// is checkpointed right after it and removed; that flush after covers
	// the earlier records too, so a due log is not flushed before it.
	syncfs := atomicfile.CanSyncAll && BootID() != ""
	flush := syncfs && (len(p.moves) > 0 || p.large() || st.endsWithMove() || !p.purge && st.due())
	// Elsewhere: a folder move changes which paths the earlier records
	// name: those records are made durable first (nothing visible
	// changes), and this one right after its steps. (A folder removal
	// needs no such barrier: done again in order after a restart, the
	// records before it write into the folder, it removes the folder, the
	// records after it make it anew.) A redaction (purge) removes the log,
	// whose earlier records hold what it redacts.
	eager := BootID() == "" || !syncfs && (len(p.moves) > 0 || p.purge)
	if st.exists && eager {
		if err := d.syncLogged(*st); err != nil {
			return refused(err, "cannot make the earlier transactions durable")
		}
	}
	in, err := d.prepare(opts, p, args, physical, pr, *st, flush)
	if err != nil {
		if uerr := d.undo(pr); uerr != nil {
			return interrupted(opts.Verb, fmt.Errorf("%v (undoing it failed: %v)", err, uerr))
		}
		return err
	}
	// Commit point: from here on a failure leaves the record for repair.
	for _, s := range in.Steps {
		if s.Op == "append" {
			continue // done in prepare
		}
		if err := d.redo(s, false, false); err != nil {
			return interrupted(opts.Verb, err)
		}
	}
	marker, err := encodeMarker(in.Seq)
	if err == nil {
		pr.log.Size = pr.logEnd
		err = pr.log.Write(marker)
	}
	if err != nil {
		return interrupted(opts.Verb, err)
	}
	if syncfs && !p.purge {
		return nil // the next due checkpoint is the next transaction's flush
	}
	// The checkpoint: after the change, so that a refused transaction
	// leaves the log as it was. The record is durable already: a
	// checkpoint that fails here leaves the log, whose records keep the
	// change, and the next writer checkpoints it.
	after := *st
	after.txs = append(append([]*Intent{}, st.txs...), in)
	after.size = pr.logEnd
	if eager {
		after.txs = []*Intent{in} // the earlier ones were synced before
	}
	if eager || p.purge || after.due() {
		// The log's handle is closed first: Windows refuses to remove a
		// file that is open (Go opens files without delete sharing there).
		_ = pr.log.Close()
		pr.log = nil
		_ = d.checkpoint(after)
	}
	return nil
}

// large reports whether the plan writes a file of largeFile bytes or more.
func (p *plan) large() bool {
	for _, w := range p.writes {
		if len(w.data) >= largeFile {
			return true
		}
	}
	return false
}

// prepare proves every target writable, stages every new file, writes the
// record (with every new content and every appended byte) and fsyncs it,
// then makes the appends (which it can still cut back). Nothing it does is
// visible except the appends and new empty folders, and undo removes
// them.
func (d *Dir) prepare(opts Options, p *plan, args map[string]json.RawMessage, physical func(string) string, pr *prepared, st logState, flush bool) (*Intent, error) {
	in := &Intent{loaded: true, Boot: BootID(), Seq: st.nextSeq(), Verb: opts.Verb, Actor: opts.Actor, At: d.Now(), PID: os.Getpid(), Sessions: p.sessions, Args: args}
	syncAfter := map[string]bool{}
	syncBefore := map[string]bool{}
	for _, w := range p.writes {
		phys := physical(w.path)
		rel, err := d.inside(phys)
		if err != nil {
			return nil, err
		}
		created, err := pr.root.MkdirAllLazy(filepath.Dir(rel))
		pr.dirs = append(pr.dirs, created...)
		if err != nil {
			return nil, refused(err, "cannot create "+filepath.Dir(phys))
		}
		for _, c := range created {
			syncAfter[filepath.Join(d.Path, filepath.Dir(c))] = true
		}
		stage := pr.root.StageLazy
		if len(w.data) >= largeFile && !flush {
			// Not carried in the record: fsynced itself, its name too.
			stage = pr.root.Stage
			syncBefore[filepath.Dir(phys)] = true
		}
		t, err := stage(rel, w.data, 0o644)
		if err != nil {
			return nil, refused(err, "cannot write "+w.path)
		}
		pr.temps = append(pr.temps, t)
		syncAfter[filepath.Dir(w.path)] = true
	}
	// The record lists the folder moves first: the appends (made before
	// the commit point, where the files are then) and the renames name the
	// files where they are after the moves, so doing the steps again in
	// order works whether or not a move had happened.
	for _, m := range p.moves {
		in.Steps = append(in.Steps, Step{Op: "move", Path: m[0], To: m[1]})
		syncAfter[d.Path] = true
	}
	for _, a := range p.appends {
		rel, err := d.inside(physical(a.path))
		if err != nil {
			return nil, err
		}
		ap, err := pr.root.OpenAppend(rel)
		if err != nil {
			return nil, refused(err, "cannot append to "+a.path)
		}
		pr.appenders = append(pr.appenders, ap)
		in.Steps = append(in.Steps, Step{Op: "append", Path: d.rel(a.path), Size: ap.Size, Data: a.data})
	}
	for i, w := range p.writes {
		temp := filepath.Join(filepath.Dir(w.path), filepath.Base(pr.temps[i].Path)) // where the temp is after the moves
		if len(w.data) >= largeFile {
			in.Steps = append(in.Steps, Step{Op: "rename", Path: d.rel(temp), To: d.rel(w.path)})
			continue
		}
		in.Steps = append(in.Steps, Step{Op: "rename", Path: d.rel(temp), To: d.rel(w.path), Data: w.data, Content: true})
	}
	probed := map[string]bool{d.Path: true} // the record proves the state dir itself
	for _, path := range p.removes {
		if dir := filepath.Dir(path); !probed[dir] {
			probed[dir] = true
			rel, err := d.inside(dir)
			if err == nil {
				err = pr.root.Probe(rel)
			}
			if err != nil {
				return nil, refused(err, "cannot remove "+path)
			}
		}
		in.Steps = append(in.Steps, Step{Op: "remove", Path: d.rel(path)})
		syncAfter[filepath.Dir(path)] = true
	}
	for _, folder := range p.folders {
		if err := d.probeTree(folder); err != nil {
			return nil, refused(err, "cannot remove "+folder)
		}
		in.Steps = append(in.Steps, Step{Op: "remove-all", Path: d.rel(folder)})
		syncAfter[d.Path] = true
	}
	for _, dir := range sortedKeys(syncAfter) {
		in.Sync = append(in.Sync, d.rel(dir))
	}
	// A large file's temp must be durable, by name too, before the record
	// that names it (a replay renames it; the record has no copy): the
	// flush does it, or its own fsync and its folder's.
	for _, dir := range sortedKeys(syncBefore) {
		rel, err := d.inside(dir)
		if err == nil {
			err = pr.root.SyncDir(rel)
		}
		if err != nil {
			return nil, refused(err, "cannot sync "+dir)
		}
	}
	line, err := encodeLine(in)
	if err != nil {
		return nil, err
	}
	if err := d.record(pr, st, line, flush); err != nil {
		return nil, refused(err, "cannot record the transaction in "+IntentFile)
	}
	for i, a := range p.appends {
		if err := pr.appenders[i].Write(a.data); err != nil {
			return nil, refused(err, "cannot append to "+a.path)
		}
		pr.appended = i + 1
	}
	return in, nil
}

// record adds the transaction's line to the log, over a torn last line,
// and fsyncs it; a log it creates has its name made durable too (the
// state dir's fsync). With flush, the file system is flushed first (every
// earlier record's files durable, the large temps, the log's name) and the
// line replaces the log's earlier lines, which are then done with. On
// failure the log is as it was, or, after a flush, empty.
func (d *Dir) record(pr *prepared, st logState, line []byte, flush bool) error {
	lg, created, err := pr.root.OpenLog(IntentFile, 0o644)
	if err != nil {
		return err
	}
	pr.log, pr.logMade = lg, created
	end := st.end
	if created {
		end = 0
	}
	if flush {
		if err := pr.root.SyncAll(); err != nil {
			return err
		}
		end = 0
	}
	if lg.Size != end {
		if err := lg.Cut(end); err != nil {
			return err
		}
	}
	lg.Size, pr.logBefore, pr.logEnd = end, end, end
	if err := lg.Write(line); err != nil {
		return err
	}
	pr.recorded = true
	if err := lg.Sync(); err != nil {
		return err
	}
	if created && !flush {
		if err := pr.root.SyncDir("."); err != nil {
			return err
		}
	}
	pr.logEnd = end + int64(len(line))
	return nil
}

// undo removes what prepare created, newest first. The record goes last,
// and only when everything else was undone.
func (d *Dir) undo(pr *prepared) error {
	var errs []error
	for i := pr.appended - 1; i >= 0; i-- {
		if err := pr.appenders[i].Undo(); err != nil {
			errs = append(errs, err)
		}
	}
	for _, t := range pr.temps {
		if err := t.Discard(); err != nil {
			errs = append(errs, err)
		}
	}
	for i := len(pr.dirs) - 1; i >= 0; i-- {
		_ = pr.root.Unmake(pr.dirs[i]) // best effort: an empty folder is no state
	}
	if err := errors.Join(errs...); err != nil {
		return err
	}
	if pr.recorded {
		// The record was (or may have been) made durable: its removal must
		// be too, or a restart would do the transaction after all.
		pr.log.Size = pr.logBefore
		if err := pr.log.Undo(); err != nil {
			return err
		}
	}
	if pr.logMade {
		return pr.root.Unmake(IntentFile) // ours, and empty
	}
	return nil
}

// probeTree proves every directory under folder can have entries removed.
func (d *Dir) probeTree(folder string) error {
	if err := d.walk(folder, false); err != nil {
		return err
	}
	return filepath.WalkDir(folder, func(path string, de fs.DirEntry, err error) error {
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) && path == folder {
				return nil
			}
			return err
		}
		if de.IsDir() {
			rel, err := d.inside(path)
			if err != nil {
				return err
			}
			return d.root().Probe(rel)
		}
		return nil
	})
}

// refused is the error of a transaction that failed before its first
// visible change: nothing was written (exit 3), with what to do about the
// cause.
func refused(err error, what string) error {
	var fe *fault.Error
	if errors.As(err, &fe) {
		return err
	}
	cause := err
	var pe *fs.PathError
	if errors.As(err, &pe) {
		cause = pe.Err // the path is in what already
	}
	e := &fault.Error{Code: fault.Invalid, Err: err, Msg: fmt.Sprintf("%s: %v; nothing was written", what, cause)}
	switch {
	case errors.Is(err, syscall.ENOSPC):
		e.Hint = "free some disk space, then run the command again"
	case errors.Is(err, fs.ErrPermission), errors.Is(err, syscall.EROFS):
		e.Hint = "make it writable for this user, then run the command again"
	default:
		e.Hint = "run orc-state doctor"
	}
	return e
}
