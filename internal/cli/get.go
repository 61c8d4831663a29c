package cli

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"github.com/orc-state/orc-state/internal/app"

	"github.com/orc-state/orc-state/internal/fault"
	"github.com/orc-state/orc-state/internal/safetext"
	"github.com/orc-state/orc-state/internal/selection"
)

// GetCmd is `get`.
type GetCmd struct {
	BranchFlag
	Key   string `arg:"" optional:"" help:"Branch or sessionId (default: --branch, else the current branch)." predictor:"session"`
	Field string `help:"Print only this top-level field, raw." placeholder:"F"`
}

// Run prints an entry, or one raw field.
func (c *GetCmd) Run(o *app.Streams, where *selection.Where) error {
	key := c.keyOr(c.Key)
	_, _, s, err := where.Session(key)
	if err != nil {
		return err
	}
	if c.Field == "" {
		return printJSON(o.Stdout, s, "  ")
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
	return printRaw(o, raw)
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
func printRaw(o *app.Streams, raw json.RawMessage) error {
	switch string(raw) {
	case "null", "false":
		return nil
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		fmt.Fprintln(o.Stdout, safetext.Escape(s))
		return nil
	}
	fmt.Fprintln(o.Stdout, string(raw))
	return nil
}
