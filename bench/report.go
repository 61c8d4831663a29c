package main

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"strconv"
	"strings"
	"time"
)

// machine describes where the numbers were taken.
type machine struct {
	cpu, kernel, goVersion, gitVersion string
	source                             string // the orc-state revision measured
	cores                              int
	date                               time.Time
	loadBefore, loadAfter              string
	elapsed                            time.Duration
}

func readMachine() machine {
	m := machine{cpu: cpuModel(), cores: runtime.NumCPU(), date: time.Now().UTC()}
	m.kernel = firstLine(os.ReadFile("/proc/sys/kernel/osrelease"))
	m.goVersion = firstLine(exec.Command("go", "version").Output())
	m.gitVersion = firstLine(exec.Command("git", "--version").Output())
	return m
}

// cpuModel is the first "model name" of /proc/cpuinfo.
func cpuModel() string {
	f, err := os.Open("/proc/cpuinfo")
	if err != nil {
		return "unknown (" + runtime.GOARCH + ")"
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if k, v, ok := strings.Cut(sc.Text(), ":"); ok && strings.TrimSpace(k) == "model name" {
			return strings.TrimSpace(v)
		}
	}
	return "unknown (" + runtime.GOARCH + ")"
}

// sourceRevision names the commit the measured binary was built from, and
// whether the work tree had uncommitted changes.
func sourceRevision() string {
	root, err := moduleRoot()
	if err != nil {
		return "unknown revision"
	}
	rev := firstLine(exec.Command("git", "-C", root, "rev-parse", "--short", "HEAD").Output())
	dirty, err := exec.Command("git", "-C", root, "status", "--porcelain", "--untracked-files=no").Output()
	if err == nil && len(dirty) > 0 {
		return "built from " + rev + " plus uncommitted changes"
	}
	return "built from " + rev
}

// loadAvg is the 1, 5 and 15 minute load averages.
func loadAvg() string {
	f := strings.Fields(firstLine(os.ReadFile("/proc/loadavg")))
	if len(f) < 3 {
		return "unknown"
	}
	return strings.Join(f[:3], " ")
}

func firstLine(data []byte, err error) string {
	if err != nil {
		return "unknown"
	}
	line, _, _ := strings.Cut(strings.TrimSpace(string(data)), "\n")
	return line
}

// render is the Markdown report: the machine, the method, and the table.
func render(c config, m machine, rs []result) string {
	var b strings.Builder
	mode := "full"
	if c.quick {
		mode = "quick"
	}
	fmt.Fprintf(&b, "### orc-state benchmark, %s\n\n", m.date.Format("2006-01-02 15:04 MST"))
	fmt.Fprintf(&b, "- Command: `go run ./bench%s`\n", commandArgs())
	fmt.Fprintf(&b, "- Mode: %s; %d timed runs per case (%d for the sweeps on the large registries) after %d warm-up run(s); every run a fresh process; bench wall time %s\n",
		mode, c.runs, c.fewRuns, c.warmup, m.elapsed.Round(time.Second))
	fmt.Fprintf(&b, "- orc-state: %s\n", m.source)
	fmt.Fprintf(&b, "- CPU: %s, %d cores\n", m.cpu, m.cores)
	fmt.Fprintf(&b, "- Kernel %s; %s; %s\n", m.kernel, m.goVersion, m.gitVersion)
	fmt.Fprintf(&b, "- Load average (1/5/15 min): %s before, %s after\n", m.loadBefore, m.loadAfter)
	for _, g := range groupsOf(rs) {
		if g.sessions > 0 {
			fmt.Fprintf(&b, "- %s: orc.json is %s bytes\n", g.name, thousands(int(g.registry)))
		}
	}
	b.WriteString("\n| Fixture | Case | Median | p90 | CPU | Peak RSS | fsyncs | procs | × floor | × 1 session | Target | Result |\n")
	b.WriteString("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---|---|\n")
	var notes []string
	pass, over := 0, 0
	for _, r := range rs {
		if r.note != "" {
			fmt.Fprintf(&b, "| %s | %s | — | — | — | — | — | — | — | — | — | SKIP |\n", r.group.name, r.c.label)
			notes = append(notes, fmt.Sprintf("%s, %s: %s", r.group.name, r.c.label, r.note))
			continue
		}
		verdict := r.verdict
		switch {
		case verdict == "":
			verdict = "—"
		case strings.HasPrefix(verdict, "OVER"):
			verdict = "**" + verdict + "**"
			over++
		default:
			pass++
		}
		one := times(r.overOne)
		if r.perK != 0 {
			one += fmt.Sprintf("; %+.2f ms per 1,000 sessions", float64(r.perK)/float64(time.Millisecond))
		}
		target := r.target
		if target == "" {
			target = "—"
		}
		fmt.Fprintf(&b, "| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n",
			r.group.name, r.c.label, ms(r.median), ms(r.p90), ms(r.cpu), mib(r.rss), span(r.fsyncs), span(r.procs), times(r.overFloor), one, target, verdict)
	}
	if len(notes) > 0 {
		b.WriteString("\n")
		for _, n := range notes {
			fmt.Fprintf(&b, "- %s\n", n)
		}
	}
	fmt.Fprintf(&b, "\n%d PASS, %d OVER. Median and p90 are wall clock from exec to wait; CPU is the median user + system time of the process "+
		"and its waited-for children (git for the git-bound verbs); Peak RSS is the process's maximum resident set in one more run under a small probe "+
		"(a process started from Go inherits its parent's high-water mark; the probe's own, about 1-2 MiB, is included, as the floor's row shows). "+
		"fsyncs and procs are what orc-state counted itself in the case's untimed runs (warm-up and the peak-RSS run; ORC_COUNT_FILE): the fsyncs it issued and the processes it started, as fewest–most; a mutation's target is ≤ 2 fsyncs. "+
		"× floor is the median over the floor's median on the same fixture (for the git-bound verbs and git status: over the git floor's); "+
		"× 1 session is the median over the same case's median on the 1-session fixture.\n", pass, over)
	return b.String()
}

// groupsOf lists the groups of rs in order.
func groupsOf(rs []result) []*group {
	var out []*group
	for _, r := range rs {
		if len(out) == 0 || out[len(out)-1] != r.group {
			out = append(out, r.group)
		}
	}
	return out
}

func times(x float64) string {
	if x == 0 {
		return "—"
	}
	return fmt.Sprintf("%.2f×", x)
}

// commandArgs are the flags the bench was run with, for the report.
func commandArgs() string {
	if len(os.Args) < 2 {
		return ""
	}
	return " " + strings.Join(os.Args[1:], " ")
}

// span shows a counted range: "1", "1–3", or "—" when not counted.
func span(r [2]int) string {
	switch {
	case r[0] < 0:
		return "—"
	case r[0] == r[1]:
		return strconv.Itoa(r[0])
	}
	return fmt.Sprintf("%d–%d", r[0], r[1])
}
