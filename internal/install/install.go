// Package install owns writing orc-state's statusLine into a Claude Code
// settings file (the user's ~/.claude/settings.json, or a repository's
// .claude/settings.json): the command with the statusline's options, the
// change planned against the file as it is (every other key kept, in its
// order and bytes; a rerun changes nothing; another tool's statusLine
// replaced only when forced), and the write, atomic, with the replaced
// file kept beside it. Its errors are fault usage errors; `install` parses
// the flags, finds the file and prints.
package install

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/orc-state/orc-state/internal/atomicfile"
	"github.com/orc-state/orc-state/internal/fault"
	"github.com/orc-state/orc-state/internal/statusline"
)

// Plan is the change install makes to one settings file.
type Plan struct {
	Path string
	// Same: the file already holds this statusLine; nothing to do.
	Same bool
	// Out is the file as it is to be written.
	Out []byte
	// Foreign is the command of another tool's statusLine that the plan
	// replaces ("" when none); Backup is where the old file is to be kept.
	Foreign, Backup string
	old             []byte
}

// Prepare plans writing a statusLine that runs command into the settings
// file at path; force replaces another tool's statusLine, and now names
// the copy of the old file kept then. Nothing is written.
func Prepare(path, command string, force bool, now time.Time) (Plan, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false) // the command's && stays readable
	enc.Encode(map[string]any{"type": "command", "command": command, "padding": 0})
	want := bytes.TrimSpace(buf.Bytes())
	p := Plan{Path: path}
	old, err := os.ReadFile(path)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return p, fault.Usagef("cannot read %s: %v", path, err)
	}
	p.old = old
	members, err := objectMembers(old)
	if err != nil {
		return p, fault.Usagef("%s is not a JSON object: %v", path, err).WithHint("fix the file by hand, then run orc-state install again")
	}
	if cur, ok := members.get("statusLine"); ok {
		if jsonEqual(cur, want) {
			p.Same = true
			return p, nil
		}
		if !bytes.Contains(cur, []byte("orc-state")) {
			if !force {
				return p, fault.Usagef("%s already has another statusLine (%s)", path, statusLineCommand(cur)).
					WithHint("pass --force to replace it (the old file is kept beside it)")
			}
			p.Foreign = statusLineCommand(cur)
		}
	}
	members.set("statusLine", want)
	p.Out = members.render()
	if p.Foreign != "" {
		p.Backup = path + "." + now.UTC().Format("20060102T150405Z") + ".bak"
	}
	return p, nil
}

// Write carries the plan out: the folder made, the old file kept (when a
// foreign statusLine is replaced; Backup then names the copy made), the
// new one written atomically.
func (p *Plan) Write() error {
	if err := os.MkdirAll(filepath.Dir(p.Path), 0o755); err != nil {
		return fault.Usagef("cannot create %s: %v", filepath.Dir(p.Path), err)
	}
	if p.Foreign != "" {
		var err error
		if p.Backup, err = keepCopy(p.Backup, p.old); err != nil {
			return fault.Usagef("cannot keep a copy of %s: %v; nothing was written", p.Path, err)
		}
	}
	if err := atomicfile.WriteFile(p.Path, p.Out, 0o644); err != nil {
		return fault.Usagef("cannot write %s: %v", p.Path, err)
	}
	return nil
}

// statusLineCommand is what a statusLine runs, for a message: its
// "command", else the member as it is written.
func statusLineCommand(raw json.RawMessage) string {
	var sl struct {
		Command string `json:"command"`
	}
	if json.Unmarshal(raw, &sl) == nil && sl.Command != "" {
		return strconv.Quote(sl.Command)
	}
	var b bytes.Buffer
	if json.Compact(&b, raw) != nil {
		return string(raw)
	}
	return b.String()
}

// keepCopy writes data to path, or to path with "-2", "-3", ... before
// its extension when that name is taken (never over a file), synced, and
// returns the name used.
func keepCopy(path string, data []byte) (string, error) {
	base := strings.TrimSuffix(path, ".bak")
	for n := 1; n < 100; n++ {
		name := path
		if n > 1 {
			name = base + "-" + strconv.Itoa(n) + ".bak"
		}
		f, err := os.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
		if errors.Is(err, os.ErrExist) {
			continue
		}
		if err != nil {
			return "", err
		}
		_, err = f.Write(data)
		if err == nil {
			err = f.Sync()
		}
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			os.Remove(name)
			return "", err
		}
		return name, nil
	}
	return "", fmt.Errorf("%s and 98 numbered copies exist", path)
}

