package slices

import (
	"encoding/json"
	"strings"
	"testing"
)

// files is the repository the touchpoints resolve against.
var files = map[string]bool{
	"parse.go": true, "parse_test.go": true, "write.go": true, "write_test.go": true,
	"cmd": true, "cmd/cli.go": true,
}

func exists(p string) bool { return files[p] }

func readyInput() ReadinessInput {
	return ReadinessInput{PlanSHA256: sha, TouchpointExists: exists}
}

func TestReadinessPass(t *testing.T) {
	r := Readiness(mustParse(t, canonical), readyInput())
	if r.Verdict != VerdictPass || len(r.Checks) != 0 {
		t.Fatalf("report = %+v", r)
	}
}

// plan builds a ledger from slice objects; each gets the fields a ready
// slice needs unless it sets them itself.
func plan(t *testing.T, top string, slices ...string) *Ledger {
	t.Helper()
	for i, s := range slices {
		for _, f := range []string{`"estLoc":10`, `"acceptance":["a","b"]`, `"touchpoints":["parse_test.go"]`} {
			key := f[:strings.Index(f, ":")]
			if !strings.Contains(s, key) {
				s += "," + f
			}
		}
		slices[i] = "{" + s + "}"
	}
	return mustParse(t, `{`+top+`"slices":[`+strings.Join(slices, ",")+`]}`)
}

func TestReadinessChecks(t *testing.T) {
	tests := []struct {
		name    string
		l       func(t *testing.T) *Ledger
		in      func(*ReadinessInput)
		want    []Finding
		verdict string
	}{
		{"one criterion", func(t *testing.T) *Ledger { return plan(t, "", `"id":1,"acceptance":["only"]`) }, nil,
			[]Finding{{CheckAcceptance, FindingFail, "1", "1 acceptance criteria; at least 2 needed"}}, VerdictFail},
		{"no acceptance", func(t *testing.T) *Ledger { return plan(t, "", `"id":1,"acceptance":null`) }, nil,
			[]Finding{{CheckAcceptance, FindingFail, "1", "0 acceptance criteria; at least 2 needed"}}, VerdictFail},
		{"estLoc missing", func(t *testing.T) *Ledger { return plan(t, "", `"id":1,"estLoc":null`) }, nil,
			[]Finding{{CheckEstLoc, FindingFail, "1", "estLoc is missing"}}, VerdictConcerns},
		{"estLoc over budget", func(t *testing.T) *Ledger { return plan(t, "", `"id":1,"estLoc":301`) }, nil,
			[]Finding{{CheckEstLoc, FindingFail, "1", "estLoc 301 is over the 300-line budget; split the slice or set shipsAsStack"}}, VerdictConcerns},
		{"estLoc at budget", func(t *testing.T) *Ledger { return plan(t, "", `"id":1,"estLoc":300`) }, nil, nil, VerdictPass},
		{"estLoc over a given budget", func(t *testing.T) *Ledger { return plan(t, "", `"id":1,"estLoc":150`) },
			func(in *ReadinessInput) { in.Budget = 100 },
			[]Finding{{CheckEstLoc, FindingFail, "1", "estLoc 150 is over the 100-line budget; split the slice or set shipsAsStack"}}, VerdictConcerns},
		{"ships as stack", func(t *testing.T) *Ledger { return plan(t, "", `"id":1,"estLoc":900,"shipsAsStack":true`) }, nil, nil, VerdictPass},
		{"no test touchpoint", func(t *testing.T) *Ledger { return plan(t, "", `"id":1,"touchpoints":["parse.go"]`) }, nil,
			[]Finding{{CheckTestNamed, FindingFail, "1", "no touchpoint is a test file"}}, VerdictConcerns},
		{"concerns together", func(t *testing.T) *Ledger { return plan(t, "", `"id":1,"touchpoints":["parse.go"],"estLoc":null`) }, nil,
			[]Finding{{CheckEstLoc, FindingFail, "1", "estLoc is missing"}, {CheckTestNamed, FindingFail, "1", "no touchpoint is a test file"}}, VerdictConcerns},
		{"shared touchpoint in a group", func(t *testing.T) *Ledger {
			return plan(t, "", `"id":1,"parallelGroup":1,"touchpoints":["write.go","parse_test.go"]`,
				`"id":2,"parallelGroup":1,"touchpoints":["./write.go","write_test.go"]`,
				`"id":3,"parallelGroup":2,"touchpoints":["write.go","write_test.go"]`)
		}, nil,
			[]Finding{{CheckParallel, FindingFail, "2", "touchpoint ./write.go is also owned by slice 1 in parallelGroup 1"}}, VerdictFail},
		{"dependency inside a group", func(t *testing.T) *Ledger {
			return plan(t, "", `"id":1,"parallelGroup":"a"`, `"id":2,"parallelGroup":"a","dependsOn":[1],"touchpoints":["write_test.go"]`)
		}, nil,
			[]Finding{{CheckParallel, FindingFail, "2", "depends on slice 1 in the same parallelGroup a"}}, VerdictFail},
		{"plan changed", func(t *testing.T) *Ledger { return plan(t, `"planSha256":"`+strings.ToUpper(sha)+`",`, `"id":1`) },
			func(in *ReadinessInput) { in.PlanSHA256 = "00" },
			[]Finding{{CheckPlanSHA, FindingFail, "", "planSha256 " + strings.ToUpper(sha) + " does not match the plan file (00); the plan changed since the slices were cut"}}, VerdictFail},
		{"plan sha differs only in case", func(t *testing.T) *Ledger { return plan(t, `"planSha256":"`+strings.ToUpper(sha)+`",`, `"id":1`) }, nil, nil, VerdictPass},
		{"plan missing", func(t *testing.T) *Ledger { return plan(t, `"planSha256":"ab",`, `"id":1`) },
			func(in *ReadinessInput) { in.PlanSHA256 = "" },
			[]Finding{{CheckPlanSHA, FindingSkipped, "", "the plan file is missing"}}, VerdictPass},
		{"no planSha256", func(t *testing.T) *Ledger { return plan(t, ``, `"id":1`) }, nil, nil, VerdictPass},
		{"touchpoint and folder missing", func(t *testing.T) *Ledger {
			return plan(t, "", `"id":1,"touchpoints":["parse_test.go","cmd/new.go","gone/x.go","new_top.go"]`)
		}, nil,
			[]Finding{{CheckTouchpoints, FindingFail, "1", "neither gone/x.go nor its folder gone exists"}}, VerdictFail},
		{"no repository", func(t *testing.T) *Ledger { return plan(t, "", `"id":1,"touchpoints":["gone/x_test.go"]`) },
			func(in *ReadinessInput) { in.TouchpointExists = nil },
			[]Finding{{CheckTouchpoints, FindingSkipped, "", "no repository to resolve touchpoints against"}}, VerdictPass},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := readyInput()
			if tt.in != nil {
				tt.in(&in)
			}
			l := tt.l(t)
			r := Readiness(l, in)
			if r.Verdict != tt.verdict || !equalFindings(r.Checks, tt.want, l.PlanSHA256() == "") {
				t.Fatalf("report = %+v\nwant %s %+v", r, tt.verdict, tt.want)
			}
		})
	}
}

