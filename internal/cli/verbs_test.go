package cli

import (
	"bytes"
	"go/ast"
	"go/parser"
	"go/token"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/orc-state/orc-state/internal/environ"
)

// TestVerbList checks the one list: words are unique, every two-word verb
// follows its family heading, and every verb has a Run.
func TestVerbList(t *testing.T) {
	seen := map[string]bool{}
	family := ""
	for _, v := range verbs {
		words := strings.Fields(v.words)
		if seen[v.words] {
			t.Errorf("%q is registered twice", v.words)
		}
		seen[v.words] = true
		if v.help == "" {
			t.Errorf("%q has no help", v.words)
		}
		switch {
		case len(words) == 2:
			if words[0] != family {
				t.Errorf("%q is not listed under its family heading %q", v.words, words[0])
			}
		case len(words) != 1:
			t.Errorf("%q: a verb has one or two words", v.words)
		case v.flags == nil:
			family = words[0]
		default:
			family = ""
		}
		if len(words) == 2 && v.flags == nil {
			t.Errorf("%q: a two-word verb needs a flags struct", v.words)
		}
		if v.flags != nil && v.words != "line" { // line is run before the parser (isLine)
			if _, ok := reflect.PointerTo(reflect.TypeOf(v.flags)).MethodByName("Run"); !ok {
				t.Errorf("%q: %T has no Run method", v.words, v.flags)
			}
		}
	}
	for i, v := range verbs {
		if v.flags == nil && (i+1 == len(verbs) || !strings.HasPrefix(verbs[i+1].words, v.words+" ")) {
			t.Errorf("family %q has no verb", v.words)
		}
	}
}

// TestVerbsRunOnBoundValues: every verb's Run asks only for values bind
// makes (kong would refuse any other after the parse, at run time), each
// type once, and returns an error.
func TestVerbsRunOnBoundValues(t *testing.T) {
	bound := map[reflect.Type]bool{}
	for _, v := range bind(Process{}.settled(), io.Discard, io.Discard, plainGlobals(), "", "") {
		bound[reflect.TypeOf(v)] = true
	}
	for _, v := range verbs {
		if v.flags == nil {
			continue
		}
		m, ok := reflect.PointerTo(reflect.TypeOf(v.flags)).MethodByName("Run")
		if !ok {
			continue // TestVerbList says so
		}
		seen := map[reflect.Type]bool{}
		for i := 1; i < m.Type.NumIn(); i++ { // In(0) is the receiver
			if p := m.Type.In(i); !bound[p] || seen[p] {
				t.Errorf("%q: Run takes %v, which bind does not make once", v.words, p)
			}
			seen[m.Type.In(i)] = true
		}
		if m.Type.NumOut() != 1 || m.Type.Out(0) != reflect.TypeFor[error]() {
			t.Errorf("%q: Run returns %v, want error", v.words, m.Type)
		}
	}
}

// TestVerbFiles checks that each verb's flags struct and Run live in the
// file named after the verb: "phase set" in phase_set.go.
func TestVerbFiles(t *testing.T) {
	fset := token.NewFileSet()
	typeFile := map[string]string{} // type name -> file declaring it
	runFile := map[string]string{}  // receiver type -> file declaring its Run
	files, _ := filepath.Glob("*.go")
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range f.Decls {
			switch d := d.(type) {
			case *ast.GenDecl:
				for _, s := range d.Specs {
					if ts, ok := s.(*ast.TypeSpec); ok {
						typeFile[ts.Name.Name] = name
					}
				}
			case *ast.FuncDecl:
				if d.Recv != nil && d.Name.Name == "Run" {
					if star, ok := d.Recv.List[0].Type.(*ast.StarExpr); ok {
						runFile[star.X.(*ast.Ident).Name] = name
					}
				}
			}
		}
	}
	for _, v := range verbs {
		if v.flags == nil {
			continue
		}
		want := strings.NewReplacer(" ", "_", "-", "_").Replace(v.words) + ".go"
		typ := reflect.TypeOf(v.flags).Name()
		if typeFile[typ] != want {
			t.Errorf("%q: %s is declared in %s, want %s", v.words, typ, typeFile[typ], want)
		}
		if runFile[typ] != want && v.words != "line" {
			t.Errorf("%q: %s.Run is in %s, want %s", v.words, typ, runFile[typ], want)
		}
	}
}

// TestVerbHelp runs --help for every registered verb: exit 0, the verb's
// usage and help on stdout, nothing on stderr, and the same text whether
// kong was given the narrowed grammar (as Main does) or every verb.
func TestVerbHelp(t *testing.T) {
	for _, v := range append([]verb{{words: ""}}, verbs...) {
		args := append(strings.Fields(v.words), "--help")
		var out, errOut bytes.Buffer
		code := Main(args, strings.NewReader(""), &out, &errOut)
		if code != 0 || errOut.Len() != 0 {
			t.Errorf("%q --help: exit %d, stderr %q", v.words, code, errOut.String())
			continue
		}
		if want := strings.TrimSpace("Usage: orc-state " + v.words); !strings.HasPrefix(out.String(), want) {
			t.Errorf("%q --help starts %q, want %q", v.words, firstLine(out.String()), want)
		}
		if flat := strings.Join(strings.Fields(out.String()), " "); !strings.Contains(flat, v.help) {
			t.Errorf("%q --help does not say %q:\n%s", v.words, v.help, out.String())
		}
		if full := helpWith(t, grammar("", ""), args); full != out.String() {
			t.Errorf("%q --help differs with the whole grammar:\n%s\n---\n%s", v.words, out.String(), full)
		}
	}
}

