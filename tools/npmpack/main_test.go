package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/orc-state/orc-state/internal/version"
)

// The committed orc-state package names the source tree's release, in its
// version and in every platform package it depends on.
func TestPackageNamesTheRelease(t *testing.T) {
	raw, err := os.ReadFile(filepath.Join("..", "..", "npm", "orc-state", "package.json"))
	if err != nil {
		t.Fatal(err)
	}
	var meta struct {
		Version              string            `json:"version"`
		OptionalDependencies map[string]string `json:"optionalDependencies"`
	}
	if err := json.Unmarshal(raw, &meta); err != nil {
		t.Fatal(err)
	}
	if meta.Version != version.Release() {
		t.Errorf("npm/orc-state/package.json is version %s; internal/version/VERSION is %s", meta.Version, version.Release())
	}
	if len(meta.OptionalDependencies) != len(npmOS)*len(npmArch) {
		t.Errorf("%d platform packages, want %d", len(meta.OptionalDependencies), len(npmOS)*len(npmArch))
	}
	for _, goos := range []string{"linux", "darwin", "windows"} {
		for _, goarch := range []string{"amd64", "arm64"} {
			pkg := scope + "/" + npmOS[goos] + "-" + npmArch[goarch]
			if v := meta.OptionalDependencies[pkg]; v != version.Release() {
				t.Errorf("optionalDependencies[%s] = %q, want %s", pkg, v, version.Release())
			}
		}
	}
}

func TestReadSumsRefusesWhatIsNotARelease(t *testing.T) {
	good := strings.Repeat("a", 64)
	for _, tc := range []struct{ name, text, err string }{
		{"empty", "", "lists no archive"},
		{"one field", good + "\n", "not a SUM NAME line"},
		{"another project", good + "  other_0.1.0_linux_amd64.tar.gz\n", "is not an archive"},
		{"unknown platform", good + "  orc-state_0.1.0_plan9_amd64.tar.gz\n", "is not an archive"},
		{"good", good + "  orc-state_0.1.0_linux_amd64.tar.gz\n" + good + "  *orc-state_0.1.0_windows_arm64.zip\n", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := filepath.Join(t.TempDir(), "SHA256SUMS")
			os.WriteFile(p, []byte(tc.text), 0o644)
			list, err := readSums(p)
			if tc.err == "" {
				if err != nil || len(list) != 2 || list[1].goos != "windows" || list[1].name != "orc-state_0.1.0_windows_arm64.zip" {
					t.Fatalf("readSums = %+v, %v", list, err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("error %v, want one saying %q", err, tc.err)
			}
		})
	}
}
