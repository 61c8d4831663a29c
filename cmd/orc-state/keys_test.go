package main

import (
	"strings"
	"testing"

	"github.com/orc-state/orc-state/internal/clitest"
	"github.com/orc-state/orc-state/internal/statetest"
)

// impossibleKeys can never be a session (docs/protocol.md §3): a
// traversal, a per-repository name, a hidden name, a name over 200 bytes.
var impossibleKeys = []string{"..", "knowledge", ".hidden", "../x", strings.Repeat("b", 201)}

// keyedVerbs are the verbs that act on a session, as given to them with
// --branch or --session appended.
var keyedVerbs = [][]string{
	{"current"}, {"get"}, {"phase", "set", "2"}, {"status", "set", "paused"},
	{"link-pr", "--repo", "r", "--url", "https://example.com/o/r/pull/1"}, {"jira", "bind", "ABC-1"},
	{"digest", "write", "-"}, {"checkpoint", "--auto"}, {"verify"}, {"resume"}, {"log"},
	{"slice", "set", "1", "--status", "red"}, {"slice", "list"}, {"slice", "next"}, {"slice", "claim"},
	{"decision", "set", "k", "v", "--provenance", "asked"}, {"decision", "get"},
	{"gate", "record", "1", "--verdict", "approved"}, {"gate", "show"}, {"progress", "append", "-"},
	{"artifact", "check", "a.json"}, {"repair"}, {"workspace", "link"}, {"init", "--description", "d"},
	{"session", "remove", "--force"},
}

// positionalVerbs take the session key as their argument.
var positionalVerbs = [][]string{{"get"}, {"verify"}, {"resume"}, {"log"}, {"session", "remove"}, {"cleanup"}, {"sync", "push"}}

// TestImpossibleKeys gives every impossible key to every verb family, as
// --branch, as --session and as a positional key: each is refused with
// exit 2 (a bad argument, not "no session"), prints nothing on stdout, and
// nothing under .orc changes.
func TestImpossibleKeys(t *testing.T) {
	r := clitest.NewRig(t, "main")
	r.MustOrc(`{"slices": [{"id": 1, "title": "one"}]}`, "slice", "init", "-")
	before, err := statetest.Manifest(r.Dir + "/.orc")
	if err != nil {
		t.Fatal(err)
	}
	const digest = "- Done: a\n- Next: b\n- Open decisions: none\n- Artifacts: none\n- Suite: unknown\n"
	check := func(args []string) {
		t.Helper()
		code, stdout, stderr := r.Orc(digest, args...)
		if code != 2 || stdout != "" {
			t.Errorf("%q: exit %d, stdout %q, stderr %q; want exit 2 and no output", args, code, stdout, firstLine(stderr))
		}
	}
	for _, key := range impossibleKeys {
		for _, verb := range keyedVerbs {
			check(append(append([]string{}, verb...), "--branch", key))
			check(append(append([]string{}, verb...), "--session", key))
		}
		for _, verb := range positionalVerbs {
			check(append(append([]string{}, verb...), key))
		}
	}
	after, err := statetest.Manifest(r.Dir + "/.orc")
	if err != nil {
		t.Fatal(err)
	}
	if after != before {
		t.Errorf("the refusals changed .orc:\n%s", statetest.ManifestDiff(before, after))
	}
}

func firstLine(s string) string {
	first, _, _ := strings.Cut(s, "\n")
	return first
}

// collidingVerbs are the verb families that act on a session, with the
// stdin each reads.
var collidingVerbs = []struct {
	args  []string
	stdin string
}{
	{[]string{"current"}, ""}, {[]string{"get"}, ""}, {[]string{"get", "--field", "phase"}, ""},
	{[]string{"phase", "set", "2"}, ""}, {[]string{"status", "set", "paused"}, ""},
	{[]string{"link-pr", "--repo", "r", "--url", "https://example.com/o/r/pull/1"}, ""},
	{[]string{"jira", "bind", "ABC-1"}, ""}, {[]string{"jira", "unbind"}, ""},
	{[]string{"digest", "write", "-"}, "- Done: a\n- Next: b\n- Open decisions: none\n- Artifacts: none\n- Suite: unknown\n"},
	{[]string{"checkpoint", "--auto"}, ""}, {[]string{"verify"}, ""}, {[]string{"resume"}, ""}, {[]string{"log"}, ""},
	{[]string{"slice", "set", "1", "--status", "red"}, ""}, {[]string{"slice", "list"}, ""}, {[]string{"slice", "next"}, ""},
	{[]string{"slice", "verify"}, ""}, {[]string{"slice", "claim"}, ""}, {[]string{"slice", "renew", "1"}, ""},
	{[]string{"slice", "release", "1"}, ""}, {[]string{"decision", "set", "k", "v", "--provenance", "asked"}, ""},
	{[]string{"decision", "get"}, ""}, {[]string{"gate", "record", "1", "--verdict", "approved"}, ""}, {[]string{"gate", "show"}, ""},
	{[]string{"progress", "append", "-"}, "text\n"}, {[]string{"artifact", "put", "a.json", "-"}, `{"verdict": "ok"}`},
	{[]string{"artifact", "check", "a.json"}, ""}, {[]string{"repair"}, ""}, {[]string{"workspace", "link"}, ""},
}

// TestOneBranchOneSession: checked out on a branch feat-x, no verb may act
// on the session of feat/x, whose sessionId is also feat-x (docs/protocol.md
// §3): every verb family refuses, with exit 2 naming both branches, and
// prints nothing, whether the branch is the current one or given with
// --branch; nothing under .orc changes. select_one_branch_one_session.txtar
// shows the rest end to end (line, the hooks, --session).
func TestOneBranchOneSession(t *testing.T) {
	r := clitest.NewRig(t, "collision")
	before, err := statetest.Manifest(r.Dir + "/.orc")
	if err != nil {
		t.Fatal(err)
	}
	for _, sel := range [][]string{nil, {"--branch", "feat-x"}} {
		for _, v := range collidingVerbs {
			args := append(append([]string{}, v.args...), sel...)
			code, stdout, stderr := r.Orc(v.stdin, args...)
			if code != 2 || stdout != "" || !strings.Contains(stderr, `session feat-x is branch "feat/x"`) {
				t.Errorf("%q: exit %d, stdout %q, stderr %q; want exit 2 naming both branches", args, code, stdout, stderr)
			}
		}
	}
	after, err := statetest.Manifest(r.Dir + "/.orc")
	if err != nil {
		t.Fatal(err)
	}
	if after != before {
		t.Errorf("the refusals changed .orc:\n%s", statetest.ManifestDiff(before, after))
	}
}
