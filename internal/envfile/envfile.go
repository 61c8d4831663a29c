// Package envfile owns what the SessionStart hook appends to the host's
// $CLAUDE_ENV_FILE: the ORC_* exports that point the agent's later shell
// calls at this state dir and session, where appending is refused (inside
// the state dir or a git dir, also through a symlink or a hard link:
// Refusal), and the append itself, which adds nothing when the file's last
// assignments are ours already and keeps every line others wrote. Export
// does all three; the hook prints what it returns as a problem.
package envfile

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/orc-state/orc-state/internal/atomicfile"
	"github.com/orc-state/orc-state/internal/sessionline"
	"github.com/orc-state/orc-state/internal/state"
	"github.com/orc-state/orc-state/registry"
)

// Export appends the exports of session s in d to path, the value of
// $CLAUDE_ENV_FILE (relative to wd when relative), unless Refusal refuses
// the path: the error then says why, and nothing is written.
func Export(d *state.Dir, s *registry.Session, path, wd string) error {
	if why := Refusal(d, path, wd); why != "" {
		return errors.New(why)
	}
	if !filepath.IsAbs(path) {
		path = filepath.Join(wd, path)
	}
	return writeEnvFile(filepath.Clean(path), orcExports(d, s, wd))
}

// maxEnvFile bounds how much of $CLAUDE_ENV_FILE is read to find the
// exports already there.
const maxEnvFile = 1 << 20

// orcExports are the variables SessionStart exports through
// $CLAUDE_ENV_FILE, so the agent's later Bash calls use this state dir. They
// are the original's (reference-orc.md, "SessionStart"): the context it
// detected, the state dir, the detection cache and the interaction policy;
// and ORC_SESSION, the session itself.
func orcExports(d *state.Dir, s *registry.Session, wd string) [][2]string {
	root := ""
	if d.Git != nil {
		root = d.Git.WorktreeRoot
	}
	if p, err := filepath.EvalSymlinks(wd); err == nil {
		wd = p // the original's cache key is `pwd -P`
	}
	vars := [][2]string{
		{"ORC_CONTEXT", "repo"},
		{"ORC_REPO_ROOT", root},
		{"ORC_WORKSPACE_ROOT", ""},
		{"ORC_WORKSPACE_NAME", ""},
		{"ORC_WORKSPACE_REPOS", ""},
		{"ORC_STATE_DIR", d.Path},
		{"ORC_CONTEXT_CACHED", "1"},
		{"ORC_CONTEXT_CACHED_PWD", wd},
		{"ORC_SESSION", s.SessionID}, // selects like --session (docs/protocol.md §3)
	}
	if registry.CheckKey(s.SessionID) == nil {
		switch p, _ := sessionline.Policy(filepath.Join(d.Path, s.SessionID, "files", "decisions.json")).(string); p {
		case "manual", "guided", "auto":
			vars = append(vars, [2]string{"ORC_INTERACTION_POLICY", p})
		}
	}
	return vars
}

// exportLine is `export NAME='value'` with the value single-quoted for sh.
func exportLine(name, value string) string {
	return "export " + name + "='" + strings.ReplaceAll(value, "'", `'\''`) + "'"
}

