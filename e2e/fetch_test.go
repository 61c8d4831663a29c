//go:build unix

package e2e

// Tests of the launcher's download step (bin/orc-state, step 4): a release
// server on 127.0.0.1 (net/http/httptest) serving a real archive of a
// stand-in orc-state, the rig's plugin carrying that archive's SHA-256 in
// bin/SHA256SUMS, and real curl, wget, tar and sha256sum.

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/orc-state/orc-state/internal/version"
)

// archiveName is this machine's archive of a release, as .goreleaser.yaml
// names it.
func archiveName(release string) string {
	return "orc-state_" + release + "_" + runtime.GOOS + "_" + runtime.GOARCH + ".tar.gz"
}

// tarGz packs bin as "orc-state" (and a LICENSE, as the release does).
func tarGz(t *testing.T, bin string) []byte {
	t.Helper()
	b, err := os.ReadFile(bin)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	gz := gzip.NewWriter(&buf)
	tw := tar.NewWriter(gz)
	for _, f := range []struct {
		name string
		mode int64
		body []byte
	}{{"LICENSE", 0o644, []byte("MIT\n")}, {"orc-state", 0o755, b}} {
		if err := tw.WriteHeader(&tar.Header{Name: f.name, Mode: f.mode, Size: int64(len(f.body)), ModTime: time.Unix(1798761600, 0)}); err != nil {
			t.Fatal(err)
		}
		if _, err := tw.Write(f.body); err != nil {
			t.Fatal(err)
		}
	}
	if err := tw.Close(); err != nil {
		t.Fatal(err)
	}
	if err := gz.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func sum(b []byte) string {
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:])
}

// relServer is a release server: how it answers is chosen per test.
type relServer struct {
	*httptest.Server
	hits    atomic.Int32
	archive []byte       // what a request for the archive gets
	mode    string       // "good", "404", "truncate", "stall", "slow"
	delay   atomic.Int64 // nanoseconds each request waits first; set while the server may already serve
	stop    chan struct{}
}

func newRelServer(t *testing.T, archive []byte, mode string) *relServer {
	s := &relServer{archive: archive, mode: mode, stop: make(chan struct{})}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.hits.Add(1)
		if !strings.HasPrefix(r.URL.Path, "/v"+version.Release()+"/") {
			http.NotFound(w, r)
			return
		}
		time.Sleep(time.Duration(s.delay.Load()))
		switch s.mode {
		case "404":
			http.NotFound(w, r)
		case "truncate":
			// Promises the whole archive, sends half, hangs up.
			w.Header().Set("Content-Length", fmt.Sprint(len(s.archive)))
			w.WriteHeader(200)
			w.Write(s.archive[:len(s.archive)/2])
			if hj, ok := w.(http.Hijacker); ok {
				if c, _, err := hj.Hijack(); err == nil {
					c.Close()
				}
			}
		case "stall":
			w.Header().Set("Content-Length", fmt.Sprint(len(s.archive)))
			w.WriteHeader(200)
			w.Write(s.archive[:100])
			w.(http.Flusher).Flush()
			select {
			case <-r.Context().Done():
			case <-s.stop:
			}
		case "slow":
			// Ten pieces a tenth of a second apart: long enough for a progress bar.
			w.Header().Set("Content-Length", fmt.Sprint(len(s.archive)))
			step := len(s.archive)/10 + 1
			for i := 0; i < len(s.archive); i += step {
				w.Write(s.archive[i:min(i+step, len(s.archive))])
				w.(http.Flusher).Flush()
				time.Sleep(100 * time.Millisecond)
			}
		default:
			w.Write(s.archive)
		}
	}))
	t.Cleanup(s.Close)
	t.Cleanup(func() { close(s.stop) })
	return s
}

// fetchRig is a launcher rig whose plugin carries sums for an archive of a
// stand-in of this release, and whose PATH has the download tools asked for.
type fetchRig struct {
	*lrig
	archive []byte
	env     []string
}

func newFetchRig(t *testing.T, downloaders ...string) *fetchRig {
	t.Helper()
	r := &fetchRig{lrig: newLauncherRig(t, "plugin")}
	for _, tool := range append([]string{"uname", "tar", "gzip", "sha256sum"}, downloaders...) {
		p, err := exec.LookPath(tool)
		if err != nil {
			t.Skipf("%s is not installed", tool)
		}
		if err := os.Symlink(p, filepath.Join(r.tools, tool)); err != nil {
			t.Fatal(err)
		}
	}
	r.archive = tarGz(t, fakeOrc(t, version.Release()))
	r.sums(sum(r.archive) + "  " + archiveName(version.Release()) + "\n")
	return r
}

