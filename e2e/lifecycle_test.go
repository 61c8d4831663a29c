//go:build e2e

package e2e

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestLifecycleHooks drives the pinned client through the events that keep
// the state true when agents stop and move: a subagent that claimed a slice
// and stops (SubagentStop releases the claim), the session's end
// (SessionEnd writes the Auto-checkpoint), and a subagent in a worktree of
// its own with the opt-in WorktreeCreate/WorktreeRemove hooks (the worktree
// is made, bound, removed and unbound). Project settings add recording
// hooks beside the plugin's, so the test sees each payload as the client
// sends it; the SubagentStart recorder also claims a slice as the
// subagent, the claim the plugin's SubagentStop hook must release.
func TestLifecycleHooks(t *testing.T) {
	r := newRig(t)
	home := r.home(t, "home-lifecycle")
	data := filepath.Join(home, ".claude", "plugins", "data", "orc-state-inline")
	load := []string{"--plugin-dir", r.root}
	r.print(t, home, append(load, "first contact")...)
	r.waitForBuild(t, data)
	r.orcState(`{"slices": [{"id": 1, "title": "a"}, {"id": 2, "title": "b"}]}`, "slice", "init", "-")

	rec := filepath.Join(r.tmp, "recorded")
	if err := os.MkdirAll(rec, 0o755); err != nil {
		t.Fatal(err)
	}
	field := func(name string) string { // a string field of the payload in $p, by sed
		return `$(tr -d '\n' < "$p" | sed -n 's/.*"` + name + `" *: *"\([^"]*\)".*/\1/p')`
	}
	claim := `p=` + rec + `/subagent-start.json; cat > "$p"; ` + r.orc + ` slice claim --session ` + r.sid +
		` --agent "` + field("agent_type") + `-` + field("agent_id") + `" > ` + rec + `/claimed.txt 2>&1`
	hook := func(script string) []map[string]any {
		return []map[string]any{{"hooks": []map[string]any{{"type": "command", "command": "sh", "args": []string{"-c", script}, "timeout": 60}}}}
	}
	settings := map[string]any{"hooks": map[string]any{
		"SubagentStart":  hook(claim),
		"SubagentStop":   hook("cat > " + rec + "/subagent-stop.json"),
		"SessionEnd":     hook("cat > " + rec + "/session-end.json"),
		"WorktreeCreate": hook("tee " + rec + "/worktree-create.json | " + r.orc + " hook worktree-create"),
		"WorktreeRemove": hook("tee " + rec + "/worktree-remove.json | " + r.orc + " hook worktree-remove"),
	}}
	b, _ := json.Marshal(settings)
	if err := os.MkdirAll(filepath.Join(r.project, ".claude"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(r.project, ".claude", "settings.json"), b, 0o644); err != nil {
		t.Fatal(err)
	}
	recorded := func(name string) map[string]any {
		data, err := os.ReadFile(filepath.Join(rec, name))
		if err != nil {
			return nil
		}
		var m map[string]any
		if json.Unmarshal(data, &m) != nil {
			t.Errorf("%s is not the hook's JSON: %s", name, data)
		}
		return m
	}

	t.Run("SubagentStop", func(t *testing.T) {
		r.print(t, home, append(load, "AGENT: e2e-lifecycle-stop says ok")...)
		start, stop := recorded("subagent-start.json"), recorded("subagent-stop.json")
		if start == nil {
			t.Fatal("the client fired no SubagentStart")
		}
		claimed, _ := os.ReadFile(filepath.Join(rec, "claimed.txt"))
		if strings.TrimSpace(string(claimed)) != "1" {
			t.Fatalf("the recorder's claim as the subagent said %q", claimed)
		}
		if stop == nil {
			t.Fatal("the client fired no SubagentStop")
		}
		for _, f := range []string{"agent_id", "agent_type", "agent_transcript_path", "cwd"} {
			if _, ok := stop[f]; !ok {
				t.Errorf("the SubagentStop payload has no %s: %v", f, stop)
			}
		}
		if stop["agent_id"] != start["agent_id"] {
			t.Errorf("SubagentStop's agent_id %v is not SubagentStart's %v", stop["agent_id"], start["agent_id"])
		}
		log := r.orcState("", "log", "--json")
		agent := "general-purpose-" + start["agent_id"].(string)
		if want := `"verb":"hook subagent-stop","args":{"agent":"` + agent + `","ids":["1"],"why":"released: the subagent stopped"}`; !strings.Contains(log, want) {
			t.Errorf("the journal has no release of the stopped subagent's claim (%s):\n%s", want, log)
		}
		if list := r.orcState("", "slice", "list"); strings.Contains(list, agent) {
			t.Errorf("the stopped subagent still holds a claim:\n%s", list)
		}
	})

	t.Run("SessionEnd", func(t *testing.T) {
		end := recorded("session-end.json")
		if end == nil {
			t.Skip("the pinned client fired no SessionEnd for a -p session")
		}
		t.Logf("SessionEnd payload: %v", end)
		if log := r.orcState("", "log"); !strings.Contains(log, "\thook:SessionEnd\thook session-end\t") {
			t.Errorf("SessionEnd fired (reason %v) but the journal has no hook session-end:\n%s", end["reason"], log)
		}
		if ck, _ := os.ReadFile(filepath.Join(r.project, ".orc", r.sid, "files", "checkpoint.md")); !strings.Contains(string(ck), "(trigger: session-end)") {
			t.Errorf("no Auto-checkpoint with trigger session-end:\n%s", ck)
		}
	})

	t.Run("WorktreeSubagent", func(t *testing.T) {
		r.print(t, home, append(load, "AGENT-WORKTREE: e2e-lifecycle-wt says ok")...)
		create := recorded("worktree-create.json")
		if create == nil {
			t.Fatal("the client fired no WorktreeCreate for a subagent with isolation: worktree")
		}
		t.Logf("WorktreeCreate payload: %v", create)
		log := r.orcState("", "log", "--json")
		if !strings.Contains(log, `"verb":"hook worktree-create"`) {
			t.Errorf("the journal has no binding of the new worktree:\n%s", log)
		}
		remove := recorded("worktree-remove.json")
		if remove == nil {
			t.Logf("the client fired no WorktreeRemove after the subagent")
			return
		}
		t.Logf("WorktreeRemove payload: %v", remove)
		if !strings.Contains(log, `"verb":"hook worktree-remove"`) {
			t.Errorf("WorktreeRemove fired but the journal has no unbinding:\n%s", log)
		}
		if p, _ := remove["worktree_path"].(string); p != "" {
			if _, err := os.Stat(p); err == nil {
				t.Errorf("the worktree %s is still there", p)
			}
		}
	})
}
