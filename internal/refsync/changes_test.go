package refsync

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/orc-state/orc-state/internal/gitx"
)

// jline is a journal line of the given seq, verb and actor.
func jline(seq int, verb, actor string) string {
	a, _ := json.Marshal(actor)
	v, _ := json.Marshal(verb)
	return fmt.Sprintf(`{"seq":%d,"prev":"","at":"2026-01-02T03:04:%02dZ","actor":%s,"verb":%s,"digests":{"entry":"e%d","checkpoint":"","ledger":"","decisions":""}}`, seq, seq, a, v, seq) + "\n"
}

func TestLacking(t *testing.T) {
	common := jline(1, "init", "a") + jline(2, "phase set", "a")
	mine := common + jline(3, "decision set", "b") + jline(4, "sync pull", "b")
	theirs := common + jline(3, "phase set", "a") + jline(4, "status set", "a")
	got := lacking(changesOf([]byte(mine)), changesOf([]byte(theirs)))
	if len(got) != 1 || got[0].Verb != "decision set" || span(got) != "#3" {
		t.Fatalf("mine lacks %v", got)
	}
	got = lacking(changesOf([]byte(theirs)), changesOf([]byte(mine)))
	if span(got) != "#3..#4" || got[1].String() != "#4 status set by a at 2026-01-02T03:04:04Z" {
		t.Fatalf("theirs lacks %v (%s)", got, span(got))
	}
	if got := lacking(changesOf([]byte(common)), changesOf([]byte(mine))); len(got) != 0 {
		t.Fatalf("an ancestor lacks nothing: %v", got)
	}
	// A line rewritten by a redaction is the same change.
	redacted := strings.Replace(common, `"prev":""`, `"prev":"x"`, 1)
	if got := lacking(changesOf([]byte(common)), changesOf([]byte(redacted))); len(got) != 0 {
		t.Fatalf("a redacted line counts as another change: %v", got)
	}
	if span(nil) != "none" {
		t.Fatal(span(nil))
	}
}

func TestListChangesIsBoundedAndSafe(t *testing.T) {
	var j strings.Builder
	for i := 1; i <= 13; i++ {
		j.WriteString(jline(i, "phase set", "m\x1b[31m\u202e"))
	}
	out := listChanges("remote", changesOf([]byte(j.String())))
	if len(out) != maxListed+1 || out[maxListed] != "  remote: ... and 3 more" {
		t.Fatalf("listing: %q", out)
	}
	for _, l := range out {
		if strings.ContainsAny(l, "\x1b\t\u202e") {
			t.Fatalf("unescaped: %q", l)
		}
	}
	if !strings.Contains(out[0], `by m\x1b[31m\u202e at`) {
		t.Fatalf("actor shown as %q", out[0])
	}
}

func TestExtendsJournal(t *testing.T) {
	snap := func(j string) gitx.Snapshot { return gitx.Snapshot{"files/journal.jsonl": []byte(j)} }
	a, b := jline(1, "init", "a"), jline(2, "phase set", "a")
	for _, tc := range []struct {
		local, remote string
		want          bool
	}{
		{a + b, a, true},
		{a, a, false},
		{a, a + b, false},
		{a + b, "", false},
		{a + b, strings.TrimSuffix(a, "\n"), false},
		{jline(1, "init", "b") + b, a, false},
	} {
		if got := extendsJournal(snap(tc.local), snap(tc.remote)); got != tc.want {
			t.Errorf("extendsJournal(%q, %q) = %v", tc.local, tc.remote, got)
		}
	}
}
