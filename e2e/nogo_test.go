//go:build e2e && unix

package e2e

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/orc-state/orc-state/e2e/client"
	"github.com/orc-state/orc-state/internal/version"
)

// TestClaudeCodeWithoutGo: the plugin installed through its marketplace on
// a machine with no Go on any PATH the client or its hooks see. The first
// session's SessionStart starts the launcher's download from a release
// server on 127.0.0.1 (ORC_STATE_RELEASE_URL) in the background; once it is
// installed, the next session gets the banner, /compact writes the
// Auto-checkpoint, and the statusline command renders the session.
//
// The archive is this machine's, built as .goreleaser.yaml builds it
// (static, -trimpath, no VCS stamp, no build id), and the plugin is a copy
// of this checkout whose bin/SHA256SUMS names that archive's SHA-256: the
// launcher accepts nothing else.
func TestClaudeCodeWithoutGo(t *testing.T) {
	r := newRig(t)
	rel := version.Release()

	bin := filepath.Join(r.tmp, "release", "orc-state")
	build := exec.Command("go", "build", "-trimpath", "-buildvcs=false", "-ldflags=-s -w -buildid=", "-o", bin, "./cmd/orc-state")
	build.Dir = r.root
	build.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	archive := tarGz(t, bin)
	srv := newRelServer(t, archive, "good")

	// The plugin and its marketplace: the files the client loads, and the
	// sums of this archive.
	plugin := filepath.Join(r.tmp, "plugin-nogo")
	if err := os.MkdirAll(plugin, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, d := range []string{".claude-plugin", "bin", "hooks", "skills"} {
		if out, err := exec.Command("cp", "-R", filepath.Join(r.root, d), filepath.Join(plugin, d)).CombinedOutput(); err != nil {
			t.Fatalf("copying %s: %v %s", d, err, out)
		}
	}
	if err := os.MkdirAll(filepath.Join(plugin, "internal", "version"), 0o755); err != nil {
		t.Fatal(err)
	}
	if b, err := os.ReadFile(filepath.Join(r.root, "internal", "version", "VERSION")); err != nil {
		t.Fatal(err)
	} else if err := os.WriteFile(filepath.Join(plugin, "internal", "version", "VERSION"), b, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(plugin, "bin", "SHA256SUMS"), []byte(sum(archive)+"  "+archiveName(rel)+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}

	// No Go anywhere the client, its hooks or the launcher look.
	var keep []string
	for _, d := range filepath.SplitList(r.path) {
		if _, err := os.Stat(filepath.Join(d, "go")); err == nil {
			continue
		}
		keep = append(keep, d)
	}
	r.path = strings.Join(keep, string(os.PathListSeparator))
	if p, err := lookPath("go", r.path); err == nil {
		t.Fatalf("go is still on the client's PATH: %s", p)
	}
	r.goEnv = nil
	r.extra = []string{"ORC_STATE_RELEASE_URL=" + srv.URL + "/v" + rel}

	home := r.home(t, "home-nogo")
	r.claudeCmd(t, home, r.tmp, "plugin", "marketplace", "add", plugin)
	r.claudeCmd(t, home, r.tmp, "plugin", "install", "orc-state@orc-state")
	installed := filepath.Join(home, ".claude", "plugins", "cache", "orc-state", "orc-state", rel)
	data := filepath.Join(home, ".claude", "plugins", "data", "orc-state-orc-state")

	// The first session: the download starts in the background; the
	// session does not wait for it.
	began := time.Now()
	r.print(t, home, "first contact")
	firstRun := time.Since(began)
	r.waitForBuild(t, data)
	t.Logf("first session %v; the launcher's download was installed %v after it started", firstRun.Round(time.Millisecond), time.Since(began).Round(time.Millisecond))
	if log, _ := os.ReadFile(filepath.Join(data, "build.log")); !bytes.Contains(log, []byte("downloading orc-state "+rel+" from "+srv.URL)) || !bytes.HasSuffix(log, []byte("done\n")) {
		t.Errorf("the launcher's log does not show the download:\n%s", log)
	}
	if b, err := os.ReadFile(filepath.Join(data, "bin", "orc-state")); err != nil || !bytes.Equal(b, mustRead(t, bin)) {
		t.Errorf("the installed binary is not the release's (%v)", err)
	}

	// The next session: the banner, then the Auto-checkpoint at /compact.
	s := r.start(t, home)
	n := r.requestCount()
	s.send("hello")
	turn := r.requestsSince(n)
	if len(turn) == 0 {
		t.Fatal("no request for the first turn")
	}
	if c := strings.Count(turn[0].text, "orc-state: session "+r.sid); c != 1 {
		t.Errorf("the SessionStart banner reached the model %d times in the first request, want 1:\n%s", c, excerpt(turn[0].text, "SessionStart"))
	}
	checkpoint := filepath.Join(r.project, ".orc", r.sid, "files", "checkpoint.md")
	s.send("/compact")
	if b, err := os.ReadFile(checkpoint); err != nil || !bytes.Contains(b, []byte("## Auto-checkpoint")) || !bytes.Contains(b, []byte("(trigger: manual)")) {
		t.Errorf("PreCompact wrote no Auto-checkpoint (%v):\n%s", err, b)
	}
	s.close()

	// The statusline, as the client runs a statusLine command: the
	// installed plugin's launcher, no CLAUDE_PLUGIN_DATA, the host's
	// payload on stdin, no Go.
	sl := exec.Command("sh", filepath.Join(installed, "bin", "orc-state"), "statusline")
	sl.Dir = r.project
	sl.Env = client.Env(home, r.tmp, r.mock.URL, "PATH="+r.path)
	sl.Stdin = strings.NewReader(`{"session_id":"s","cwd":"` + r.project + `","workspace":{"current_dir":"` + r.project + `"},"model":{"display_name":"Model"}}` + "\n")
	out, err := sl.Output()
	if err != nil || !strings.Contains(string(out), "flow 2/3") || !strings.Contains(string(out), "orc") {
		t.Errorf("the statusline printed %q (%v); want orc's line for flow 2/3", out, err)
	}
	if h := srv.hits.Load(); h != 1 {
		t.Errorf("the release server got %d requests, want 1", h)
	}
}

func mustRead(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
