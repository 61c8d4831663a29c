package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/orc-state/orc-state/internal/cli"
	"github.com/orc-state/orc-state/internal/clitest"
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
		var out, errb bytes.Buffer
		code := cli.Run(cli.Process{Args: args, Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errb,
			Environ: r.Env, Dir: r.Dir, Now: func() time.Time { return later }})
		if code != 0 {
			t.Fatalf("%s: exit %d: %s", args, code, errb.String())
		}
		doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(out.Bytes()))
		if err != nil {
			t.Fatalf("%s: not JSON: %v", args, err)
		}
		if err := schema.Validate(doc); err != nil {
			t.Errorf("%s: the output breaks schema/board.schema.json: %v\n%s", args, err, out.String())
		}
		if args[len(args)-1] == "--json" {
			for _, want := range []string{`"claimExpired": true`, `"leaseLeftSeconds": `, `"waitsOn": [`, `"tree": "clean"`, `"which database"`, `"code": "decisions.`} {
				if !strings.Contains(out.String(), want) {
					t.Errorf("board --json lacks %s:\n%s", want, out.String())
				}
			}
			var b map[string]any
			json.Unmarshal(out.Bytes(), &b)
			b["sessions"].([]any)[0].(map[string]any)["status"] = "escalated"
			bad, _ := json.Marshal(b)
			doc, _ := jsonschema.UnmarshalJSON(bytes.NewReader(bad))
			if schema.Validate(doc) == nil {
				t.Error("the schema accepts a session status outside the enum")
			}
		}
	}
}