// helpWith is what kong prints for args over model.
func helpWith(t *testing.T, model any, args []string) (help string) {
	t.Helper()
	var out bytes.Buffer
	p, err := newParser(Process{}.settled(), model, &out, os.Stderr)
	if err != nil {
		t.Fatal(err)
	}
	defer func() {
		if r := recover(); r != nil {
			if _, ok := r.(exitPanic); !ok {
				panic(r)
			}
			help = out.String()
		}
	}()
	_, err = p.Parse(args)
	t.Fatalf("%q: kong did not exit on --help (err %v)", args, err)
	return ""
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}

// TestFirstWord checks that the scan before the parser skips the global
// flags and their values exactly as kong reads them.
func TestFirstWord(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{nil, ""},
		{[]string{"phase", "set", "2"}, "phase"},
		{[]string{"--dir", "phase", "status"}, "status"},
		{[]string{"--dir=x", "phase"}, "phase"},
		{[]string{"--lock-timeout", "1s", "--dir", "d", "get"}, "get"},
		{[]string{"-h"}, ""},
	} {
		if got := firstWord(c.args); got != c.want {
			t.Errorf("firstWord(%q) = %q, want %q", c.args, got, c.want)
		}
	}
}

// TestLeadingWords checks the two-word scan that narrows the grammar to
// one verb: a second word only when it follows the first directly (global
// flags aside), and the narrowed grammar only when the two name a verb.
func TestLeadingWords(t *testing.T) {
	for _, c := range []struct {
		args          []string
		first, second string
		narrowed      bool
	}{
		{nil, "", "", false},
		{[]string{"slice", "list"}, "slice", "list", true},
		{[]string{"--dir", "d", "slice", "--lock-timeout=1s", "list", "--json"}, "slice", "list", true},
		{[]string{"slice", "--status", "red", "list"}, "slice", "", false},
		{[]string{"slice", "lst"}, "slice", "lst", false},
		{[]string{"phase", "set", "2"}, "phase", "set", true},
		{[]string{"get", "phase"}, "get", "phase", false},
		{[]string{"--help", "slice", "list"}, "slice", "list", true},
	} {
		first, second := leadingWords(c.args)
		if first != c.first || second != c.second {
			t.Errorf("leadingWords(%q) = %q, %q; want %q, %q", c.args, first, second, c.first, c.second)
		}
		if got := second != "" && isVerb(first+" "+second); got != c.narrowed {
			t.Errorf("%q: narrowed %v, want %v", c.args, got, c.narrowed)
		}
	}
}

// TestEnumsFor checks that a grammar gets exactly the value lists its tags
// name, so kong never meets an undefined ${name} nor interpolates unused ones.
func TestEnumsFor(t *testing.T) {
	if got := enumsFor(grammar("get", "")); len(got) != 0 {
		t.Errorf("get: %v, want none", got)
	}
	if got := enumsFor(grammar("slice", "list")); len(got) != 1 || got["slice_statuses"] == "" {
		t.Errorf("slice list: %v, want slice_statuses only", got)
	}
	if got := enumsFor(grammar("", "")); len(got) != len(enums) {
		t.Errorf("whole grammar: %d of %d value lists", len(got), len(enums))
	}
}

// TestStateDirIsFoundOnlyWhenAsked: bind gives every verb a StateDir, but
// the state dir is resolved only when a verb asks for it. With
// $ORC_STATE_DIR unusable, the verbs that never ask still run; one that
// asks is refused, naming the variable.
func TestStateDirIsFoundOnlyWhenAsked(t *testing.T) {
	home := t.TempDir()
	env := environ.List{"ORC_STATE_DIR=relative", "HOME=" + home}
	for _, args := range [][]string{{"version"}, {"completion", "fish"}, {"install", "--dry-run"}} {
		var out, errs bytes.Buffer
		if code := Run(Process{Args: args, Stdout: &out, Stderr: &errs, Environ: env, Dir: home}); code != 0 || out.Len() == 0 {
			t.Errorf("%q: exit %d, stdout %q, stderr %q; want it to run without a state dir", args, code, out.String(), errs.String())
		}
	}
	var out, errs bytes.Buffer
	if code := Run(Process{Args: []string{"sessions"}, Stdout: &out, Stderr: &errs, Environ: env, Dir: home}); code == 0 || !strings.Contains(errs.String(), "ORC_STATE_DIR") {
		t.Errorf("sessions: exit %d, stderr %q; want it refused for $ORC_STATE_DIR", code, errs.String())
	}
}
