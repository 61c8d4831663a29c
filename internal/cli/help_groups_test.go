package cli

import (
	"strings"
	"testing"
)

// TestHelpGroupsCoverEveryVerb: every top-level word of verbs is in
// exactly one group of --help, each group names only words of verbs, and
// the three to start with are verbs; so a new verb is never left out of
// orc-state --help.
func TestHelpGroupsCoverEveryVerb(t *testing.T) {
	words := map[string]bool{}
	for _, v := range verbs {
		words[strings.Fields(v.words)[0]] = true
	}
	in := map[string]string{}
	for _, g := range helpGroups {
		for _, w := range g.words {
			if !words[w] {
				t.Errorf("group %q names %q, which is no verb", g.title, w)
			}
			if other, ok := in[w]; ok {
				t.Errorf("%q is in groups %q and %q", w, other, g.title)
			}
			in[w] = g.title
		}
	}
	for w := range words {
		if _, ok := in[w]; !ok {
			t.Errorf("verb %q is in no group of --help (helpGroups in help.go)", w)
		}
	}
	for _, w := range startHere {
		if !isVerb(w) {
			t.Errorf("start here names %q, which is no verb", w)
		}
	}
	help := topHelp()
	for _, v := range verbs {
		if v.flags != nil && !strings.Contains(help, "\n  "+v.words+" ") {
			t.Errorf("orc-state --help does not list %q", v.words)
		}
	}
}
