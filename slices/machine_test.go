package slices

import (
	"bytes"
	"errors"
	"flag"
	"os"
	stdslices "slices"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the generated block of ../docs/slices-machine.md")

// wantEdges is the machine of docs/protocol.md §7 written out by hand, independent
// of Edges: from → the targets it allows.
var wantEdges = map[string][]string{
	"pending":   {"red", "committed", "escalated", "skipped"},
	"red":       {"green", "escalated", "skipped"},
	"green":     {"committed", "red", "escalated", "skipped"},
	"escalated": {"pending", "red", "skipped"},
	"committed": nil,
	"skipped":   nil,
}

func TestTableMatchesContract(t *testing.T) {
	if len(wantEdges) != len(Statuses) {
		t.Fatalf("hand list has %d statuses, Statuses %d", len(wantEdges), len(Statuses))
	}
	for _, from := range Statuses {
		got := stdslices.Clone(Allowed(from))
		want := stdslices.Clone(wantEdges[from])
		stdslices.Sort(got)
		stdslices.Sort(want)
		if !stdslices.Equal(got, want) {
			t.Errorf("Allowed(%s) = %v, want %v", from, got, want)
		}
		if Terminal[from] != (len(want) == 0) {
			t.Errorf("Terminal[%s] = %v", from, Terminal[from])
		}
	}
	seen := map[Edge]bool{}
	for _, e := range Edges {
		if seen[e] || e.From == e.To || !isStatus(e.From) || !isStatus(e.To) {
			t.Errorf("bad or repeated edge %v", e)
		}
		seen[e] = true
	}
}

// atStatus is a one-slice ledger whose slice is in status from.
func atStatus(t *testing.T, from string) *Ledger {
	return mustParse(t, `{"slices":[{"id":1,"keep":[1, 2],"status":"`+from+`","commit":"abcdef0","note":"n"}]}`)
}

// TestEveryEdge tries all 36 pairs of statuses, with and without --force,
// and checks each against the hand-written list.
func TestEveryEdge(t *testing.T) {
	for _, from := range Statuses {
		for _, to := range Statuses {
			for _, force := range []bool{false, true} {
				legal := from == to || stdslices.Contains(wantEdges[from], to) || (force && len(wantEdges[from]) == 0)
				l := atStatus(t, from)
				before := l.Marshal()
				r, err := l.Set("1", Update{Status: to, Commit: "abcdef0", CommitVerified: true, Note: "n", Force: force})
				if !legal {
					var ee *EdgeError
					if !errors.As(err, &ee) || ee.From != from || ee.To != to || !stdslices.Equal(ee.Allowed, Allowed(from)) {
						t.Errorf("%s → %s (force %v): err = %v, want *EdgeError", from, to, force, err)
					}
					if !bytes.Equal(before, l.Marshal()) {
						t.Errorf("%s → %s: refused edge changed the ledger", from, to)
					}
					continue
				}
				if err != nil {
					t.Errorf("%s → %s (force %v): %v", from, to, force, err)
					continue
				}
				if got, _ := l.Status("1"); got != to || r.From != from || r.To != to {
					t.Errorf("%s → %s: status %s, result %+v", from, to, got, r)
				}
				wantForced := force && from != to && len(wantEdges[from]) == 0
				if r.Forced != wantForced || r.Changed != (from != to) {
					t.Errorf("%s → %s (force %v): Forced %v Changed %v", from, to, force, r.Forced, r.Changed)
				}
				if !strings.Contains(string(l.Marshal()), `"keep": [1, 2]`) {
					t.Errorf("%s → %s: planner field lost", from, to)
				}
			}
		}
	}
}

func TestEdgeErrorMessage(t *testing.T) {
	_, err := atStatus(t, "pending").Set("1", Update{Status: "green"})
	want := "illegal transition pending → green; from pending: red, committed, escalated, skipped"
	if err == nil || err.Error() != want {
		t.Fatalf("err = %v, want %q", err, want)
	}
	_, err = atStatus(t, "committed").Set("1", Update{Status: "red"})
	if err == nil || err.Error() != "illegal transition committed → red; committed is terminal" {
		t.Fatalf("err = %v", err)
	}
}

const (
	beginMarker = "<!-- BEGIN GENERATED -->\n"
	endMarker   = "<!-- END GENERATED -->\n"
	machineDoc  = "../docs/slices-machine.md"
)

func TestMachineDocInSync(t *testing.T) {
	data, err := os.ReadFile(machineDoc)
	if err != nil && !(*update && os.IsNotExist(err)) {
		t.Fatalf("%v (regenerate: go test ./slices -run TestMachineDocInSync -update)", err)
	}
	doc := string(data)
	i, j := strings.Index(doc, beginMarker), strings.Index(doc, endMarker)
	if i < 0 || j < i {
		if !*update {
			t.Fatalf("%s lacks the generated markers (regenerate: go test ./slices -run TestMachineDocInSync -update)", machineDoc)
		}
		doc = "# Slice status machine\n\n" + beginMarker + endMarker
		i, j = strings.Index(doc, beginMarker), strings.Index(doc, endMarker)
	}
	block := doc[i+len(beginMarker) : j]
	want := MachineMarkdown()
	if block == want {
		return
	}
	if !*update {
		t.Fatalf("%s is out of date with the Edges table; regenerate it: go test ./slices -run TestMachineDocInSync -update", machineDoc)
	}
	doc = doc[:i+len(beginMarker)] + want + doc[j:]
	if err := os.WriteFile(machineDoc, []byte(doc), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestMachineMarkdownFollowsTable(t *testing.T) {
	md := MachineMarkdown()
	for _, e := range Edges {
		if !strings.Contains(md, "    "+e.From+" --> "+e.To+"\n") {
			t.Errorf("diagram lacks %s --> %s", e.From, e.To)
		}
	}
	for _, line := range []string{
		"| `pending` | `red`, `committed`, `escalated`, `skipped` |",
		"| `committed` | none: terminal (`--force` allows any target) |",
		"- `committed` requires `--commit`.",
		"- `skipped` requires `--note`.",
		"- `escalated` requires `--note`.",
	} {
		if !strings.Contains(md, line+"\n") {
			t.Errorf("markdown lacks %q", line)
		}
	}
	if strings.Count(md, " --> ") != len(Edges)+1+len(Terminal) {
		t.Errorf("diagram has %d arrows", strings.Count(md, " --> "))
	}
}