// writeEnvFile appends the exports to path unless the file already ends
// up with these values (the last assignment of each name is ours): repeated
// SessionStarts add nothing, lines other plugins wrote are kept, and a
// changed value is appended after the old one, which it overrides. A value
// with a newline or NUL is not exported (a line-based file cannot hold it).
func writeEnvFile(path string, vars [][2]string) error {
	old, err := os.ReadFile(path)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("read $CLAUDE_ENV_FILE: %v", err)
	}
	if len(old) > maxEnvFile {
		old = old[len(old)-maxEnvFile:]
	}
	last := lastAssignments(old)
	var block bytes.Buffer
	var skipped []string
	changed := false
	for _, v := range vars {
		if strings.ContainsAny(v[1], "\n\r\x00") {
			skipped = append(skipped, v[0])
			continue
		}
		line := exportLine(v[0], v[1])
		if last[v[0]] != line {
			changed = true
		}
		block.WriteString(line + "\n")
	}
	if changed {
		if len(old) > 0 && old[len(old)-1] != '\n' {
			block = *bytes.NewBuffer(append([]byte("\n"), block.Bytes()...))
		}
		if err := atomicfile.Append(path, block.Bytes(), 0o600); err != nil {
			return fmt.Errorf("append to $CLAUDE_ENV_FILE: %v", err)
		}
	}
	if len(skipped) > 0 {
		return fmt.Errorf("not exported (a newline in the value): %s", strings.Join(skipped, ", "))
	}
	return nil
}

// Refusal says why the exports must not be appended to path, the
// value of $CLAUDE_ENV_FILE (relative to wd when relative): it lies inside
// the state dir or the repository's git dir (its own or the common one),
// also when reached through a symlinked folder on its way, or it is a
// file with more than one name (a hard link, which could be one of
// theirs). "" when the append may go ahead. Appending there would corrupt
// what orc-state or git reads (export lines in orc.json make every verb
// exit 3); the hook says why and writes nothing.
func Refusal(d *state.Dir, path, wd string) string {
	if !filepath.IsAbs(path) {
		path = filepath.Join(wd, path)
	}
	real := resolved(path)
	dirs := [][2]string{{"the state dir", d.Path}}
	if d.Git != nil {
		dirs = append(dirs, [2]string{"the repository's git dir", d.Git.GitDir}, [2]string{"the repository's git dir", d.Git.CommonDir})
	}
	for _, dir := range dirs {
		if dir[1] == "" {
			continue
		}
		if rel, err := filepath.Rel(resolved(dir[1]), real); err == nil && (rel == "." || filepath.IsLocal(rel)) || underSame(real, dir[1]) {
			return fmt.Sprintf("not appending to $CLAUDE_ENV_FILE (%s): it is inside %s %s, which only orc-state and git write", path, dir[0], dir[1])
		}
	}
	if n := linkCount(real); n > 1 {
		return fmt.Sprintf("not appending to $CLAUDE_ENV_FILE (%s): the file has %d names (hard links), and another could be a file of the state dir or the git dir", path, n)
	}
	return ""
}

// underSame reports whether a folder path lies in is dir itself, by
// identity rather than by name: a file system that ignores case (.ORC is
// .orc on macOS and Windows), or a second mount of the same folder, names
// it differently.
func underSame(path, dir string) bool {
	want, err := os.Stat(dir)
	if err != nil {
		return false
	}
	for p := filepath.Dir(path); ; p = filepath.Dir(p) {
		if st, err := os.Stat(p); err == nil && os.SameFile(st, want) {
			return true
		}
		if filepath.Dir(p) == p {
			return false
		}
	}
}

// resolved is path with the symlinks of its existing part resolved: the
// deepest ancestor that exists, resolved, joined with the rest.
func resolved(path string) string {
	path = filepath.Clean(path)
	rest := ""
	for {
		if r, err := filepath.EvalSymlinks(path); err == nil {
			return filepath.Join(r, rest)
		}
		parent := filepath.Dir(path)
		if parent == path {
			return filepath.Join(path, rest)
		}
		rest = filepath.Join(filepath.Base(path), rest)
		path = parent
	}
}

// lastAssignments maps each variable name to the last line of the file
// that assigns it (with or without `export`).
func lastAssignments(data []byte) map[string]string {
	last := map[string]string{}
	for _, line := range strings.Split(string(data), "\n") {
		l := strings.TrimSpace(line)
		name, _, ok := strings.Cut(strings.TrimPrefix(l, "export "), "=")
		if ok && name != "" && !strings.ContainsAny(name, " \t") {
			last[name] = l
		}
	}
	return last
}
