package statetest

import (
	"crypto/sha256"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
)

// GitIdentity is the git of every test: no config file, a fixed
// identity and fixed dates, so that a commit made twice is the same
// commit.
var GitIdentity = []string{
	"GIT_CONFIG_GLOBAL=" + os.DevNull,
	"GIT_CONFIG_SYSTEM=" + os.DevNull,
	"GIT_CONFIG_NOSYSTEM=1",
	"GIT_AUTHOR_NAME=Orc Test",
	"GIT_AUTHOR_EMAIL=orc@example.com",
	"GIT_COMMITTER_NAME=Orc Test",
	"GIT_COMMITTER_EMAIL=orc@example.com",
	"GIT_AUTHOR_DATE=2026-01-01T00:00:00Z",
	"GIT_COMMITTER_DATE=2026-01-01T00:00:00Z",
}

// HermeticEnv is the process environment with nothing that could steer
// git, orc-state, colours or tmux, a fixed git identity and dates, HOME
// set to home, and extra appended.
func HermeticEnv(home string, extra ...string) []string {
	var env []string
	for _, kv := range os.Environ() {
		name, _, _ := strings.Cut(kv, "=")
		switch {
		case strings.HasPrefix(name, "GIT_"), strings.HasPrefix(name, "ORC_"), strings.HasPrefix(name, "CLAUDE_"), strings.HasPrefix(name, "COMP_"),
			name == "NO_COLOR", name == "HOME", name == "TMUX", name == "TMUX_PANE", name == "XDG_CONFIG_HOME":
			continue
		}
		env = append(env, kv)
	}
	env = append(append(env, "HOME="+home), GitIdentity...)
	return append(env, extra...)
}

// ExeSuffix is the executable suffix of the platform.
func ExeSuffix() string {
	if runtime.GOOS == "windows" {
		return ".exe"
	}
	return ""
}

// Manifest lists every entry under root, sorted: its type, path, and the
// sha256 of a file or the target of a link.
func Manifest(root string) (string, error) {
	var lines []string
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		switch {
		case d.Type()&fs.ModeSymlink != 0:
			target, _ := os.Readlink(path)
			lines = append(lines, fmt.Sprintf("L %s -> %s", rel, target))
		case d.IsDir():
			lines = append(lines, "D "+rel)
		default:
			data, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			lines = append(lines, fmt.Sprintf("F %s %x", rel, sha256.Sum256(data)))
		}
		return nil
	})
	sort.Strings(lines)
	return strings.Join(lines, "\n"), err
}

// ManifestDiff shows the lines of two manifests (Manifest) that differ:
// "- " before a line only want has, "+ " before one only got has.
func ManifestDiff(want, got string) string {
	in := func(s string) map[string]bool {
		m := map[string]bool{}
		for _, l := range strings.Split(s, "\n") {
			m[l] = true
		}
		return m
	}
	w, g := in(want), in(got)
	var b strings.Builder
	for _, l := range strings.Split(want, "\n") {
		if !g[l] {
			fmt.Fprintf(&b, "- %s\n", l)
		}
	}
	for _, l := range strings.Split(got, "\n") {
		if !w[l] {
			fmt.Fprintf(&b, "+ %s\n", l)
		}
	}
	return b.String()
}

// CopyTree copies the folder from into to (which exists): folders, regular
// files with their modes, and symlinks as links.
func CopyTree(from, to string) error {
	return filepath.WalkDir(from, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(from, path)
		dst := filepath.Join(to, rel)
		info, err := d.Info()
		if err != nil {
			return err
		}
		switch {
		case d.IsDir():
			if rel == "." {
				return nil
			}
			return os.Mkdir(dst, info.Mode().Perm())
		case d.Type()&fs.ModeSymlink != 0:
			target, err := os.Readlink(path)
			if err != nil {
				return err
			}
			return os.Symlink(target, dst)
		case info.Mode().IsRegular():
			data, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			return os.WriteFile(dst, data, info.Mode().Perm())
		}
		return fmt.Errorf("copy %s: not a file, folder or symlink", path)
	})
}
