package refsync

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/orc-state/orc-state/internal/environ"
	"github.com/orc-state/orc-state/internal/state"
	"github.com/orc-state/orc-state/registry"
)

// Status reads and surveys the sessions a chunk at a time; the rows are the
// same, in the same order, whatever the chunk size.
func TestStatusChunksAgree(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	root := t.TempDir()
	repo, remote := filepath.Join(root, "repo"), filepath.Join(root, "remote.git")
	for _, args := range [][]string{
		{"init", "-q", "--bare", remote},
		{"init", "-q", repo},
		{"-C", repo, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q", "--allow-empty", "-m", "base"},
	} {
		if out, err := exec.Command("git", args...).CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	reg := registry.Registry{Schema: registry.Schema}
	for i := range 7 {
		branch := fmt.Sprintf("s%d", i)
		reg.Sessions = append(reg.Sessions, registry.Session{
			SessionID: branch, Branch: branch, GitBranch: branch, Command: "flow", Status: "in_progress",
			Phase: registry.Phase{N: 1}, TotalPhases: 3, LinkedPRs: []registry.PR{},
			StartedAt: "2026-01-02T03:04:05Z", UpdatedAt: "2026-01-02T03:04:05Z",
		})
	}
	data, err := reg.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(repo, ".orc"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(repo, ".orc", "orc.json"), data, 0o644); err != nil {
		t.Fatal(err)
	}
	d, err := state.Resolve("", repo, environ.OS())
	if err != nil {
		t.Fatal(err)
	}
	s, err := New(d, remote, state.Options{Verb: "sync status"})
	if err != nil {
		t.Fatal(err)
	}
	s.NoFetch = true
	defer func(n int) { statusChunk = n }(statusChunk)
	whole, err := s.Status("")
	if err != nil {
		t.Fatal(err)
	}
	if len(whole) != 7 {
		t.Fatalf("%d rows, want 7: %v", len(whole), whole)
	}
	for _, n := range []int{1, 2, 3} {
		statusChunk = n
		got, err := s.Status("")
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, whole) {
			t.Errorf("chunks of %d: %v, want %v", n, got, whole)
		}
	}
}
