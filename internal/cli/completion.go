package cli

import (
	"fmt"
	"strings"
)

// CompletionCmd is `completion`.
type CompletionCmd struct{}

// Run prints a bash completion script for the verbs and sub-verbs, made
// from the grammar itself (so it never lists a verb that does not exist).
func (c *CompletionCmd) Run(e *Env) error {
	verbs, subs := verbTree()
	var b strings.Builder
	b.WriteString("# orc-state bash completion: eval \"$(orc-state completion)\"\n")
	b.WriteString("_orc_state() {\n  local cur=${COMP_WORDS[COMP_CWORD]} words\n")
	b.WriteString("  if [ \"$COMP_CWORD\" -eq 1 ]; then words=\"" + strings.Join(verbs, " ") + "\"\n")
	b.WriteString("  else case ${COMP_WORDS[1]} in\n")
	for _, v := range verbs {
		if len(subs[v]) > 0 {
			fmt.Fprintf(&b, "    %s) [ \"$COMP_CWORD\" -eq 2 ] && words=\"%s\" ;;\n", v, strings.Join(subs[v], " "))
		}
	}
	b.WriteString("  esac; fi\n  COMPREPLY=($(compgen -W \"$words\" -- \"$cur\"))\n}\ncomplete -F _orc_state orc-state\n")
	_, err := fmt.Fprint(e.Stdout, b.String())
	return err
}
