package cli

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// TestEveryHintQuotesItsData walks every suggested command in the
// module's code: every string literal that names an orc-state verb
// ("orc-state repair ..."), in a hint, a finding's next: line, a warning
// or a message. Whatever is interpolated into it after the command begins
// (a fmt verb's argument, an operand of a + chain) must be a constant or
// pass through safetext.Quote (or remoteFlag, which quotes), so that
// pasting the command into a shell runs it and only it (docs/protocol.md
// §4, "Output").
func TestEveryHintQuotesItsData(t *testing.T) {
	commands, found := 0, []string{}
	for _, path := range moduleGoFiles(t) {
		n, problems := unquotedHints(t, path, nil)
		commands += n
		found = append(found, problems...)
	}
	for _, p := range found {
		t.Error(p)
	}
	if commands < 60 {
		t.Fatalf("found only %d suggested commands; the walk misses some", commands)
	}
}

// The check itself fails on the shapes it must catch, and passes the
// quoted ones.
func TestUnquotedHintsCatches(t *testing.T) {
	src := `package x
func f(name, id string, n int) {
	_ = "orc-state repair --remove-orphan " + name
	_ = fault.Usagef("x").WithHint("orc-state session remove %s first", id)
	_ = fmt.Sprintf("folder %s: orc-state slice set %s --force", name, id)
	_ = "orc-state repair --branch " + safetext.Quote(id) + " or orc-state log --branch " + id
	_ = "orc-state repair --remove-orphan " + safetext.Quote(name)
	_ = fmt.Sprintf("phase %d: orc-state phase set %d or orc-state verify %s", n, n, safetext.Quote(id))
	_ = "restore " + name + " (orc-state log shows it)"
	_ = "orc-state sync pull" + remoteFlag(id)
	_ = "this orc-state understands " + name
	_ = "orc-state sync: " + name
	_ = "run orc-state repair; do not run " + verb + " again"
}`
	n, problems := unquotedHints(t, "x.go", []byte(src))
	want := []string{
		`x.go:3: "orc-state repair --remove-orphan " + name`,
		`x.go:4: "orc-state session remove %s first" takes id`,
		`x.go:5: "folder %s: orc-state slice set %s --force" takes id`,
		`x.go:6: "orc-state repair --branch " + … + " or orc-state log --branch " + id`,
		`x.go:13: "run orc-state repair; do not run " + verb + " again"`, // notData is per file
	}
	if n != 10 || strings.Join(problems, "\n") != strings.Join(want, "\n") {
		t.Fatalf("%d commands, problems:\n%s\nwant 10 and:\n%s", n, strings.Join(problems, "\n"), strings.Join(want, "\n"))
	}
}

// commandPattern matches a suggested command: "orc-state" and one of its verbs'
// first words.
func commandPattern() *regexp.Regexp {
	words := map[string]bool{}
	for _, v := range verbs {
		words[strings.Fields(v.words)[0]] = true
	}
	var alt []string
	for w := range words {
		alt = append(alt, regexp.QuoteMeta(w))
	}
	return regexp.MustCompile(`orc-state (` + strings.Join(alt, "|") + `)([^:\w-]|$)`)
}

var fmtVerb = regexp.MustCompile(`%[-+# 0-9.*]*[a-zA-Z%]`)

