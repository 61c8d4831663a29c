// Package client installs a pinned release of the Claude Code client from
// the npm registry into a cache dir, once, and finds its native binary.
package client

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
)

// Version is the Claude Code release the end-to-end test runs. Raise it on
// purpose, after reading the client's changelog for hook changes, and run
// the test.
const Version = "2.1.332"

// Package is the npm package that carries the client.
const Package = "@anthropic-ai/claude-code"

// CacheDir is where installs are kept: $ORC_STATE_E2E_CACHE, else
// $XDG_CACHE_HOME/orc-state-e2e, else ~/.cache/orc-state-e2e.
func CacheDir() (string, error) {
	if d := os.Getenv("ORC_STATE_E2E_CACHE"); d != "" {
		return filepath.Abs(d)
	}
	if d := os.Getenv("XDG_CACHE_HOME"); d != "" {
		return filepath.Join(d, "orc-state-e2e"), nil
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return "", err
	}
	return filepath.Join(home, ".cache", "orc-state-e2e"), nil
}

// Install returns the path of the client binary of the given version,
// installing it under cacheDir with npm when it is not there yet. The
// install goes to a temporary folder renamed into place, so an interrupted
// one is never mistaken for a finished one. log receives npm's output.
func Install(cacheDir, version string, log *bytes.Buffer) (string, error) {
	dir := filepath.Join(cacheDir, "claude-code-"+version)
	if bin, err := find(dir, version); err == nil {
		return bin, nil
	}
	if _, err := exec.LookPath("npm"); err != nil {
		return "", fmt.Errorf("npm is not on PATH; it installs %s@%s", Package, version)
	}
	if err := os.MkdirAll(cacheDir, 0o755); err != nil {
		return "", err
	}
	tmp, err := os.MkdirTemp(cacheDir, ".install-*")
	if err != nil {
		return "", err
	}
	defer os.RemoveAll(tmp)
	// The wrapper package's postinstall only copies the platform binary
	// over a stub, and recent npm releases skip install scripts unless they
	// are allowed: find looks in the platform package itself, so either
	// way works.
	cmd := exec.Command("npm", "install", "--prefix", tmp, "--no-audit", "--no-fund", "--no-save",
		"--loglevel=error", Package+"@"+version)
	cmd.Stdout, cmd.Stderr = log, log
	if err := cmd.Run(); err != nil {
		return "", fmt.Errorf("npm install %s@%s: %v", Package, version, err)
	}
	if _, err := find(tmp, version); err != nil {
		return "", err
	}
	os.RemoveAll(dir) // a broken earlier install
	if err := os.Rename(tmp, dir); err != nil {
		return "", err
	}
	return find(dir, version)
}

// find returns the native client binary under an npm prefix when it runs
// and reports the wanted version.
func find(prefix, version string) (string, error) {
	name := "claude"
	if runtime.GOOS == "windows" {
		name = "claude.exe"
	}
	cands, _ := filepath.Glob(filepath.Join(prefix, "node_modules", "@anthropic-ai", "claude-code-*", name))
	var seen []string
	for _, c := range cands {
		out, err := exec.Command(c, "--version").Output()
		if err != nil {
			seen = append(seen, fmt.Sprintf("%s: %v", c, err))
			continue
		}
		if got := strings.Fields(string(out)); len(got) > 0 && got[0] == version {
			return c, nil
		}
		seen = append(seen, fmt.Sprintf("%s: reports %q", c, strings.TrimSpace(string(out))))
	}
	if len(seen) == 0 {
		return "", fmt.Errorf("no %s platform binary under %s", Package, prefix)
	}
	return "", fmt.Errorf("no usable %s %s under %s: %s", Package, version, prefix, strings.Join(seen, "; "))
}

// Env is a minimal environment for running the client hermetically: an
// isolated HOME and TMPDIR, the mock API's URL and a dummy key, no
// non-essential traffic, no marketplace auto-install, no updates. Nothing
// of the caller's environment leaks in except what extra names.
func Env(home, tmp, baseURL string, extra ...string) []string {
	env := []string{
		"HOME=" + home,
		"TMPDIR=" + tmp,
		"LANG=C.UTF-8",
		"TERM=dumb",
		"ANTHROPIC_BASE_URL=" + baseURL,
		"ANTHROPIC_API_KEY=sk-ant-orc-state-e2e-dummy",
		"CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1",
		"CLAUDE_CODE_DISABLE_OFFICIAL_MARKETPLACE_AUTOINSTALL=1",
		"DISABLE_AUTOUPDATER=1",
		"DISABLE_TELEMETRY=1",
		"DISABLE_ERROR_REPORTING=1",
	}
	return append(env, extra...)
}
