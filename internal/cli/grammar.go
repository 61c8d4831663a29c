package cli

import (
	"fmt"
	"reflect"
	"strings"

	"github.com/alecthomas/kong"
)

// Building kong's model of every verb costs milliseconds (it parses every
// tag), which every hook, statusline and agent call would pay. grammarFor
// gives kong the global flags and only the verbs the arguments name: the
// one verb when its words are the first two arguments (global flags
// aside), else the family the first word names; top-level help and
// unknown verbs get them all.
func grammarFor(args []string) any {
	first, second := leadingWords(args)
	if second != "" && isVerb(first+" "+second) {
		return grammar(first, second)
	}
	for _, v := range verbs {
		if family, _, _ := strings.Cut(v.words, " "); family == first {
			return grammar(first, "")
		}
	}
	return grammar("", "")
}

// isVerb reports whether words is a verb of the list (not a family heading).
func isVerb(words string) bool {
	for _, v := range verbs {
		if v.words == words {
			return v.flags != nil
		}
	}
	return false
}

// cmdLine is the grammar kong parses: the global flags, and the verbs
// grammar chose, each a flags struct of its own that newParser gives kong
// as a dynamic command (a family heading as an empty one), so that no
// struct type is made on a run (reflect.StructOf, which a run paid for
// twice). nest puts each two-word verb under its family once kong has
// built them.
type cmdLine struct {
	Globals Globals `embed:""`
	cmds    []cmdOf `kong:"-"`
}

// cmdOf is one command of a cmdLine: its word, its flags struct (a
// pointer), and whether it is a family's leaf (the second word of a verb).
type cmdOf struct {
	word  string
	flags any
	leaf  bool
}

// grammar is the cmdLine of the verbs of verbs (only those whose first
// word is only, unless only is "", and of those only the leaf named leaf,
// unless leaf is ""), in their order.
func grammar(only, leaf string) any {
	c := &cmdLine{}
	for _, v := range verbs {
		first, second, two := strings.Cut(v.words, " ")
		if only != "" && first != only {
			continue
		}
		switch {
		case two:
			if leaf == "" || second == leaf {
				c.cmds = append(c.cmds, cmdOf{second, reflect.New(reflect.TypeOf(v.flags)).Interface(), true})
			}
		case v.flags == nil:
			c.cmds = append(c.cmds, cmdOf{first, &struct{}{}, false})
		default:
			c.cmds = append(c.cmds, cmdOf{first, reflect.New(reflect.TypeOf(v.flags)).Interface(), false})
		}
	}
	return c
}

// options are c's commands as kong options, the first of them nest.
func (c *cmdLine) options() []kong.Option {
	opts := []kong.Option{kong.PostBuild(c.nest)}
	for _, cmd := range c.cmds {
		opts = append(opts, kong.DynamicCommand(cmd.word, "", "", cmd.flags))
	}
	return opts
}

// nest moves each leaf command kong built at the top level under the
// family before it: "set" after "phase" becomes "phase set".
func (c *cmdLine) nest(k *kong.Kong) error {
	root := k.Model.Node
	if len(root.Children) != len(c.cmds) {
		return fmt.Errorf("kong built %d commands of %d", len(root.Children), len(c.cmds))
	}
	var top []*kong.Node
	var family *kong.Node
	for i, n := range root.Children {
		if c.cmds[i].leaf && family != nil {
			n.Parent = family
			family.Children = append(family.Children, n)
			continue
		}
		top = append(top, n)
		family = n
	}
	root.Children = top
	return nil
}

// verbHelps gives every command node of k's model its one-line help from
// verbs, before kong interpolates the model's help as it would a tag's.
func verbHelps(k *kong.Kong) error {
	for _, c := range k.Model.Children {
		c.Help = verbHelp(c.Name)
		for _, leaf := range c.Children {
			leaf.Help = verbHelp(c.Name + " " + leaf.Name)
		}
	}
	return nil
}

// globalsOf reads the parsed global flags out of a grammar.
func globalsOf(model any) *Globals {
	g := model.(*cmdLine).Globals
	return &g
}