// unquotedHints reports, for one Go file (src, or read from path), how
// many literals hold a suggested command and each interpolation into one
// that is not quoted.
func unquotedHints(t *testing.T, path string, src []byte) (int, []string) {
	t.Helper()
	fset, file := parseGo(t, path, src)
	cmd := commandPattern()
	count := 0
	var problems []string
	var stack []ast.Node
	seenChains := map[ast.Node]bool{}
	ast.Inspect(file, func(n ast.Node) bool {
		if n == nil {
			stack = stack[:len(stack)-1]
			return true
		}
		stack = append(stack, n)
		lit, ok := n.(*ast.BasicLit)
		if !ok || lit.Kind != token.STRING {
			return true
		}
		text, err := strconv.Unquote(lit.Value)
		if err != nil {
			return true
		}
		at := cmd.FindStringIndex(text)
		if at == nil {
			return true
		}
		count++
		line := fset.Position(lit.Pos()).Line
		where := filepath.Base(path) + ":" + strconv.Itoa(line)
		// A + chain: every operand after the first command is quoted.
		top := len(stack) - 1
		for top > 0 {
			if b, ok := stack[top-1].(*ast.BinaryExpr); ok && b.Op == token.ADD {
				top--
				continue
			}
			if _, ok := stack[top-1].(*ast.ParenExpr); ok {
				top--
				continue
			}
			break
		}
		if top < len(stack)-1 && !seenChains[stack[top]] {
			seenChains[stack[top]] = true
			after := false
			for _, op := range operands(stack[top].(ast.Expr)) {
				if l, ok := op.(*ast.BasicLit); ok {
					if s, err := strconv.Unquote(l.Value); err == nil && cmd.MatchString(s) {
						after = true
					}
					continue
				}
				if after && !quoted(op) && !notData[filepath.Base(path)+":"+render(fset, op)] {
					problems = append(problems, where+": "+render(fset, stack[top]))
					break
				}
			}
		}
		// A format: every argument of a verb after the command begins.
		if call, ok := stack[len(stack)-2].(*ast.CallExpr); ok && strings.Contains(text, "%") {
			idx := -1
			for i, a := range call.Args {
				if a == lit {
					idx = i
				}
			}
			if idx >= 0 {
				arg := idx
				for _, m := range fmtVerb.FindAllStringIndex(text, -1) {
					verb := text[m[1]-1]
					if verb == '%' {
						continue
					}
					arg++
					if m[0] < at[0] || verb == 'd' || arg >= len(call.Args) {
						continue
					}
					if !quoted(call.Args[arg]) {
						problems = append(problems, where+": "+strconv.Quote(text)+" takes "+render(fset, call.Args[arg]))
					}
				}
			}
		}
		return true
	})
	return count, problems
}

// notData are the interpolations after a command that are not data, each
// with why.
var notData = map[string]bool{
	// interrupted's hint names the verb that is running, from the verb
	// table: "do not run phase set again".
	"intent.go:verb": true,
	// sliceFindings builds its --session=... once, quoted.
	"git.go:sess": true,
}

// operands flattens a + chain, in order.
func operands(e ast.Expr) []ast.Expr {
	switch x := e.(type) {
	case *ast.BinaryExpr:
		if x.Op == token.ADD {
			return append(operands(x.X), operands(x.Y)...)
		}
	case *ast.ParenExpr:
		return operands(x.X)
	}
	return []ast.Expr{e}
}

// quoted reports an interpolation that cannot break out of its word: a
// literal, a constant, or what safetext.Quote, remoteFlag or
// selection.QuotedList returns.
func quoted(e ast.Expr) bool {
	switch x := e.(type) {
	case *ast.BasicLit:
		return true
	case *ast.CallExpr:
		switch f := x.Fun.(type) {
		case *ast.SelectorExpr:
			return (f.Sel.Name == "Quote" || f.Sel.Name == "Operand") && isIdent(f.X, "safetext") ||
				f.Sel.Name == "QuotedList" && isIdent(f.X, "selection")
		case *ast.Ident:
			return f.Name == "remoteFlag" || f.Name == "QuotedList" || f.Name == "restoreHint" || f.Name == "RestoreHint" // each quotes what it takes
		}
	}
	return false
}

func isIdent(e ast.Expr, name string) bool {
	id, ok := e.(*ast.Ident)
	return ok && id.Name == name
}

// render is an expression as source, on one line.
func render(fset *token.FileSet, n ast.Node) string {
	var parts []string
	for _, op := range operands(n.(ast.Expr)) {
		switch x := op.(type) {
		case *ast.BasicLit:
			parts = append(parts, x.Value)
		case *ast.Ident:
			parts = append(parts, x.Name)
		case *ast.SelectorExpr:
			if id, ok := x.X.(*ast.Ident); ok {
				parts = append(parts, id.Name+"."+x.Sel.Name)
				continue
			}
			parts = append(parts, "…")
		default:
			parts = append(parts, "…")
		}
	}
	return strings.Join(parts, " + ")
}