// sums writes the plugin's bin/SHA256SUMS.
func (r *fetchRig) sums(text string) {
	if err := os.WriteFile(filepath.Join(r.root, "bin", "SHA256SUMS"), []byte(text), 0o644); err != nil {
		r.t.Fatal(err)
	}
}

// serve starts a release server and points the launcher at it.
func (r *fetchRig) serve(mode string) *relServer {
	s := newRelServer(r.t, r.archive, mode)
	r.env = []string{"ORC_STATE_RELEASE_URL=" + s.URL + "/v" + version.Release(), "ORC_STATE_DOWNLOAD_TIMEOUT=2"}
	return s
}

func (r *fetchRig) run(stdin string, args ...string) lresult {
	r.t.Helper()
	return r.lrig.runEnv(r.env, stdin, args...)
}

// installed says whether the data dir holds a stamped orc-state, and that
// no download was left behind.
func (r *fetchRig) installed() bool {
	r.t.Helper()
	left, _ := filepath.Glob(filepath.Join(r.data, "bin", ".fetch.*"))
	if len(left) > 0 {
		r.t.Errorf("downloads left in the data dir: %q", left)
	}
	_, err := os.Stat(filepath.Join(r.data, "bin", "orc-state"))
	return err == nil
}

func TestLauncherDownloadsAndVerifiesTheRelease(t *testing.T) {
	for _, tool := range []string{"curl", "wget"} {
		t.Run(tool, func(t *testing.T) {
			rel := version.Release()
			r := newFetchRig(t, tool)
			s := r.serve("good")
			got := r.run("", "resume")
			expect(t, "resume", got, 0, []string{"stand-in " + rel + ": resume"},
				[]string{"downloading orc-state " + rel + " from " + s.URL + "/v" + rel + "/" + archiveName(rel), "running " + r.data + "/bin/orc-state"})
			if !r.installed() {
				t.Fatal("nothing installed")
			}
			if b, _ := os.ReadFile(filepath.Join(r.data, "bin", "orc-state.version")); string(b) != rel+"\n" {
				t.Errorf("stamp %q", b)
			}
			// Installed: the next run downloads nothing.
			got = r.run("", "current")
			expect(t, "current", got, 0, []string{"stand-in " + rel + ": current"}, nil)
			if n := s.hits.Load(); n != 1 {
				t.Errorf("%d requests, want 1", n)
			}
		})
	}
}

// A download that is not the archive the sums name is never run, never
// kept, and the launcher goes on: to the build with Go, else to the advice.
func TestLauncherRefusesADownloadThatIsNotTheRelease(t *testing.T) {
	rel := version.Release()
	for _, tc := range []struct {
		name, mode string
		tamper     bool
		withGo     bool
		stderr     []string
	}{
		{"tampered", "good", true, false, []string{"has SHA-256 ", "removed it, not run", "no orc-state binary and no Go to build one (the download of orc-state " + rel + " failed"}},
		{"tampered, then built", "good", true, true, []string{"removed it, not run", "building orc-state " + rel + " from the plugin's source, once"}},
		{"truncated", "truncate", false, false, []string{"the download of ", "failed; see ", "no orc-state binary and no Go"}},
		{"missing", "404", false, true, []string{"the download of ", "failed; see ", "building orc-state " + rel}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := newFetchRig(t, "curl")
			if tc.withGo {
				r.fakeGo(fakeOrc(t, rel), 0)
			}
			real := r.archive
			if tc.tamper {
				// Another binary, same name: a stand-in of no release at all.
				r.archive = tarGz(t, fakeOrc(t, "6.6.6"))
			}
			s := r.serve(tc.mode)
			r.archive = real
			got := r.run("", "resume")
			if tc.withGo {
				expect(t, tc.name, got, 0, []string{"stand-in " + rel + ": resume"}, tc.stderr)
			} else {
				expect(t, tc.name, got, 127, nil, tc.stderr)
				if got.stdout != "" || r.installed() {
					t.Errorf("something ran or was kept: stdout %q", got.stdout)
				}
			}
			if strings.Contains(got.stdout, "6.6.6") {
				t.Error("the tampered binary ran")
			}
			if n := strings.Count(got.stderr, "removed it, not run"); tc.tamper && n != 1 {
				t.Errorf("the refusal is said %d times, want once:\n%s", n, got.stderr)
			}
			if s.hits.Load() != 1 {
				t.Errorf("%d requests, want 1", s.hits.Load())
			}
		})
	}
}

