package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"time"
)

// result is one row of the report.
type result struct {
	group, key, label string
	runs              int
	median, p90       time.Duration // wall clock, exec to wait
	cpu               time.Duration // median user+system time of the process and its waited-for children
	rule              budgetRule
	budget            time.Duration // 0: none
	budgetText        string
	verdict           string // PASS, OVER, or "" without a budget
	note              string // a skipped case's reason
}

// measure runs the group's cases round-robin: warmup untimed rounds, then
// runs timed rounds, each run a fresh process. Interleaving spreads any
// background load evenly over the cases it compares. Cases marked alone get
// their own rounds afterwards; then the group's restore commands run.
func (h *harness) measure(g group, warmup, runs int) ([]result, error) {
	var together []int
	var alone [][]int
	for i, c := range g.cases {
		switch {
		case c.skip != "":
		case c.alone:
			alone = append(alone, []int{i})
		default:
			together = append(together, i)
		}
	}
	for _, c := range g.cases {
		if err := h.check(c); err != nil {
			return nil, fmt.Errorf("%s, %s: %w", g.name, c.key, err)
		}
	}
	samples := make([][]sample, len(g.cases))
	for _, set := range append([][]int{together}, alone...) {
		for round := 0; round < warmup+runs; round++ {
			for _, i := range set {
				s, err := h.runCase(g.cases[i], round)
				if err != nil {
					return nil, fmt.Errorf("%s, %s: %w", g.name, g.cases[i].key, err)
				}
				if round >= warmup {
					samples[i] = append(samples[i], s)
				}
			}
		}
	}
	for _, args := range g.restore {
		if _, err := h.orc(g.cases[0].dir, "", args...); err != nil {
			return nil, err
		}
	}
	out := make([]result, len(g.cases))
	for i, c := range g.cases {
		out[i] = result{group: g.name, key: c.key, label: c.label, rule: c.rule, note: c.skip}
		if c.skip != "" {
			continue
		}
		out[i].runs = len(samples[i])
		out[i].median, out[i].p90, out[i].cpu = summarize(samples[i])
	}
	return out, nil
}

// check runs a read-only case once, untimed, and fails unless its output
// shows the state the case is meant to time (a live session, not the
// "nothing to show" path).
func (h *harness) check(c benchCase) error {
	if c.want == "" || c.skip != "" {
		return nil
	}
	exe, stdin := c.exe, ""
	if exe == "" {
		exe = h.bin
	}
	if c.stdin != nil {
		stdin = c.stdin(0)
	}
	out, err := h.run(c.dir, stdin, exe, c.args(0)...)
	if err != nil {
		return err
	}
	if !strings.Contains(out, c.want) {
		return fmt.Errorf("output %q lacks %q: the fixture is not in the state this case times", out, c.want)
	}
	return nil
}

// sample is one timed process.
type sample struct{ wall, cpu time.Duration }

// runCase runs one process of c and times it. Its streams are plain files
// (stdin prepared beforehand, stdout to /dev/null, stderr to a file), so
// no copying goroutine runs while it is timed.
func (h *harness) runCase(c benchCase, round int) (sample, error) {
	exe := c.exe
	if exe == "" {
		exe = h.bin
	}
	stdinText := ""
	if c.stdin != nil {
		stdinText = c.stdin(round)
	}
	stdinPath := filepath.Join(h.tmp, "stdin")
	if err := os.WriteFile(stdinPath, []byte(stdinText), 0o644); err != nil {
		return sample{}, err
	}
	stdin, err := os.Open(stdinPath)
	if err != nil {
		return sample{}, err
	}
	defer stdin.Close()
	stdout, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0)
	if err != nil {
		return sample{}, err
	}
	defer stdout.Close()
	stderrPath := filepath.Join(h.tmp, "stderr")
	stderr, err := os.Create(stderrPath)
	if err != nil {
		return sample{}, err
	}
	defer stderr.Close()

	args := c.args(round)
	cmd := exec.Command(exe, args...)
	cmd.Dir, cmd.Env = c.dir, h.env
	cmd.Stdin, cmd.Stdout, cmd.Stderr = stdin, stdout, stderr

	start := time.Now()
	err = cmd.Run()
	wall := time.Since(start)

	if err != nil {
		msg, _ := os.ReadFile(stderrPath)
		return sample{}, fmt.Errorf("%s %s: %v: %s", filepath.Base(exe), strings.Join(args, " "), err, strings.TrimSpace(string(msg)))
	}
	ps := cmd.ProcessState
	return sample{wall: wall, cpu: ps.UserTime() + ps.SystemTime()}, nil
}

// summarize returns the median and nearest-rank 90th percentile of the wall
// times and the median CPU time.
func summarize(ss []sample) (median, p90, cpu time.Duration) {
	wall := make([]time.Duration, len(ss))
	cpus := make([]time.Duration, len(ss))
	for i, s := range ss {
		wall[i], cpus[i] = s.wall, s.cpu
	}
	return quantile(wall, 0.5), quantile(wall, 0.9), quantile(cpus, 0.5)
}

// quantile is the median for q = 0.5 (the mean of the two middle values
// for an even count) and the nearest-rank quantile otherwise.
func quantile(ds []time.Duration, q float64) time.Duration {
	if len(ds) == 0 {
		return 0
	}
	sorted := append([]time.Duration(nil), ds...)
	sort.Slice(sorted, func(i, j int) bool { return sorted[i] < sorted[j] })
	n := len(sorted)
	if q == 0.5 {
		if n%2 == 1 {
			return sorted[n/2]
		}
		return (sorted[n/2-1] + sorted[n/2]) / 2
	}
	rank := int(q*float64(n)+0.999999) - 1 // ceil(q·n), 1-based
	if rank < 0 {
		rank = 0
	}
	if rank >= n {
		rank = n - 1
	}
	return sorted[rank]
}

// applyBudgets fills in each row's budget and verdict once every group has
// been measured.
func applyBudgets(rs []result) {
	find := func(group, key string) *result {
		for i := range rs {
			if rs[i].group == group && rs[i].key == key && rs[i].note == "" {
				return &rs[i]
			}
		}
		return nil
	}
	for i := range rs {
		r := &rs[i]
		if r.note != "" {
			continue
		}
		switch r.rule.kind {
		case fixedBudget:
			r.budget = r.rule.fixed
			r.budgetText = "≤ " + ms(r.budget)
		case twiceOne:
			if one := find(groupOne, r.key); one != nil {
				r.budget = 2 * one.median
				r.budgetText = fmt.Sprintf("≤ %s (2 × %s)", ms(r.budget), ms(one.median))
			}
		case overGit:
			if g := find(r.group, gitStatusKey); g != nil {
				r.budget = g.median + r.rule.over
				r.budgetText = fmt.Sprintf("≤ %s (git status + %s)", ms(r.budget), ms(r.rule.over))
			}
		case twiceRef:
			if ref := find(r.group, r.rule.ref); ref != nil {
				r.budget = 2 * ref.median
				r.budgetText = fmt.Sprintf("≤ %s (2 × `%s`)", ms(r.budget), r.rule.ref)
			}
		case baseline:
			r.budgetText = "reference"
		default:
			r.budgetText = "none in §19"
		}
		if r.budget > 0 {
			r.verdict = "PASS"
			if r.median > r.budget {
				r.verdict = "OVER"
			}
		}
	}
}

// ms renders d in milliseconds with one decimal.
func ms(d time.Duration) string {
	return fmt.Sprintf("%.1f ms", float64(d)/float64(time.Millisecond))
}
