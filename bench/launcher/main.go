// Command launcher measures what the plugin's launcher (bin/orc-state)
// adds to a run of orc-state once a binary of its release is installed:
// the median of 31 runs of `sh bin/orc-state line` (the statusline's and
// the hooks' path) against the median of 31 runs of the binary itself,
// interleaved (each first in turn), after warm-up runs; the binary run
// directly is the one the launcher runs. Two installs are measured: the binary in
// the data dir (where the launcher's download or build puts it) and one on
// PATH remembered in launcher.cache. The budget (docs/performance.md) is
// 2 ms over the binary for the first.
//
//	go run ./bench/launcher
package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/orc-state/orc-state/internal/version"
)

const runs = 31

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "bench/launcher:", err)
		os.Exit(1)
	}
}

func run() error {
	tmp, err := os.MkdirTemp("", "orc-state-bench-launcher-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	root, err := filepath.Abs(".")
	if err != nil {
		return err
	}
	if _, err := os.Stat(filepath.Join(root, "bin", "orc-state")); err != nil {
		return fmt.Errorf("run from the repository's root: %w", err)
	}
	bin := filepath.Join(tmp, "orc-state")
	build := exec.Command("go", "build", "-trimpath", "-buildvcs=false", "-ldflags=-s -w -buildid=", "-o", bin, "./cmd/orc-state")
	build.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := build.CombinedOutput(); err != nil {
		return fmt.Errorf("go build: %v\n%s", err, out)
	}
	// A project with a session, as the statusline sees it.
	project := filepath.Join(tmp, "project")
	for _, args := range [][]string{{"git", "init", "-q", "-b", "main", project}, {bin, "init", "--command", "flow", "--total-phases", "3"}} {
		c := exec.Command(args[0], args[1:]...)
		c.Dir = tmp
		if args[0] == bin {
			c.Dir = project
		}
		if out, err := c.CombinedOutput(); err != nil {
			return fmt.Errorf("%s: %v\n%s", strings.Join(args, " "), err, out)
		}
	}
	payload := `{"session_id":"s","cwd":"` + project + `","workspace":{"current_dir":"` + project + `"},"model":{"display_name":"M"}}` + "\n"

	// The data-dir install: the binary and its stamp, as fetch and build leave them.
	data := filepath.Join(tmp, "data")
	if err := os.MkdirAll(filepath.Join(data, "bin"), 0o755); err != nil {
		return err
	}
	b, err := os.ReadFile(bin)
	if err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(data, "bin", "orc-state"), b, 0o755); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(data, "bin", "orc-state.version"), []byte(version.Release()+"\n"), 0o644); err != nil {
		return err
	}
	// The PATH install: the binary in a folder on PATH, found once, then
	// remembered in launcher.cache.
	data2 := filepath.Join(tmp, "data2")
	pathDir := filepath.Join(tmp, "onpath")
	os.MkdirAll(pathDir, 0o755)
	if err := os.WriteFile(filepath.Join(pathDir, "orc-state"), b, 0o755); err != nil {
		return err
	}

	base := []string{"HOME=" + tmp, "LANG=C.UTF-8"}
	sysPath := "PATH=" + os.Getenv("PATH")
	direct := cmd{argv: []string{filepath.Join(data, "bin", "orc-state"), "line"}, env: append(base, sysPath), dir: project, stdin: payload}
	own := cmd{argv: []string{"sh", filepath.Join(root, "bin", "orc-state"), "line"}, env: append(base, sysPath, "CLAUDE_PLUGIN_DATA="+data), dir: project, stdin: payload}
	onPath := cmd{argv: own.argv, env: append(base, "PATH="+pathDir+":"+os.Getenv("PATH"), "CLAUDE_PLUGIN_DATA="+data2), dir: project, stdin: payload}
	for _, c := range []cmd{direct, own, onPath} {
		out, err := c.run()
		if err != nil || !bytes.Contains(out, []byte("orc")) {
			return fmt.Errorf("%s printed %q: %v", strings.Join(c.argv, " "), out, err)
		}
	}
	if _, err := os.Stat(filepath.Join(data2, "launcher.cache")); err != nil {
		return fmt.Errorf("the PATH install was not remembered: %w", err)
	}
	times := map[string][]time.Duration{}
	cases := []struct {
		name string
		c    cmd
	}{{"binary", direct}, {"launcher, data dir", own}, {"launcher, PATH (cache)", onPath}}
	for i := 0; i < runs+5; i++ {
		for j := range cases {
			k := cases[(i+j)%len(cases)] // each case first in turn
			start := time.Now()
			if _, err := k.c.run(); err != nil {
				return err
			}
			if i >= 5 {
				times[k.name] = append(times[k.name], time.Since(start))
			}
		}
	}
	med := func(ds []time.Duration) time.Duration {
		s := slices.Clone(ds)
		slices.Sort(s)
		return s[len(s)/2]
	}
	d := med(times["binary"])
	fmt.Printf("median of %d runs of `line` (statusline payload, one session)\n", runs)
	for _, k := range cases {
		m := med(times[k.name])
		fmt.Printf("  %-24s %7.2f ms  (+%.2f ms)\n", k.name, float64(m)/1e6, float64(m-d)/1e6)
	}
	over := med(times["launcher, data dir"]) - d
	verdict := "within"
	if over > 2*time.Millisecond {
		verdict = "OVER"
	}
	fmt.Printf("budget: the launcher with its data-dir install ≤ 2 ms over the binary: +%.2f ms, %s\n", float64(over)/1e6, verdict)
	return nil
}

type cmd struct {
	argv  []string
	env   []string
	dir   string
	stdin string
}

func (c cmd) run() ([]byte, error) {
	x := exec.Command(c.argv[0], c.argv[1:]...)
	x.Env, x.Dir = c.env, c.dir
	x.Stdin = strings.NewReader(c.stdin)
	return x.Output()
}