func TestLauncherGivesUpOnAStalledDownload(t *testing.T) {
	rel := version.Release()
	for _, tool := range []string{"curl", "wget"} {
		t.Run(tool, func(t *testing.T) {
			t.Parallel()
			r := newFetchRig(t, tool)
			r.fakeGo(fakeOrc(t, rel), 0)
			r.serve("stall")
			got := r.run("", "resume")
			expect(t, "resume", got, 0, []string{"stand-in " + rel + ": resume"}, []string{"failed; see ", "building orc-state " + rel})
			// ORC_STATE_DOWNLOAD_TIMEOUT=2: given up within a few seconds.
			if got.took > 12*time.Second {
				t.Errorf("a stalled download held the command %v", got.took)
			}
		})
	}
}

// Without curl or wget, or without sums for this release, nothing is
// requested and the launcher goes on to the next step.
func TestLauncherSkipsTheDownloadItCannotDo(t *testing.T) {
	rel := version.Release()
	for _, tc := range []struct {
		name       string
		tools      []string
		sums       string
		withGo     bool
		code       int
		stdout     []string
		stderr     []string
		notStderr  string
		wantAdvice bool
	}{
		{name: "no curl and no wget, Go", withGo: true, stdout: []string{"stand-in " + rel + ": resume"}, stderr: []string{"building orc-state " + rel}},
		{name: "no curl and no wget", code: 127, stderr: []string{"(and no curl or wget to download one)", "npm install -g orc-state@" + rel, "go install github.com/orc-state/orc-state/cmd/orc-state@v" + rel}},
		{name: "no sums for this release", tools: []string{"curl"}, sums: "0000000000000000000000000000000000000000000000000000000000000000  " + archiveName("0.0.1") + "\n", code: 127,
			stderr: []string{"names no archive of orc-state " + rel + " for this system"}},
		{name: "no sums file", tools: []string{"curl"}, sums: "-", withGo: true, stdout: []string{"stand-in " + rel + ": resume"}, stderr: []string{"building orc-state " + rel}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := newFetchRig(t, tc.tools...)
			switch tc.sums {
			case "":
			case "-":
				os.Remove(filepath.Join(r.root, "bin", "SHA256SUMS"))
			default:
				r.sums(tc.sums)
			}
			if tc.withGo {
				r.fakeGo(fakeOrc(t, rel), 0)
			}
			s := r.serve("good")
			got := r.run("", "resume")
			expect(t, tc.name, got, tc.code, tc.stdout, tc.stderr)
			if strings.Contains(got.stderr, "downloading") || s.hits.Load() != 0 {
				t.Errorf("a download was tried (%d requests):\n%s", s.hits.Load(), got.stderr)
			}
		})
	}
}

// Ten commands at once: one download, and every one runs its binary.
func TestLauncherDownloadsOnceForTenCommands(t *testing.T) {
	rel := version.Release()
	r := newFetchRig(t, "curl")
	s := r.serve("good")
	s.delay.Store(int64(700 * time.Millisecond))
	var wg sync.WaitGroup
	res := make([]lresult, 10)
	for i := range res {
		wg.Add(1)
		go func() {
			defer wg.Done()
			res[i] = r.run("", "slice", "list", fmt.Sprint(i))
		}()
	}
	wg.Wait()
	for i, got := range res {
		expect(t, fmt.Sprintf("command %d", i), got, 0, []string{fmt.Sprintf("stand-in %s: slice list %d", rel, i)}, nil)
	}
	if n := s.hits.Load(); n != 1 {
		t.Errorf("%d downloads, want 1", n)
	}
}