// TestNoHintLosesWork walks every suggestion in the module's code, as
// TestEveryHintQuotesItsData does, and holds the rule of docs/protocol.md
// §21: a hint, next: line or message that names a verb which removes a
// session's content (session remove, cleanup, repair --remove-orphan,
// slice init --force) also says that it is archived first and how to
// restore it, and none proposes --force to remove a session (a live one:
// the others need no --force). cleanup --archives deletes archives, not
// session content, and is not held to it.
func TestNoHintLosesWork(t *testing.T) {
	checked, found := 0, []string{}
	for _, path := range moduleGoFiles(t) {
		n, problems := losingHints(t, path, nil)
		checked += n
		found = append(found, problems...)
	}
	for _, p := range found {
		t.Error(p)
	}
	if checked < 15 {
		t.Fatalf("found only %d suggestions of a removing verb; the walk misses some", checked)
	}
}

// The check fails on the shapes it must catch and passes the others.
func TestLosingHintsCatches(t *testing.T) {
	src := `package x
func f(id string) {
	_ = fault.Usagef("x").WithHint("pass --force to remove the session anyway")
	_ = "orc-state session remove " + safetext.Quote(id)
	_ = fmt.Sprintf("orc-state cleanup --merged --force (archived first: orc-state session restore %s)", safetext.Quote(id))
	_ = "orc-state repair --remove-orphan " + safetext.Quote(id) + " (archived first: orc-state session restore " + safetext.Quote(id) + " brings it back)"
	_ = fmt.Sprintf("finish it, then orc-state session remove %s; %s", safetext.Quote(id), restoreHint(id))
	_ = "orc-state slice init plan.json --force"
	_ = "orc-state slice init plan.json"
	_ = "orc-state cleanup --archives --older-than 30d"
	_ = "orc-state repair --remove-orphan " + safetext.Quote(id) + " (it holds nothing to lose)"
	_ = "only its holder releases it; pass --force to remove another agent's claim"
}`
	n, problems := losingHints(t, "x.go", []byte(src))
	want := []string{
		`x.go:3: proposes --force to remove a session: "pass --force to remove the session anyway"`,
		`x.go:4: names a removing verb without its archive and restore: "orc-state session remove "`,
		`x.go:5: proposes --force to remove a session: "orc-state cleanup --merged --force (archived first: orc-state session restore %s)"`,
		`x.go:8: names a removing verb without its archive and restore: "orc-state slice init plan.json --force"`,
	}
	if n != 7 || strings.Join(problems, "\n") != strings.Join(want, "\n") {
		t.Fatalf("%d checked, problems:\n%s\nwant 7 and:\n%s", n, strings.Join(problems, "\n"), strings.Join(want, "\n"))
	}
}

// removingVerb matches a suggested command that removes a session's
// content; removingForce a proposal to force a session's removal.
var (
	removingVerb  = regexp.MustCompile(`orc-state (session remove|cleanup|repair --remove-orphan)\b|orc-state slice init [^;]*--force`)
	archivesSweep = regexp.MustCompile(`orc-state cleanup --archives`)
	removingForce = regexp.MustCompile(`(?i)orc-state (session remove|cleanup)\b[^;]*--force|--force to remove (a |the |this )?(live )?session|--force to remove it`)
)

