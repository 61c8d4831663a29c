package app

import (
	"path/filepath"
	"testing"
	"time"
)

// TestPathsAreTheRunsWorkingDirectorys: a path the user gave is taken
// against the run's working directory, never the process's, and cleaned;
// an absolute one stays where it points; "" stays "".
func TestPathsAreTheRunsWorkingDirectorys(t *testing.T) {
	wd := filepath.Join(t.TempDir(), "repo")
	w := NewWorld(nil, wd, time.Now, time.Now)
	abs := filepath.Join(t.TempDir(), "x", "..", "y")
	for _, tt := range []struct{ in, want string }{
		{"", ""},
		{"notes.md", filepath.Join(wd, "notes.md")},
		{filepath.Join("a", "..", "b"), filepath.Join(wd, "b")},
		{abs, filepath.Clean(abs)},
	} {
		if got := w.Abs(tt.in); got != tt.want {
			t.Errorf("Abs(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// TestRecordedTimeIsTheStampClocks: timestamps come from the stamp clock
// and claims are judged by the other, so a test can fix either.
func TestRecordedTimeIsTheStampClocks(t *testing.T) {
	stamp := time.Date(2026, 12, 4, 10, 30, 0, 0, time.UTC)
	now := stamp.Add(time.Hour)
	w := NewWorld(nil, t.TempDir(), func() time.Time { return stamp }, func() time.Time { return now })
	if got := w.Stamp(); got != "2026-12-04T10:30:00Z" {
		t.Errorf("Stamp() = %q, want 2026-12-04T10:30:00Z", got)
	}
	if got := w.Now(); !got.Equal(now) {
		t.Errorf("Now() = %v, want %v", got, now)
	}
}
