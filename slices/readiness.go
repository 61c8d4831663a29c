package slices

import (
	"encoding/json"
	"fmt"
	"path"
	"strings"
)

// DefaultBudget is the LOC budget per slice when none is given.
const DefaultBudget = 300

// Readiness check names (the id of a Finding), in report order.
const (
	CheckAcceptance  = "acceptance-count"
	CheckEstLoc      = "est-loc-present"
	CheckDAG         = "depends-on-dag"
	CheckParallel    = "parallel-disjoint"
	CheckTestNamed   = "test-named"
	CheckPlanSHA     = "plan-sha-current"
	CheckTouchpoints = "touchpoints-resolve"
)

// Finding statuses.
const (
	FindingFail    = "fail"
	FindingSkipped = "skipped"
)

// Verdicts.
const (
	VerdictPass     = "PASS"
	VerdictConcerns = "CONCERNS"
	VerdictFail     = "FAIL"
)

// minAcceptanceRows is the fewest acceptance criteria a ready slice has.
const minAcceptanceRows = 2

// concerns are the checks whose failure alone gives CONCERNS, not FAIL.
var concerns = map[string]bool{CheckTestNamed: true, CheckEstLoc: true}

// ReadinessInput is what slice verify learns outside the ledger.
type ReadinessInput struct {
	Budget           int                    // LOC budget per slice; ≤ 0 means DefaultBudget
	PlanSHA256       string                 // sha256 (hex) of the plan file; "" when it is missing
	TouchpointExists func(path string) bool // gets paths as written (and their folders); nil skips the check
}

// Finding is one row of the report: a failed check, or a check that could
// not run (status skipped), never silently dropped. Every row has sliceId:
// null for a check about the whole plan.
type Finding struct {
	Check   string `json:"id"`
	Status  string `json:"status"`  // fail or skipped
	SliceID string `json:"sliceId"` // "" (written as null) for the whole plan
	Detail  string `json:"detail"`
}

// MarshalJSON writes an empty SliceID as null.
func (f Finding) MarshalJSON() ([]byte, error) {
	var id *string
	if f.SliceID != "" {
		id = &f.SliceID
	}
	return json.Marshal(struct {
		Check   string  `json:"id"`
		Status  string  `json:"status"`
		SliceID *string `json:"sliceId"`
		Detail  string  `json:"detail"`
	}{f.Check, f.Status, id, f.Detail})
}

// Report is the outcome of slice verify; the caller stamps it into
// readiness.json with schema, generatedAt and headSha.
type Report struct {
	Verdict string    `json:"verdict"` // PASS, CONCERNS or FAIL
	Checks  []Finding `json:"checks"`
}

// Readiness runs the plan checks of docs/protocol.md §7 over l. Verdict: PASS
// without failures, CONCERNS when only test-named or est-loc-present fail,
// FAIL otherwise. Skipped rows do not count.
func Readiness(l *Ledger, in ReadinessInput) Report {
	if in.Budget <= 0 {
		in.Budget = DefaultBudget
	}
	slices := l.Slices()
	var out []Finding
	fail := func(check, id, format string, args ...any) {
		out = append(out, Finding{Check: check, Status: FindingFail, SliceID: id, Detail: fmt.Sprintf(format, args...)})
	}
	skip := func(check, detail string) {
		out = append(out, Finding{Check: check, Status: FindingSkipped, Detail: detail})
	}
	for _, s := range slices {
		if n := len(s.Acceptance); n < minAcceptanceRows {
			fail(CheckAcceptance, s.ID, "%d acceptance criteria; at least %d needed", n, minAcceptanceRows)
		}
	}
	for _, s := range slices {
		switch {
		case s.EstLoc == nil:
			fail(CheckEstLoc, s.ID, "estLoc is missing")
		case *s.EstLoc > float64(in.Budget) && !s.ShipsAsStack:
			fail(CheckEstLoc, s.ID, "estLoc %g is over the %d-line budget; split the slice or set shipsAsStack", *s.EstLoc, in.Budget)
		}
	}
	for _, f := range graphFaults(slices) {
		fail(CheckDAG, f.slice, "%s", f.detail)
	}
	parallelFaults(slices, fail)
	for _, s := range slices {
		if !hasTest(s.Touchpoints) {
			fail(CheckTestNamed, s.ID, "no touchpoint is a test file")
		}
	}
	switch want := l.PlanSHA256(); {
	case want == "":
		skip(CheckPlanSHA, "the ledger has no planSha256")
	case in.PlanSHA256 == "":
		skip(CheckPlanSHA, "the plan file is missing")
	case !strings.EqualFold(want, in.PlanSHA256):
		fail(CheckPlanSHA, "", "planSha256 %s does not match the plan file (%s); the plan changed since the slices were cut", want, in.PlanSHA256)
	}
	if in.TouchpointExists == nil {
		skip(CheckTouchpoints, "no repository to resolve touchpoints against")
	} else {
		for _, s := range slices {
			for _, p := range s.Touchpoints {
				dir := path.Dir(path.Clean(p))
				if !in.TouchpointExists(p) && dir != "." && !in.TouchpointExists(dir) {
					fail(CheckTouchpoints, s.ID, "neither %s nor its folder %s exists", p, dir)
				}
			}
		}
	}
	return Report{Verdict: verdict(out), Checks: out}
}

// parallelFaults reports slices of one parallelGroup that share a touchpoint
// or depend on each other.
func parallelFaults(slices []Slice, fail func(check, id, format string, args ...any)) {
	group := make(map[string]string, len(slices)) // id → group
	for _, s := range slices {
		group[s.ID] = s.ParallelGroup
	}
	owner := map[string]string{} // group + "\x00" + clean path → first slice id
	for _, s := range slices {
		g := s.ParallelGroup
		if g == "" {
			continue
		}
		for _, d := range s.DependsOn {
			if group[d] == g && d != s.ID {
				fail(CheckParallel, s.ID, "depends on slice %s in the same parallelGroup %s", d, g)
			}
		}
		for _, p := range s.Touchpoints {
			k := g + "\x00" + path.Clean(p)
			if o, ok := owner[k]; !ok {
				owner[k] = s.ID
			} else if o != s.ID {
				fail(CheckParallel, s.ID, "touchpoint %s is also owned by slice %s in parallelGroup %s", p, o, g)
			}
		}
	}
}

// testSegments are folder names that mark a test path.
var testSegments = map[string]bool{"test": true, "tests": true, "spec": true, "specs": true, "__tests__": true}

// testMarks are the parts of a file name that mark a test file, and
// testPrefix the start of one.
var testMarks = []string{".test.", ".spec.", "_test."}

const testPrefix = "test_"

// hasTest reports whether any path looks like a test: a folder segment
// test, tests, spec, specs or __tests__, or a file name containing .test.,
// .spec. or _test., or beginning test_.
func hasTest(paths []string) bool {
	for _, p := range paths {
		segs := strings.Split(path.Clean(p), "/")
		for _, s := range segs[:len(segs)-1] {
			if testSegments[s] {
				return true
			}
		}
		name := segs[len(segs)-1]
		for _, mark := range testMarks {
			if strings.Contains(name, mark) {
				return true
			}
		}
		if strings.HasPrefix(name, testPrefix) {
			return true
		}
	}
	return false
}

func verdict(findings []Finding) string {
	v := VerdictPass
	for _, f := range findings {
		if f.Status != FindingFail {
			continue
		}
		if !concerns[f.Check] {
			return VerdictFail
		}
		v = VerdictConcerns
	}
	return v
}
