package clitest

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"
)

// TestScriptStateVersion fails when go.mod links a testscript release
// other than the one whose fields scriptState reads: on an upgrade, check
// TestScript's env and stdin fields in the new release, then update
// testscriptVersion.
func TestScriptStateVersion(t *testing.T) {
	mod, err := os.ReadFile(filepath.Join("..", "..", "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	required := ""
	for _, line := range strings.Split(string(mod), "\n") {
		if f := strings.Fields(line); len(f) >= 2 && f[0] == "github.com/rogpeppe/go-internal" {
			required = f[1]
		}
	}
	if required != testscriptVersion {
		t.Errorf("go.mod requires go-internal %q; scriptState was written for %s", required, testscriptVersion)
	}
	if got := linkedTestscript(); got != testscriptVersion {
		t.Errorf("testscript %q is linked; scriptState was written for %s", got, testscriptVersion)
	}
}

// TestScriptState pins what the in-process runner reads from a script:
// the environment its setup and env commands made (later entries win),
// and the stdin of the last stdin command, used up by the next command
// as exec uses it up.
func TestScriptState(t *testing.T) {
	dir := t.TempDir()
	script := `env ORC_PROBE=one
env ORC_PROBE=two
stdin in.txt
probe ORC_PROBE=two 'first line\nsecond line\n'
exec cat
! stdout .
probe ORC_PROBE=two ''
env ORC_PROBE=
stdin in.txt
exec cat
stdout 'first line'
probe ORC_PROBE= ''

-- in.txt --
first line
second line
`
	if err := os.WriteFile(filepath.Join(dir, "state.txtar"), []byte(script), 0o644); err != nil {
		t.Fatal(err)
	}
	testscript.Run(t, testscript.Params{
		Dir: dir,
		Setup: func(env *testscript.Env) error {
			env.Setenv("ORC_SETUP", "set")
			return nil
		},
		Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){
			// probe KEY=VALUE STDIN: the environment holds KEY=VALUE as its
			// last entry for KEY, and ORC_SETUP from the setup, and the
			// pending stdin is STDIN (with \n for newlines).
			"probe": func(ts *testscript.TestScript, neg bool, args []string) {
				env, stdin := scriptState(ts, true)
				key, want, _ := strings.Cut(args[0], "=")
				if got, ok := env.Lookup(key); !ok || got != want {
					ts.Fatalf("%s = %q (set: %v), want %q", key, got, ok, want)
				}
				if got := env.Get("ORC_SETUP"); got != "set" {
					ts.Fatalf("ORC_SETUP = %q, want the setup's value", got)
				}
				if want := strings.ReplaceAll(args[1], `\n`, "\n"); stdin != want {
					ts.Fatalf("stdin %q, want %q", stdin, want)
				}
			},
		},
	})
}
