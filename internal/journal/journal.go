// Package journal owns a session's journal.jsonl: an append-only,
// hash-chained record of every change. Each line carries the sha256 of the
// previous line, so a deleted, reordered or edited line breaks the chain,
// and the sha256 of the session's files after the change, so an edit made
// outside orc-state is detected by comparing them with the files on disk.
//
// The chain cannot tell an edit of the last line (nothing follows it), so
// the tip is anchored in journal.anchor beside the journal ([Anchor]): the
// last line's seq and sha256 and the journal's length. Every write of the
// journal rewrites the anchor in the same transaction; an edit of the last
// line, a removed line or bytes added after it no longer match. A journal
// without an anchor (written by an older orc-state) is taken as it is and
// gets one on its next write.
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
	"github.com/orc-state/orc-state/internal/textin"
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

// TextProblem refuses an entry whose actor, verb or time is not one line
// by textin.SingleLine (a line break, or another control character, which
// a terminal would act on). orc-state never writes one (the actor is
// checked where it is read, the verbs and times are its own), so such a
// line came from elsewhere: another machine's sync commit, an archive.
func (e Entry) TextProblem() error {
	for _, f := range []struct{ name, v string }{{"actor", e.Actor}, {"verb", e.Verb}, {"at", e.At}} {
		if err := textin.SingleLine(f.name, f.v); err != nil {
			return err
		}
	}
	return nil
}

// Digests are the sha256 (hex) of the session's state after the change; ""
// means the file does not exist.
type Digests struct {
	Entry      string `json:"entry"`
	Checkpoint string `json:"checkpoint"`
	Ledger     string `json:"ledger"`
	Decisions  string `json:"decisions"`
}

// Field is the member of d whose JSON name is key ("entry",
// "checkpoint", "ledger", "decisions"); nil for any other key.
func (d *Digests) Field(key string) *string {
	switch key {
	case "entry":
		return &d.Entry
	case "checkpoint":
		return &d.Checkpoint
	case "ledger":
		return &d.Ledger
	case "decisions":
		return &d.Decisions
	}
	return nil
}

// Sum returns the hex sha256 of data, or "" when data is nil.
func Sum(data []byte) string {
	if data == nil {
		return ""
	}
	h := sha256.Sum256(data)
	return hex.EncodeToString(h[:])
}

// tailSize is how much of the file ReadTail reads first to find the last
// line.
const tailSize = 16 << 10

// Tail is the end of a journal: what the next line chains to.
type Tail struct {
	Last      Entry  // the last complete, parseable entry
	Raw       []byte // its line, without the newline; nil when there is none
	Size      int64  // the journal's length in bytes (0 when missing)
	EndsClean bool   // the file ends with a newline (true when empty or missing)
}

// Next renders e as the line that follows t, with Seq and Prev filled in
// (and a newline first when the file ends in a torn line, which the chain
// then skips). It returns the bytes to append and the entry as written.
func (t Tail) Next(e Entry) ([]byte, Entry, error) {
	e.Seq, e.Prev = 1, ""
	if t.Raw != nil {
		e.Seq = t.Last.Seq + 1
		e.Prev = Sum(t.Raw)
	}
	line, err := marshalEntry(e)
	if err != nil {
		return nil, e, err
	}
	buf := make([]byte, 0, len(line)+2)
	if !t.EndsClean {
		buf = append(buf, '\n')
	}
	buf = append(buf, line...)
	return append(buf, '\n'), e, nil
}

// ReadTail reads the end of the journal at path (a missing file is an
// empty tail).
func ReadTail(path string) (Tail, error) {
	f, err := atomicfile.Open(path)
	if errors.Is(err, os.ErrNotExist) {
		return Tail{EndsClean: true}, nil
	}
	if err != nil {
		return Tail{}, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return Tail{}, err
	}
	size := st.Size()
	for n := int64(tailSize); ; n *= 4 {
		off := max(size-n, 0)
		buf := make([]byte, size-off)
		if _, err := f.ReadAt(buf, off); err != nil && err != io.EOF {
			return Tail{}, err
		}
		t := tailOf(buf, off > 0)
		t.Size = size
		if t.Raw != nil || off == 0 {
			return t, nil
		}
	}
}

// TailOf is the tail of a whole journal held in memory.
func TailOf(data []byte) Tail {
	t := tailOf(data, false)
	t.Size = int64(len(data))
	return t
}

// tailOf finds the last complete entry in buf, the end of a journal; cut
// says buf may begin inside a line.
func tailOf(buf []byte, cut bool) Tail {
	t := Tail{EndsClean: len(buf) == 0 || buf[len(buf)-1] == '\n'}
	lines := bytes.Split(bytes.TrimRight(buf, "\n"), []byte("\n"))
	if cut {
		lines = lines[1:] // the first piece may be a partial line
	}
	if !t.EndsClean && len(lines) > 0 {
		lines = lines[:len(lines)-1] // torn tail
	}
	for i := len(lines) - 1; i >= 0; i-- {
		var e Entry
		if unmarshalEntry(lines[i], &e) == nil && e.Seq > 0 {
			t.Last, t.Raw = e, append([]byte(nil), lines[i]...)
			return t
		}
	}
	return t
}

