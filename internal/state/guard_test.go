package state

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/orc-state/orc-state/internal/fault"
	"github.com/orc-state/orc-state/registry"
)

// A fake token, assembled so that no literal credential sits in the file.
var token = "gh" + "p_" + strings.Repeat("Gu4rd", 8)

func newSession(id string) registry.Session {
	phase, _ := registry.ParsePhase("1")
	return registry.Session{SessionID: id, Branch: id, GitBranch: id, Command: "flow", Phase: phase,
		TotalPhases: 3, Status: "in_progress", LinkedPRs: []registry.PR{}, StartedAt: registry.Stamp(time.Now()), UpdatedAt: registry.Stamp(time.Now())}
}

// seed writes a state dir holding one session "s", through a transaction.
func seed(t *testing.T) *Dir {
	t.Helper()
	d := &Dir{Path: filepath.Join(t.TempDir(), ".orc")}
	err := d.Update(context.Background(), Options{Verb: "init", Actor: "cli", LockTimeout: 1e9}, func(tx *Tx) error {
		s := newSession("s")
		tx.Reg.Sessions = append(tx.Reg.Sessions, s)
		tx.RegistryChanged()
		tx.Write("s", "notes.json", []byte(`{"ok": true}`+"\n"))
		tx.Touch("s", nil)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return d
}

func manifestOf(t *testing.T, root string) string {
	t.Helper()
	var b strings.Builder
	err := filepath.WalkDir(root, func(p string, de os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		b.WriteString(p)
		if !de.IsDir() {
			data, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			b.Write(data)
		}
		b.WriteByte('\n')
		return nil
	})
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		t.Fatal(err)
	}
	return b.String()
}

func TestGuardRefusesEveryWayIn(t *testing.T) {
	escaped := `\u0067` + token[1:]
	tests := []struct {
		name string
		fn   func(tx *Tx) error
		want string // in the message
	}{
		{"staged file", func(tx *Tx) error {
			tx.Write("s", "a.json", []byte(`{"t": "`+token+`"}`))
			tx.Touch("s", nil)
			return nil
		}, "s/files/a.json would hold a credential (GitHub token)"},
		{"staged file, JSON-escaped", func(tx *Tx) error {
			tx.Write("s", "a.json", []byte(`{"t": "`+escaped+`"}`))
			tx.Touch("s", nil)
			return nil
		}, "s/files/a.json would hold a credential (GitHub token)"},
		{"file name", func(tx *Tx) error {
			tx.Write("s", token+".json", []byte(`{}`))
			tx.Touch("s", nil)
			return nil
		}, "a file name would hold a credential"},
		{"folder name of a new session", func(tx *Tx) error {
			tx.Touch("x-"+token, nil)
			return nil
		}, "a file name would hold a credential"},
		{"append", func(tx *Tx) error {
			tx.Append("s", ProgressFile, []byte("\n## x\n\n"+token+"\n"))
			tx.Touch("s", nil)
			return nil
		}, "s/files/progress.md would hold a credential"},
		{"journal args", func(tx *Tx) error {
			tx.Touch("s", map[string]string{"trigger": escaped})
			return nil
		}, "s/files/journal.jsonl would hold a credential"},
		{"registry entry", func(tx *Tx) error {
			s := findID(tx.Reg, "s")
			s.PhaseLabel = registry.Str("deploy " + token)
			tx.RegistryChanged()
			tx.Touch("s", nil)
			return nil
		}, "orc.json would hold a credential"},
		{"tombstone", func(tx *Tx) error {
			tx.Tombstone([]byte(`{"note": "` + token + `"}` + "\n"))
			return nil
		}, "removed.jsonl would hold a credential"},
		{"workspace link", func(tx *Tx) error {
			tx.WriteState("s/workspace-link.json", []byte(`{"workspaceRoot": "/w/`+token+`"}`))
			return nil
		}, "s/workspace-link.json would hold a credential"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := seed(t)
			before := manifestOf(t, d.Path)
			err := d.Update(context.Background(), Options{Verb: "t", Actor: "cli", LockTimeout: 1e9}, tt.fn)
			if err == nil || fault.Code(err) != fault.Usage || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("err = %v (exit %d); want exit 2 with %q", err, fault.Code(err), tt.want)
			}
			if _, msg, hint := fault.Explain(err); strings.Contains(msg, token[4:]) || strings.Contains(hint, token[4:]) {
				t.Fatalf("the refusal echoes the token: %v", err)
			}
			if after := manifestOf(t, d.Path); after != before {
				t.Fatalf("the refusal changed the state dir")
			}
		})
	}
}

// A credential that an older release let in does not wedge the session:
// rewriting the file that holds it, or removing the session (whose
// tombstone copies the entry), is allowed; a new one still is not.
func TestGuardKnowsWhatWasThere(t *testing.T) {
	d := seed(t)
	// an older release stored a token in the entry and in a file
	reg, _, err := d.ReadRegistry()
	if err != nil {
		t.Fatal(err)
	}
	reg.Sessions[0].PhaseLabel = registry.Str("deploy " + token)
	data, _ := reg.Marshal()
	if err := os.WriteFile(d.RegistryPath(), data, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(d.File("s", "notes.json"), []byte(`{"t": "`+token+`"}`), 0o644); err != nil {
		t.Fatal(err)
	}
	opts := Options{Verb: "t", Actor: "cli", LockTimeout: 1e9}
	err = d.Update(context.Background(), opts, func(tx *Tx) error {
		s := findID(tx.Reg, "s")
		s.Status = "paused"
		tx.RegistryChanged()
		tx.Write("s", "notes.json", []byte(`{"t": "`+token+`", "more": 1}`))
		tx.Touch("s", map[string]string{"status": "paused"})
		return nil
	})
	if err != nil {
		t.Fatalf("a write beside a credential already on disk: %v", err)
	}
	other := "gh" + "p_" + strings.Repeat("N3wOne", 6)
	err = d.Update(context.Background(), opts, func(tx *Tx) error {
		tx.Write("s", "notes.json", []byte(`{"t": "`+token+`", "u": "`+other+`"}`))
		tx.Touch("s", nil)
		return nil
	})
	if fault.Code(err) != fault.Usage {
		t.Fatalf("a new credential beside an old one: err = %v; want exit 2", err)
	}
	err = d.Update(context.Background(), opts, func(tx *Tx) error {
		tx.RemoveSession(*findID(tx.Reg, "s"))
		return nil
	})
	if err != nil {
		t.Fatalf("removing a session whose entry holds an old credential: %v", err)
	}
}

// With no state dir yet, a refused write creates nothing (no .orc/, no lock).
func TestGuardFirstWriteCreatesNothing(t *testing.T) {
	root := t.TempDir()
	d := &Dir{Path: filepath.Join(root, ".orc")}
	err := d.Update(context.Background(), Options{Verb: "init", Actor: "cli", LockTimeout: 1e9}, func(tx *Tx) error {
		s := newSession("s")
		s.Description = token
		tx.Reg.Sessions = append(tx.Reg.Sessions, s)
		tx.RegistryChanged()
		tx.Touch("s", nil)
		return nil
	})
	if fault.Code(err) != fault.Usage {
		t.Fatalf("err = %v; want exit 2", err)
	}
	if _, err := os.Stat(d.Path); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("the refusal created the state dir: %v", err)
	}
}
