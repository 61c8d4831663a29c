package client

import (
	"bytes"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// fakeInstall lays out an npm prefix whose platform package's binary
// reports version.
func fakeInstall(t *testing.T, prefix, pkg, version string) {
	t.Helper()
	dir := filepath.Join(prefix, "node_modules", "@anthropic-ai", pkg)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	script := "#!/bin/sh\necho '" + version + " (Claude Code)'\n"
	if err := os.WriteFile(filepath.Join(dir, "claude"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
}

func TestInstallUsesTheCache(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("shell-script stand-ins")
	}
	cache := t.TempDir()
	fakeInstall(t, filepath.Join(cache, "claude-code-9.9.9"), "claude-code-linux-x64", "9.9.9")
	t.Setenv("PATH", "") // no npm: a cache hit must not need it
	var log bytes.Buffer
	bin, err := Install(cache, "9.9.9", &log)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasSuffix(bin, filepath.Join("claude-code-linux-x64", "claude")) {
		t.Errorf("Install = %s", bin)
	}
	// Another version is not in the cache, and without npm it says so.
	if _, err := Install(cache, "9.9.8", &log); err == nil || !strings.Contains(err.Error(), "npm is not on PATH") {
		t.Errorf("Install of an uncached version without npm: %v", err)
	}
}

func TestFind(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("shell-script stand-ins")
	}
	prefix := t.TempDir()
	if _, err := find(prefix, "1.0.0"); err == nil || !strings.Contains(err.Error(), "no @anthropic-ai/claude-code platform binary") {
		t.Errorf("find in an empty prefix: %v", err)
	}
	fakeInstall(t, prefix, "claude-code-linux-x64", "1.0.0")
	if _, err := find(prefix, "1.0.1"); err == nil || !strings.Contains(err.Error(), `reports "1.0.0 (Claude Code)"`) {
		t.Errorf("find of the wrong version: %v", err)
	}
	if got, err := find(prefix, "1.0.0"); err != nil || filepath.Base(filepath.Dir(got)) != "claude-code-linux-x64" {
		t.Errorf("find = %q, %v", got, err)
	}
}

func TestCacheDir(t *testing.T) {
	t.Setenv("ORC_STATE_E2E_CACHE", "")
	t.Setenv("XDG_CACHE_HOME", "/x/cache")
	if d, _ := CacheDir(); d != filepath.Join("/x/cache", "orc-state-e2e") {
		t.Errorf("CacheDir with XDG_CACHE_HOME = %s", d)
	}
	t.Setenv("ORC_STATE_E2E_CACHE", "/y")
	if d, _ := CacheDir(); d != "/y" {
		t.Errorf("CacheDir with ORC_STATE_E2E_CACHE = %s", d)
	}
}

func TestEnvIsHermetic(t *testing.T) {
	t.Setenv("CLAUDECODE", "1")
	env := Env("/h", "/t", "http://127.0.0.1:1", "PATH=/bin")
	joined := strings.Join(env, "\n")
	for _, want := range []string{"HOME=/h", "TMPDIR=/t", "ANTHROPIC_BASE_URL=http://127.0.0.1:1", "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1", "CLAUDE_CODE_DISABLE_OFFICIAL_MARKETPLACE_AUTOINSTALL=1", "PATH=/bin"} {
		if !strings.Contains(joined, want) {
			t.Errorf("Env lacks %s", want)
		}
	}
	if strings.Contains(joined, "CLAUDECODE") {
		t.Error("Env leaks the caller's CLAUDECODE")
	}
}
