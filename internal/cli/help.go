package cli

import (
	"fmt"
	"strings"

	"github.com/alecthomas/kong"
)

// startHere are the three verbs --help puts first, as git help does.
var startHere = []string{"init", "resume", "board"}

// helpGroups sorts the top-level words of verbs by task for --help; a
// family's verbs are listed under its group. helpGroupsCover (its test)
// holds every word of verbs to exactly one group.
var helpGroups = []struct {
	title string
	words []string
}{
	{"start and resume", []string{"init", "resume", "board", "current", "get", "sessions", "line", "statusline", "install"}},
	{"phases and digest", []string{"phase", "status", "digest", "checkpoint", "progress", "link-pr", "jira"}},
	{"slices and claims", []string{"slice"}},
	{"parallel agents", []string{"worktree", "workspace", "repo", "hook"}},
	{"decisions and gates", []string{"decision", "gate", "artifact"}},
	{"sync", []string{"sync"}},
	{"maintenance", []string{"verify", "log", "doctor", "repair", "migrate", "session", "cleanup", "archive", "completion", "version"}},
}

// printHelp is kong's help printer, but orc-state's own at the top level:
// the verbs grouped by task, the three to start with first.
func printHelp(options kong.HelpOptions, ctx *kong.Context) error {
	if ctx.Selected() != nil {
		return kong.DefaultHelpPrinter(options, ctx)
	}
	_, err := fmt.Fprint(ctx.Stdout, topHelp())
	return err
}

// topHelp is `orc-state --help`.
func topHelp() string {
	var b strings.Builder
	b.WriteString("Usage: orc-state [--dir DIR] [--lock-timeout DURATION] VERB [flags]\n\n")
	b.WriteString("The single writer of a repository's .orc/ workflow state.\n")
	width := 0
	for _, v := range verbs {
		if v.flags != nil {
			width = max(width, len(v.words))
		}
	}
	row := func(words, help string) {
		fmt.Fprintf(&b, "  %-*s  %s\n", width, words, help)
	}
	b.WriteString("\nstart here\n")
	for _, w := range startHere {
		row(w, verbHelp(w))
	}
	for _, g := range helpGroups {
		b.WriteString("\n" + g.title + "\n")
		for _, w := range g.words {
			if contains(startHere, w) {
				continue
			}
			for _, v := range verbs {
				if v.flags != nil && strings.Fields(v.words)[0] == w {
					row(v.words, v.help)
				}
			}
		}
	}
	b.WriteString("\nglobal flags\n")
	row("--dir DIR", "State dir (default: $ORC_STATE_DIR, else the main worktree root's .orc).")
	row("--lock-timeout D", "How long a writer waits for the state lock ($ORC_LOCK_TIMEOUT; default 5s).")
	row("--version", "Print the version.")
	b.WriteString("\norc-state VERB --help shows a verb's flags; the TSV lists (sessions, slice list, worktree list, archive list, log) take --header.\n")
	return b.String()
}

// verbHelp is the one-line help of the verb words.
func verbHelp(words string) string {
	for _, v := range verbs {
		if v.words == words {
			return v.help
		}
	}
	return ""
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// showEnumValues gives every enum flag without a placeholder of its own
// its values as the placeholder, so that help, usage lines and kong's
// messages show --status=pending|red|... rather than --status=STRING. An
// empty value (the "not given" of an optional flag) is not shown.
func showEnumValues(n *kong.Node) {
	for _, f := range n.Flags {
		if f.Enum == "" || f.Tag.PlaceHolder != "" {
			continue
		}
		f.PlaceHolder = strings.Join(enumValues(f), "|")
	}
	for _, c := range n.Children {
		showEnumValues(c)
	}
}

// enumValues are the values of f's enum but the empty one, which is how an
// optional enum flag (sessions --status) is left unset, never a value.
func enumValues(f *kong.Flag) []string {
	var values []string
	for _, v := range f.EnumSlice() {
		if v != "" {
			values = append(values, v)
		}
	}
	return values
}