// Last returns the last complete entry of the journal; ok is false when
// there is none.
func Last(path string) (Entry, bool, error) {
	t, err := ReadTail(path)
	return t.Last, t.Raw != nil, err
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
	Code    string // journal.torn, journal.unparseable, journal.chain, journal.anchor
	Message string
}

// Read parses the whole journal and checks the chain. It returns the
// entries that parsed and the problems found; a missing file is no entries.
func Read(path string) ([]Entry, []Problem, error) {
	data, err := atomicfile.ReadFile(path)
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
	// A line is never longer than data: a buffer of that size (not a fixed
	// 64 KiB) is enough, and sync status parses thousands of small journals.
	sc.Buffer(make([]byte, 0, min(len(data)+1, 64<<10)), len(data)+1)
	for sc.Scan() {
		lineNo++
		raw := sc.Bytes()
		var e Entry
		if err := unmarshalEntry(raw, &e); err != nil || e.Seq < 1 {
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

// AnchorName is the anchor's name, beside the journal in files/.
const AnchorName = "journal.anchor"

// Anchor pins a journal's tip.
type Anchor struct {
	Seq  int    `json:"seq"`  // the last line's seq
	Line string `json:"line"` // the sha256 of the last line (without its newline)
	Size int64  `json:"size"` // the journal's length in bytes
}

// AnchorOf is the anchor of a journal whose end is t.
func AnchorOf(t Tail) Anchor {
	return Anchor{Seq: t.Last.Seq, Line: Sum(t.Raw), Size: t.Size}
}

// Marshal renders the anchor as the file holds it: one JSON line.
func (a Anchor) Marshal() []byte {
	return append(marshalAnchor(a), '\n')
}

// ParseAnchor reads an anchor file.
func ParseAnchor(data []byte) (Anchor, error) {
	var a Anchor
	if err := unmarshalAnchor(data, &a); err != nil {
		return a, fmt.Errorf("%s is not an anchor: %v", AnchorName, err)
	}
	if a.Seq < 1 || len(a.Line) != 64 || a.Size < 1 {
		return a, fmt.Errorf("%s is not an anchor: %s", AnchorName, bytes.TrimSpace(data))
	}
	return a, nil
}

// CheckAnchor compares a journal's end with its anchor file's content: a
// missing anchor (nil) is fine; a journal that no longer ends where the
// anchor says is a journal.anchor problem.
func CheckAnchor(anchor []byte, t Tail) *Problem {
	if anchor == nil {
		return nil
	}
	a, err := ParseAnchor(anchor)
	if err != nil {
		return &Problem{Code: "journal.anchor", Message: err.Error()}
	}
	if got := AnchorOf(t); got != a {
		return &Problem{Code: "journal.anchor", Message: fmt.Sprintf(
			"the journal no longer ends where %s says (seq %d, %d bytes; found seq %d, %d bytes): its last line was edited, or lines were removed or added, outside orc-state",
			AnchorName, a.Seq, a.Size, got.Seq, got.Size)}
	}
	return nil
}

// Rewrite returns the journal data with edit applied to each line, and the
// chain carried over to the edited lines: a line whose prev named the line
// before it names that line's new sha256. A break in the chain stays a
// break (a line whose prev named something else keeps it), so a rewrite
// never hides an earlier edit. Lines edit leaves alone keep their bytes,
// except prev. This is the one rewrite of a journal: `repair --redact`
// removing a credential an older orc-state let in (docs/protocol.md §4); the
// caller records the old tip (see [TailOf]) in the line it appends next.
func Rewrite(data []byte, edit func(line []byte) []byte) []byte {
	var out bytes.Buffer
	var oldPrev, newPrev string // sha256 of the last entry line, before and after
	for rest := data; len(rest) > 0; {
		line, after, found := bytes.Cut(rest, []byte{'\n'})
		rest = after
		var was Entry
		entry := unmarshalEntry(line, &was) == nil && was.Seq > 0 // as Parse reads it
		oldSum := Sum(bytes.TrimSuffix(line, []byte{'\r'}))
		line = edit(line)
		if entry && oldPrev != "" && was.Prev == oldPrev && oldPrev != newPrev {
			line = bytes.Replace(line, []byte(`"`+oldPrev+`"`), []byte(`"`+newPrev+`"`), 1)
		}
		out.Write(line)
		if found {
			out.WriteByte('\n')
		}
		if entry {
			oldPrev, newPrev = oldSum, Sum(bytes.TrimSuffix(line, []byte{'\r'}))
		}
	}
	return out.Bytes()
}
