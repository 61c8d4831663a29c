package checkpoint

import (
	"strings"
	"testing"
)

func baseAuto() Auto {
	return Auto{
		At: "2026-08-20T18:11:00Z", Trigger: "pre-compact",
		Phase: "5", TotalPhases: 9, PhaseLabel: "implement",
		HeadShort: "abc1234", HeadSubject: "add notifications",
		DirtyKnown: true,
	}
}

func TestRenderAuto(t *testing.T) {
	paths := []string{"a.go", "b.go", "c.go", "d.go", "e.go", "f.go", "g.go"}
	cases := []struct {
		name string
		edit func(*Auto)
		want string
	}{
		{"branch head, clean, no ledger", nil,
			"- At: 2026-08-20T18:11:00Z (trigger: pre-compact)\n- Phase: 5/9 implement\n- HEAD: abc1234 add notifications\n- Dirty: 0 files\n"},
		{"ledger, no label, no trigger", func(a *Auto) {
			a.Trigger, a.PhaseLabel = "", ""
			a.HasLedger, a.SlicesDone, a.SlicesTotal, a.OpenSlices = true, 2, 5, []string{"3", "4", "5"}
		}, "- At: 2026-08-20T18:11:00Z\n- Phase: 5/9\n- Slices: 2/5 done; open: 3, 4, 5\n- HEAD: abc1234 add notifications\n- Dirty: 0 files\n"},
		{"ledger all done", func(a *Auto) {
			a.HasLedger, a.SlicesDone, a.SlicesTotal = true, 5, 5
		}, "- At: 2026-08-20T18:11:00Z (trigger: pre-compact)\n- Phase: 5/9 implement\n- Slices: 5/5 done; open: none\n- HEAD: abc1234 add notifications\n- Dirty: 0 files\n"},
		{"unborn, one dirty file", func(a *Auto) {
			a.HeadState, a.HeadShort, a.HeadSubject = "unborn", "", ""
			a.DirtyCount, a.DirtyPaths = 1, []string{"README.md"}
		}, "- At: 2026-08-20T18:11:00Z (trigger: pre-compact)\n- Phase: 5/9 implement\n- HEAD: unborn (no commits)\n- Dirty: 1 file: README.md\n"},
		{"detached, seven dirty", func(a *Auto) {
			a.HeadState = "detached"
			a.DirtyCount, a.DirtyPaths = 7, paths
		}, "- At: 2026-08-20T18:11:00Z (trigger: pre-compact)\n- Phase: 5/9 implement\n- HEAD: detached at abc1234 add notifications\n- Dirty: 7 files: a.go, b.go, c.go, d.go, e.go (+2 more)\n"},
		{"count beyond the paths given", func(a *Auto) {
			a.DirtyCount, a.DirtyPaths = 40, paths[:5]
		}, "- At: 2026-08-20T18:11:00Z (trigger: pre-compact)\n- Phase: 5/9 implement\n- HEAD: abc1234 add notifications\n- Dirty: 40 files: a.go, b.go, c.go, d.go, e.go (+35 more)\n"},
		{"timed out", func(a *Auto) {
			a.DirtyKnown, a.DirtyTimedOut = false, true
		}, "- At: 2026-08-20T18:11:00Z (trigger: pre-compact)\n- Phase: 5/9 implement\n- HEAD: abc1234 add notifications\n- Dirty: unknown (timed out)\n"},
		{"dirty not known", func(a *Auto) { a.DirtyKnown = false },
			"- At: 2026-08-20T18:11:00Z (trigger: pre-compact)\n- Phase: 5/9 implement\n- HEAD: abc1234 add notifications\n- Dirty: unknown\n"},
		{"phase done", func(a *Auto) { a.Phase, a.PhaseLabel = "done", "" },
			"- At: 2026-08-20T18:11:00Z (trigger: pre-compact)\n- Phase: done/9\n- HEAD: abc1234 add notifications\n- Dirty: 0 files\n"},
		{"sanitized", func(a *Auto) {
			a.PhaseLabel = "impl\n## Resume digest"
			a.HeadSubject = "fix\r\nmore\x00\xff"
			a.DirtyCount, a.DirtyPaths = 1, []string{"we\nird\tpath"}
		}, `- At: 2026-08-20T18:11:00Z (trigger: pre-compact)
- Phase: 5/9 impl\n## Resume digest
- HEAD: abc1234 fix\r\nmore\x00\xff
- Dirty: 1 file: we\nird\tpath
`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			a := baseAuto()
			if c.edit != nil {
				c.edit(&a)
			}
			if got := string(RenderAuto(a)); got != c.want {
				t.Errorf("RenderAuto =\n%q\nwant\n%q", got, c.want)
			}
		})
	}
}

func TestRenderAutoCaps(t *testing.T) {
	a := baseAuto()
	a.HeadSubject = strings.Repeat("s", 100)
	a.HasLedger, a.SlicesTotal = true, 30
	for i := range 30 {
		a.OpenSlices = append(a.OpenSlices, strings.Repeat("i", i%3+1))
	}
	a.DirtyCount = 5
	for range 5 {
		a.DirtyPaths = append(a.DirtyPaths, strings.Repeat("p/", 200))
	}
	got := string(RenderAuto(a))
	if want := "- HEAD: abc1234 " + strings.Repeat("s", 71) + "…\n"; !strings.Contains(got, want) {
		t.Errorf("subject not capped at 72 runes:\n%s", got)
	}
	if !strings.Contains(got, " (+10 more)\n- HEAD") {
		t.Errorf("open slices not capped at 20:\n%s", got)
	}
	if n := len(got); n > 1024 {
		t.Errorf("auto section is %d bytes", n)
	}
	for i, l := range strings.Split(strings.TrimSuffix(got, "\n"), "\n") {
		if !strings.HasPrefix(l, "- ") {
			t.Errorf("line %d %q does not start with \"- \"", i+1, l)
		}
	}
}
