package cli

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

	"github.com/orc-state/orc-state/internal/atomicfile"
	"github.com/orc-state/orc-state/internal/fault"
	"github.com/orc-state/orc-state/internal/safetext"
	"github.com/orc-state/orc-state/internal/statusline"
)

// InstallCmd is `install`.
type InstallCmd struct {
	Project bool `xor:"scope" help:"Write .claude/settings.json of this repository, with a command that names no path of this machine."`
	User    bool `xor:"scope" help:"Write ~/.claude/settings.json (the default)."`
	DryRun  bool `name:"dry-run" help:"Show the change; write nothing."`
	Force   bool `help:"Replace a statusLine that is not orc-state's."`
	// The statusline's options, written into its command (a statusline in
	// settings gets no plugin userConfig).
	Style          string `help:"Statusline style: full (narrows with the terminal) or compact (always one line)." enum:"full,compact" default:"full"`
	ContextReserve int    `name:"context-reserve" help:"Percent of the context window the statusline keeps back (0-99)." default:"0" placeholder:"N"`
	Off            bool   `help:"Statusline prints nothing (it still records the context level for hook post-tool-use)."`
}

// Run writes the statusLine entry into a Claude settings file: for the user
// this binary's absolute path, for a repository (--project) a command with
// no path of this machine (projectStatusLine). Every other key is kept, in
// its order and bytes; running it again changes nothing.
func (c *InstallCmd) Run(e *Env) error {
	path, err := c.settingsPath(e)
	if err != nil {
		return err
	}
	verb, err := c.statuslineVerb()
	if err != nil {
		return err
	}
	command := projectStatusLine(verb)
	if !c.Project {
		exe, err := e.proc.executable()
		if err != nil {
			return fault.Wrap(fault.Invalid, err, "cannot find the orc-state binary")
		}
		exe = e.abs(exe)
		command = shellQuote(exe) + " " + verb
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false) // the command's && stays readable
	enc.Encode(map[string]any{"type": "command", "command": command, "padding": 0})
	want := bytes.TrimSpace(buf.Bytes())
	old, err := os.ReadFile(path)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return fault.Usagef("cannot read %s: %v", path, err)
	}
	members, err := objectMembers(old)
	if err != nil {
		return fault.Usagef("%s is not a JSON object: %v", path, err).WithHint("fix the file by hand, then run orc-state install again")
	}
	foreign := "" // the command of another tool's statusLine that --force replaces
	if cur, ok := members.get("statusLine"); ok {
		if jsonEqual(cur, want) {
			fmt.Fprintf(e.Stdout, "%s already has orc-state's statusLine; nothing to do\n", path)
			return nil
		}
		if !bytes.Contains(cur, []byte("orc-state")) {
			if !c.Force {
				return fault.Usagef("%s already has another statusLine (%s)", path, statusLineCommand(cur)).
					WithHint("pass --force to replace it (the old file is kept beside it)")
			}
			foreign = statusLineCommand(cur)
		}
	}
	members.set("statusLine", want)
	out := members.render()
	backup := ""
	if foreign != "" {
		backup = path + "." + e.now().UTC().Format("20060102T150405Z") + ".bak"
	}
	if c.DryRun {
		fmt.Fprintf(e.Stdout, "would write %s:\n%s", path, out)
		if foreign != "" {
			fmt.Fprintf(e.Stdout, "would replace the statusLine command %s, keeping the old file as %s\n", safetext.Escape(foreign), backup)
		}
		return nil
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return fault.Usagef("cannot create %s: %v", filepath.Dir(path), err)
	}
	if foreign != "" {
		var err error
		if backup, err = keepCopy(backup, old); err != nil {
			return fault.Usagef("cannot keep a copy of %s: %v; nothing was written", path, err)
		}
	}
	if err := atomicfile.WriteFile(path, out, 0o644); err != nil {
		return fault.Usagef("cannot write %s: %v", path, err)
	}
	fmt.Fprintf(e.Stdout, "wrote statusLine to %s\n", path)
	if foreign != "" {
		fmt.Fprintf(e.Stdout, "replaced the statusLine command %s; the old file is kept as %s\n", safetext.Escape(foreign), backup)
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

// statuslineVerb is the statusLine command after the binary: the verb and
// the options that differ from the defaults.
func (c *InstallCmd) statuslineVerb() (string, error) {
	command := "statusline"
	if c.Style != "" && c.Style != "full" {
		command += " --style " + c.Style
	}
	if c.ContextReserve < 0 || c.ContextReserve > statusline.MaxReserve {
		return "", fault.Usagef("--context-reserve %d is not a percentage from 0 to %d", c.ContextReserve, statusline.MaxReserve)
	}
	if c.ContextReserve > 0 {
		command += " --context-reserve " + strconv.Itoa(c.ContextReserve)
	}
	if c.Off {
		command += " --off"
	}
	return command, nil
}

// projectStatusLine is the statusLine command of a repository's committed
// settings, which must work on every machine that checks the file out, so
// it names no path of this one: the orc-state on PATH, else the one the
// plugin's launcher built into its data dir (Claude Code runs the command
// with sh; when neither exists the line stays empty).
func projectStatusLine(verb string) string {
	return `for b in "$(command -v orc-state)" "${CLAUDE_CONFIG_DIR:-$HOME/.claude}"/plugins/data/orc-state-*/bin/orc-state; do [ -x "$b" ] && exec "$b" ` + verb + `; done`
}

// shellQuote quotes a path for sh when it holds anything but safe characters.
func shellQuote(s string) string {
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("/._-+:@%,", r)) {
			return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
		}
	}
	return s
}

func (c *InstallCmd) settingsPath(e *Env) (string, error) {
	if c.Project {
		d, err := e.Dir()
		if err != nil {
			return "", err
		}
		if d.Git == nil {
			return "", fault.Usagef("--project needs a git repository")
		}
		root, err := d.Git.StateParent()
		if err != nil {
			return "", fault.Usagef("%v", err).WithHint("run it in the main work tree")
		}
		return filepath.Join(root, ".claude", "settings.json"), nil
	}
	home := e.proc.homeDir()
	if home == "" {
		return "", fault.Usagef("no home directory: $HOME is not set")
	}
	return filepath.Join(home, ".claude", "settings.json"), nil
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
