package journal

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/orc-state/orc-state/internal/atomicfile"
)

// Append adds e to the journal at path as a transaction does: after the
// tail it reads.
func Append(path string, e Entry) error {
	tail, err := ReadTail(path)
	if err != nil {
		return err
	}
	line, _, err := tail.Next(e)
	if err != nil {
		return err
	}
	return atomicfile.Append(path, line, 0o644)
}

func appendN(t *testing.T, path string, n int) {
	t.Helper()
	for i := 0; i < n; i++ {
		if err := Append(path, Entry{At: "2026-01-01T00:00:00Z", Actor: "cli", Verb: "phase set",
			Digests: Digests{Entry: Sum([]byte{byte(i)})}}); err != nil {
			t.Fatal(err)
		}
	}
}

func codes(ps []Problem) string {
	var out []string
	for _, p := range ps {
		out = append(out, p.Code)
	}
	return strings.Join(out, ",")
}

func TestAppendChains(t *testing.T) {
	path := filepath.Join(t.TempDir(), FileName)
	appendN(t, path, 3)
	entries, problems, err := Read(path)
	if err != nil || len(problems) > 0 || len(entries) != 3 {
		t.Fatalf("Read = %d entries, problems %v, err %v", len(entries), problems, err)
	}
	lines := strings.Split(strings.TrimSuffix(readString(t, path), "\n"), "\n")
	for i, e := range entries {
		if e.Seq != i+1 {
			t.Errorf("entry %d has seq %d", i, e.Seq)
		}
		want := ""
		if i > 0 {
			want = Sum([]byte(lines[i-1]))
		}
		if e.Prev != want {
			t.Errorf("entry %d prev = %q, want the sha256 of line %d", i, e.Prev, i)
		}
	}
	last, ok, err := Last(path)
	if err != nil || !ok || last.Seq != 3 {
		t.Fatalf("Last = %+v %v %v", last, ok, err)
	}
}

func TestReadFindsDamage(t *testing.T) {
	tests := []struct {
		name   string
		damage func(lines []string) []string
		want   string
	}{
		{"intact", func(l []string) []string { return l }, ""},
		{"line deleted", func(l []string) []string { return append(l[:1], l[2:]...) }, "journal.chain"},
		{"lines swapped", func(l []string) []string { l[1], l[2] = l[2], l[1]; return l }, "journal.chain,journal.chain,journal.chain"},
		{"line edited", func(l []string) []string {
			l[1] = strings.Replace(l[1], `"phase set"`, `"status set"`, 1)
			return l
		}, "journal.chain"},
		{"garbage line", func(l []string) []string { return append(l[:2], append([]string{"not json"}, l[2:]...)...) }, "journal.unparseable"},
		{"torn last line", func(l []string) []string { l[3] = l[3][:20]; return l }, "journal.torn"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), FileName)
			appendN(t, path, 4)
			lines := strings.Split(strings.TrimSuffix(readString(t, path), "\n"), "\n")
			if err := os.WriteFile(path, []byte(strings.Join(tt.damage(lines), "\n")+"\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			_, problems, err := Read(path)
			if err != nil {
				t.Fatal(err)
			}
			if got := codes(problems); got != tt.want {
				t.Errorf("problems = %q, want %q", got, tt.want)
			}
		})
	}
}

// A torn tail (a crash mid-append) is kept, ended with a newline, and the
// chain continues from the last complete line.
func TestAppendAfterTornTail(t *testing.T) {
	path := filepath.Join(t.TempDir(), FileName)
	appendN(t, path, 2)
	f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString(`{"seq":3,"prev":"ab`)
	f.Close()
	appendN(t, path, 1)
	entries, problems, err := Read(path)
	if err != nil {
		t.Fatal(err)
	}
	if got := codes(problems); got != "journal.torn" {
		t.Errorf("problems = %q, want only the torn line", got)
	}
	if n := len(entries); n != 3 || entries[2].Seq != 3 {
		t.Errorf("entries after the tear: %d, last seq %d; want 3 and 3", n, entries[n-1].Seq)
	}
}

func TestChanged(t *testing.T) {
	a := Digests{Entry: "1", Checkpoint: "2", Ledger: "", Decisions: "4"}
	b := Digests{Entry: "1", Checkpoint: "x", Ledger: "y", Decisions: "4"}
	if got := strings.Join(Changed(a, b), ","); got != "checkpoint,ledger" {
		t.Errorf("Changed = %q", got)
	}
}

func FuzzParse(f *testing.F) {
	f.Add([]byte(`{"seq":1,"prev":"","at":"x","actor":"cli","verb":"init","digests":{}}` + "\n"))
	f.Add([]byte("garbage\n{\"seq\":1}\n{"))
	f.Fuzz(func(t *testing.T, data []byte) {
		entries, problems, err := Parse(data)
		if err != nil {
			return
		}
		for _, e := range entries {
			if e.Seq < 1 {
				t.Fatalf("entry with seq %d accepted", e.Seq)
			}
		}
		_ = problems
	})
}

