package slices

import (
	"fmt"
	"sort"
	"strings"
)

// The texts of `slice set --help` and `slice init --help`, written from
// the same tables and constants the code enforces, so the help cannot
// drift from the machine or the readiness checks.

// MachineText is the status machine as plain text for --help: each status
// and the statuses it may move to, then the rules Set applies.
func MachineText() string {
	var b strings.Builder
	b.WriteString("Statuses, and the statuses each may move to (docs/slices-machine.md):\n\n")
	for _, s := range Statuses {
		to := strings.Join(Allowed(s), ", ")
		if Terminal[s] {
			to = "none: terminal; --force moves it to any status"
		}
		fmt.Fprintf(&b, "    %-10s -> %s\n", s, to)
	}
	var needs []string
	for _, s := range Statuses {
		if flag, ok := Requires[s]; ok {
			needs = append(needs, s+" needs "+flag)
		}
	}
	fmt.Fprintf(&b, "\nFlags a status needs: %s. Setting the status a slice already has changes only --commit, --actual-loc "+
		"and --note. Each entry into red counts an attempt; past the retry budget (decision %s, "+
		"default %d retries) the slice becomes escalated instead and the verb exits 5. A slice "+
		"another agent holds a live claim on needs --force. Any other move is refused (exit 2).\n",
		strings.Join(needs, ", "), "maxRetriesPerSlice", DefaultMaxRetries)
	return b.String()
}

// PlanText is the plan slice init reads: its fields, as plain text for
// --help.
func PlanText() string {
	return fmt.Sprintf(`The plan is one JSON object: "slices" (an array, required), and optionally
"schema" (%d), "planPath" (the plan document inside files/, default plan.md)
and "planSha256" (the sha256 of that document when the slices were cut).
Each slice has "id" (required: an integer or a name of A-Z a-z 0-9 . _ -,
unique) and the planner's fields: "title", "repo", "dependsOn" (ids of
other slices, no cycle), "touchpoints" (paths in the repository),
"acceptance" (criteria, strings), "estLoc" (estimated lines changed),
"shipsAsStack" (true or false) and "parallelGroup". Fields orc-state does
not know are kept as they are. A slice starts pending.
`, Schema)
}

// ReadinessText is what slice verify requires of a plan, check by check,
// as plain text for --help.
func ReadinessText() string {
	var segs []string
	for s := range testSegments {
		segs = append(segs, s+"/")
	}
	sort.Strings(segs)
	return fmt.Sprintf(`slice verify checks the plan, slice by slice:

    %-20s at least %d acceptance criteria
    %-20s estLoc present, at most the budget (--budget, else
    %-20s $ORC_PR_LOC_BUDGET, else %d) unless shipsAsStack
    %-20s dependsOn names existing slices, without a cycle
    %-20s one parallelGroup: no shared touchpoint, no dependency
    %-20s a test file among the touchpoints: in a folder
    %-20s %s, or named with
    %-20s %s, or starting %s
    %-20s planSha256, when set, matches files/<planPath>
    %-20s every touchpoint, or its folder, exists in the repository

A failed %s or %s makes the verdict CONCERNS, any other failure
FAIL (exit 1); the verdict and the findings go to files/readiness.json.
`,
		CheckAcceptance, minAcceptanceRows,
		CheckEstLoc, "", DefaultBudget,
		CheckDAG, CheckParallel,
		CheckTestNamed, "", strings.Join(segs, " "), "", strings.Join(testMarks, " "), testPrefix,
		CheckPlanSHA, CheckTouchpoints,
		CheckTestNamed, CheckEstLoc)
}
