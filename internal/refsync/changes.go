package refsync

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/orc-state/orc-state/internal/gitx"
	"github.com/orc-state/orc-state/internal/journal"
	"github.com/orc-state/orc-state/internal/safetext"
)

// A session's journal is how sync tells what each side changed: every
// change is a journal line, the lines are hash-chained, and an import
// copies the remote's journal byte for byte. So one side has changes the
// other lacks exactly when it has journal lines the other lacks.

// journalOf is the journal a snapshot holds (nil when none).
func journalOf(snap gitx.Snapshot) []byte { return snap["files/"+journal.FileName] }

// extendsJournal reports whether the local journal is the remote's with
// more lines after it: the local state is the remote's plus local changes.
func extendsJournal(local, remote gitx.Snapshot) bool {
	l, r := journalOf(local), journalOf(remote)
	return len(r) > 0 && len(l) > len(r) && r[len(r)-1] == '\n' && bytes.HasPrefix(l, r)
}

// change is one journal line as sync shows it.
type change struct {
	Seq   int
	Verb  string
	Actor string
	At    string
	key   string // what makes two lines the same change
}

// changesOf lists the changes a journal records, oldest first. Lines that
// do not parse, and the "sync pull" lines older versions appended on
// import (bookkeeping, not changes), are left out.
func changesOf(j []byte) []change {
	var out []change
	for _, line := range bytes.Split(j, []byte("\n")) {
		var e journal.Entry
		if len(line) == 0 || json.Unmarshal(line, &e) != nil || e.Verb == "sync pull" {
			continue
		}
		d := e.Digests
		out = append(out, change{Seq: e.Seq, Verb: e.Verb, Actor: e.Actor, At: e.At,
			key: strings.Join([]string{strconv.Itoa(e.Seq), e.At, e.Actor, e.Verb, d.Entry, d.Checkpoint, d.Ledger, d.Decisions}, "\x00")})
	}
	return out
}

// lacking returns the changes of from that in does not have, in order. A
// line is the same change on both sides when its seq, time, actor, verb
// and digests agree (a redaction rewrites a line's bytes, not the change).
func lacking(from, in []change) []change {
	have := make(map[string]bool, len(in))
	for _, c := range in {
		have[c.key] = true
	}
	var out []change
	for _, c := range from {
		if !have[c.key] {
			out = append(out, c)
		}
	}
	return out
}

// String is the change as listed: "#5 phase set by alice at <time>".
func (c change) String() string {
	return fmt.Sprintf("#%d %s by %s at %s", c.Seq, safetext.Escape(c.Verb), safetext.Escape(c.Actor), safetext.Escape(c.At))
}

// span names a list of changes by their seqs: "#5" or "#5..#7".
func span(cs []change) string {
	switch len(cs) {
	case 0:
		return "none"
	case 1:
		return "#" + strconv.Itoa(cs[0].Seq)
	}
	return fmt.Sprintf("#%d..#%d", cs[0].Seq, cs[len(cs)-1].Seq)
}

// maxListed bounds how many changes of one side a listing shows.
const maxListed = 10

// listChanges renders changes as indented lines under a result line, each
// labelled with its side ("local", "remote", "discarded"), at most
// maxListed and a count of the rest.
func listChanges(label string, cs []change) []string {
	var out []string
	for i, c := range cs {
		if i == maxListed {
			out = append(out, fmt.Sprintf("  %s: ... and %d more", label, len(cs)-maxListed))
			break
		}
		out = append(out, "  "+label+": "+c.String())
	}
	return out
}

// maxWalk bounds how far back ancestorWith reads the remote's history.
const maxWalk = 1000

// ancestorWith returns the newest proper ancestor of commit (first parents
// only) whose content equals local, "" when none within maxWalk commits.
// It reads each commit's journal first and the whole tree only when the
// journal could be the local one.
func ancestorWith(objects *gitx.Objects, commit string, local gitx.Snapshot, read func(string) (gitx.Tree, error)) (string, error) {
	lj := journalOf(local)
	for range maxWalk {
		parents, err := objects.Parents(commit)
		if err != nil || len(parents) == 0 {
			return "", err
		}
		commit = parents[0]
		_, _, j, err := objects.Read(commit + ":files/" + journal.FileName)
		if err != nil || !bytes.HasPrefix(lj, j) {
			continue // no journal there, or not the local one's start
		}
		tree, err := read(commit)
		if err != nil {
			return "", err
		}
		if sameContent(local, tree) {
			return commit, nil
		}
	}
	return "", nil
}
