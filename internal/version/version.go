// Package version owns orc-state's release version (the VERSION file beside
// this one, which the plugin manifests and the plugin's launcher also read)
// and the one-line description of a build that `orc-state version` prints.
package version

import (
	_ "embed"
	"fmt"
	"runtime/debug"
	"strings"
)

//go:embed VERSION
var file string

// Release is the version of this source tree, e.g. "0.1.0". The plugin's
// launcher compares it with the first word after "orc-state" in the output of
// `orc-state version` to tell whether a binary matches the plugin.
func Release() string { return strings.TrimSpace(file) }

// Line describes this binary in one line: the release, then what the Go
// build info says about where it came from.
func Line() string {
	bi, _ := debug.ReadBuildInfo()
	return Describe(Release(), bi)
}

// Describe is Line for given build info (nil when the binary has none):
//
//	orc-state 0.1.0 (module v0.1.0; go1.26.8)                        go install …@v0.1.0
//	orc-state 0.1.0 (module v0.0.0-20261201110300-3153d7d1e0f2; revision 3153d7d1e0f2; go1.26.8)
//	orc-state 0.1.0 (devel; revision 3153d7d1e0f2, modified; go1.26.8)   a checkout build
//	orc-state 0.1.0 (devel; no VCS information; go1.26.8)             a build from a copy without .git
func Describe(release string, bi *debug.BuildInfo) string {
	if bi == nil {
		return fmt.Sprintf("orc-state %s (no build information)", release)
	}
	var parts []string
	mod := bi.Main.Version
	if mod == "" || mod == "(devel)" {
		parts = append(parts, "devel")
	} else {
		parts = append(parts, "module "+mod)
	}
	rev, modified := "", false
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			modified = s.Value == "true"
		}
	}
	if rev == "" {
		rev = pseudoRevision(mod)
	}
	switch {
	case rev != "" && modified:
		parts = append(parts, "revision "+short(rev)+", modified")
	case rev != "":
		parts = append(parts, "revision "+short(rev))
	case mod == "" || mod == "(devel)":
		parts = append(parts, "no VCS information")
	}
	if bi.GoVersion != "" {
		parts = append(parts, bi.GoVersion)
	}
	return fmt.Sprintf("orc-state %s (%s)", release, strings.Join(parts, "; "))
}

// pseudoRevision is the commit a pseudo-version names
// (v0.0.0-20261201110300-3153d7d1e0f2 → 3153d7d1e0f2), else "".
func pseudoRevision(v string) string {
	v, _, _ = strings.Cut(v, "+")
	i := strings.LastIndexByte(v, '-')
	if i < 0 {
		return ""
	}
	rev := v[i+1:]
	stamp := v[:i]
	if j := strings.LastIndexAny(stamp, "-."); j >= 0 {
		stamp = stamp[j+1:]
	}
	if len(rev) != 12 || !isHex(rev) || len(stamp) != 14 || !isDigits(stamp) {
		return ""
	}
	return rev
}

func short(rev string) string {
	if len(rev) > 12 {
		return rev[:12]
	}
	return rev
}

func isHex(s string) bool {
	for _, c := range s {
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f') {
			return false
		}
	}
	return true
}

func isDigits(s string) bool {
	for _, c := range s {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}
