//go:build unix

package e2e

// Tests of the plugin's launcher (bin/orc-state) without the client: real
// sh processes, stand-in orc-state binaries that report a chosen release,
// and a stand-in go whose build copies one of them (the real build runs in
// the end-to-end test).

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/orc-state/orc-state/internal/version"
)

// fakes builds, once, a stand-in orc-state for a release: `version` prints
// "orc-state <release> (stand-in)"; anything else prints
// "stand-in <release>: <args>" and the first line of stdin.
var fakes struct {
	sync.Mutex
	dir string
	bin map[string]string
}

func fakeOrc(t *testing.T, release string) string {
	t.Helper()
	fakes.Lock()
	defer fakes.Unlock()
	if p, ok := fakes.bin[release]; ok {
		return p
	}
	if fakes.dir == "" {
		d, err := os.MkdirTemp("", "orc-state-launcher-fakes-")
		if err != nil {
			t.Fatal(err)
		}
		fakes.dir, fakes.bin = d, map[string]string{}
		src := `package main

import (
	"bufio"
	"fmt"
	"os"
	"strings"
)

var release string

func main() {
	args := os.Args[1:]
	if len(args) == 1 && args[0] == "version" {
		fmt.Printf("orc-state %s (stand-in)\n", release)
		return
	}
	line, _ := bufio.NewReader(os.Stdin).ReadString('\n')
	fmt.Printf("stand-in %s: %s | %s\n", release, strings.Join(args, " "), strings.TrimSpace(line))
}
`
		if err := os.WriteFile(filepath.Join(d, "main.go"), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(d, "go.mod"), []byte("module standin\n\ngo 1.22\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	out := filepath.Join(fakes.dir, "orc-state-"+release)
	cmd := exec.Command("go", "build", "-o", out, "-ldflags", "-X main.release="+release, ".")
	cmd.Dir = fakes.dir
	cmd.Env = append(os.Environ(), "GOFLAGS=", "GOWORK=off")
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("building a stand-in: %v\n%s", err, b)
	}
	fakes.bin[release] = out
	return out
}

// lrig is a plugin copy, a data dir and a PATH made of chosen folders.
type lrig struct {
	t      *testing.T
	root   string // plugin root
	data   string
	tools  string // the few POSIX tools the launcher needs, and no go
	path   []string
	noData bool // run without CLAUDE_PLUGIN_DATA
}

// newLauncherRig copies the launcher (without its execute bit) and VERSION
// into a fresh plugin root at rel under a temp dir.
func newLauncherRig(t *testing.T, rel string) *lrig {
	t.Helper()
	tmp := t.TempDir()
	r := &lrig{t: t, root: filepath.Join(tmp, rel), data: filepath.Join(tmp, "data"), tools: filepath.Join(tmp, "tools")}
	for _, f := range []string{"bin/orc-state", "bin/SHA256SUMS", "internal/version/VERSION"} {
		b, err := os.ReadFile(filepath.Join("..", f))
		if err != nil {
			t.Fatal(err)
		}
		dst := filepath.Join(r.root, f)
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(dst, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.MkdirAll(r.tools, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, tool := range []string{"sh", "find", "mkdir", "mv", "rm", "sed", "tail", "cut", "cat", "sleep", "cp", "chmod"} {
		p, err := exec.LookPath(tool)
		if err != nil {
			t.Skipf("%s is not installed", tool)
		}
		if err := os.Symlink(p, filepath.Join(r.tools, tool)); err != nil {
			t.Fatal(err)
		}
	}
	r.path = []string{r.tools}
	t.Cleanup(r.logInstallOnFailure)
	return r
}

// logInstallOnFailure logs, for a failed test, what the launcher's
// installs left in the data dir: their log and what the install lock
// says is under way. A background install reports nowhere else.
func (r *lrig) logInstallOnFailure() {
	if !r.t.Failed() {
		return
	}
	for _, f := range []string{"build.log", filepath.Join("build.lock", "what"), filepath.Join("build.lock", "pid")} {
		if b, err := os.ReadFile(filepath.Join(r.data, f)); err == nil {
			r.t.Logf("data dir %s:\n%s", f, b)
		} else {
			r.t.Logf("data dir %s: %v", f, err)
		}
	}
}

// dirWith makes a folder holding bin as "orc-state" and returns it.
func (r *lrig) dirWith(name, bin string) string {
	d := filepath.Join(filepath.Dir(r.data), name)
	if err := os.MkdirAll(d, 0o755); err != nil {
		r.t.Fatal(err)
	}
	b, err := os.ReadFile(bin)
	if err != nil {
		r.t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(d, "orc-state"), b, 0o755); err != nil {
		r.t.Fatal(err)
	}
	return d
}

// fakeGo puts a stand-in go on PATH: `go env` answers, `go build -o OUT`
// sleeps for delay, then copies bin to OUT (or fails when bin is "").
func (r *lrig) fakeGo(bin string, delay time.Duration) {
	d := filepath.Join(filepath.Dir(r.data), "gotool")
	os.MkdirAll(d, 0o755)
	build := `cp "` + bin + `" "$out" && chmod +x "$out"`
	if bin == "" {
		build = `echo "stand-in go: build failed" >&2; exit 1`
	}
	script := fmt.Sprintf(`#!/bin/sh
case $1 in
env) for k in "$@"; do case $k in GOPATH) echo %q;; GOBIN|GOEXE) echo;; esac; done ;;
build)
	out=
	while [ $# -gt 0 ]; do [ "$1" = -o ] && out=$2; shift; done
	sleep %g
	%s ;;
esac
`, filepath.Join(filepath.Dir(r.data), "gopath"), delay.Seconds(), build)
	if err := os.WriteFile(filepath.Join(d, "go"), []byte(script), 0o755); err != nil {
		r.t.Fatal(err)
	}
	r.path = append(r.path, d)
}

type lresult struct {
	stdout, stderr string
	code           int
	took           time.Duration
}

// run runs `sh <root>/bin/orc-state args...` with stdin.
func (r *lrig) run(stdin string, args ...string) lresult {
	r.t.Helper()
	return r.runEnv(nil, stdin, args...)
}

// runEnv is run with more environment variables.
func (r *lrig) runEnv(extra []string, stdin string, args ...string) lresult {
	r.t.Helper()
	cmd := exec.Command("/bin/sh", append([]string{filepath.Join(r.root, "bin", "orc-state")}, args...)...)
	cmd.Env = append([]string{"PATH=" + strings.Join(r.path, ":"), "HOME=" + filepath.Dir(r.data), "ORC_STATE_LAUNCHER_DEBUG=1"}, extra...)
	if !r.noData {
		cmd.Env = append(cmd.Env, "CLAUDE_PLUGIN_DATA="+r.data)
	}
	cmd.Stdin = strings.NewReader(stdin)
	var so, se bytes.Buffer
	cmd.Stdout, cmd.Stderr = &so, &se
	// Its own process group, killed whole if it runs away (a launcher
	// that ran a launcher would recurse).
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	start := time.Now()
	if err := cmd.Start(); err != nil {
		r.t.Fatal(err)
	}
	timer := time.AfterFunc(20*time.Second, func() { syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) })
	err := cmd.Wait()
	timer.Stop()
	res := lresult{stdout: so.String(), stderr: se.String(), took: time.Since(start)}
	if ee, ok := err.(*exec.ExitError); ok {
		res.code = ee.ExitCode()
	} else if err != nil {
		r.t.Fatal(err)
	}
	return res
}

func (r *lrig) waitForStamp() {
	r.t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		if b, err := os.ReadFile(filepath.Join(r.data, "bin", "orc-state.version")); err == nil && strings.TrimSpace(string(b)) == version.Release() {
			if _, err := os.Stat(filepath.Join(r.data, "build.lock")); os.IsNotExist(err) {
				return
			}
		}
		if time.Now().After(deadline) {
			log, _ := os.ReadFile(filepath.Join(r.data, "build.log"))
			r.t.Fatalf("no stamped build within 30 s; build.log:\n%s", log)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func expect(t *testing.T, what string, got lresult, code int, stdout, stderr []string) {
	t.Helper()
	if got.code != code {
		t.Errorf("%s: exit %d, want %d\nstdout: %s\nstderr: %s", what, got.code, code, got.stdout, got.stderr)
	}
	for _, s := range stdout {
		if !strings.Contains(got.stdout, s) {
			t.Errorf("%s: stdout lacks %q:\n%s\nstderr: %s", what, s, got.stdout, got.stderr)
		}
	}
	for _, s := range stderr {
		if !strings.Contains(got.stderr, s) {
			t.Errorf("%s: stderr lacks %q:\n%s", what, s, got.stderr)
		}
	}
}

const startPayload = `{"session_id":"s","hook_event_name":"SessionStart","source":"startup"}` + "\n"

func TestLauncherFindsAMatchingBinaryOnPath(t *testing.T) {
	rel := version.Release()
	r := newLauncherRig(t, "plugin")
	good := r.dirWith("good", fakeOrc(t, rel))
	// The plugin's own bin first, as when Claude Code's PATH holds it: the
	// launcher must skip itself.
	r.path = append([]string{filepath.Join(r.root, "bin")}, append(r.path, good)...)
	got := r.run(startPayload, "hook", "session-start")
	expect(t, "first run", got, 0, []string{"stand-in " + rel + ": hook session-start | " + strings.TrimSpace(startPayload)}, []string{"running " + good + "/orc-state"})

	cache, err := os.ReadFile(filepath.Join(r.data, "launcher.cache"))
	if err != nil || string(cache) != rel+"\n"+good+"/orc-state\n" {
		t.Fatalf("launcher.cache = %q, %v", cache, err)
	}
	// Another binary of another release replaces it at the same path: the
	// remembered answer no longer holds; without Go, it runs with a warning.
	time.Sleep(1100 * time.Millisecond) // a newer mtime than the cache
	r.dirWith("good", fakeOrc(t, "0.0.1"))
	got = r.run("", "slice", "list")
	expect(t, "replaced", got, 0, []string{"stand-in 0.0.1: slice list"}, []string{"warning: using " + good + "/orc-state (orc-state 0.0.1); this plugin is " + rel})
}

func TestLauncherWithNothingToRun(t *testing.T) {
	r := newLauncherRig(t, "plugin")
	r.path = append([]string{filepath.Join(r.root, "bin")}, r.path...) // only itself
	got := r.run(startPayload, "hook", "session-start")
	expect(t, "session-start", got, 0, []string{`{"systemMessage":"orc-state: no orc-state binary and no Go to build one`, "install Go (https://go.dev/dl/)"}, nil)
	if strings.Count(got.stdout, "\n") != 1 {
		t.Errorf("session-start printed more than one line:\n%s", got.stdout)
	}
	got = r.run("{}\n", "hook", "pre-compact")
	expect(t, "another hook", got, 0, nil, []string{"no orc-state binary and no Go"})
	if got.stdout != "" {
		t.Errorf("another hook printed %q", got.stdout)
	}
	got = r.run("", "status", "set", "paused")
	expect(t, "a command", got, 127, nil, []string{"go install github.com/orc-state/orc-state/cmd/orc-state@v" + version.Release()})
}

func TestLauncherIgnoresAStaleOwnBuild(t *testing.T) {
	rel := version.Release()
	r := newLauncherRig(t, "plugin")
	// A build stamped with another release stays unused.
	own := filepath.Join(r.data, "bin")
	os.MkdirAll(own, 0o755)
	b, _ := os.ReadFile(fakeOrc(t, "0.0.1"))
	os.WriteFile(filepath.Join(own, "orc-state"), b, 0o755)
	os.WriteFile(filepath.Join(own, "orc-state.version"), []byte("0.0.1\n"), 0o644)
	r.path = append(r.path, r.dirWith("good", fakeOrc(t, rel)))
	got := r.run("", "line")
	expect(t, "line", got, 0, []string{"stand-in " + rel + ": line"}, nil)
}

func TestLauncherBuildsInTheBackgroundForHooks(t *testing.T) {
	rel := version.Release()
	r := newLauncherRig(t, "plugin")
	r.fakeGo(fakeOrc(t, rel), 2*time.Second)
	old := r.dirWith("old", fakeOrc(t, "0.0.1"))
	r.path = append(r.path, old) // another release is on PATH; with Go it is not used

	got := r.run(startPayload, "hook", "session-start")
	expect(t, "session-start", got, 0, []string{`{"systemMessage":"orc-state: building orc-state ` + rel + ` from the plugin's source in the background`}, []string{old + "/orc-state is orc-state 0.0.1, not " + rel})
	if got.took > 1500*time.Millisecond {
		t.Errorf("session-start waited %v for the build", got.took)
	}
	// Hooks fired meanwhile do nothing; SessionStart says it is still building.
	got = r.run("{}\n", "hook", "pre-compact")
	expect(t, "pre-compact during the build", got, 0, nil, []string{"an install is running"})
	if got.stdout != "" {
		t.Errorf("pre-compact during the build printed %q", got.stdout)
	}
	got = r.run(startPayload, "hook", "session-start")
	expect(t, "session-start during the build", got, 0, []string{"is still being built in the background"}, nil)
	// A command waits for it, then runs the build.
	got = r.run("", "phase", "set", "2")
	expect(t, "a command during the build", got, 0, []string{"stand-in " + rel + ": phase set 2"}, []string{"waiting for the build", "running " + r.data + "/bin/orc-state"})
	r.waitForStamp()
	got = r.run(startPayload, "hook", "session-start")
	expect(t, "after the build", got, 0, []string{"stand-in " + rel + ": hook session-start"}, nil)
	if log, _ := os.ReadFile(filepath.Join(r.data, "build.log")); !strings.HasSuffix(string(log), "done\n") {
		t.Errorf("build.log:\n%s", log)
	}
}

func TestLauncherBuildsInTheForegroundForCommands(t *testing.T) {
	rel := version.Release()
	r := newLauncherRig(t, "plugin")
	r.fakeGo(fakeOrc(t, rel), 0)
	got := r.run("", "resume")
	expect(t, "resume", got, 0, []string{"stand-in " + rel + ": resume"}, []string{"building orc-state " + rel + " from the plugin's source, once"})
	if _, err := os.Stat(filepath.Join(r.data, "build.lock")); !os.IsNotExist(err) {
		t.Errorf("the lock outlived the build: %v", err)
	}
}

func TestLauncherReportsAFailedBuild(t *testing.T) {
	r := newLauncherRig(t, "plugin")
	r.fakeGo("", 0)
	got := r.run("", "resume")
	expect(t, "resume", got, 1, nil, []string{"the build of orc-state " + version.Release() + " failed; see " + r.data + "/build.log"})
	got = r.run(startPayload, "hook", "session-start")
	expect(t, "session-start after a failed build", got, 0, []string{"the last build of orc-state " + version.Release() + " failed"}, nil)
	// That SessionStart tried again in the background: let it finish before
	// the temp dir goes.
	for end := time.Now().Add(20 * time.Second); time.Now().Before(end); time.Sleep(50 * time.Millisecond) {
		if _, err := os.Stat(filepath.Join(r.data, "build.lock")); os.IsNotExist(err) {
			return
		}
	}
	t.Error("the background build never released its lock")
}

func TestLauncherClearsALockLeftByACrash(t *testing.T) {
	rel := version.Release()
	r := newLauncherRig(t, "plugin")
	r.fakeGo(fakeOrc(t, rel), 0)
	lock := filepath.Join(r.data, "build.lock")
	os.MkdirAll(lock, 0o755)
	// A pid that is not running (pids are below 2^22 on Linux).
	os.WriteFile(filepath.Join(lock, "pid"), []byte("4194999\n"), 0o644)
	got := r.run("", "resume")
	expect(t, "resume", got, 0, []string{"stand-in " + rel + ": resume"}, []string{"building orc-state"})
}

// Outside a hook there is no CLAUDE_PLUGIN_DATA: an installed plugin finds
// the data dir Claude Code gives it from its own path.
func TestLauncherDataDirOfAnInstalledPlugin(t *testing.T) {
	rel := version.Release()
	r := newLauncherRig(t, filepath.Join("config", "plugins", "cache", "market", "orc-state", rel))
	r.noData = true
	data := filepath.Join(filepath.Dir(r.data), "config", "plugins", "data", "orc-state-market")
	os.MkdirAll(filepath.Join(data, "bin"), 0o755)
	b, _ := os.ReadFile(fakeOrc(t, rel))
	os.WriteFile(filepath.Join(data, "bin", "orc-state"), b, 0o755)
	os.WriteFile(filepath.Join(data, "bin", "orc-state.version"), []byte(rel+"\n"), 0o644)
	got := r.run("", "current")
	expect(t, "current", got, 0, []string{"stand-in " + rel + ": current"}, []string{"running " + data + "/bin/orc-state"})
}

// The launcher with its execute bit, on PATH twice (this plugin's bin and
// another copy's, as after an update): neither counts as orc-state, and
// nothing recurses.
func TestLauncherNeverRunsALauncher(t *testing.T) {
	r := newLauncherRig(t, "plugin")
	self := filepath.Join(r.root, "bin", "orc-state")
	if err := os.Chmod(self, 0o755); err != nil {
		t.Fatal(err)
	}
	other := filepath.Join(filepath.Dir(r.data), "other-plugin")
	for _, f := range []string{"bin/orc-state", "internal/version/VERSION"} {
		b, _ := os.ReadFile(filepath.Join(r.root, f))
		os.MkdirAll(filepath.Dir(filepath.Join(other, f)), 0o755)
		if err := os.WriteFile(filepath.Join(other, f), b, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	r.path = append([]string{filepath.Join(r.root, "bin"), filepath.Join(other, "bin")}, r.path...)
	got := r.run("", "current")
	expect(t, "current", got, 127, nil, []string{"no orc-state binary and no Go"})
	if got.took > 5*time.Second {
		t.Errorf("took %v", got.took)
	}
	rel := version.Release()
	r.path = append(r.path, r.dirWith("good", fakeOrc(t, rel)))
	got = r.run("", "current")
	expect(t, "current with a binary after them", got, 0, []string{"stand-in " + rel + ": current"}, nil)
}
