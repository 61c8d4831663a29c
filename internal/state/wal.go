package state

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"

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
// Each line is {"sum": SHA-256 of rec's bytes in hex, "rec": the record}:
// a line whose sum does not match (a writer killed while writing it, or a
// crash before its fsync) ends the log, and the next record is written
// over it.

// logLine is one line of the log.
type logLine struct {
	Sum string          `json:"sum"`
	Rec json.RawMessage `json:"rec"`
}

// logState is the log as read: its records in order, the markers, where
// its whole lines end, and a record of the older single-record format.
type logState struct {
	txs     []*Intent
	applied map[int64]bool
	end     int64 // the length of its whole, valid lines
	size    int64 // the file's length
	legacy  *Intent
	exists  bool
}

// encodeLine renders rec as one line of the log.
func encodeLine(rec *Intent) ([]byte, error) {
	raw, err := json.Marshal(rec)
	if err != nil {
		return nil, err
	}
	sum := sha256.Sum256(raw)
	line, err := json.Marshal(logLine{Sum: hex.EncodeToString(sum[:]), Rec: raw})
	if err != nil {
		return nil, err
	}
	return append(line, '\n'), nil
}

// parseLog reads the log's bytes. A file that is one JSON object without
// a sum is a record of the older format (a single transaction, steps
// renaming fsynced temp files), completed as before.
func parseLog(data []byte) logState {
	st := logState{applied: map[int64]bool{}, size: int64(len(data)), exists: true}
	if len(data) > 0 && !bytes.HasPrefix(data, []byte(`{"sum":`)) {
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
		var l logLine
		if json.Unmarshal(data[off:off+nl], &l) != nil {
			break
		}
		sum := sha256.Sum256(l.Rec)
		if hex.EncodeToString(sum[:]) != l.Sum {
			break
		}
		in := &Intent{}
		if json.Unmarshal(l.Rec, in) != nil {
			break
		}
		switch {
		case in.Verb != "" && in.Seq > 0:
			st.txs = append(st.txs, in)
		case in.Applied > 0:
			st.applied[in.Applied] = true
		default:
			break
		}
		off += nl + 1
		st.end = int64(off)
	}
	return st
}

// readLog reads the log; a missing one is an empty state.
func (d *Dir) readLog() (logState, error) {
	data, err := readRegular(filepath.Join(d.Path, IntentFile))
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

// last is the log's last record, nil for none.
func (st logState) last() *Intent {
	if len(st.txs) == 0 {
		return nil
	}
	return st.txs[len(st.txs)-1]
}

// interrupted is the record the log says is not complete: the last
// record without its marker, or, after a restart, the last record (whose
// files a crash may have left old or torn). Nil when the log is clean.
func (st logState) interrupted() *Intent {
	last := st.last()
	if last == nil {
		return nil
	}
	switch {
	case st.restarted():
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
	if last := st.last(); last != nil {
		return last.Seq + 1
	}
	return 1
}

// Checkpoint bounds: the log is made durable file by file and removed
// when it holds this many bytes and at least checkpointMinRecords
// records, or checkpointMaxRecords records whatever their size.
const (
	checkpointBytes      = 1 << 20
	checkpointMinRecords = 4
	checkpointMaxRecords = 256
)

// due reports whether the log should be checkpointed before another
// record is added.
func (st logState) due() bool {
	n := len(st.txs)
	return n >= checkpointMaxRecords || (st.size >= checkpointBytes && n >= checkpointMinRecords)
}

// checkpoint makes every file and folder the log's records changed
// durable, then removes the log: each file once, in the order first
// named, then each folder. A file or folder removed since is skipped.
// The removal needs no fsync: the log coming back after a crash is done
// again, which writes what the files durably hold already, and the next
// record's creation fsyncs the state dir.
func (d *Dir) checkpoint(st logState) error {
	if err := d.syncLogged(st); err != nil {
		return err
	}
	return d.root().Remove(IntentFile)
}

// syncLogged fsyncs every file and folder the log's records changed.
func (d *Dir) syncLogged(st logState) error {
	root := d.root()
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
	if runtime.GOOS != "linux" {
		return ""
	}
	data, err := os.ReadFile("/proc/sys/kernel/random/boot_id")
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(data))
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
	const key = `"rec":{"boot":"`
	i := bytes.Index(head, []byte(key))
	if i < 0 || !bytes.HasPrefix(head, []byte(`{"sum":`)) {
		return false // empty, torn, or the older single record (Pending names it)
	}
	rest := head[i+len(key):]
	j := bytes.IndexByte(rest, '"')
	if j < 0 {
		return false
	}
	now := BootID()
	return now != "" && string(rest[:j]) != now
}