// losingHints reports how many suggestions of a removing verb one Go file
// holds and each that breaks TestNoHintLosesWork's rule. A suggestion is
// the text of a + chain, or of a format call (its literals, and a
// restoreHint(...) argument, which says both).
func losingHints(t *testing.T, path string, src []byte) (int, []string) {
	t.Helper()
	fset, file := parseGo(t, path, src)
	seen := map[ast.Node]bool{}
	count := 0
	var problems []string
	var stack []ast.Node
	ast.Inspect(file, func(n ast.Node) bool {
		if n == nil {
			stack = stack[:len(stack)-1]
			return true
		}
		stack = append(stack, n)
		lit, ok := n.(*ast.BasicLit)
		if !ok || lit.Kind != token.STRING {
			return true
		}
		first, err := strconv.Unquote(lit.Value)
		if err != nil {
			return true
		}
		// The unit: the outermost + chain holding the literal, or the
		// call it (or its chain) is an argument of.
		top := len(stack) - 1
		for top > 0 {
			if b, ok := stack[top-1].(*ast.BinaryExpr); ok && b.Op == token.ADD {
				top--
				continue
			}
			break
		}
		unit := stack[top]
		if call, ok := stack[top-1].(*ast.CallExpr); ok && top > 0 {
			unit = call
		}
		if seen[unit] {
			return true
		}
		text := first
		ast.Inspect(unit, func(m ast.Node) bool {
			switch x := m.(type) {
			case *ast.BasicLit:
				if s, err := strconv.Unquote(x.Value); err == nil && x != lit && x.Kind == token.STRING {
					text += " " + s
				}
			case *ast.CallExpr:
				if id, ok := x.Fun.(*ast.Ident); ok && (id.Name == "restoreHint" || id.Name == "RestoreHint") {
					text += " archived first; orc-state session restore"
				}
			}
			return true
		})
		names := removingVerb.MatchString(strings.ReplaceAll(text, archivesSweep.FindString(text), ""))
		forces := removingForce.MatchString(text)
		if !names && !forces {
			return true
		}
		seen[unit] = true
		count++
		where := filepath.Base(path) + ":" + strconv.Itoa(fset.Position(lit.Pos()).Line)
		lower := strings.ToLower(text)
		switch {
		case forces:
			problems = append(problems, where+": proposes --force to remove a session: "+strconv.Quote(first))
		case strings.Contains(lower, "nothing to lose"):
		case !strings.Contains(lower, "archive") || !strings.Contains(lower, "restore"):
			problems = append(problems, where+": names a removing verb without its archive and restore: "+strconv.Quote(first))
		}
		return true
	})
	return count, problems
}

// parseGo parses one Go file: src, or the file at path when src is nil.
func parseGo(t *testing.T, path string, src []byte) (*token.FileSet, *ast.File) {
	t.Helper()
	fset := token.NewFileSet()
	var file *ast.File
	var err error
	if src != nil {
		file, err = parser.ParseFile(fset, path, src, 0)
	} else {
		file, err = parser.ParseFile(fset, path, nil, 0)
	}
	if err != nil {
		t.Fatal(err)
	}
	return fset, file
}

// moduleGoFiles lists the module's Go files but tests and testdata.
func moduleGoFiles(t *testing.T) []string {
	t.Helper()
	root := filepath.Join("..", "..")
	var paths []string
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "testdata" || strings.HasPrefix(d.Name(), ".")) && path != root {
			return filepath.SkipDir
		}
		if !d.IsDir() && strings.HasSuffix(path, ".go") && !strings.HasSuffix(path, "_test.go") {
			paths = append(paths, path)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return paths
}

// TestNoHintHasShellPlaceholders walks every suggested command in the
// module's code, as TestEveryHintQuotesItsData does: a placeholder is a
// plain word (SHA, STATUS) with the choices said in words, never shell
// syntax (<sha> redirects, red|green pipes, `x` runs), and a value
// interpolated after a flag is given as --flag=VALUE, so that no value
// reads as a flag (docs/protocol.md §4, "Output").
func TestNoHintHasShellPlaceholders(t *testing.T) {
	checked, found := 0, []string{}
	for _, path := range moduleGoFiles(t) {
		n, problems := shellPlaceholders(t, path, nil)
		checked += n
		found = append(found, problems...)
	}
	for _, p := range found {
		t.Error(p)
	}
	if checked < 60 {
		t.Fatalf("found only %d suggested commands; the walk misses some", checked)
	}
}

