// Command bench times whole orc-state processes against the targets of
// docs/performance.md and prints a Markdown table of medians, ratios and PASS/OVER.
//
// Run it from the module root:
//
//	go run ./bench                 # full mode: 31 runs per case
//	go run ./bench -quick          # iteration: 5 runs, smaller fixtures
//	go run ./bench -out FILE       # also write the report to FILE
//
// It builds orc-state and a floor program (a static Go program that reads
// orc.json and writes it to /dev/null) into a temp dir, generates its
// fixtures there (1, 1,000 and 10,000 sessions, and a 20,000-file
// repository), runs every case as a fresh process (exec + wait, wall clock)
// after warm-up runs, and removes the temp dir at the end.
package main

import (
	"flag"
	"fmt"
	"os"
	"slices"
	"strings"
	"time"
)

// groupKeys name the groups for -only, in the order they are measured.
var groupKeys = []string{"one", "mid", "large", "big", "statusline", "bound", "board"}

// wants reports whether group key is measured.
func (c config) wants(key string) bool { return c.only == nil || c.only[key] }

// config is what the flags select.
type config struct {
	runs    int
	fewRuns int // sweeps on the large registries
	warmup  int
	quick   bool
	out     string
	keep    bool
	sweeps  bool            // only the sweeps, on a 1,000-session registry
	bin     string          // an orc-state to measure instead of building this one
	only    map[string]bool // the groups to measure; nil: all, with the sanity check and the sweeps
	mid     int             // sessions in the mid-size registry
	large   int             // sessions in the large registry
	files   shape
}

func main() {
	var c config
	flag.IntVar(&c.runs, "runs", 31, "measured runs per case")
	flag.BoolVar(&c.quick, "quick", false, "iteration: fewer runs (5 unless -runs is given), 100 and 1,000 sessions, a 2,000-file repository")
	flag.StringVar(&c.out, "out", "", "also write the Markdown report to this file")
	flag.BoolVar(&c.keep, "keep", false, "keep the temp dir with the binary and fixtures (its path is printed)")
	flag.BoolVar(&c.sweeps, "sweeps", false, "only the real sweeps (cleanup --gone --force of all, cleanup --merged --force of half) on 1,000 sessions")
	flag.StringVar(&c.bin, "bin", "", "measure this orc-state binary (another release) instead of building the module's")
	only := flag.String("only", "", "measure only these groups, comma-separated: "+strings.Join(groupKeys, ", ")+
		" (mid and large also measure one, their reference); no sanity check or sweeps")
	flag.Parse()
	if *only != "" {
		c.only = map[string]bool{}
		for _, k := range strings.Split(*only, ",") {
			if !slices.Contains(groupKeys, k) {
				fmt.Fprintf(os.Stderr, "bench: -only: unknown group %q (known: %s)\n", k, strings.Join(groupKeys, ", "))
				os.Exit(2)
			}
			c.only[k] = true
		}
		if c.only["mid"] || c.only["large"] {
			c.only["one"] = true
		}
	}
	c.warmup, c.fewRuns = 2, 7
	c.mid, c.large = 1000, 10000
	c.files = shape{top: 20, mid: 20, leaf: 50}
	if c.quick {
		runsSet := false
		flag.Visit(func(f *flag.Flag) { runsSet = runsSet || f.Name == "runs" })
		if !runsSet {
			c.runs = 5
		}
		c.warmup, c.fewRuns = 1, 3
		c.mid, c.large = 100, 1000
		c.files = shape{top: 10, mid: 10, leaf: 20}
	}
	if c.runs < 1 {
		fmt.Fprintln(os.Stderr, "bench: -runs must be at least 1")
		os.Exit(2)
	}
	if c.fewRuns > c.runs {
		c.fewRuns = c.runs
	}
	if err := run(c); err != nil {
		fmt.Fprintln(os.Stderr, "bench:", err)
		os.Exit(1)
	}
}

