// Package doctest keeps the project's documents true by running them: it
// finds the shell commands a Markdown document shows, runs them in document
// order, and checks each one against the annotations written beside it in
// the document itself. cmd/orc-state's TestDocs runs every document of the
// repository through it; this package knows nothing of orc-state.
//
// # What runs
//
// Every fenced code block must say what it holds. A block tagged sh or bash
// is commands, and each of its commands runs; a block with any other tag
// (text, json, mermaid, ...) is not run; a block with no tag is an error,
// so a command cannot hide in an untagged block. A document's commands run
// one after the other in one bash process, so a command sees the files,
// variables and current directory the earlier ones left.
//
// # Annotations
//
// A comment at the end of a command's line (for a command continued with a
// backslash, at the end of its last line; for a here-document, on the line
// that opens it) holds clauses separated by "; ". A clause that starts with
// one of these words is an annotation; any other clause is prose for the
// reader, and ignored:
//
//	exit N             the command exits with status N (without it: 0);
//	                   "exit N: why" and "exit N (why)" add a reason
//	stdout: REGEXP     stdout matches the Go regular expression, in which
//	                   ^ and $ match at line breaks (repeatable)
//	stderr: REGEXP     the same for stderr
//	no stdout          stdout is empty ("no stderr", "no output": both)
//	skip: REASON       the command is not run here, and REASON says why
//
// A command that exits 0 without a stderr annotation must write nothing to
// stderr, so a warning cannot appear unnoticed. For example:
//
//	orc-state init --command flow --total-phases 9   # prints the sessionId; stdout: ^main$
//	orc-state slice next                              # exit 1; stderr: no slice is ready
//
// A regular expression cannot contain "; ". A comment line of its own is
// prose, and may hold no annotation (it would be unclear which command it
// belongs to); two commands on one line are refused for the same reason.
//
// # Notes a reader does not see
//
// Where a document is read rendered (the README, the docs a user copies
// commands from), the annotations can sit in an HTML comment right before
// the block instead, which no renderer shows. The comment starts with
// "<!-- doctest", and each of its lines names one command of the block by
// the start of its first line, then "#", then the annotations:
//
//	<!-- doctest
//	go test ./...              # skip: the doc test that runs this line is part of it
//	orc-state init             # stdout: ^main$
//	-->
//
// The start must match exactly one command of the block (a command whose
// whole first line it is, its comment aside, wins over longer ones), which
// may then carry no annotation of its own (prose comments stay). A doctest comment
// not directly followed by a sh or bash block, a line naming no command
// or several, and a line without an annotation are errors.
package doctest

import (
	"bytes"
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/text"
	"mvdan.cc/sh/v3/syntax"
)

// Doc is one Markdown document's commands, in document order.
type Doc struct {
	Path     string // as it appears in messages, e.g. "README.md"
	Commands []*Command
	Blocks   int // fenced blocks tagged sh or bash
}

// Command is one shell statement of a document.
type Command struct {
	Path string // the document
	Line int    // the document line the command starts on
	Text string // the statement's source lines, heredoc included
	Want Want
	// annotated: the command's own comment holds an annotation, so no
	// doctest note may add one.
	annotated bool
}

// Want is what the annotations promise about a command.
type Want struct {
	Exit       int
	Stdout     []*regexp.Regexp
	Stderr     []*regexp.Regexp
	NoStdout   bool
	NoStderr   bool
	StderrSaid bool   // an annotation speaks about stderr
	Skip       string // the reason it is not run; "" runs it
}

// String is the command's first line, for messages.
func (c *Command) String() string {
	first, _, _ := strings.Cut(c.Text, "\n")
	return strings.TrimSpace(first)
}

// Where is "path:line".
func (c *Command) Where() string { return fmt.Sprintf("%s:%d", c.Path, c.Line) }

// shells are the fence tags whose blocks are run.
var shells = map[string]bool{"sh": true, "bash": true}

// Parse reads a Markdown document. Every problem is reported, each as
// "path:line: what is wrong and what to do".
func Parse(path string, src []byte) (*Doc, error) {
	doc := &Doc{Path: path}
	var errs []error
	var notes *noteBlock // the doctest comment waiting for its block
	flush := func() {
		if notes != nil {
			errs = append(errs, fmt.Errorf("%s:%d: a doctest comment must come right before the sh or bash block it annotates", path, notes.line))
			notes = nil
		}
	}
	root := goldmark.New().Parser().Parse(text.NewReader(src))
	err := ast.Walk(root, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		if notes != nil && n.Kind() != ast.KindFencedCodeBlock && n != notes.node && n.Parent() != notes.node {
			flush()
		}
		switch b := n.(type) {
		case *ast.HTMLBlock:
			if nb, ok, err := parseNotes(path, src, b); ok {
				flush()
				notes = nb
				errs = append(errs, err)
			}
		case *ast.CodeBlock:
			errs = append(errs, fmt.Errorf("%s:%d: an indented code block; fence it and tag it (sh for commands the doc test runs, text for anything else)",
				path, blockLine(src, b)))
		case *ast.FencedCodeBlock:
			lang := string(b.Language(src))
			line := blockLine(src, b)
			switch {
			case lang == "":
				errs = append(errs, fmt.Errorf("%s:%d: a fenced block without a tag; tag it sh (the doc test runs it) or text, json, ... (it does not)",
					path, line))
			case shells[lang]:
				doc.Blocks++
				cmds, err := parseShell(path, line, blockText(src, b))
				doc.Commands = append(doc.Commands, cmds...)
				errs = append(errs, err)
				if notes != nil && b.PreviousSibling() == notes.node {
					errs = append(errs, notes.apply(cmds))
					notes = nil
				}
			}
			flush()
		}
		return ast.WalkContinue, nil
	})
	flush()
	if err != nil {
		errs = append(errs, err)
	}
	return doc, errors.Join(errs...)
}

