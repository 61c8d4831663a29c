package worktrees

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/orc-state/orc-state/internal/fault"
	"github.com/orc-state/orc-state/internal/safetext"
	"github.com/orc-state/orc-state/internal/state"
	"github.com/orc-state/orc-state/registry"
	"github.com/orc-state/orc-state/slices"
)

// A subagent's agent id is of the safe alphabet, starts with a letter or
// digit (never reads as a flag) and is bounded; none without the client's
// id.
func TestSubagentIDIsSafeAndNeverAFlag(t *testing.T) {
	for _, tt := range []struct{ agentType, id, want string }{
		{"general-purpose", "a1b2c3", "general-purpose-a1b2c3"},
		{"", "a1b2c3", "subagent-a1b2c3"},
		{"Explore", "", ""},
		{"my agent; rm -rf /", "x'y", "my-agent--rm--rf---x-y"},
		{"t", strings.Repeat("9", 100), "t-" + strings.Repeat("9", 64)},
		{strings.Repeat("T", 50), "id", strings.Repeat("T", 40) + "-id"},
		{"é", "ü", "subagent--"}, // one dash per character; the type starts with a letter
		{"-", "-rf", "subagent--rf"},
		{"--force", "x", "force-x"},
		{".hidden", "1", "hidden-1"},
	} {
		got := SubagentID(tt.agentType, tt.id)
		if got != tt.want {
			t.Errorf("SubagentID(%q, %q) = %q, want %q", tt.agentType, tt.id, got, tt.want)
		}
		if p := safetext.NameProblem(got, safetext.MaxName); got != "" && p != "" {
			t.Errorf("SubagentID(%q, %q) = %q %s; an agent id is of the safe alphabet", tt.agentType, tt.id, got, p)
		}
	}
}

// A stopped subagent's open claims are released, journaled with why; a
// claim of another agent, one made after the stop, and a claim on a closed
// slice stay.
func TestReleaseStoppedFreesOnlyTheStoppedSubagentsOpenClaims(t *testing.T) {
	p := newPlace(t)
	const sub = "general-purpose-a1"
	p.claim(t, "a", sub, time.Hour)                     // slice 1
	p.claim(t, "a", "other", time.Hour)                 // slice 2
	p.update(t, "slice set", func(tx *state.Tx) error { // slice 2 closed while still claimed: planted
		data, err := tx.Read("a", state.LedgerFile)
		if err != nil {
			return err
		}
		var doc struct {
			Slices []map[string]any `json:"slices"`
		}
		if err := json.Unmarshal(data, &doc); err != nil {
			return err
		}
		doc.Slices[1]["claimedBy"], doc.Slices[1]["status"] = sub, "committed"
		data, err = json.Marshal(doc)
		if err != nil {
			return err
		}
		tx.Write("a", state.LedgerFile, data)
		tx.Touch("a", nil)
		return nil
	})
	stop := registry.Stamp(t0.Add(5 * time.Second))
	p.now = t0.Add(10 * time.Second)
	p.claim(t, "a", sub, time.Hour) // slice 3: the subagent resumed after the stop
	if err := p.run("").ReleaseStopped("a", sub, stop); err != nil {
		t.Fatal(err)
	}
	data, err := p.d.ReadFile("a", state.LedgerFile)
	if err != nil {
		t.Fatal(err)
	}
	l, err := slices.Parse(data)
	if err != nil {
		t.Fatal(err)
	}
	var held []string
	for _, s := range l.Slices() {
		held = append(held, s.ID+":"+s.ClaimedBy)
	}
	if got, want := strings.Join(held, " "), "1: 2:"+sub+" 3:"+sub; got != want {
		t.Fatalf("claims %q, want %q", got, want)
	}
	e := p.lastEntry(t, "a")
	var args struct {
		IDs []string
		Why string
	}
	if err := json.Unmarshal(e.Args, &args); err != nil || strings.Join(args.IDs, ",") != "1" || args.Why != StoppedWhy {
		t.Fatalf("journal ends with %s (%v)", e.Args, err)
	}
}

// An --agent a binding records is refused, exit 2, when slices could not
// keep it, it looks like a credential or it is outside the safe alphabet
// of new ids; none passes.
func TestCheckAgentRefusesWhatABindingCannotRecord(t *testing.T) {
	for _, tt := range []struct {
		agent string
		ok    bool
	}{
		{"", true},
		{"worker-1", true},
		{"-rf", false},
		{"a b", false},
		{"a\nb", false},
		{"ghp_" + strings.Repeat("A", 36), false},
		{strings.Repeat("a", 300), false},
	} {
		err := CheckAgent(tt.agent)
		if (err == nil) != tt.ok || err != nil && fault.Code(err) != fault.Usage {
			t.Errorf("CheckAgent(%q) = %v (exit %d), want ok %v", tt.agent, err, fault.Code(err), tt.ok)
		}
	}
}

// A WorktreeCreate name is one plain folder name: it becomes a path and a
// branch.
func TestCheckNameTakesOnePlainFolderName(t *testing.T) {
	for _, tt := range []struct {
		name string
		ok   bool
	}{
		{"feature-1.x_y", true},
		{"", false},
		{"../../evil", false},
		{"a/b", false},
		{".hidden", false},
		{"-b", false},
		{"é", false},
		{strings.Repeat("a", 64), true},
		{strings.Repeat("a", 65), false},
	} {
		if err := CheckName(tt.name); (err == nil) != tt.ok {
			t.Errorf("CheckName(%q) = %v, want ok %v", tt.name, err, tt.ok)
		}
	}
}