func run(c config) error {
	began := time.Now()
	tmp, err := os.MkdirTemp("", "orc-bench-")
	if err != nil {
		return err
	}
	if c.keep {
		logf("keeping %s", tmp)
	} else {
		defer os.RemoveAll(tmp)
	}

	m := readMachine()
	m.loadBefore = loadAvg()
	m.source = sourceRevision()

	step := time.Now()
	lap := func(what string) {
		logf("%s (%s)", what, time.Since(step).Round(10*time.Millisecond))
		step = time.Now()
	}
	bin := c.bin
	if bin == "" {
		if bin, err = buildOrcState(tmp); err != nil {
			return err
		}
	}
	h := newHarness(bin, tmp)
	if c.sweeps {
		return runSweeps(c, h, lap)
	}
	if h.floor, err = buildFloor(tmp); err != nil {
		return err
	}
	if h.gitFloor, err = buildGitFloor(tmp); err != nil {
		return err
	}
	if h.peak, err = buildPeak(tmp); err != nil {
		return err
	}
	lap("built orc-state and the floor")
	var groups []group
	var one, mid, large string
	if c.wants("one") || c.wants("statusline") || c.wants("bound") || c.wants("board") {
		if one, err = h.sessionRepo("one", 1); err != nil {
			return err
		}
		lap("fixture: 1 session")
	}
	if c.wants("one") {
		groups = append(groups, sessionGroup(groupName(1), roleOne, one, 1, h))
	}
	if c.wants("mid") {
		if mid, err = h.sessionRepo("mid", c.mid); err != nil {
			return err
		}
		lap(fmt.Sprintf("fixture: %d sessions", c.mid))
		groups = append(groups, sessionGroup(groupName(c.mid), roleMid, mid, c.mid, h))
	}
	if c.wants("large") {
		if large, err = h.sessionRepo("large", c.large); err != nil {
			return err
		}
		lap(fmt.Sprintf("fixture: %d sessions", c.large))
		groups = append(groups, sessionGroup(groupName(c.large), roleLarge, large, c.large, h))
	}
	if c.wants("big") {
		big, err := h.bigRepo("big", c.files)
		if err != nil {
			return err
		}
		lap(fmt.Sprintf("fixture: %d-file repository", c.files.count()))
		groups = append(groups, bigGroup(thousands(c.files.count())+"-file repo", big, h))
	}
	if c.wants("statusline") {
		groups = append(groups, statuslineGroup(one, h))
	}
	if c.wants("bound") {
		if h.supports(one, "worktree", "add") {
			repo, wt, err := h.boundRepo("bound")
			if err != nil {
				return err
			}
			groups = append(groups, boundGroup(repo, wt, h))
			lap("fixture: a bound worktree")
		}
	}
	if c.wants("board") && h.supports(one, "board") {
		many, err := h.boardRepo("board")
		if err != nil {
			return err
		}
		groups = append(groups, boardGroup(one, many, h))
		lap("fixture: the board's 100 sessions")
	}
	var results []result
	for i := range groups {
		g := &groups[i]
		rs, err := h.measure(g, c)
		if err != nil {
			return err
		}
		if g.sessions > 0 {
			repo := g.repo
			if repo == "" {
				repo = g.cases[0].dir
			}
			g.registry = fileSize(repo, ".orc/orc.json")
		}
		results = append(results, rs...)
		lap("measured: " + g.name)
	}
	sweep := ""
	if c.only == nil {
		if err := h.sanity(one, mid, large); err != nil {
			return err
		}
		if sweep, err = h.sweepOnce(mid, c.mid); err != nil {
			return err
		}
		lap("measured: one real cleanup of every session")
		merged, err := h.mergedSweep(mid, c.mid, 3)
		if err != nil {
			return err
		}
		sweep += merged
		lap("measured: cleanup --merged of half the sessions")
	}
	applyTargets(results)

	m.loadAfter = loadAvg()
	m.elapsed = time.Since(began)
	report := render(c, m, results) + sweep
	fmt.Print(report)
	if c.out != "" {
		if err := os.WriteFile(c.out, []byte(report), 0o644); err != nil {
			return err
		}
	}
	return nil
}

// logf reports progress on stderr, so stdout carries only the report.
func logf(format string, args ...any) {
	fmt.Fprintf(os.Stderr, "bench: "+format+"\n", args...)
}

// runSweeps is -sweeps: the two real sweeps on a fresh 1,000-session
// registry, printed alone (compare two binaries with -bin).
func runSweeps(c config, h *harness, lap func(string)) error {
	repo, err := h.sessionRepo("sweeps", 1000)
	if err != nil {
		return err
	}
	lap("fixture: 1000 sessions")
	gone, err := h.sweepOnce(repo, 1000)
	if err != nil {
		return err
	}
	merged, err := h.mergedSweep(repo, 1000, 5)
	if err != nil {
		return err
	}
	lap("measured: the sweeps")
	report := gone + merged
	fmt.Print(report)
	if c.out != "" {
		return os.WriteFile(c.out, []byte(report), 0o644)
	}
	return nil
}