func readString(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// The anchor pins the journal's end: an edit of the last line (which the
// chain cannot see), a removed last line, or bytes added after it no
// longer match; a missing anchor is fine.
func TestAnchor(t *testing.T) {
	path := filepath.Join(t.TempDir(), FileName)
	appendN(t, path, 3)
	data := []byte(readString(t, path))
	anchor := AnchorOf(TailOf(data)).Marshal()
	if p := CheckAnchor(anchor, TailOf(data)); p != nil {
		t.Fatalf("intact journal: %v", p)
	}
	if p := CheckAnchor(nil, TailOf(data)); p != nil {
		t.Fatalf("no anchor: %v", p)
	}
	lines := strings.SplitAfter(string(data), "\n")
	lines = lines[:len(lines)-1] // the empty piece after the last newline
	tests := []struct{ name, journal string }{
		{"last line edited", strings.Join(lines[:2], "") + strings.Replace(lines[2], `"phase set"`, `"status set"`, 1)},
		{"last line removed", strings.Join(lines[:2], "")},
		{"a line added", string(data) + lines[2]},
		{"bytes added", string(data) + "x"},
		{"emptied", ""},
	}
	for _, tt := range tests {
		p := CheckAnchor(anchor, TailOf([]byte(tt.journal)))
		if p == nil || p.Code != "journal.anchor" {
			t.Errorf("%s: %v, want a journal.anchor problem", tt.name, p)
		}
		if _, problems, _ := Parse([]byte(tt.journal)); tt.name == "last line edited" && len(problems) > 0 {
			t.Errorf("the chain alone already saw the edit (%v): the case tests nothing", problems)
		}
	}
	for _, bad := range []string{"garbage", `{"seq":0,"line":"x","size":1}`, "{}"} {
		if p := CheckAnchor([]byte(bad), TailOf(data)); p == nil || p.Code != "journal.anchor" {
			t.Errorf("anchor %q: %v", bad, p)
		}
	}
	// ReadTail of the file agrees with TailOf of its bytes, also when the
	// journal is larger than the first read.
	big := filepath.Join(t.TempDir(), FileName)
	appendN(t, big, 200)
	tail, err := ReadTail(big)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := AnchorOf(tail), AnchorOf(TailOf([]byte(readString(t, big)))); got != want || got.Seq != 200 {
		t.Fatalf("ReadTail anchor %+v, TailOf %+v", got, want)
	}
}

func TestRewriteCarriesTheChain(t *testing.T) {
	var data []byte
	for i, v := range []string{"a", "SECRET", "c", "d"} {
		line, _, err := TailOf(data).Next(Entry{Verb: "v", Args: json.RawMessage(`{"x":"` + v + `"}`), At: fmt.Sprint(i)})
		if err != nil {
			t.Fatal(err)
		}
		data = append(data, line...)
	}
	edit := func(line []byte) []byte { return bytes.ReplaceAll(line, []byte("SECRET"), []byte("[gone]")) }

	got := Rewrite(data, edit)
	if bytes.Contains(got, []byte("SECRET")) {
		t.Fatalf("not edited: %s", got)
	}
	entries, problems, err := Parse(got)
	if err != nil || len(problems) != 0 || len(entries) != 4 {
		t.Fatalf("rewritten journal: %d entries, problems %v, %v", len(entries), problems, err)
	}
	oldLines, newLines := bytes.Split(data, []byte("\n")), bytes.Split(got, []byte("\n"))
	if !bytes.Equal(oldLines[0], newLines[0]) {
		t.Errorf("the line before the edit changed: %s", newLines[0])
	}

	// An edit (a break in the chain) stays a break: the rewrite never
	// hides it.
	broken := bytes.Replace(data, []byte(`"x":"c"`), []byte(`"x":"C"`), 1)
	_, before, _ := Parse(broken)
	_, after, _ := Parse(Rewrite(broken, edit))
	if len(before) != 1 || len(after) != 1 || before[0] != after[0] {
		t.Errorf("problems before %v, after %v; want the same one break", before, after)
	}

	// A torn line (a crash's) is kept as it is; the chain skips it as
	// Parse does, so the line after it still follows the entry before.
	lines := bytes.SplitAfter(data, []byte("\n"))
	torn := bytes.Join([][]byte{lines[0], lines[1], []byte("{\"seq\":3,\"SECRET\n"), lines[2], lines[3]}, nil)
	_, before, _ = Parse(torn)
	rewritten := Rewrite(torn, edit)
	_, after, _ = Parse(rewritten)
	if len(before) != 1 || before[0].Code != "journal.torn" || len(after) != 1 || after[0] != before[0] {
		t.Errorf("problems before %v, after %v; want the one torn line", before, after)
	}
	if bytes.Contains(rewritten, []byte("SECRET")) {
		t.Errorf("the torn line was not edited")
	}

	// Nothing to edit: the same bytes.
	if same := Rewrite(data, func(l []byte) []byte { return l }); !bytes.Equal(same, data) {
		t.Errorf("an identity rewrite changed the journal")
	}
}
