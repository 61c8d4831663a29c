package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/orc-state/orc-state/internal/board"
	"github.com/orc-state/orc-state/internal/cli"
	"github.com/orc-state/orc-state/internal/clitest"
	"github.com/orc-state/orc-state/internal/state"
	"github.com/orc-state/orc-state/internal/verify"
)

// TestBoardJSONMatchesItsSchema: board --json, over sessions with a ledger
// (a live claim, an expired one, dependencies, attempts), a bound
// worktree, open decisions and findings, and over every session (--all),
// is valid under schema/board.schema.json; a document the schema's rules
// refuse is refused, so the check can fail.
func TestBoardJSONMatchesItsSchema(t *testing.T) {
	abs, err := filepath.Abs("../../schema/board.schema.json")
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	schema, err := c.Compile(abs)
	if err != nil {
		t.Fatal(err)
	}
	r := clitest.NewRig(t, "main")
	r.Git("branch", "feat/x")
	r.MustOrc("", "init", "--branch", "feat/x", "--command", "plan", "--total-phases", "2")
	r.MustOrc("", "status", "set", "completed", "--branch", "feat/x")
	r.MustOrc(`{"slices": [{"id": "a", "title": "api"}, {"id": "b", "dependsOn": ["a"]}, {"id": "c"}, {"id": "d", "status": "skipped", "note": "n"}]}`, "slice", "init", "-")
	r.MustOrc("", "slice", "set", "c", "--status", "red")
	r.MustOrc("", "slice", "claim", "--agent", "one", "--lease", "5m")
	r.MustOrc("", "slice", "claim", "--agent", "two", "--lease", "1h")
	r.MustOrc("- Done: x\n- Next: files/plan.md\n- Open decisions: which database\n- Artifacts: none\n- Suite: unknown\n", "digest", "write", "-")
	r.MustOrc("", "worktree", "add", filepath.Join(t.TempDir(), "wt"), "--agent", "three")
	if err := os.WriteFile(filepath.Join(r.Dir, ".orc", "main", "files", "decisions.json"), []byte("{}"), 0o644); err != nil {
		t.Fatal(err)
	}
	later := time.Now().Add(30 * time.Minute) // the first claim has expired, the second has not
	for _, args := range [][]string{{"board", "--json"}, {"board", "--json", "--all"}, {"board", "--json", "--session", "feat-x"}} {
		code, out, errb := clitest.Run(cli.Process{Args: args, Environ: r.Env, Dir: r.Dir, Now: func() time.Time { return later }})
		if code != 0 {
			t.Fatalf("%s: exit %d: %s", args, code, errb)
		}
		doc, err := jsonschema.UnmarshalJSON(strings.NewReader(out))
		if err != nil {
			t.Fatalf("%s: not JSON: %v", args, err)
		}
		if err := schema.Validate(doc); err != nil {
			t.Errorf("%s: the output breaks schema/board.schema.json: %v\n%s", args, err, out)
		}
		if args[len(args)-1] == "--json" {
			for _, want := range []string{`"claimExpired": true`, `"leaseLeftSeconds": `, `"waitsOn": [`, `"tree": "clean"`, `"which database"`, `"code": "decisions.`} {
				if !strings.Contains(out, want) {
					t.Errorf("board --json lacks %s:\n%s", want, out)
				}
			}
			var b map[string]any
			json.Unmarshal([]byte(out), &b)
			b["sessions"].([]any)[0].(map[string]any)["status"] = "escalated"
			bad, _ := json.Marshal(b)
			doc, _ := jsonschema.UnmarshalJSON(bytes.NewReader(bad))
			if schema.Validate(doc) == nil {
				t.Error("the schema accepts a session status outside the enum")
			}
		}
	}
}

// TestBoardFindingsAreVerifys: the board's findings for a session are
// verify's that need no git (verify.Session), whether the session is as
// orc-state last journaled it (the board's short way: only what time
// changes) or not (an outside edit, a torn journal, an expired claim):
// the same codes, messages and next commands.
func TestBoardFindingsAreVerifys(t *testing.T) {
	later := time.Now().Add(45 * time.Minute)
	for _, c := range []struct {
		name string
		edit func(r *clitest.Rig)
		want string // a code the findings must hold; "" for none
	}{
		{"as journaled", func(*clitest.Rig) {}, ""},
		{"a claim expired", func(r *clitest.Rig) { r.MustOrc("", "slice", "claim", "--agent", "a", "--lease", "5m") }, "claim.expired"},
		{"the ledger edited by hand", func(r *clitest.Rig) {
			p := filepath.Join(r.Dir, ".orc", "main", "files", "slices.json")
			data, _ := os.ReadFile(p)
			os.WriteFile(p, []byte(strings.Replace(string(data), `"one"`, `"uno"`, 1)), 0o644)
		}, "edited.ledger"},
		{"a budget that is no count", func(r *clitest.Rig) {
			os.WriteFile(filepath.Join(r.Dir, ".orc", "main", "files", "decisions.json"),
				[]byte(`{"schema": 1, "decisions": {"maxRetriesPerSlice": {"value": "many", "provenance": "flag", "settledAt": "2026-01-01T00:00:00Z"}}}`), 0o644)
		}, "decision.value"},
		{"the journal's last line cut", func(r *clitest.Rig) {
			p := filepath.Join(r.Dir, ".orc", "main", "files", "journal.jsonl")
			data, _ := os.ReadFile(p)
			os.WriteFile(p, data[:len(data)-10], 0o644)
		}, "journal."},
		{"the checkpoint gone", func(r *clitest.Rig) { os.Remove(filepath.Join(r.Dir, ".orc", "main", "files", "checkpoint.md")) }, "checkpoint.missing"},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := clitest.NewRig(t, "main")
			r.MustOrc(`{"slices": [{"id": "a", "title": "one"}, {"id": "b", "dependsOn": ["a"]}]}`, "slice", "init", "-")
			c.edit(r)
			d, err := state.Resolve("", r.Dir, r.Env)
			if err != nil {
				t.Fatal(err)
			}
			reg, _, err := d.ReadRegistry()
			if err != nil {
				t.Fatal(err)
			}
			want, err := verify.Session(d, reg, &reg.Sessions[0], later)
			if err != nil {
				t.Fatal(err)
			}
			if want == nil {
				want = []verify.Finding{}
			}
			b := board.Gather(d, reg, board.Options{Session: "main", Now: later, Env: r.Env})
			if len(b.Sessions) != 1 {
				t.Fatalf("%d sessions on the board", len(b.Sessions))
			}
			got := b.Sessions[0].Findings
			if !reflect.DeepEqual(got, want) {
				t.Errorf("board findings:\n%v\nverify.Session:\n%v", got, want)
			}
			all := fmt.Sprint(got)
			if c.want == "" && len(got) != 0 || c.want != "" && !strings.Contains(all, c.want) {
				t.Errorf("findings %v, want %q", got, c.want)
			}
		})
	}
}
