// Package journal owns a session's journal.jsonl: an append-only,
// hash-chained record of every change. Each line carries the sha256 of the
// previous line, so a deleted, reordered or edited line breaks the chain,
// and the sha256 of the session's files after the change, so an edit made
// outside orc-state is detected by comparing them with the files on disk.
package journal

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/orc-state/orc-state/internal/atomicfile"
)

// FileName is the journal's name inside a session's files/ folder.
const FileName = "journal.jsonl"

// Entry is one journal line.
type Entry struct {
	Seq     int             `json:"seq"`
	Prev    string          `json:"prev"`
	At      string          `json:"at"`
	Actor   string          `json:"actor"`
	Verb    string          `json:"verb"`
	Args    json.RawMessage `json:"args,omitempty"`
	Digests Digests         `json:"digests"`
	// Outside names the files (entry, checkpoint, ledger, decisions) that
	// had changed outside orc-state since the line before: the writer that
	// noticed keeps the evidence instead of silently re-baselining.
	Outside []string `json:"outside,omitempty"`
}

// Digests are the sha256 (hex) of the session's state after the change; ""
// means the file does not exist.
type Digests struct {
	Entry      string `json:"entry"`
	Checkpoint string `json:"checkpoint"`
	Ledger     string `json:"ledger"`
	Decisions  string `json:"decisions"`
}

// Sum returns the hex sha256 of data, or "" when data is nil.
func Sum(data []byte) string {
	if data == nil {
		return ""
	}
	h := sha256.Sum256(data)
	return hex.EncodeToString(h[:])
}

// tailSize is how much of the file Append reads to find the last line.
const tailSize = 16 << 10

// Append adds e to the journal at path, filling Seq and Prev from the last
// complete line. The caller holds the state lock. A torn last line (a crash
// mid-append) is left in place, ended with a newline, and skipped by the
// chain; Read reports it.
func Append(path string, e Entry) error {
	last, lastRaw, endsClean, err := tail(path)
	if err != nil {
		return err
	}
	e.Seq = 1
	if lastRaw != nil {
		e.Seq = last.Seq + 1
		e.Prev = Sum(lastRaw)
	}
	line, err := json.Marshal(e)
	if err != nil {
		return err
	}
	buf := make([]byte, 0, len(line)+2)
	if !endsClean {
		buf = append(buf, '\n')
	}
	buf = append(buf, line...)
	buf = append(buf, '\n')
	return atomicfile.Append(path, buf, 0o644)
}

// tail returns the last complete, parseable line of the journal (nil when
// none), and whether the file ends with a newline (true for a missing file).
func tail(path string) (Entry, []byte, bool, error) {
	f, err := os.Open(path)
	if errors.Is(err, os.ErrNotExist) {
		return Entry{}, nil, true, nil
	}
	if err != nil {
		return Entry{}, nil, false, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return Entry{}, nil, false, err
	}
	size := st.Size()
	for n := int64(tailSize); ; n *= 4 {
		off := max(size-n, 0)
		buf := make([]byte, size-off)
		if _, err := f.ReadAt(buf, off); err != nil && err != io.EOF {
			return Entry{}, nil, false, err
		}
		endsClean := len(buf) == 0 || buf[len(buf)-1] == '\n'
		lines := bytes.Split(bytes.TrimRight(buf, "\n"), []byte("\n"))
		if off > 0 {
			lines = lines[1:] // the first piece may be a partial line
		}
		if !endsClean && len(lines) > 0 {
			lines = lines[:len(lines)-1] // torn tail
		}
		for i := len(lines) - 1; i >= 0; i-- {
			var e Entry
			if json.Unmarshal(lines[i], &e) == nil && e.Seq > 0 {
				return e, lines[i], endsClean, nil
			}
		}
		if off == 0 {
			return Entry{}, nil, endsClean, nil
		}
	}
}

// Last returns the last complete entry of the journal; ok is false when
// there is none.
func Last(path string) (Entry, bool, error) {
	e, raw, _, err := tail(path)
	return e, raw != nil, err
}

// Changed names the digests that differ between a and b, in a fixed order.
func Changed(a, b Digests) []string {
	var out []string
	for _, c := range []struct {
		name string
		x, y string
	}{{"entry", a.Entry, b.Entry}, {"checkpoint", a.Checkpoint, b.Checkpoint}, {"ledger", a.Ledger, b.Ledger}, {"decisions", a.Decisions, b.Decisions}} {
		if c.x != c.y {
			out = append(out, c.name)
		}
	}
	return out
}

// Problem is a defect found while reading a journal.
type Problem struct {
	Line    int
	Code    string // journal.torn, journal.unparseable, journal.chain
	Message string
}

// Read parses the whole journal and checks the chain. It returns the
// entries that parsed and the problems found; a missing file is no entries.
func Read(path string) ([]Entry, []Problem, error) {
	data, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil, nil
	}
	if err != nil {
		return nil, nil, err
	}
	return Parse(data)
}

// Parse reads journal bytes and checks the chain (see Read).
func Parse(data []byte) ([]Entry, []Problem, error) {
	var (
		entries  []Entry
		problems []Problem
		prevRaw  []byte
		lineNo   int
	)
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 0, 64<<10), len(data)+1)
	for sc.Scan() {
		lineNo++
		raw := sc.Bytes()
		var e Entry
		if err := json.Unmarshal(raw, &e); err != nil || e.Seq < 1 {
			code, msg := "journal.unparseable", fmt.Sprintf("line %d is not a journal entry", lineNo)
			if looksTorn(raw) {
				code, msg = "journal.torn", fmt.Sprintf("line %d is a torn (incomplete) write", lineNo)
			}
			problems = append(problems, Problem{Line: lineNo, Code: code, Message: msg})
			continue
		}
		want := ""
		if prevRaw != nil {
			want = Sum(prevRaw)
		}
		wantSeq := 1
		if len(entries) > 0 {
			wantSeq = entries[len(entries)-1].Seq + 1
		}
		if e.Prev != want || e.Seq != wantSeq {
			problems = append(problems, Problem{Line: lineNo, Code: "journal.chain",
				Message: fmt.Sprintf("line %d (seq %d) does not follow the line before it; the journal was edited", lineNo, e.Seq)})
		}
		entries = append(entries, e)
		prevRaw = append([]byte(nil), raw...)
	}
	return entries, problems, sc.Err()
}

// looksTorn reports whether raw is the beginning of a JSON object cut short.
func looksTorn(raw []byte) bool {
	return len(raw) > 0 && raw[0] == '{' && raw[len(raw)-1] != '}'
}
