package cli

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"github.com/orc-state/orc-state/internal/fault"
	"github.com/orc-state/orc-state/registry"
)

// Run prints the current branch's entry.
func (c *CurrentCmd) Run(e *Env) error {
	_, _, s, err := e.Session(c.Branch)
	if err != nil {
		return err
	}
	return printJSON(e, s, "  ")
}

// Run prints an entry, or one raw field.
func (c *GetCmd) Run(e *Env) error {
	key := c.Key
	if key == "" {
		key = c.Branch
	}
	_, _, s, err := e.Session(key)
	if err != nil {
		return err
	}
	if c.Field == "" {
		return printJSON(e, s, "  ")
	}
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(s.Canonical(), &fields); err != nil {
		return err
	}
	raw, ok := fields[c.Field]
	if !ok {
		if !knownField(c.Field) {
			names := make([]string, 0, len(fields))
			for k := range fields {
				names = append(names, k)
			}
			sort.Strings(names)
			return fault.Usagef("unknown field %q", c.Field).WithHint("fields: %s", strings.Join(names, ", "))
		}
		return nil // an optional field that is absent prints nothing
	}
	return printRaw(e, raw)
}

// knownField reports whether name is a field of a schema-1 entry.
func knownField(name string) bool {
	for _, f := range []string{"scope", "repos", "perRepoState", "gate"} {
		if f == name {
			return true
		}
	}
	return false
}

// printRaw prints a JSON value raw: strings unquoted, null and false as
// nothing at all (like the original), anything else as compact JSON.
func printRaw(e *Env, raw json.RawMessage) error {
	switch string(raw) {
	case "null", "false":
		return nil
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		fmt.Fprintln(e.Stdout, s)
		return nil
	}
	fmt.Fprintln(e.Stdout, string(raw))
	return nil
}

func printJSON(e *Env, v any, indent string) error {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", indent)
	if err := enc.Encode(v); err != nil {
		return err
	}
	_, err := e.Stdout.Write(buf.Bytes())
	return err
}

// Run lists sessions.
func (c *SessionsCmd) Run(e *Env) error {
	d, err := e.Dir()
	if err != nil {
		return err
	}
	reg, _, err := d.ReadRegistry()
	if err != nil {
		return err
	}
	var list []registry.Session
	for _, s := range reg.Sessions {
		if c.Status == "" || s.Status == c.Status {
			list = append(list, s)
		}
	}
	for _, l := range linkedSessions(d) { // the workspace sessions this repository is a member of
		if (c.Status == "" || l.s.Status == c.Status) && findExact(reg, l.s.SessionID) == nil {
			list = append(list, *l.s)
		}
	}
	if c.JSON {
		return printJSON(e, pickerRows(d, list), "  ")
	}
	var b strings.Builder
	for _, s := range list {
		fmt.Fprintf(&b, "%s\t%s\t%s/%d\t%s\t%s\n", s.SessionID, s.Command, s.Phase, s.TotalPhases, s.Status, s.GitBranch)
	}
	_, err = fmt.Fprint(e.Stdout, b.String())
	return err
}