// noteBlock is a doctest comment: the annotations of the next block's
// commands, each named by the start of its first line.
type noteBlock struct {
	node  ast.Node
	line  int // the document line of "<!-- doctest"
	notes []note
}

type note struct {
	line    int    // its document line
	prefix  string // the start of the command's first line
	comment string // the annotations, as after "#" on a command's line
}

// parseNotes reads an HTML block that is a doctest comment; ok is false
// for any other HTML.
func parseNotes(path string, src []byte, b *ast.HTMLBlock) (nb *noteBlock, ok bool, err error) {
	var lines []string
	for i := 0; i < b.Lines().Len(); i++ {
		seg := b.Lines().At(i)
		lines = append(lines, string(seg.Value(src)))
	}
	if b.HasClosure() {
		lines = append(lines, string(b.ClosureLine.Value(src)))
	}
	if len(lines) == 0 || strings.TrimSpace(lines[0]) != "<!-- doctest" {
		return nil, false, nil
	}
	first := blockLine(src, b)
	nb = &noteBlock{node: b, line: first}
	var errs []error
	closed := false
	for i, l := range lines[1:] {
		at := first + 1 + i
		l = strings.TrimRight(l, "\n")
		if strings.TrimSpace(l) == "-->" {
			closed = true
			break
		}
		prefix, comment, found := strings.Cut(l, " #")
		prefix = strings.TrimSpace(prefix)
		var w Want
		known := false
		if found {
			for _, clause := range strings.Split(strings.TrimSpace(comment), "; ") {
				k, _ := w.clause(strings.TrimSpace(clause))
				known = known || k
			}
		}
		if prefix == "" || !known {
			errs = append(errs, fmt.Errorf("%s:%d: a doctest line is the start of a command, \" #\", then its annotations", path, at))
			continue
		}
		nb.notes = append(nb.notes, note{line: at, prefix: prefix, comment: strings.TrimSpace(comment)})
	}
	if !closed {
		errs = append(errs, fmt.Errorf("%s:%d: a doctest comment ends with a line \"-->\" of its own", path, first))
	}
	return nb, true, errors.Join(errs...)
}

// apply gives each note's annotations to the one command of cmds whose
// first line starts with its prefix.
func (nb *noteBlock) apply(cmds []*Command) error {
	var errs []error
	for _, n := range nb.notes {
		var match, exact []*Command
		for _, c := range cmds {
			if strings.HasPrefix(c.String(), n.prefix) {
				match = append(match, c)
			}
			if strings.TrimSpace(strings.SplitN(c.String(), " #", 2)[0]) == n.prefix {
				exact = append(exact, c)
			}
		}
		if len(exact) == 1 {
			match = exact // "go run ./bench" names that command, not "go run ./bench -quick"
		}
		switch {
		case len(match) != 1:
			errs = append(errs, fmt.Errorf("%s:%d: %q starts %d commands of the block; a doctest line names exactly one", match0(cmds).Path, n.line, n.prefix, len(match)))
		case match[0].annotated:
			errs = append(errs, fmt.Errorf("%s:%d: the command at line %d is annotated where it stands; annotate it in one place", match[0].Path, n.line, match[0].Line))
		default:
			match[0].annotated = true
			if _, err := match[0].Want.parse(n.comment); err != nil {
				errs = append(errs, fmt.Errorf("%s:%d: %v", match[0].Path, n.line, err))
			}
		}
	}
	return errors.Join(errs...)
}

// match0 is a command of cmds for its document's path ("" without one).
func match0(cmds []*Command) *Command {
	if len(cmds) == 0 {
		return &Command{}
	}
	return cmds[0]
}

// blockLine is the document line of a block's first content line (the
// line after the opening fence), or of the fence for an empty block.
func blockLine(src []byte, b ast.Node) int {
	if b.Lines().Len() == 0 {
		return 0
	}
	return 1 + bytes.Count(src[:b.Lines().At(0).Start], []byte("\n"))
}

