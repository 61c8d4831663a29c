// Command bench times whole orc-state processes against the budgets of
// contract §19 and prints a Markdown table of medians (and p90) per case.
//
// Run it from the module root:
//
//	go run ./bench                 # full mode: 31 runs per case
//	go run ./bench -quick          # CI smoke: 5 runs, smaller fixtures
//	go run ./bench -out FILE       # also write the report to FILE
//
// It builds orc-state into a temp dir, generates its fixtures there (a
// 1-session repository, a 1,000-session registry and a 20,000-file
// repository), runs every case as a fresh process (exec + wait, wall
// clock) after two warm-up runs, and removes the temp dir at the end.
package main

import (
	"flag"
	"fmt"
	"os"
	"time"
)

// config is what the flags select.
type config struct {
	runs     int
	warmup   int
	quick    bool
	out      string
	keep     bool
	sessions int // sessions in the many-session registry
	files    shape
}

func main() {
	var c config
	flag.IntVar(&c.runs, "runs", 31, "measured runs per case")
	flag.BoolVar(&c.quick, "quick", false, "CI smoke: fewer runs (5 unless -runs is given), 100 sessions, a 2,000-file repository")
	flag.StringVar(&c.out, "out", "", "also write the Markdown report to this file")
	flag.BoolVar(&c.keep, "keep", false, "keep the temp dir with the binary and fixtures (its path is printed)")
	flag.Parse()
	c.warmup = 2
	c.sessions = 1000
	c.files = shape{top: 20, mid: 20, leaf: 50}
	if c.quick {
		runsSet := false
		flag.Visit(func(f *flag.Flag) { runsSet = runsSet || f.Name == "runs" })
		if !runsSet {
			c.runs = 5
		}
		c.warmup = 1
		c.sessions = 100
		c.files = shape{top: 10, mid: 10, leaf: 20}
	}
	if c.runs < 1 {
		fmt.Fprintln(os.Stderr, "bench: -runs must be at least 1")
		os.Exit(2)
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
	bin, err := buildOrcState(tmp)
	if err != nil {
		return err
	}
	h := newHarness(bin, tmp)
	lap("built orc-state")
	one, err := h.sessionRepo("one", 1)
	if err != nil {
		return err
	}
	lap("fixture: 1 session")
	many, err := h.sessionRepo("many", c.sessions)
	if err != nil {
		return err
	}
	lap(fmt.Sprintf("fixture: %d sessions, registered with init --branch", c.sessions))
	big, err := h.bigRepo("big", c.files)
	if err != nil {
		return err
	}
	lap(fmt.Sprintf("fixture: %d-file repository", c.files.count()))

	groups := []group{
		sessionGroup(groupOne, one, h),
		sessionGroup(groupMany(c.sessions), many, h),
		bigGroup(groupBig(c.files.count()), big, h),
		statuslineGroup(one, h),
	}
	var results []result
	for _, g := range groups {
		rs, err := h.measure(g, c.warmup, c.runs)
		if err != nil {
			return err
		}
		results = append(results, rs...)
		lap("measured: " + g.name)
	}
	if err := h.sanity(one, many); err != nil {
		return err
	}
	sweep, err := h.sweepOnce(many, c.sessions)
	if err != nil {
		return err
	}
	lap("measured: one real cleanup of every session")
	applyBudgets(results)

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