// equalFindings compares got with want, ignoring the skipped row for a
// ledger without planSha256 when noSHA.
func equalFindings(got, want []Finding, noSHA bool) bool {
	var g []Finding
	for _, f := range got {
		if noSHA && f.Check == CheckPlanSHA && f.Status == FindingSkipped && f.Detail == "the ledger has no planSha256" {
			continue
		}
		g = append(g, f)
	}
	if len(g) != len(want) {
		return false
	}
	for i := range g {
		if g[i] != want[i] {
			return false
		}
	}
	return true
}

// TestReadinessDAG covers the graph check on a ledger Parse would refuse:
// the rows must still name every fault.
func TestReadinessDAG(t *testing.T) {
	l := plan(t, "", `"id":1`, `"id":2`, `"id":3`)
	deps := map[string][]string{"1": {"2"}, "2": {"1", "9"}, "3": {"3"}}
	for i := range l.slices {
		l.slices[i].view.DependsOn = deps[l.slices[i].view.ID]
	}
	r := Readiness(l, ReadinessInput{TouchpointExists: exists})
	want := []Finding{
		{CheckDAG, FindingFail, "2", "depends on unknown slice 9"},
		{CheckDAG, FindingFail, "3", "depends on itself"},
		{CheckDAG, FindingFail, "1", "dependsOn cycle: 1 → 2 → 1"},
	}
	if r.Verdict != VerdictFail || !equalFindings(r.Checks, want, true) {
		t.Fatalf("report = %+v", r)
	}
}

func TestHasTest(t *testing.T) {
	for p, want := range map[string]bool{
		"test/a.go": true, "pkg/tests/x.py": true, "spec/models/user.rb": true, "src/__tests__/a.js": true,
		"a.test.ts": true, "a.spec.js": true, "x_test.go": true, "test_x.py": true, "specs/a": true,
		"a.go": false, "testing/a.go": false, "contest.go": false, "test": false, "latest.go": false,
		"docs/test": false, "attest/a.go": false,
	} {
		if got := hasTest([]string{p}); got != want {
			t.Errorf("hasTest(%q) = %v, want %v", p, got, want)
		}
	}
}

// Every row of readiness.json has sliceId: the slice's id, or null for a
// check about the whole plan (plan-sha, touchpoints skipped).
func TestFindingAlwaysHasSliceID(t *testing.T) {
	for _, tt := range []struct {
		f    Finding
		want string
	}{
		{Finding{Check: CheckTestNamed, Status: FindingFail, SliceID: "c1", Detail: "d"}, `{"id":"test-named","status":"fail","sliceId":"c1","detail":"d"}`},
		{Finding{Check: CheckPlanSHA, Status: FindingSkipped, Detail: "d"}, `{"id":"plan-sha-current","status":"skipped","sliceId":null,"detail":"d"}`},
	} {
		got, err := json.Marshal(tt.f)
		if err != nil || string(got) != tt.want {
			t.Errorf("Marshal = %s, %v; want %s", got, err, tt.want)
		}
	}
}