// blockText is a block's content, its indentation removed.
func blockText(src []byte, b ast.Node) string {
	var sb strings.Builder
	for i := 0; i < b.Lines().Len(); i++ {
		seg := b.Lines().At(i)
		sb.WriteString(strings.Repeat(" ", seg.Padding))
		sb.Write(seg.Value(src))
	}
	return sb.String()
}

// parseShell splits a block into statements. first is the document line
// of the block's first line.
func parseShell(path string, first int, block string) ([]*Command, error) {
	f, err := syntax.NewParser(syntax.KeepComments(true), syntax.Variant(syntax.LangBash)).
		Parse(strings.NewReader(block), "")
	if err != nil {
		var perr syntax.ParseError
		if errors.As(err, &perr) {
			return nil, fmt.Errorf("%s:%d: not a shell command bash can parse: %s", path, first+int(perr.Pos.Line())-1, perr.Text)
		}
		return nil, fmt.Errorf("%s:%d: not shell bash can parse: %v", path, first, err)
	}
	lines := strings.SplitAfter(block, "\n")
	var cmds []*Command
	var errs []error
	lastLine := 0
	for _, st := range f.Stmts {
		from, to := int(st.Pos().Line()), int(st.End().Line())
		at := first + from - 1
		if from <= lastLine {
			errs = append(errs, fmt.Errorf("%s:%d: two commands on one line; give each its own line, so each has its own annotations", path, at))
			continue
		}
		lastLine = to
		c := &Command{Path: path, Line: at, Text: strings.TrimRight(strings.Join(lines[from-1:to], ""), "\n")}
		for _, cm := range st.Comments {
			l := int(cm.Pos().Line())
			if l < from {
				errs = append(errs, proseOnly(path, first+l-1, cm.Text))
				continue
			}
			known, err := c.Want.parse(cm.Text)
			if err != nil {
				errs = append(errs, fmt.Errorf("%s:%d: %v", path, first+l-1, err))
			}
			c.annotated = c.annotated || known
		}
		cmds = append(cmds, c)
	}
	for _, cm := range f.Last {
		errs = append(errs, proseOnly(path, first+int(cm.Pos().Line())-1, cm.Text))
	}
	return cmds, errors.Join(errs...)
}

// proseOnly refuses an annotation in a comment line of its own.
func proseOnly(path string, line int, comment string) error {
	var w Want
	for _, clause := range strings.Split(comment, "; ") {
		if known, _ := w.clause(strings.TrimSpace(clause)); known {
			return fmt.Errorf("%s:%d: an annotation on a line of its own; put it at the end of its command's line", path, line)
		}
	}
	return nil
}

var exitClause = regexp.MustCompile(`^exit ([0-9]+)(?:$|: |\s+\()`)

// parse reads the clauses of one comment into w; known says whether any
// was an annotation.
func (w *Want) parse(comment string) (known bool, err error) {
	for _, clause := range strings.Split(comment, "; ") {
		k, err := w.clause(strings.TrimSpace(clause))
		if err != nil {
			return known, err
		}
		known = known || k
	}
	if w.Skip != "" && (w.Exit != 0 || w.Stdout != nil || w.Stderr != nil || w.NoStdout || w.NoStderr) {
		return known, errors.New("a skipped command has no other annotation")
	}
	return known, nil
}

// clause reads one clause; known says whether it is an annotation.
func (w *Want) clause(c string) (known bool, err error) {
	word, rest, _ := strings.Cut(c, " ")
	switch {
	case word == "exit" && rest != "" && rest[0] >= '0' && rest[0] <= '9':
		m := exitClause.FindStringSubmatch(c)
		if m == nil {
			return true, fmt.Errorf("%q: an exit annotation is \"exit N\", \"exit N: why\" or \"exit N (why)\"", c)
		}
		n, err := strconv.Atoi(m[1])
		if err != nil || n > 255 {
			return true, fmt.Errorf("%q: an exit status is 0 to 255", c)
		}
		w.Exit = n
	case word == "stdout:" || word == "stderr:":
		if strings.TrimSpace(rest) == "" {
			return true, fmt.Errorf("%q: give the regular expression %s must match", c, strings.TrimSuffix(word, ":"))
		}
		re, err := regexp.Compile("(?m)" + strings.TrimSpace(rest))
		if err != nil {
			return true, fmt.Errorf("%q: %v", c, err)
		}
		if word == "stdout:" {
			w.Stdout = append(w.Stdout, re)
		} else {
			w.Stderr = append(w.Stderr, re)
			w.StderrSaid = true
		}
	case c == "no stdout":
		w.NoStdout = true
	case c == "no stderr":
		w.NoStderr, w.StderrSaid = true, true
	case c == "no output":
		w.NoStdout, w.NoStderr, w.StderrSaid = true, true, true
	case word == "skip:":
		if strings.TrimSpace(rest) == "" {
			return true, fmt.Errorf("%q: say why the command is not run", c)
		}
		w.Skip = strings.TrimSpace(rest)
	default:
		return false, nil
	}
	return true, nil
}