// Hooks never wait for the download: they start it in the background and
// do nothing until it is installed.
func TestLauncherDownloadsInTheBackgroundForHooks(t *testing.T) {
	rel := version.Release()
	r := newFetchRig(t, "curl")
	s := r.serve("good")
	s.delay.Store(int64(2 * time.Second))
	r.env[1] = "ORC_STATE_DOWNLOAD_TIMEOUT=10"
	got := r.run(startPayload, "hook", "session-start")
	expect(t, "session-start", got, 0, []string{`{"systemMessage":"orc-state: downloading orc-state ` + rel + ` in the background`}, nil)
	if got.took > 1500*time.Millisecond {
		t.Errorf("session-start waited %v for the download", got.took)
	}
	got = r.run("{}\n", "hook", "pre-compact")
	expect(t, "pre-compact during the download", got, 0, nil, []string{"an install is running"})
	if got.stdout != "" {
		t.Errorf("pre-compact during the download printed %q", got.stdout)
	}
	got = r.run(startPayload, "hook", "session-start")
	expect(t, "session-start during the download", got, 0, []string{"is still being downloaded in the background"}, nil)
	got = r.run("", "line")
	if got.code != 0 || got.took > 1500*time.Millisecond || got.stdout != "" {
		t.Errorf("the statusline during the download: exit %d after %v, stdout %q", got.code, got.took, got.stdout)
	}
	r.waitForStamp()
	got = r.run(startPayload, "hook", "session-start")
	expect(t, "after the download", got, 0, []string{"stand-in " + rel + ": hook session-start"}, nil)
	if n := s.hits.Load(); n != 1 {
		t.Errorf("%d downloads, want 1", n)
	}
}

// Without Go, a binary of another release on PATH answers the hooks while
// the download runs, with a warning; once installed, this release's runs.
func TestLauncherUsesAnotherReleaseUntilTheDownloadIsInstalled(t *testing.T) {
	rel := version.Release()
	r := newFetchRig(t, "curl")
	r.path = append(r.path, r.dirWith("old", fakeOrc(t, "0.0.1")))
	s := r.serve("good")
	s.delay.Store(int64(time.Second))
	r.env[1] = "ORC_STATE_DOWNLOAD_TIMEOUT=10"
	got := r.run(startPayload, "hook", "session-start")
	expect(t, "session-start", got, 0, []string{"stand-in 0.0.1: hook session-start"}, []string{"warning: using ", "(orc-state 0.0.1); this plugin is " + rel, "installing in the background"})
	if strings.Contains(got.stdout, "systemMessage") {
		t.Errorf("SessionStart printed the launcher's line beside the other binary's output:\n%s", got.stdout)
	}
	r.waitForStamp()
	got = r.run(startPayload, "hook", "session-start")
	expect(t, "after the download", got, 0, []string{"stand-in " + rel + ": hook session-start"}, nil)
}

// A person's command shows the download's progress when stderr is a
// terminal (script(1) gives it one), and none when it is not.
func TestLauncherShowsProgressOnATerminal(t *testing.T) {
	scriptTool, err := exec.LookPath("script")
	if err != nil {
		t.Skip("no script(1) to give the launcher a terminal")
	}
	rel := version.Release()
	r := newFetchRig(t, "curl")
	r.serve("slow")
	launcher := filepath.Join(r.root, "bin", "orc-state")
	cmd := exec.Command(scriptTool, "-qec", "sh '"+launcher+"' resume", "/dev/null")
	cmd.Env = append([]string{"PATH=" + strings.Join(r.path, ":"), "HOME=" + filepath.Dir(r.data), "CLAUDE_PLUGIN_DATA=" + r.data, "TERM=dumb"}, r.env...)
	cmd.Stdin = strings.NewReader("")
	done := make(chan struct{})
	var out []byte
	go func() { out, err = cmd.CombinedOutput(); close(done) }()
	select {
	case <-done:
	case <-time.After(30 * time.Second):
		cmd.Process.Kill()
		t.Fatal("the launcher on a terminal did not finish in 30 s")
	}
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	text := string(out)
	if !strings.Contains(text, "100.0%") || !strings.Contains(text, "stand-in "+rel+": resume") {
		t.Errorf("no progress bar, or the command did not run, on a terminal:\n%q", text)
	}
	// Without a terminal (TestLauncherDownloadsAndVerifiesTheRelease): one line, no bar.
	r2 := newFetchRig(t, "curl")
	r2.serve("slow")
	got := r2.run("", "resume")
	if strings.Contains(got.stderr, "%") {
		t.Errorf("progress on stderr that is not a terminal:\n%s", got.stderr)
	}
}
