package gitx

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/orc-state/orc-state/internal/environ"
)

// Sync's plumbing runs in its own environment (a git hook may run it): each
// repository-local variable a hook may have set is either honoured for
// discovery or cleared, and in both cases the commits and refs land in the
// repository discovered, on the remote's own refs. One case per variable
// of syncVars; each sets the variable to a value that would break sync if
// it were passed through, runs the plumbing, and checks the result with a
// git that does not see the variable.
func TestSyncEnvPerVariable(t *testing.T) {
	needGit(t)
	ctx := context.Background()
	who := Identity{Name: "orc-state", Email: "orc-state@localhost", When: time.Unix(1_700_000_000, 0)}
	repo := initRepo(t)
	remote := filepath.Join(tempDir(t), "remote.git")
	mustGit(t, repo, "init", "-q", "--bare", remote)
	mustGit(t, repo, "remote", "add", "origin", remote)
	home, err := Discover(repo, environ.OS())
	if err != nil {
		t.Fatal(err)
	}
	base := Snapshot{"entry.json": []byte(`{"sessionId":"p"}`)}
	child := Snapshot{"entry.json": []byte(`{"sessionId":"c"}`)}
	p := mustSnapshot(t, home, base, nil, who)
	c := mustSnapshot(t, home, child, []string{p}, who)
	other := mustSnapshot(t, home, Snapshot{"entry.json": []byte(`{"sessionId":"other"}`)}, nil, who)

	// What the hostile values point at.
	scratch := tempDir(t)
	emptyObjects := filepath.Join(scratch, "objects")
	if err := os.MkdirAll(emptyObjects, 0o755); err != nil {
		t.Fatal(err)
	}
	refuseHooks := filepath.Join(scratch, "hooks")
	writeFile(t, refuseHooks, "reference-transaction", "#!/bin/sh\necho refused >&2\nexit 1\n")
	if err := os.Chmod(filepath.Join(refuseHooks, "reference-transaction"), 0o755); err != nil {
		t.Fatal(err)
	}
	graft := filepath.Join(scratch, "grafts")
	writeFile(t, scratch, "grafts", c+"\n") // c without parents
	shallow := filepath.Join(scratch, "shallow")
	writeFile(t, scratch, "shallow", c+"\n")
	mirror := initRepo(t) // holds every object of the snapshots below already
	mirrorLayout, err := Discover(mirror, environ.OS())
	if err != nil {
		t.Fatal(err)
	}

	tests := []struct {
		name string
		env  map[string]string
		prep func(snap Snapshot)       // before the variable is set
		undo func()                    // after the case
		here func(t *testing.T) Layout // the layout discovered with the variable set; home when nil
	}{
		{name: "GIT_DIR", env: map[string]string{"GIT_DIR": filepath.Join(repo, ".git")},
			here: func(t *testing.T) Layout { return discoverIn(t, scratch) }},
		{name: "GIT_WORK_TREE", env: map[string]string{"GIT_DIR": filepath.Join(repo, ".git"), "GIT_WORK_TREE": repo},
			here: func(t *testing.T) Layout { return discoverIn(t, scratch) }},
		{name: "GIT_COMMON_DIR", env: map[string]string{"GIT_DIR": filepath.Join(repo, ".git"), "GIT_COMMON_DIR": filepath.Join(repo, ".git")},
			here: func(t *testing.T) Layout { return discoverIn(t, scratch) }},
		{name: "GIT_IMPLICIT_WORK_TREE", env: map[string]string{"GIT_DIR": filepath.Join(repo, ".git"), "GIT_IMPLICIT_WORK_TREE": "0"},
			here: func(t *testing.T) Layout { return discoverIn(t, scratch) }},
		{name: "GIT_OBJECT_DIRECTORY", env: map[string]string{"GIT_OBJECT_DIRECTORY": emptyObjects}},
		{name: "GIT_ALTERNATE_OBJECT_DIRECTORIES", env: map[string]string{"GIT_ALTERNATE_OBJECT_DIRECTORIES": filepath.Join(mirror, ".git", "objects")},
			prep: func(snap Snapshot) { mustSnapshot(t, mirrorLayout, snap, nil, who) }},
		{name: "GIT_INDEX_FILE", env: map[string]string{"GIT_INDEX_FILE": filepath.Join(scratch, "no", "such", "index")}},
		{name: "GIT_GRAFT_FILE", env: map[string]string{"GIT_GRAFT_FILE": graft}},
		{name: "GIT_NO_REPLACE_OBJECTS", env: map[string]string{}, // unset: replace refs would apply
			prep: func(Snapshot) { mustGit(t, repo, "replace", c, other) },
			undo: func() { mustGit(t, repo, "replace", "-d", c) }},
		{name: "GIT_REPLACE_REF_BASE", env: map[string]string{"GIT_REPLACE_REF_BASE": "refs/fake/"},
			prep: func(Snapshot) { mustGit(t, repo, "update-ref", "refs/fake/"+c, other) },
			undo: func() { mustGit(t, repo, "update-ref", "-d", "refs/fake/"+c) }},
		{name: "GIT_PREFIX", env: map[string]string{"GIT_PREFIX": "no/such/sub/"}},
		{name: "GIT_INTERNAL_SUPER_PREFIX", env: map[string]string{"GIT_INTERNAL_SUPER_PREFIX": "super/"}},
		{name: "GIT_SHALLOW_FILE", env: map[string]string{"GIT_SHALLOW_FILE": shallow}},
		{name: "GIT_QUARANTINE_PATH", env: map[string]string{"GIT_QUARANTINE_PATH": emptyObjects}},
		{name: "GIT_CONFIG", env: map[string]string{"GIT_CONFIG": filepath.Join(scratch, "no-such-config")}},
		{name: "GIT_CONFIG_PARAMETERS", env: map[string]string{"GIT_CONFIG_PARAMETERS": "'core.hookspath'='" + refuseHooks + "'"}},
		{name: "GIT_CONFIG_COUNT", env: map[string]string{"GIT_CONFIG_COUNT": "1", "GIT_CONFIG_KEY_0": "core.hooksPath", "GIT_CONFIG_VALUE_0": refuseHooks}},
		{name: "GIT_NAMESPACE", env: map[string]string{"GIT_NAMESPACE": "hook"}},
	}
	if len(tests) != len(syncVars) {
		t.Fatalf("%d cases for %d variables: every variable of syncVars needs one", len(tests), len(syncVars))
	}
	for i, tc := range tests {
		if _, ok := syncVars[tc.name]; !ok {
			t.Fatalf("case %s is no variable of syncVars", tc.name)
		}
		t.Run(tc.name, func(t *testing.T) {
			snap := Snapshot{"entry.json": []byte(`{"case":"` + tc.name + `"}`), "files/n": []byte{byte(i)}}
			if tc.prep != nil {
				tc.prep(snap)
			}
			if tc.undo != nil {
				defer tc.undo()
			}
			for k, v := range tc.env {
				t.Setenv(k, v)
			}
			l := home
			l.Env = environ.OS() // the process's environment, with the variable
			if tc.here != nil {
				l = tc.here(t)
			}
			ref := "refs/orc/sessions/" + strings.ToLower(tc.name)
			// The plumbing sync runs, with the variable set.
			got, err := l.CommitSnapshot(ctx, snap, []string{p}, "case", who)
			if err != nil {
				t.Fatalf("CommitSnapshot: %v", err)
			}
			if err := l.UpdateRefs(ctx, []RefUpdate{{Name: ref, New: got, Check: true}}); err != nil {
				t.Fatalf("UpdateRefs: %v", err)
			}
			if refs, err := l.ListRefs(ctx, "refs/orc/sessions/"); err != nil || refs[ref] != got {
				t.Fatalf("ListRefs: %v, %v; want %s at %s", refs, err, ref, got)
			}
			if ok, err := l.IsAncestor(ctx, p, c); err != nil || !ok {
				t.Fatalf("IsAncestor(p, c) = %v, %v; want true", ok, err)
			}
			o, err := l.OpenObjects(ctx)
			if err != nil {
				t.Fatal(err)
			}
			tree, err := o.ReadTree(c)
			o.Close()
			if err != nil || !tree.Snapshot().Equal(child) {
				t.Fatalf("ReadTree(c) = %v, %v; want the child's content", tree.Snapshot(), err)
			}
			answers, err := l.Push(ctx, "origin", []PushUpdate{{Ref: ref, Commit: got}})
			if err != nil || len(answers) != 1 || !answers[0].OK {
				t.Fatalf("Push: %+v, %v", answers, err)
			}
			// A git that does not see the variable finds everything in
			// the repository and on the remote's own refs.
			if out := cleanGit(t, repo, "rev-parse", ref); out != got {
				t.Fatalf("%s is %q in the repository, want %s", ref, out, got)
			}
			cleanGit(t, repo, "cat-file", "-e", got+"^{tree}:files/n")
			cleanGit(t, repo, "fsck", "--connectivity-only", "--no-dangling")
			if out := cleanGit(t, remote, "rev-parse", ref); out != got {
				t.Fatalf("the remote has %s at %q, want %s", ref, out, got)
			}
		})
	}
}

// discoverIn is Discover from dir, with the environment as it is now.
func discoverIn(t *testing.T, dir string) Layout {
	t.Helper()
	l, err := Discover(dir, environ.OS())
	if err != nil {
		t.Fatal(err)
	}
	return l
}

// cleanGit runs git in dir without any repository-local variable (nor
// GIT_NAMESPACE), failing the test on error.
func cleanGit(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command(gitBin, args...)
	cmd.Dir = dir
	var env []string
	for _, kv := range gitEnv() {
		k, _, _ := strings.Cut(kv, "=")
		if _, listed := syncVars[k]; !listed && !strings.HasPrefix(k, "GIT_CONFIG_KEY_") && !strings.HasPrefix(k, "GIT_CONFIG_VALUE_") {
			env = append(env, kv)
		}
	}
	cmd.Env = env
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %s in %s: %v: %s", strings.Join(args, " "), dir, err, out)
	}
	return strings.TrimSpace(string(out))
}
