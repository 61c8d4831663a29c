// Package completion owns the values shell completion offers from the
// state: the registry's sessionIds and branches, and the chosen session's
// slice ids and decision keys. It reads the state the way line does (no
// lock, no git process, a lenient read of the files) and never writes;
// what it cannot read offers nothing. Only candidates that are plain shell
// words are offered (each once), so a completed command runs as shown.
// Scripts are what `completion` prints: per shell, the lines that make
// orc-state its own completer. The grammar (verbs, flags, enums) is the
// CLI's; Predictors answers the predictor names its tags give.
package completion

import (
	"encoding/json"
	"path/filepath"
	"sort"
	"strings"

	comp "github.com/posener/complete"

	"github.com/orc-state/orc-state/internal/atomicfile"
	"github.com/orc-state/orc-state/internal/environ"
	"github.com/orc-state/orc-state/internal/safetext"
	"github.com/orc-state/orc-state/internal/state"
	"github.com/orc-state/orc-state/registry"
)

// View is the state a completion looks at: the state dir, the
// registry read leniently, and the session the command line selects.
type View struct {
	dir      string
	sessions []registry.Loose
	chosen   string // the selected sessionId; "" when none
}

// Predictors are what completion offers for the values a flag or argument
// names in its predictor tag ("session", "branch", "slice", "decision"):
// read from the state the words typed so far name (ReadTyped).
func Predictors(wd string, env environ.List) map[string]comp.Predictor {
	view := func(a comp.Args) View { return ReadTyped(a.Completed, wd, env) }
	return map[string]comp.Predictor{
		"session":  comp.PredictFunc(func(a comp.Args) []string { return view(a).SessionIDs() }),
		"branch":   comp.PredictFunc(func(a comp.Args) []string { return view(a).Branches() }),
		"slice":    comp.PredictFunc(func(a comp.Args) []string { return view(a).SliceIDs() }),
		"decision": comp.PredictFunc(func(a comp.Args) []string { return view(a).DecisionKeys() }),
	}
}

// ReadTyped is Read of the --dir, --session and --branch values among the
// words already typed (--flag=VALUE or --flag VALUE).
func ReadTyped(words []string, wd string, env environ.List) View {
	flags := map[string]string{}
	for i, w := range words {
		for _, name := range []string{"--dir", "--session", "--branch"} {
			if v, ok := strings.CutPrefix(w, name+"="); ok {
				flags[name] = v
			} else if w == name && i+1 < len(words) {
				flags[name] = words[i+1]
			}
		}
	}
	return Read(flags["--dir"], flags["--session"], flags["--branch"], wd, env)
}

// Read reads the state a command line names: the state dir of dir (a
// --dir value, "" for none) from the working directory wd and env, and
// the session of session (a --session value), else of branch (a --branch
// value), else of the current branch. What it cannot read is an empty
// View, which offers nothing.
func Read(dir, session, branch, wd string, env environ.List) View {
	d, err := state.Resolve(dir, wd, env)
	if err != nil {
		return View{}
	}
	data, err := atomicfile.ReadOnly(filepath.Join(d.Path, "orc.json"))
	if err != nil {
		return View{}
	}
	v := View{dir: d.Path, sessions: registry.ParseLoose(data)}
	if branch == "" && d.Git != nil {
		branch, _, _ = d.Git.CurrentBranch()
	}
	for _, s := range v.sessions {
		if session != "" && s.SessionID == session ||
			session == "" && branch != "" && s.GitBranch == branch {
			v.chosen = s.SessionID
		}
	}
	return v
}

// SessionIDs are the registry's sessionIds.
func (v View) SessionIDs() []string {
	var out []string
	for _, s := range v.sessions {
		out = append(out, s.SessionID)
	}
	return plainWords(out)
}

// Branches are the registry's git branches.
func (v View) Branches() []string {
	var out []string
	for _, s := range v.sessions {
		out = append(out, s.GitBranch)
	}
	return plainWords(out)
}

// sessionFile reads a file of the chosen session's files/; nil when there
// is none.
func (v View) sessionFile(name string) []byte {
	if v.chosen == "" || registry.CheckKey(v.chosen) != nil {
		return nil
	}
	data, err := atomicfile.ReadFile(filepath.Join(v.dir, v.chosen, "files", name))
	if err != nil {
		return nil
	}
	return data
}

// SliceIDs are the chosen session's slice ids (an integer id as written).
func (v View) SliceIDs() []string {
	var ledger struct {
		Slices []struct {
			ID json.RawMessage `json:"id"`
		} `json:"slices"`
	}
	if json.Unmarshal(v.sessionFile(state.LedgerFile), &ledger) != nil {
		return nil
	}
	var out []string
	for _, s := range ledger.Slices {
		var id string
		if json.Unmarshal(s.ID, &id) != nil {
			id = string(s.ID) // an integer id, as written
		}
		out = append(out, id)
	}
	return plainWords(out)
}

// DecisionKeys are the chosen session's decision keys, sorted.
func (v View) DecisionKeys() []string {
	var file struct {
		Decisions map[string]json.RawMessage `json:"decisions"`
	}
	if json.Unmarshal(v.sessionFile(state.DecisionsFile), &file) != nil {
		return nil
	}
	out := make([]string, 0, len(file.Decisions))
	for k := range file.Decisions {
		out = append(out, k)
	}
	sort.Strings(out)
	return plainWords(out)
}

// plainWords keeps the candidates a shell takes as they are: non-empty,
// no quoting needed (so nothing to escape either), each once.
func plainWords(words []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, w := range words {
		if w != "" && !seen[w] && safetext.Quote(w) == w {
			seen[w] = true
			out = append(out, w)
		}
	}
	return out
}

// Scripts register orc-state as the completer of orc-state, by shell:
// the shell then runs orc-state with the command line in $COMP_LINE.
var Scripts = map[string]string{
	"bash": `# orc-state completion for bash: add this line to ~/.bashrc
#   eval "$(orc-state completion bash)"
complete -o default -o bashdefault -C orc-state orc-state
`,
	"zsh": `# orc-state completion for zsh: add this line to ~/.zshrc, after compinit
#   eval "$(orc-state completion zsh)"
autoload -U +X bashcompinit && bashcompinit
complete -o default -C orc-state orc-state
`,
	"fish": `# orc-state completion for fish: save this as ~/.config/fish/completions/orc-state.fish
#   orc-state completion fish > ~/.config/fish/completions/orc-state.fish
function __orc_state_complete
    set -lx COMP_LINE (commandline -cp)
    test -z (commandline -ct)
    and set COMP_LINE "$COMP_LINE "
    orc-state
end
complete -f -c orc-state -a "(__orc_state_complete)"
`,
}
