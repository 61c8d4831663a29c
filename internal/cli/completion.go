package cli

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/willabides/kongplete"
)

// Shell completion works the way kongplete (over posener/complete) does:
// the shell runs orc-state itself with the command line in $COMP_LINE, and
// orc-state answers from its kong grammar (verbs, sub-verbs, flags, enum
// values), so completion can never offer a verb that does not exist. The
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
// per line, from the whole grammar, and returns the exit code.
func complete(p *Process, stdout, stderr io.Writer) (code int) {
	parser, err := newParser(p, grammar("", ""), stdout, stderr)
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
	kongplete.Complete(parser, kongplete.WithExitFunc(func(c int) { panic(exitPanic{c}) }))
	return 0
}
