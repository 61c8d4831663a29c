package cli

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/orc-state/orc-state/internal/journal"
)

// SyncStatusCmd is `sync status`.
type SyncStatusCmd struct {
	Remote  string `default:"origin" help:"The git remote."`
	NoFetch bool   `name:"no-fetch" help:"Compare with what was fetched last."`
	JSON    bool   `name:"json" help:"JSON."`
}

// Run compares each session with the remote's copy.
func (c *SyncStatusCmd) Run(e *Env) error {
	d, r, err := e.syncEnv()
	if err != nil {
		return err
	}
	if !c.NoFetch {
		if err := fetch(d, c.Remote); err != nil {
			return err
		}
	}
	reg, _, err := d.ReadRegistry()
	if err != nil {
		return err
	}
	refs, _ := r.Refs(remoteRefs(c.Remote))
	rows := map[string]string{}
	for _, s := range reg.Sessions {
		rows[s.SessionID] = "not pushed"
	}
	for name, sha := range refs {
		id := strings.TrimPrefix(name, remoteRefs(c.Remote))
		local, _ := d.ReadFile(id, journal.FileName)
		if _, ok := rows[id]; !ok {
			rows[id] = "remote only"
			continue
		}
		snap, err := r.ReadSnapshot(sha)
		if err != nil {
			rows[id] = "unreadable remote"
			continue
		}
		rows[id] = relation(local, snap["files/"+journal.FileName])
	}
	out := map[string]string{}
	for _, id := range sortedKeys(rows) {
		out[id] = rows[id]
		if !c.JSON {
			fmt.Fprintf(e.Stdout, "%s\t%s\n", id, rows[id])
		}
	}
	if c.JSON {
		b, _ := json.MarshalIndent(out, "", "  ")
		fmt.Fprintln(e.Stdout, string(b))
	}
	return nil
}

// relation compares a local journal with a remote one. The "sync pull"
// lines a machine adds to record its own imports do not make it ahead or
// divergent: a machine that only follows a session can always pull again,
// and one whose only extra lines are imports is in sync.
func relation(local, remote []byte) string {
	switch {
	case bytes.Equal(local, remote):
		return "in sync"
	case bytes.HasPrefix(local, remote):
		if len(withoutTrailingPulls(local)) <= len(remote) {
			return "in sync"
		}
		return "ahead"
	case bytes.HasPrefix(remote, local), bytes.HasPrefix(remote, withoutTrailingPulls(local)):
		return "behind"
	default:
		return "diverged"
	}
}

// withoutTrailingPulls drops the trailing "sync pull" lines of a journal.
func withoutTrailingPulls(j []byte) []byte {
	for len(j) > 0 {
		body := bytes.TrimSuffix(j, []byte("\n"))
		i := bytes.LastIndexByte(body, '\n') + 1
		var e journal.Entry
		if json.Unmarshal(body[i:], &e) != nil || e.Verb != "sync pull" {
			return j
		}
		j = j[:i]
	}
	return j
}
