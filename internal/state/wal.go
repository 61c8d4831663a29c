package state

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"

	"github.com/cespare/xxhash/v2"

	"github.com/orc-state/orc-state/internal/atomicfile"
)

// The write-ahead log. IntentFile holds, one line each, the records of the
// transactions whose files may not be durable yet, each carrying its whole
// change (every new file's content, every appended byte), and after each
// record a marker once its steps were taken. A transaction is durable when
// its record is: the record's line is the one fsync of a mutation. The
// files are renamed into place without an fsync of their own, and made
// durable together later, by a checkpoint (see the package doc and
// docs/reliability.md, "The commit protocol").
//
// Each line is {"sum": the 64-bit xxHash (XXH64) of rec's bytes in 16 hex
// digits, "rec": the record}: a line whose sum does not match (a writer
// killed while writing it, or a crash before its fsync) ends the log, and
// the next record is written over it. The sum guards against a torn or
// lost write, not an adversary (whoever can edit the log can recompute
// it), as the registry's proof does; every transaction hashes the whole
// log it reads, at 13 GB/s. A line an older build wrote carries the
// SHA-256 of rec in 64 hex digits, and is read as well.

// linePrefix opens every line of the log: the sum's hex digits follow,
// then linePrefix2, the record, and "}".
const (
	linePrefix  = `{"sum":"`
	linePrefix2 = `","rec":`
	sumDigits   = 16 // XXH64
	oldDigits   = 64 // SHA-256, written by older builds
	recStart    = len(linePrefix) + sumDigits + len(linePrefix2)
)

// logState is the log as read: its records in order, the markers, where
// its whole lines end, and a record of the older single-record format.
// The records' contents are not decoded (logMeta): a scan of the log
// costs a hash of its bytes, not a copy.
type logState struct {
	txs     []*Intent
	applied map[int64]bool
	end     int64 // the length of its whole, valid lines
	size    int64 // the file's length
	legacy  *Intent
	exists  bool
	lines   [][]byte // each record's bytes (rec), for a replay's full decode
}

// encodeLine renders rec as one line of the log, in one buffer sized
// beforehand: the record's contents are most of it (a large registry's
// orc.json), so it is encoded once and never copied.
func encodeLine(rec *Intent) ([]byte, error) {
	size := 1024
	for _, s := range rec.Steps {
		size += len(s.Path) + len(s.To) + 96 + (len(s.Data)+2)/3*4
	}
	line := make([]byte, 0, recStart+size)
	line = append(line, linePrefix+strings.Repeat("0", sumDigits)+linePrefix2...)
	line, err := appendIntent(line, rec)
	if err != nil {
		return nil, err
	}
	return sealLine(line), nil
}

// marker is the line that says record Applied's steps were all taken.
type marker struct {
	Applied int64 `json:"applied"`
}

// encodeMarker renders the marker of record seq.
func encodeMarker(seq int64) ([]byte, error) {
	line := make([]byte, 0, recStart+32)
	line = append(line, linePrefix+strings.Repeat("0", sumDigits)+linePrefix2+`{"applied":`...)
	line = strconv.AppendInt(line, seq, 10)
	return sealLine(append(line, '}')), nil
}

// sealLine ends a line whose record follows linePrefix and a placeholder
// sum: it closes the line and writes the record's sum.
func sealLine(line []byte) []byte {
	line = append(line, '}', '\n')
	putSum(line[len(linePrefix):recStart-len(linePrefix2)], line[recStart:len(line)-2])
	return line
}

// putSum writes rec's sum as sumDigits hex digits into dst.
func putSum(dst, rec []byte) {
	var sum [8]byte
	binary.BigEndian.PutUint64(sum[:], xxhash.Sum64(rec))
	hex.Encode(dst, sum[:])
}

// splitLine returns the record of one line of the log (without its
// newline), or nil when the line is not whole and valid.
func splitLine(line []byte) []byte {
	start := recOffset(line)
	if start < 0 || len(line) < start+1 || line[len(line)-1] != '}' {
		return nil
	}
	rec := line[start : len(line)-1]
	digits := line[len(linePrefix) : start-len(linePrefix2)]
	if len(digits) == sumDigits {
		var sum [sumDigits]byte
		putSum(sum[:], rec)
		if !bytes.Equal(sum[:], digits) {
			return nil
		}
		return rec
	}
	sum := sha256.Sum256(rec)
	var want [32]byte
	if _, err := hex.Decode(want[:], digits); err != nil || want != sum {
		return nil
	}
	return rec
}

