package cli

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/orc-state/orc-state/internal/atomicfile"
	"github.com/orc-state/orc-state/internal/clock"
	"github.com/orc-state/orc-state/internal/gitx"
	"github.com/orc-state/orc-state/internal/state"
	"github.com/orc-state/orc-state/registry"
	"github.com/orc-state/orc-state/slices"
)

// LineCmd is `line` (dispatched by runLine with a lenient parser; declared
// here for --help).
type LineCmd struct {
	BranchFlag
}

// lineOut is `line`'s JSON, in the original's field order.
type lineOut struct {
	Command     string `json:"command"`
	Phase       any    `json:"phase"`
	TotalPhases any    `json:"totalPhases"`
	PhaseLabel  any    `json:"phaseLabel"`
	Status      string `json:"status"`
	JiraTicket  any    `json:"jiraTicket"`
	GitBranch   string `json:"gitBranch"`
	SlicesDone  int    `json:"slicesDone"`
	SlicesTotal int    `json:"slicesTotal"`
	// SlicesClaimed counts live slice claims; absent when none, so a
	// ledger nobody claims renders as before.
	SlicesClaimed int    `json:"slicesClaimed,omitempty"`
	Policy        any    `json:"policy"`
	Title         string `json:"title"`
	Current       *bool  `json:"current,omitempty"`
	// SessionID names the session's folder for the statusline; line does
	// not print it.
	SessionID string `json:"-"`
}

// runLine is the statusline path: it parses its arguments leniently
// (unknown ones are ignored), takes no lock, runs no git subprocess, reads
// the registry leniently (legacy and invalid registries still render), and
// prints one line of JSON or nothing. It never writes to stderr.
func runLine(args []string, stdout io.Writer) {
	var dir, branch string
	for i := 0; i < len(args); i++ {
		a := args[i]
		for _, name := range []string{"--dir", "--branch"} {
			switch {
			case a == name && i+1 < len(args):
				i++
				setLineFlag(name, args[i], &dir, &branch)
			case strings.HasPrefix(a, name+"="):
				setLineFlag(name, a[len(name)+1:], &dir, &branch)
			}
		}
	}
	out, ok := lineFor(dir, branch, cwd())
	if !ok {
		return
	}
	b, err := json.Marshal(out)
	if err != nil {
		return
	}
	stdout.Write(append(b, '\n'))
}

func setLineFlag(name, v string, dir, branch *string) {
	if name == "--dir" {
		*dir = v
	} else {
		*branch = v
	}
}

func lineFor(dir, branch, wd string) (lineOut, bool) {
	if dir == "" {
		dir = os.Getenv("ORC_STATE_DIR")
	}
	var layout *gitx.Layout
	if l, err := gitx.Discover(wd); err == nil {
		layout = &l
	}
	if dir == "" && layout != nil {
		dir = filepath.Join(layout.MainRoot(), ".orc")
	}
	return lineWith(dir, branch, layout)
}

// lineWith is lineFor once the state dir and the repository (nil outside
// one) are known.
func lineWith(dir, branch string, layout *gitx.Layout) (lineOut, bool) {
	if dir == "" {
		return lineOut{}, false
	}
	if branch == "" && layout != nil {
		branch, _, _ = layout.CurrentBranch()
	}
	data, err := atomicfile.ReadFile(filepath.Join(dir, "orc.json"))
	if err != nil {
		return lineOut{}, false
	}
	s, current := pickLine(lineCandidates(dir, data, branch), branch)
	if s == nil {
		return lineOut{}, false
	}
	out := lineOut{
		Command: s.Command, Phase: s.Phase, TotalPhases: s.TotalPhases, PhaseLabel: s.PhaseLabel,
		Status: s.Status, JiraTicket: s.JiraTicket, GitBranch: s.GitBranch, SessionID: s.SessionID,
	}
	if out.Command == "" {
		out.Command = "session"
	}
	if out.Phase == nil {
		out.Phase = "?"
	}
	if !current {
		f := false
		out.Current = &f
	}
	if registry.CheckKey(s.SessionID) == nil {
		files := filepath.Join(dir, s.SessionID, "files")
		if data, err := atomicfile.ReadFile(filepath.Join(files, "slices.json")); err == nil {
			c, _ := slices.Count(data, clock.Now())
			out.SlicesDone, out.SlicesTotal, out.SlicesClaimed = c.Done, c.Total, c.Claimed
		}
		out.Policy = linePolicy(filepath.Join(files, "decisions.json"))
	}
	out.Title = fmt.Sprintf("orc: %s %s [%s]", out.Command, out.GitBranch, phaseText(out.Phase))
	return out, true
}

// lineCandidates is the registry as line reads it: leniently, every entry;
// but when the proof beside orc.json vouches for its bytes, only the
// entries pickLine can choose (the branch's, and only when none of them is
// live the newest live entry of all), decoded alone.
func lineCandidates(dir string, data []byte, branch string) []registry.Loose {
	proof, _ := os.ReadFile(filepath.Join(dir, state.ProofFile))
	if !registry.Proven(data, proof) {
		return registry.ParseLoose(data)
	}
	var keys []string
	if branch != "" {
		keys = lookupKeys(branch)
	}
	var out []registry.Loose
	if len(keys) > 0 {
		reg, err := registry.Read(data, proof, keys...)
		if err != nil {
			return registry.ParseLoose(data)
		}
		sid := registry.Sanitize(branch)
		for i := range reg.Sessions {
			s := &reg.Sessions[i]
			if s.Status == "in_progress" && (s.GitBranch == branch || s.SessionID == sid) {
				out = append(out, registry.LooseOf(s)) // what pickLine counts as the branch's
			}
		}
	}
	if len(out) == 0 {
		if s, ok := registry.NewestLive(data); ok {
			out = append(out, registry.LooseOf(s))
		}
	}
	return out
}

// pickLine prefers the newest in_progress session of branch, else falls
// back to the newest in_progress session of any branch (current false).
func pickLine(list []registry.Loose, branch string) (*registry.Loose, bool) {
	var mine, any *registry.Loose
	sid := registry.Sanitize(branch)
	for i := range list {
		l := &list[i]
		if l.Status != "in_progress" {
			continue
		}
		if branch != "" && (l.GitBranch == branch || l.SessionID == sid) {
			if mine == nil || l.UpdatedAt > mine.UpdatedAt {
				mine = l
			}
		}
		if any == nil || l.UpdatedAt > any.UpdatedAt {
			any = l
		}
	}
	if mine != nil {
		return mine, true
	}
	return any, false
}

func phaseText(p any) string {
	switch v := p.(type) {
	case float64:
		return fmt.Sprintf("%g", v)
	case string:
		return v
	}
	return "?"
}

func linePolicy(path string) any {
	data, err := atomicfile.ReadFile(path)
	if err != nil {
		return nil
	}
	var doc struct {
		Decisions map[string]struct {
			Value any `json:"value"`
		} `json:"decisions"`
	}
	if json.Unmarshal(data, &doc) != nil {
		return nil
	}
	if d, ok := doc.Decisions["autopilotLevel"]; ok && d.Value != nil {
		return d.Value
	}
	return nil
}
