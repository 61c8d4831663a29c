package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"
)

// result is one row of the report.
type result struct {
	group  *group
	c      benchCase
	runs   int
	median time.Duration // wall clock, exec to wait
	p90    time.Duration
	cpu    time.Duration // median user+system time of the process and its waited-for children
	rss    int64         // median peak resident set, bytes
	// fsyncs and procs are what the process counted itself (ORC_COUNT_FILE)
	// in its untimed runs (warm-up and the peak-RSS run): the fewest and
	// the most; -1 when not counted (the floor, git).
	fsyncs, procs [2]int
	overFloor     float64       // median / the floor's median in the same group (0: none)
	overOne       float64       // median / the same case's 1-session median (0: none)
	perK          time.Duration // sweeps: (median - 1-session median) per 1,000 sessions
	target        string        // the target, in words ("" none)
	verdict       string        // PASS, OVER, or ""
	note          string        // a skipped case's reason
}

// measure runs the group's cases round-robin: warmup untimed rounds, then
// runs timed rounds, each run a fresh process. Interleaving spreads any
// background load evenly over the cases it compares. Cases marked alone get
// their own rounds afterwards, and sweeps marked few share rounds of their
// own with fewer runs; then the group's restore commands run.
func (h *harness) measure(g *group, c config) ([]result, error) {
	var together, few []int
	var alone [][]int
	for i, bc := range g.cases {
		switch {
		case bc.skip != "":
		case bc.alone:
			alone = append(alone, []int{i})
		case bc.few:
			few = append(few, i)
		default:
			together = append(together, i)
		}
	}
	for _, bc := range g.cases {
		if err := h.check(bc); err != nil {
			return nil, fmt.Errorf("%s, %s: %w", g.name, bc.key, err)
		}
	}
	type set struct {
		cases        []int
		runs, warmup int
	}
	sets := []set{{together, c.runs, c.warmup}}
	for _, a := range alone {
		sets = append(sets, set{a, c.runs, c.warmup})
	}
	if len(few) > 0 {
		sets = append(sets, set{few, c.fewRuns, 1}) // slow, read-only: one warm-up is enough
	}
	samples := make([][]sample, len(g.cases))
	peaks := make([]int64, len(g.cases))
	counted := make([][]sample, len(g.cases))
	for _, st := range sets {
		for round := 0; round < st.warmup+st.runs; round++ {
			for _, i := range st.cases {
				s, err := h.runCase(g.cases[i], round, "", round < st.warmup)
				if err != nil {
					return nil, fmt.Errorf("%s, %s: %w", g.name, g.cases[i].key, err)
				}
				if round >= st.warmup {
					samples[i] = append(samples[i], s)
				} else {
					counted[i] = append(counted[i], s)
				}
			}
		}
		// One more round, untimed, through the peak-RSS probe; the run
		// number goes on, so a mutation still changes state.
		for _, i := range st.cases {
			s, err := h.runCase(g.cases[i], st.warmup+st.runs, h.peak, true)
			if err != nil {
				return nil, fmt.Errorf("%s, %s (peak RSS): %w", g.name, g.cases[i].key, err)
			}
			peaks[i] = s.rss
			counted[i] = append(counted[i], s)
		}
	}
	for _, args := range g.restore {
		if _, err := h.orc(g.cases[0].dir, "", args...); err != nil {
			return nil, err
		}
	}
	out := make([]result, len(g.cases))
	for i, bc := range g.cases {
		out[i] = result{group: g, c: bc, note: bc.skip}
		if bc.skip != "" {
			continue
		}
		out[i].runs = len(samples[i])
		out[i].median, out[i].p90, out[i].cpu = summarize(samples[i])
		out[i].rss = peaks[i]
		out[i].fsyncs, out[i].procs = [2]int{-1, -1}, [2]int{-1, -1}
		for _, c := range counted[i] {
			if c.fsyncs < 0 {
				continue
			}
			if out[i].fsyncs[0] < 0 || c.fsyncs < out[i].fsyncs[0] {
				out[i].fsyncs[0] = c.fsyncs
			}
			out[i].fsyncs[1] = max(out[i].fsyncs[1], c.fsyncs)
			if out[i].procs[0] < 0 || c.procs < out[i].procs[0] {
				out[i].procs[0] = c.procs
			}
			out[i].procs[1] = max(out[i].procs[1], c.procs)
		}
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
type sample struct {
	wall, cpu time.Duration
	rss       int64 // peak resident set, bytes (runs through the probe only)
	// fsyncs and procs: what orc-state counted itself (a counted run of
	// orc-state only; -1 otherwise)
	fsyncs, procs int
}

// runCase runs one process of c and times it. Its streams are plain files
// (stdin prepared beforehand, stdout to /dev/null, stderr to a file), so
// no copying goroutine runs while it is timed. With probe set, the process
// runs under the peak-RSS probe instead and only its peak RSS counts.
//
// With count set and the case an orc-state run, the process reports its
// own fsyncs and the processes it started (ORC_COUNT_FILE, written when it
// exits); such a run is never a timed one.
func (h *harness) runCase(c benchCase, round int, probe string, count bool) (sample, error) {
	exe := c.exe
	if exe == "" {
		exe = h.bin
	}
	count = count && exe == h.bin
	countFile := filepath.Join(h.tmp, "counts.txt")
	_ = os.Remove(countFile)
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
	peakFile := filepath.Join(h.tmp, "peak-rss.txt")
	if probe != "" {
		cmd = exec.Command(probe, append([]string{peakFile, exe}, args...)...)
	}
	cmd.Dir, cmd.Env = c.dir, h.env
	if count {
		cmd.Env = append(append([]string{}, h.env...), "ORC_COUNT_FILE="+countFile)
	}
	cmd.Stdin, cmd.Stdout, cmd.Stderr = stdin, stdout, stderr

	start := time.Now()
	err = cmd.Run()
	wall := time.Since(start)

	if err != nil {
		msg, _ := os.ReadFile(stderrPath)
		return sample{}, fmt.Errorf("%s %s: %v: %s", filepath.Base(exe), strings.Join(args, " "), err, strings.TrimSpace(string(msg)))
	}
	ps := cmd.ProcessState
	s := sample{wall: wall, cpu: ps.UserTime() + ps.SystemTime(), fsyncs: -1, procs: -1}
	if count {
		data, err := os.ReadFile(countFile)
		if err != nil {
			return sample{}, fmt.Errorf("%s %s: no counts written (ORC_COUNT_FILE): %v", filepath.Base(exe), strings.Join(args, " "), err)
		}
		if _, err := fmt.Sscanf(string(data), "fsyncs %d processes %d", &s.fsyncs, &s.procs); err != nil {
			return sample{}, fmt.Errorf("counts %q: %v", data, err)
		}
	}
	if probe != "" {
		kib, err := os.ReadFile(peakFile)
		if err != nil {
			return sample{}, fmt.Errorf("the peak-RSS probe wrote nothing: %v", err)
		}
		n, err := strconv.ParseInt(string(kib), 10, 64)
		if err != nil {
			return sample{}, fmt.Errorf("the peak-RSS probe wrote %.40q", kib)
		}
		s.rss = n << 10 // Linux reports KiB
	}
	return s, nil
}

// summarize returns the median and nearest-rank 90th percentile of the wall
// times, and the median CPU time.
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

// ms renders d in milliseconds with one or two decimals.
func ms(d time.Duration) string {
	v := float64(d) / float64(time.Millisecond)
	if v < 10 {
		return fmt.Sprintf("%.2f ms", v)
	}
	return fmt.Sprintf("%.1f ms", v)
}

// mib renders a byte count in MiB.
func mib(n int64) string { return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20)) }

func fileSize(dir, rel string) int64 {
	st, err := os.Stat(filepath.Join(dir, rel))
	if err != nil {
		return 0
	}
	return st.Size()
}