// recOffset is where the record begins in a line of the log (after its
// sum, of either width), or -1 when the line does not begin like one.
func recOffset(line []byte) int {
	if !bytes.HasPrefix(line, []byte(linePrefix)) {
		return -1
	}
	for _, digits := range [...]int{sumDigits, oldDigits} {
		at := len(linePrefix) + digits
		if len(line) >= at+len(linePrefix2) && string(line[at:at+len(linePrefix2)]) == linePrefix2 {
			return at + len(linePrefix2)
		}
	}
	return -1
}

// logMeta is a record without its contents: what a scan of the log needs.
type logMeta struct {
	Boot     string                     `json:"boot"`
	Seq      int64                      `json:"seq"`
	Applied  int64                      `json:"applied"`
	Verb     string                     `json:"verb"`
	Actor    string                     `json:"actor"`
	At       string                     `json:"at"`
	PID      int                        `json:"pid"`
	Sessions []string                   `json:"sessions"`
	Args     map[string]json.RawMessage `json:"args"`
	Steps    []struct {
		Op   string `json:"op"`
		Path string `json:"path"`
		To   string `json:"to"`
		Size int64  `json:"size"`
	} `json:"steps"`
	Sync []string `json:"sync"`
}

// parseLog reads the log's bytes. A file that does not begin like a line
// of the log is a record of the older format (a single transaction, steps
// renaming fsynced temp files), completed as before.
func parseLog(data []byte) logState {
	st := logState{applied: map[int64]bool{}, size: int64(len(data)), exists: true}
	if len(data) > 0 && !bytes.HasPrefix(data, []byte(linePrefix)) {
		in := &Intent{}
		if err := json.Unmarshal(data, in); err != nil || in.Verb == "" {
			in = &Intent{Torn: true}
		}
		st.legacy = in
		return st
	}
	off := 0
	for off < len(data) {
		nl := bytes.IndexByte(data[off:], '\n')
		if nl < 0 {
			break
		}
		rec := splitLine(data[off : off+nl])
		if rec == nil {
			break
		}
		boot, seq, applied, ok := peek(rec)
		if ok && applied == 0 && len(st.txs) > 0 && seq <= st.txs[len(st.txs)-1].Seq {
			// A record whose sequence does not follow the one before it
			// ends the log as a torn line does: old bytes behind a record
			// written over the log's start after a flush, should a crash
			// keep the write but not the cut, are never done again after it.
			ok = false
		}
		switch {
		case !ok:
			break
		case applied > 0:
			st.applied[applied] = true
		default:
			st.txs = append(st.txs, &Intent{Boot: boot, Seq: seq})
			st.lines = append(st.lines, rec)
		}
		if !ok {
			break
		}
		off += nl + 1
		st.end = int64(off)
	}
	return st
}

// index is the place of record tx in the log.
func (st logState) index(tx *Intent) int {
	for i, t := range st.txs {
		if t.Seq == tx.Seq {
			return i
		}
	}
	return -1
}

// peek reads what a scan needs from a record's first bytes, as
// encodeLine lays them out: a marker is {"applied":N}, a transaction's
// record begins {"boot":"ID","seq":N, (no boot where none can be read).
// The rest of a record (its steps, its contents) is decoded only when
// needed (load), so a scan costs a hash of the log, not a decode.
func peek(rec []byte) (boot string, seq, applied int64, ok bool) {
	num := func(b []byte) (int64, []byte, bool) {
		var n int64
		i := 0
		for i < len(b) && b[i] >= '0' && b[i] <= '9' && i < 18 {
			n = n*10 + int64(b[i]-'0')
			i++
		}
		return n, b[i:], i > 0 && n > 0
	}
	if rest, found := bytes.CutPrefix(rec, []byte(`{"applied":`)); found {
		n, rest, ok := num(rest)
		return "", 0, n, ok && string(rest) == "}"
	}
	rest, found := bytes.CutPrefix(rec, []byte(`{"boot":"`))
	if found {
		i := bytes.IndexByte(rest, '"')
		if i < 0 {
			return "", 0, 0, false
		}
		boot, rest = string(rest[:i]), rest[i+1:]
		if rest, found = bytes.CutPrefix(rest, []byte(`,"seq":`)); !found {
			return "", 0, 0, false
		}
	} else if rest, found = bytes.CutPrefix(rec, []byte(`{"seq":`)); !found {
		return "", 0, 0, false
	}
	seq, rest, ok = num(rest)
	return boot, seq, 0, ok && len(rest) > 0 && rest[0] == ','
}