// Options are the statusline's options, written into its command (a
// statusline in settings gets no plugin userConfig).
type Options struct {
	Style          string // full (the default) or compact
	ContextReserve int    // percent kept back, 0 to statusline.MaxReserve
	Off            bool   // print nothing
}

// Verb is the statusLine command after the binary: the verb and the
// options that differ from the defaults.
func Verb(o Options) (string, error) {
	command := "statusline"
	if o.Style != "" && o.Style != "full" {
		command += " --style " + o.Style
	}
	if o.ContextReserve < 0 || o.ContextReserve > statusline.MaxReserve {
		return "", fault.Usagef("--context-reserve %d is not a percentage from 0 to %d", o.ContextReserve, statusline.MaxReserve)
	}
	if o.ContextReserve > 0 {
		command += " --context-reserve " + strconv.Itoa(o.ContextReserve)
	}
	if o.Off {
		command += " --off"
	}
	return command, nil
}

// ProjectCommand is the statusLine command of a repository's committed
// settings, which must work on every machine that checks the file out, so
// it names no path of this one: the orc-state on PATH, else the one the
// plugin's launcher built into its data dir (Claude Code runs the command
// with sh; when neither exists the line stays empty).
func ProjectCommand(verb string) string {
	return `for b in "$(command -v orc-state)" "${CLAUDE_CONFIG_DIR:-$HOME/.claude}"/plugins/data/orc-state-*/bin/orc-state; do [ -x "$b" ] && exec "$b" ` + verb + `; done`
}

// UserCommand is the statusLine command of a user's settings: exe, the
// absolute path of this binary, shell-quoted, then verb.
func UserCommand(exe, verb string) string { return shellQuote(exe) + " " + verb }

// shellQuote quotes a path for sh when it holds anything but safe characters.
func shellQuote(s string) string {
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("/._-+:@%,", r)) {
			return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
		}
	}
	return s
}

// members is a JSON object's members in file order, values kept raw.
type members []struct {
	key string
	val json.RawMessage
}

func objectMembers(data []byte) (members, error) {
	if len(bytes.TrimSpace(data)) == 0 {
		return members{}, nil
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return nil, errors.New("expected an object")
	}
	var m members
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return nil, err
		}
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return nil, err
		}
		m = append(m, struct {
			key string
			val json.RawMessage
		}{t.(string), raw})
	}
	if _, err := dec.Token(); err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, errors.New("trailing data after the object")
	}
	return m, nil
}

func (m members) get(key string) (json.RawMessage, bool) {
	for _, kv := range m {
		if kv.key == key {
			return kv.val, true
		}
	}
	return nil, false
}

func (m *members) set(key string, val json.RawMessage) {
	for i := range *m {
		if (*m)[i].key == key {
			(*m)[i].val = val
			return
		}
	}
	*m = append(*m, struct {
		key string
		val json.RawMessage
	}{key, val})
}

// render writes the object with 2-space indent; values are re-indented,
// never re-encoded, so numbers and strings keep their bytes.
func (m members) render() []byte {
	var b bytes.Buffer
	b.WriteString("{\n")
	for i, kv := range m {
		k, _ := json.Marshal(kv.key)
		var v bytes.Buffer
		if json.Indent(&v, kv.val, "  ", "  ") != nil {
			v.Write(kv.val)
		}
		fmt.Fprintf(&b, "  %s: %s", k, v.Bytes())
		if i < len(m)-1 {
			b.WriteString(",")
		}
		b.WriteString("\n")
	}
	b.WriteString("}\n")
	return b.Bytes()
}

func jsonEqual(a, b []byte) bool {
	var x, y any
	if json.Unmarshal(a, &x) != nil || json.Unmarshal(b, &y) != nil {
		return false
	}
	xa, _ := json.Marshal(x)
	ya, _ := json.Marshal(y)
	return bytes.Equal(xa, ya)
}
