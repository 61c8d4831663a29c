package version

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"runtime/debug"
	"testing"
)

func TestDescribe(t *testing.T) {
	vcs := func(rev, modified string) []debug.BuildSetting {
		return []debug.BuildSetting{{Key: "vcs", Value: "git"}, {Key: "vcs.revision", Value: rev}, {Key: "vcs.modified", Value: modified}}
	}
	tests := []struct {
		name string
		bi   *debug.BuildInfo
		want string
	}{
		{"no build info", nil, "orc-state 1.2.3 (no build information)"},
		{"go install at a tag", &debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Version: "v1.2.3"}},
			"orc-state 1.2.3 (module v1.2.3; go1.26.8)"},
		{"go install at a commit", &debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Version: "v0.0.0-20261201110300-3153d7d1e0f2"}},
			"orc-state 1.2.3 (module v0.0.0-20261201110300-3153d7d1e0f2; revision 3153d7d1e0f2; go1.26.8)"},
		{"go install after a tag", &debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Version: "v1.2.4-0.20261201110300-3153d7d1e0f2"}},
			"orc-state 1.2.3 (module v1.2.4-0.20261201110300-3153d7d1e0f2; revision 3153d7d1e0f2; go1.26.8)"},
		{"go install after a pre-release", &debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Version: "v1.3.0-rc.1.0.20261201110300-3153d7d1e0f2+incompatible"}},
			"orc-state 1.2.3 (module v1.3.0-rc.1.0.20261201110300-3153d7d1e0f2+incompatible; revision 3153d7d1e0f2; go1.26.8)"},
		{"a pre-release tag is no pseudo-version", &debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Version: "v1.3.0-rc.1"}},
			"orc-state 1.2.3 (module v1.3.0-rc.1; go1.26.8)"},
		{"checkout, clean", &debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Version: "(devel)"}, Settings: vcs("3153d7d1e0f2aaaabbbbccccddddeeeeffff0000", "false")},
			"orc-state 1.2.3 (devel; revision 3153d7d1e0f2; go1.26.8)"},
		{"checkout, modified", &debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Version: "(devel)"}, Settings: vcs("3153d7d1e0f2aaaabbbbccccddddeeeeffff0000", "true")},
			"orc-state 1.2.3 (devel; revision 3153d7d1e0f2, modified; go1.26.8)"},
		{"a copy without .git", &debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Version: "(devel)"}},
			"orc-state 1.2.3 (devel; no VCS information; go1.26.8)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Describe("1.2.3", tt.bi); got != tt.want {
				t.Errorf("Describe() = %q\nwant        %q", got, tt.want)
			}
		})
	}
}

// The launcher reads the release as the second word of the line.
func TestLineStartsWithRelease(t *testing.T) {
	re := regexp.MustCompile(`^orc-state ` + regexp.QuoteMeta(Release()) + ` \(`)
	if !re.MatchString(Line()) {
		t.Errorf("Line() = %q, want it to start with %q", Line(), "orc-state "+Release()+" (")
	}
	if !regexp.MustCompile(`^[0-9]+\.[0-9]+\.[0-9]+$`).MatchString(Release()) {
		t.Errorf("VERSION = %q, want MAJOR.MINOR.PATCH", Release())
	}
}

// The plugin manifest, its marketplace entry and VERSION name one version:
// Claude Code pins updates to the manifests' version, and the launcher
// builds or accepts a binary by VERSION.
func TestManifestsAgree(t *testing.T) {
	root := filepath.Join("..", "..")
	var plugin struct{ Version string }
	readJSON(t, filepath.Join(root, ".claude-plugin", "plugin.json"), &plugin)
	var market struct {
		Plugins []struct{ Name, Version string }
	}
	readJSON(t, filepath.Join(root, ".claude-plugin", "marketplace.json"), &market)
	if plugin.Version != Release() {
		t.Errorf("plugin.json version %q, VERSION %q", plugin.Version, Release())
	}
	found := false
	for _, p := range market.Plugins {
		if p.Name == "orc-state" {
			found = true
			if p.Version != Release() {
				t.Errorf("marketplace.json lists orc-state %q, VERSION %q", p.Version, Release())
			}
		}
	}
	if !found {
		t.Error("marketplace.json does not list orc-state")
	}
}

func readJSON(t *testing.T, path string, v any) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, v); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
}