// load decodes record i's metadata (not its contents) into st.txs[i],
// once.
func (st logState) load(i int) (*Intent, error) {
	tx := st.txs[i]
	if tx.loaded || i >= len(st.lines) {
		return tx, nil
	}
	var m logMeta
	if err := json.Unmarshal(st.lines[i], &m); err != nil {
		return nil, fmt.Errorf("record %d of %s: %v", m.Seq, IntentFile, err)
	}
	if m.Verb == "" || m.Seq != tx.Seq || m.Boot != tx.Boot {
		return nil, fmt.Errorf("record %d of %s is no transaction orc-state wrote", tx.Seq, IntentFile)
	}
	*tx = Intent{Boot: m.Boot, Seq: m.Seq, Verb: m.Verb, Actor: m.Actor, At: m.At, PID: m.PID,
		Sessions: m.Sessions, Args: m.Args, Sync: m.Sync, loaded: true}
	for _, s := range m.Steps {
		tx.Steps = append(tx.Steps, Step{Op: s.Op, Path: s.Path, To: s.To, Size: s.Size})
	}
	return tx, nil
}

// loadAll loads every record's metadata.
func (st logState) loadAll() error {
	for i := range st.txs {
		if _, err := st.load(i); err != nil {
			return err
		}
	}
	return nil
}

// full decodes record i of the log with its contents, for a replay.
func (st logState) full(i int) (*Intent, error) {
	if i < 0 || i >= len(st.lines) {
		return nil, errors.New("no such record in the log")
	}
	in := &Intent{}
	if err := json.Unmarshal(st.lines[i], in); err != nil {
		return nil, err
	}
	return in, nil
}

// readLog reads the log; a missing one is an empty state.
func (d *Dir) readLog() (logState, error) {
	data, err := readRegularShared(filepath.Join(d.Path, IntentFile))
	if errors.Is(err, fs.ErrNotExist) {
		return logState{applied: map[int64]bool{}}, nil
	}
	if err != nil {
		return logState{}, err
	}
	return parseLog(data), nil
}

// restarted reports whether the machine restarted since a record of the
// log was written, or whether that cannot be told (then a file the log
// names may have lost what was written to it, so the whole log is done
// again).
func (st logState) restarted() bool {
	now := BootID()
	for _, tx := range st.txs {
		if now == "" || tx.Boot != now {
			return true
		}
	}
	return false
}

// last is the log's last record, nil for none. Its metadata is loaded;
// one that does not decode is returned as it is (Invalid says why).
func (st logState) last() *Intent {
	if len(st.txs) == 0 {
		return nil
	}
	tx, err := st.load(len(st.txs) - 1)
	if err != nil {
		tx = st.txs[len(st.txs)-1]
		tx.Invalid = err
	}
	return tx
}

// interrupted is the record the log says is not complete: the last
// record without its marker, or, after a restart, the last record (whose
// files a crash may have left old or torn). Nil when the log is clean.
func (st logState) interrupted() *Intent {
	if len(st.txs) == 0 {
		return nil
	}
	restarted := st.restarted()
	if !restarted && st.applied[st.txs[len(st.txs)-1].Seq] {
		return nil // marked, in this boot: done (its metadata is not decoded)
	}
	last := st.last()
	switch {
	case restarted:
		in := *last
		in.Restart = true
		in.wasApplied = st.applied[last.Seq]
		return &in
	case !st.applied[last.Seq]:
		return last
	}
	return nil
}

// nextSeq is the sequence number of the next record.
func (st logState) nextSeq() int64 {
	if n := len(st.txs); n > 0 {
		return st.txs[n-1].Seq + 1
	}
	return 1
}

// Checkpoint bounds: the log is checkpointed when it holds checkpointBytes
// and at least checkpointMinRecords records, or checkpointMaxRecords
// records whatever their size. Where a checkpoint is one flush of the file
// system (Linux's syncfs) it is cheap, and a smaller log is cheaper for
// every transaction to read and check (each one hashes the whole log):
// 256 KiB and 2 records. Elsewhere a checkpoint fsyncs every file the log
// names, amortized over 1 MiB and at least 4 records.
var (
	checkpointBytes      = pick(atomicfile.CanSyncAll, 256<<10, 1<<20)
	checkpointMinRecords = pick(atomicfile.CanSyncAll, 2, 4)
)

const checkpointMaxRecords = 256

func pick(cond bool, yes, no int) int {
	if cond {
		return yes
	}
	return no
}

// due reports whether the log should be checkpointed before another
// record is added.
func (st logState) due() bool {
	n := len(st.txs)
	return n >= checkpointMaxRecords || (st.size >= int64(checkpointBytes) && n >= checkpointMinRecords)
}