// The check fails on the shapes it must catch and passes the others.
func TestShellPlaceholdersCatches(t *testing.T) {
	src := `package x
func f(id string) {
	_ = "orc-state slice set ID --status red|green|committed"
	_ = "keep one: orc-state sync resolve X --keep local|remote"
	_ = "orc-state slice set s1 --commit <sha> --force"
	_ = "orc-state verify --session " + safetext.Quote(id)
	_ = fmt.Sprintf("orc-state log --session %s", safetext.Quote(id))
	_ = "orc-state slice set ID --status=STATUS (STATUS: red, green or committed)"
	_ = "orc-state verify --session=" + safetext.Quote(id)
	_ = fmt.Sprintf("orc-state log --session=%s || true", safetext.Quote(id))
}`
	n, problems := shellPlaceholders(t, "x.go", []byte(src))
	want := []string{
		`x.go:3: shell syntax in "orc-state slice set ID --status red|green|committed": "d|g"`,
		`x.go:4: shell syntax in "keep one: orc-state sync resolve X --keep local|remote": "l|r"`,
		`x.go:5: shell syntax in "orc-state slice set s1 --commit <sha> --force": "<sha>"`,
		`x.go:6: a value after "--session " is not given as --session=VALUE`,
		`x.go:7: a value after "--session " is not given as --session=VALUE`,
	}
	if n != 8 || strings.Join(problems, "\n") != strings.Join(want, "\n") {
		t.Fatalf("%d commands, problems:\n%s\nwant 8 and:\n%s", n, strings.Join(problems, "\n"), strings.Join(want, "\n"))
	}
}

var (
	shellSyntax = regexp.MustCompile(`<[A-Za-z][^>]*>|\w\|\w|<<|\s<\s|\s>>?\s`)
	flagThenGap = regexp.MustCompile(`(--[a-z][a-z-]*) (%s|%q|%v)|(--[a-z][a-z-]*) $`)
)

// shellPlaceholders reports how many literals of one Go file hold a
// suggested command and each that breaks TestNoHintHasShellPlaceholders's
// rule.
func shellPlaceholders(t *testing.T, path string, src []byte) (int, []string) {
	t.Helper()
	fset, file := parseGo(t, path, src)
	cmd := commandPattern()
	count := 0
	var problems []string
	ast.Inspect(file, func(n ast.Node) bool {
		lit, ok := n.(*ast.BasicLit)
		if !ok || lit.Kind != token.STRING {
			return true
		}
		text, err := strconv.Unquote(lit.Value)
		if err != nil {
			return true
		}
		// a literal that continues a command begun in an earlier one of
		// its chain starts with a flag or a space
		at := cmd.FindStringIndex(text)
		if at == nil && !strings.HasPrefix(text, " --") {
			return true
		}
		from := 0
		if at != nil {
			from = at[0]
			count++
		}
		where := filepath.Base(path) + ":" + strconv.Itoa(fset.Position(lit.Pos()).Line)
		rest := text[from:]
		// a verb's help (lines of text, its examples real shell) is no hint
		if m := shellSyntax.FindString(strings.ReplaceAll(rest, "||", "")); m != "" && !strings.Contains(text, "\n") {
			problems = append(problems, where+": shell syntax in "+strconv.Quote(text)+": "+strconv.Quote(m))
		}
		// a flag the hint names before or after its command is pasted too
		if m := flagThenGap.FindStringSubmatch(text); m != nil {
			flag := m[1] + m[3]
			if !boolFlags[flag] && !flagNotData[filepath.Base(path)+":"+flag] {
				problems = append(problems, where+": a value after "+strconv.Quote(flag+" ")+" is not given as "+flag+"=VALUE")
			}
		}
		return true
	})
	return count, problems
}

// flagNotData are the flags whose interpolated value is no data, each
// with why.
var flagNotData = map[string]bool{
	// install writes the statusline command it prints into the host's
	// settings: an enum value and an integer, never data.
	"install.go:--style": true, "install.go:--context-reserve": true,
}

// boolFlags take no value: what follows them in a command is another word.
var boolFlags = map[string]bool{"--force": true, "--json": true, "--supersede": true, "--detach": true, "--all": true, "--merged": true}
