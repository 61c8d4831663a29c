package state

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"slices"
	"testing"

	"github.com/cespare/xxhash/v2"
)

// A record's sequence number follows the one before it, or the log ends
// there as at a torn line: after a flush the new record is written over
// the log's start, and were a crash to keep that write but not the cut
// before it, the old records behind it must never be done again after it
// (they would put back what the new record replaced).
func TestLogEndsAtARecordWhoseSequenceDoesNotFollow(t *testing.T) {
	line := func(seq int64) []byte {
		b, err := encodeLine(&Intent{Boot: "b", Seq: seq, Verb: "phase set", Actor: "cli", At: "2026-12-04T00:00:00Z"})
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	marker := func(seq int64) []byte {
		b, err := encodeMarker(seq)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	join := func(parts ...[]byte) []byte {
		var out []byte
		for _, p := range parts {
			out = append(out, p...)
		}
		return out
	}
	for _, c := range []struct {
		name  string
		parts [][]byte // the log's lines
		want  []int64  // the records read, in order
		valid int      // how many of the lines are the log's valid ones
	}{
		{"records in order are all read", [][]byte{line(4), marker(4), line(5)}, []int64{4, 5}, 3},
		{"an old record behind a newer one ends the log", [][]byte{line(6), line(2), marker(2), line(3)}, []int64{6}, 1},
		{"a repeated sequence ends the log", [][]byte{line(6), marker(6), line(6)}, []int64{6}, 2},
	} {
		t.Run(c.name, func(t *testing.T) {
			st := parseLog(join(c.parts...))
			var got []int64
			for _, tx := range st.txs {
				got = append(got, tx.Seq)
			}
			if !slices.Equal(got, c.want) {
				t.Fatalf("records %v, want %v", got, c.want)
			}
			if want := int64(len(join(c.parts[:c.valid]...))); st.end != want {
				t.Errorf("valid lines end at %d, want %d", st.end, want)
			}
		})
	}
}

// A line of the log is read when its sum matches its record: the XXH64
// this build writes, or the SHA-256 an older build wrote (a log left by
// an interrupted transaction of that build is still done again). A line
// whose sum, of either kind, does not match ends the log.
func TestLogLinesOfBothSumsAreRead(t *testing.T) {
	cur, err := encodeLine(&Intent{Boot: "b", Seq: 7, Verb: "phase set", Actor: "cli", At: "2026-12-04T00:00:00Z", PID: 1})
	if err != nil {
		t.Fatal(err)
	}
	rec := cur[recStart : len(cur)-2]
	xx := xxhash.Sum64(rec)
	if want := fmt.Sprintf("%016x", xx); string(cur[len(linePrefix):len(linePrefix)+sumDigits]) != want {
		t.Fatalf("encodeLine wrote %s, want the sum %s", cur, want)
	}
	sha := sha256.Sum256(rec)
	old := []byte(linePrefix + hex.EncodeToString(sha[:]) + linePrefix2 + string(rec) + "}\n")
	flip := func(line []byte, at int) []byte {
		b := bytes.Clone(line)
		b[at] ^= 1
		return b
	}
	for _, c := range []struct {
		name string
		line []byte
		read bool
	}{
		{"the XXH64 this build writes", cur, true},
		{"the SHA-256 an older build wrote", old, true},
		{"an XXH64 line with a changed record byte", flip(cur, len(cur)-10), false},
		{"a SHA-256 line with a changed record byte", flip(old, len(old)-10), false},
		{"an XXH64 line with a changed sum digit", flip(cur, len(linePrefix)+3), false},
		{"a SHA-256 line with a changed sum digit", flip(old, len(linePrefix)+3), false},
		{"a sum of another width", []byte(linePrefix + "abcd" + linePrefix2 + string(rec) + "}\n"), false},
	} {
		t.Run(c.name, func(t *testing.T) {
			st := parseLog(c.line)
			if got := len(st.txs) == 1 && st.txs[0].Seq == 7 && st.end == int64(len(c.line)); got != c.read {
				t.Fatalf("read = %v (records %d, end %d), want %v", got, len(st.txs), st.end, c.read)
			}
		})
	}
}
