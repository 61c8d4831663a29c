package refsync

import (
	"fmt"
	"path/filepath"
	"reflect"
	"testing"
	"time"

	"github.com/orc-state/orc-state/internal/state"
	"github.com/orc-state/orc-state/internal/statetest"
	"github.com/orc-state/orc-state/registry"
)

// Status reads and surveys the sessions a chunk at a time; the rows are the
// same, in the same order, whatever the chunk size.
func TestStatusChunksAgree(t *testing.T) {
	root := t.TempDir()
	repo, remote := filepath.Join(root, "repo"), filepath.Join(root, "remote.git")
	env := statetest.Repo(t, repo)
	statetest.Repo(t, remote, "--bare")
	var entries []registry.Session
	for i := range 7 {
		entries = append(entries, statetest.Entry(fmt.Sprintf("s%d", i), time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)))
	}
	statetest.Seed(t, repo, entries...)
	d, err := state.Resolve("", repo, env)
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
