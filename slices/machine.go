package slices

import (
	"fmt"
	"strings"
)

// Statuses is the closed enum of slice states, in lifecycle order.
var Statuses = []string{"pending", "red", "green", "committed", "escalated", "skipped"}

// Edge is one allowed status transition.
type Edge struct{ From, To string }

// Edges is the status machine (docs/protocol.md §7). It is the only place the
// transitions are written down: Set enforces it, MachineMarkdown renders it
// into docs/slices-machine.md. Order matters only for display.
var Edges = []Edge{
	{"pending", "red"},
	{"pending", "committed"}, // a slice built elsewhere
	{"pending", "escalated"},
	{"pending", "skipped"},
	{"red", "green"},
	{"red", "escalated"},
	{"red", "skipped"},
	{"green", "committed"},
	{"green", "red"}, // regression
	{"green", "escalated"},
	{"green", "skipped"},
	{"escalated", "pending"},
	{"escalated", "red"},
	{"escalated", "skipped"},
}

// Terminal statuses have no outgoing edge; leaving one needs Update.Force.
var Terminal = map[string]bool{"committed": true, "skipped": true}

// Finished statuses count as done for Done, Open, Next and dependencies.
var Finished = map[string]bool{"committed": true, "skipped": true}

// Requires names the Update field a target status cannot do without, and
// the CLI flag that supplies it.
var Requires = map[string]string{"committed": "--commit", "skipped": "--note", "escalated": "--note"}

// Allowed returns the statuses reachable from from in one step, in table
// order (none for a terminal status).
func Allowed(from string) []string {
	var to []string
	for _, e := range Edges {
		if e.From == from {
			to = append(to, e.To)
		}
	}
	return to
}

// allowed reports whether from → to is an edge of the table.
func allowed(from, to string) bool {
	for _, e := range Edges {
		if e.From == from && e.To == to {
			return true
		}
	}
	return false
}

// MachineMarkdown renders the machine from the table: a mermaid state
// diagram, the allowed targets of each status, and the rules Set applies.
func MachineMarkdown() string {
	var b strings.Builder
	b.WriteString("```mermaid\nstateDiagram-v2\n")
	b.WriteString("    [*] --> pending\n")
	for _, e := range Edges {
		fmt.Fprintf(&b, "    %s --> %s\n", e.From, e.To)
	}
	for _, s := range Statuses {
		if Terminal[s] {
			fmt.Fprintf(&b, "    %s --> [*]\n", s)
		}
	}
	b.WriteString("```\n\n")
	b.WriteString("| from | allowed targets |\n|---|---|\n")
	for _, s := range Statuses {
		to := "none: terminal (`--force` allows any target)"
		if a := Allowed(s); len(a) > 0 {
			to = "`" + strings.Join(a, "`, `") + "`"
		}
		fmt.Fprintf(&b, "| `%s` | %s |\n", s, to)
	}
	b.WriteString("\nRules:\n\n")
	for _, s := range Statuses {
		if flag, ok := Requires[s]; ok {
			fmt.Fprintf(&b, "- `%s` requires `%s`.\n", s, flag)
		}
	}
	b.WriteString("- Setting the current status again is a no-op for the status; `--commit`, " +
		"`--actual-loc` and `--note` are still recorded when they differ.\n")
	fmt.Fprintf(&b, "- Leaving a terminal status (%s) needs `--force`; the move is journaled as forced. "+
		"`--force` does not make any other edge legal.\n", joinTerminal())
	b.WriteString("- Any other edge is refused (exit 2) and the message names the allowed targets.\n")
	fmt.Fprintf(&b, "- Each entry into `red` counts an attempt. The budget N (decision `maxRetriesPerSlice`, "+
		"default %d) is the number of retries after the first attempt: entries 1..N+1 go to `red`; "+
		"entry N+2 goes to `escalated` instead, with the note \"retry budget exhausted (N+1 attempts: "+
		"the first and N retries)\" (\"1 attempt, no retry\" when N = 0), and the verb exits 5. With N = 0 a slice goes red once and "+
		"escalates on its first retry.\n", DefaultMaxRetries)
	b.WriteString("- Leaving `escalated`, or a forced move out of a terminal status, starts a fresh budget.\n")
	b.WriteString("- A commit that does not resolve in the repository is recorded with `\"commitVerified\": false`.\n")
	var closing []string
	for _, s := range Statuses {
		if Closing[s] {
			closing = append(closing, "`"+s+"`")
		}
	}
	fmt.Fprintf(&b, "- A slice another agent holds a live claim on (`slice claim`) is refused (exit 1, naming the holder and the lease's end) "+
		"unless `--force`, which is journaled; a slice nobody claims is settable by anyone. Reaching %s releases the claim.\n",
		strings.Join(closing, ", "))
	return b.String()
}

func joinTerminal() string {
	var t []string
	for _, s := range Statuses {
		if Terminal[s] {
			t = append(t, "`"+s+"`")
		}
	}
	return strings.Join(t, ", ")
}
