package cli

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/alecthomas/kong"
	comp "github.com/posener/complete"
	"github.com/willabides/kongplete"

	"github.com/orc-state/orc-state/internal/atomicfile"
	"github.com/orc-state/orc-state/internal/safetext"
	"github.com/orc-state/orc-state/internal/state"
	"github.com/orc-state/orc-state/registry"
)

// Shell completion works the way kongplete (over posener/complete) does:
// the shell runs orc-state itself with the command line in $COMP_LINE, and
// orc-state answers from its kong grammar (verbs, sub-verbs, flags, enum
// values), so completion can never offer a verb that does not exist, and
// from the state for the values a predictor tag names (sessionIds,
// branches, slice ids, decision keys: dataPredictors). The
// scripts below only register orc-state as its own completer; nothing is
// computed unless $COMP_LINE asks.

// CompletionCmd is `completion`.
type CompletionCmd struct {
	Shell string `arg:"" optional:"" enum:"bash,zsh,fish" default:"bash" help:"The shell: bash (the default), zsh or fish."`
}

// completionScripts register orc-state as the completer of orc-state.
var completionScripts = map[string]string{
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

// Run prints the completion script of the shell.
func (c *CompletionCmd) Run(e *Env) error {
	_, err := io.WriteString(e.Stdout, completionScripts[c.Shell])
	return err
}

// completionRequest reports whether the shell asked orc-state to complete
// a command line: $COMP_LINE is set and names orc-state. kongplete reads
// $COMP_LINE and $COMP_POINT from the operating system's environment
// itself, so completion is a real process's (the shell runs orc-state):
// a run given another environment (a test's) completes nothing.
func completionRequest(p *Process) bool {
	if p.getenv("COMP_LINE") != os.Getenv("COMP_LINE") {
		return false
	}
	line := p.getenv("COMP_LINE")
	first, _, _ := strings.Cut(strings.TrimLeft(line, " \t"), " ")
	return first != "" && strings.TrimSuffix(filepath.Base(first), ".exe") == "orc-state"
}

// complete prints the candidates for $COMP_LINE (up to $COMP_POINT), one
// per line, and returns the exit code. The grammar is the one the line's
// words name (grammarFor: a verb, a family, or all of them while the first
// word is typed), so a Tab costs what running the verb's parser costs.
func complete(p *Process, stdout, stderr io.Writer) (code int) {
	line := p.getenv("COMP_LINE")
	if n, err := strconv.Atoi(p.getenv("COMP_POINT")); err == nil && n >= 0 && n < len(line) {
		line = line[:n]
	}
	words := strings.Fields(line)
	if len(words) > 0 {
		words = words[1:] // the program's name
	}
	parser, err := newParser(p, grammarFor(words), stdout, stderr)
	if err != nil {
		fmt.Fprintf(stderr, "orc-state: internal error: %v\n", err)
		return 70
	}
	defer func() {
		if r := recover(); r != nil {
			ep, ok := r.(exitPanic)
			if !ok {
				panic(r)
			}
			code = ep.code
		}
	}()
	offerNoEmptyValue(parser.Model.Node)
	kongplete.Complete(parser, kongplete.WithExitFunc(func(c int) { panic(exitPanic{c}) }),
		kongplete.WithPredictors(dataPredictors(p)))
	return 0
}

// offerNoEmptyValue drops the empty value from the enums of this parser,
// which completes and never parses: "" is how an optional enum flag
// (sessions --status) is left unset, never a value to offer.
func offerNoEmptyValue(n *kong.Node) {
	for _, f := range n.Flags {
		if strings.Contains(","+f.Enum+",", ",,") {
			var keep []string
			for _, v := range f.EnumSlice() {
				if v != "" {
					keep = append(keep, v)
				}
			}
			f.Enum = strings.Join(keep, ",")
		}
	}
	for _, c := range n.Children {
		offerNoEmptyValue(c)
	}
}

// The data completion offers, by the name a flag or argument gives in its
// predictor tag: the registry's sessionIds and branches, and the current
// session's slice ids and decision keys. Each reads the state the way
// line does (no lock, no git process, a lenient read of the files) and
// never writes; what it cannot read offers nothing. Only candidates that
// are plain shell words are offered, so a completed command runs as shown.
const (
	predictSession  = "session"
	predictBranch   = "branch"
	predictSlice    = "slice"
	predictDecision = "decision"
)

func dataPredictors(p *Process) map[string]comp.Predictor {
	return map[string]comp.Predictor{
		predictSession: comp.PredictFunc(func(a comp.Args) []string {
			return plainWords(completionState(p, a).sessionIDs())
		}),
		predictBranch: comp.PredictFunc(func(a comp.Args) []string {
			return plainWords(completionState(p, a).branches())
		}),
		predictSlice: comp.PredictFunc(func(a comp.Args) []string {
			return plainWords(completionState(p, a).sliceIDs())
		}),
		predictDecision: comp.PredictFunc(func(a comp.Args) []string {
			return plainWords(completionState(p, a).decisionKeys())
		}),
	}
}

// completionView is the state a completion looks at: the state dir, the
// registry read leniently, and the session the command line selects.
type completionView struct {
	dir      string
	sessions []registry.Loose
	chosen   string // the selected sessionId; "" when none
}

// completionState reads the state the command line names: --dir, and the
// session of --session, --branch, or the current branch.
func completionState(p *Process, a comp.Args) completionView {
	flags := map[string]string{}
	for i, w := range a.Completed {
		for _, name := range []string{"--dir", "--session", "--branch"} {
			if v, ok := strings.CutPrefix(w, name+"="); ok {
				flags[name] = v
			} else if w == name && i+1 < len(a.Completed) {
				flags[name] = a.Completed[i+1]
			}
		}
	}
	d, err := state.Resolve(flags["--dir"], p.Dir, p.Environ)
	if err != nil {
		return completionView{}
	}
	data, err := atomicfile.ReadOnly(filepath.Join(d.Path, "orc.json"))
	if err != nil {
		return completionView{}
	}
	v := completionView{dir: d.Path, sessions: registry.ParseLoose(data)}
	branch := flags["--branch"]
	if branch == "" && d.Git != nil {
		branch, _, _ = d.Git.CurrentBranch()
	}
	for _, s := range v.sessions {
		if flags["--session"] != "" && s.SessionID == flags["--session"] ||
			flags["--session"] == "" && branch != "" && s.GitBranch == branch {
			v.chosen = s.SessionID
		}
	}
	return v
}

func (v completionView) sessionIDs() []string {
	var out []string
	for _, s := range v.sessions {
		out = append(out, s.SessionID)
	}
	return out
}

func (v completionView) branches() []string {
	var out []string
	for _, s := range v.sessions {
		out = append(out, s.GitBranch)
	}
	return out
}

// sessionFile reads a file of the chosen session's files/; nil when there
// is none.
func (v completionView) sessionFile(name string) []byte {
	if v.chosen == "" || registry.CheckKey(v.chosen) != nil {
		return nil
	}
	data, err := atomicfile.ReadFile(filepath.Join(v.dir, v.chosen, "files", name))
	if err != nil {
		return nil
	}
	return data
}

func (v completionView) sliceIDs() []string {
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
	return out
}

func (v completionView) decisionKeys() []string {
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
	return out
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