// endsWithMove reports whether the log's last record moves a folder: the
// paths of the records before it and after it differ, so where a
// checkpoint is a flush before the next record (commit.go, run), the next
// transaction flushes whatever it writes, and no record ever follows a
// move in the log.
func (st logState) endsWithMove() bool {
	n := len(st.txs)
	if n == 0 {
		return false
	}
	if n <= len(st.lines) && !st.txs[n-1].loaded {
		// Not decoded: encodeLine writes a move step's op as "op":"move"
		// (no space), and the contents are base64, a string's quotes
		// escaped; only a journaled argument holding that JSON could match
		// too, which costs one flush more, never one less.
		return bytes.Contains(st.lines[n-1], []byte(`"op":"move"`))
	}
	for _, s := range st.txs[n-1].Steps {
		if s.Op == "move" {
			return true
		}
	}
	return false
}

// checkpoint makes every file and folder the log's records changed
// durable, then removes the log: each file once, in the order first
// named, then each folder (on Linux one syncfs does it all). A file or
// folder removed since is skipped.
// The removal needs no fsync: the log coming back after a crash is done
// again, which writes what the files durably hold already, and the next
// record's creation fsyncs the state dir.
func (d *Dir) checkpoint(st logState) error {
	if err := d.syncLogged(st); err != nil {
		return err
	}
	return d.root().Remove(IntentFile)
}

// syncLogged fsyncs every file and folder the log's records changed, or,
// where it can, flushes the whole file system they are on at once.
func (d *Dir) syncLogged(st logState) error {
	root := d.root()
	if atomicfile.CanSyncAll {
		return root.SyncAll()
	}
	if err := st.loadAll(); err != nil {
		return err
	}
	seen := map[string]bool{}
	var dirs []string
	for _, tx := range st.txs {
		for _, s := range tx.Steps {
			var file string
			switch s.Op {
			case "append":
				file = s.Path
			case "rename":
				file = s.To
			}
			if file != "" && !seen[file] {
				seen[file] = true
				if err := root.SyncFile(filepath.FromSlash(file)); err != nil && !missing(err) {
					return err
				}
			}
		}
		dirs = append(dirs, tx.Sync...)
	}
	done := map[string]bool{}
	for _, dir := range dirs {
		if done[dir] {
			continue
		}
		done[dir] = true
		if err := root.SyncDir(filepath.FromSlash(dir)); err != nil && !missing(err) {
			return err
		}
	}
	return nil
}

// missing reports an error saying a file or a folder on its way is gone.
func missing(err error) bool {
	return errors.Is(err, fs.ErrNotExist) || errors.Is(err, errNotDir)
}

var errNotDir = errors.New("not a directory")

// bootOnce caches BootID.
var bootOnce = sync.OnceValue(readBootID) // a test plays a restart by replacing it

// BootID names the running boot of the machine: the same in every process
// until the machine restarts. A restart is what can lose a write that was
// not fsynced (a killed process loses nothing the kernel was given), so a
// log whose records carry this boot's id needs only its incomplete last
// record done again. Empty where it cannot be told: then every
// transaction is made durable at once (the log is checkpointed after
// each).
func BootID() string { return bootOnce() }

func readBootID() string {
	if testBoot := os.Getenv("ORC_TEST_BOOT_ID"); testBoot != "" && atomicfile.Fault != nil {
		return testBoot // a test playing a restart (only with the test seams)
	}
	return strings.TrimSpace(systemBootID())
}

// restartedSince reports, for a reader that takes no lock, whether the
// log holds records from before a restart: then the files they name may
// be old or torn until a writer (or repair) does the records again, and a
// reader must not trust what it reads. It reads the first record's boot
// only (the log's first bytes), so a clean log costs a stat and a short
// read.
func (d *Dir) restartedSince() bool {
	f, err := atomicfile.Open(filepath.Join(d.Path, IntentFile))
	if err != nil {
		return false
	}
	defer f.Close()
	head := make([]byte, 256)
	n, _ := f.ReadAt(head, 0)
	head = head[:n]
	const key = `{"boot":"`
	start := recOffset(head)
	if start < 0 || len(head) < start+len(key) || string(head[start:start+len(key)]) != key {
		return false // empty, torn, without a boot, or the older single record (Pending names it)
	}
	rest := head[start+len(key):]
	j := bytes.IndexByte(rest, '"')
	if j < 0 {
		return false
	}
	now := BootID()
	return now != "" && string(rest[:j]) != now
}
