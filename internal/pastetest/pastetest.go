// Package pastetest holds the suggested commands orc-state prints to what
// they promise (docs/protocol.md §4, "Output"): pasted into a POSIX shell,
// a command runs orc-state with exactly the words it shows, and nothing
// else (no redirection, pipe, expansion or second command); a command
// naming a value that cannot be shown as itself does not parse at all
// (safetext.Quote's unpastable form). Commands finds the commands in
// printed text; Check judges one, by a parser and by a real shell run in
// a sandbox where orc-state is a stub that records its arguments. For
// tests only (clitest runs it on every scenario's output).
package pastetest

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"sync"

	"mvdan.cc/sh/v3/expand"
	"mvdan.cc/sh/v3/syntax"
)

// unpastable is safetext.Quote's marker for a value it refused to quote.
const unpastable = "(unpastable:"

// prose are the words that end a command inside a sentence of a hint.
var prose = map[string]bool{
	"then": true, "or": true, "and": true, "if": true, "to": true, "when": true, "first": true,
	"removes": true, "brings": true, "shows": true, "binds": true, "lists": true, "names": true,
	"unbinds": true, "checks": true, "says": true, "completes": true, "prints": true, "before": true,
	"after": true, "#": true, "is": true, "for": true, "with": true, "from": true, "on": true, "in": true,
	"keeps": true, "reads": true, "records": true, "makes": true, "takes": true, "take": true, "again": true, "once": true,
	"here": true, "there": true, "instead": true, "until": true, "while": true, "where": true, "so": true,
	"--": false,
}

// Commands returns the suggested orc-state commands in printed text: in
// each line that is a hint, a finding's next: line or a warning, and in
// any other line from its first marker on (a finding's "(next: " in the
// resume packet's text, a "(run "), every
// "orc-state VERB ..." up to where the sentence goes on (a word of prose,
// a "(", a word ending in "," ";" or ")", a backquote, the line's end);
// and in each JSON value the text holds (a line that begins one, to where
// it ends: --json output, pretty or one a line), the same in every
// finding's "next" (an object with a "code") and every "hint" string, as
// decoded.
func Commands(text string) []string {
	var out []string
	lines := strings.SplitAfter(text, "\n")
	for i := 0; i < len(lines); i++ {
		line := strings.TrimSuffix(lines[i], "\n")
		trimmed := strings.TrimSpace(line)
		if strings.HasPrefix(trimmed, "{") || strings.HasPrefix(trimmed, "[") {
			if v, n, ok := jsonAt(lines[i:]); ok {
				for _, s := range suggestions(v) {
					out = append(out, inSentence(s)...)
				}
				i += n - 1
			}
			continue
		}
		if strings.HasPrefix(trimmed, "\"") {
			continue // a line of a JSON value that did not decode: its strings are escaped
		}
		switch {
		case strings.HasPrefix(trimmed, "hint:") || strings.HasPrefix(trimmed, "next:"):
			out = append(out, inSentence(line)...)
		case strings.Contains(line, "warning:"):
			_, after, _ := strings.Cut(line, "warning:")
			out = append(out, inSentence(after)...) // the warning's own "orc-state VERB:" is no command
		default:
			out = append(out, afterMarkers(line)...)
		}
	}
	return out
}

// markers begin a suggestion inside a line of prose: a finding's next in
// the resume packet's text ("- CODE: MESSAGE (next: NEXT)"), and its
// "(run orc-state verify)", "(no digest: run orc-state digest write -)";
// not a digest's own text ("- Next: run ..."), which is data.
var markers = []string{"(next: ", "(run ", "(no digest: run "}

// afterMarkers returns the commands in line from its first marker on.
func afterMarkers(line string) []string {
	at := -1
	for _, m := range markers {
		if i := strings.Index(line, m); i >= 0 && (at < 0 || i < at) {
			at = i + len(m)
		}
	}
	if at < 0 {
		return nil
	}
	return inSentence(line[at:])
}

// jsonAt decodes the JSON value that begins the first of lines and says
// how many lines it spans (it ends its last one); ok is false when they
// hold none.
func jsonAt(lines []string) (v any, n int, ok bool) {
	rest := strings.Join(lines, "")
	dec := json.NewDecoder(strings.NewReader(rest))
	if dec.Decode(&v) != nil {
		return nil, 0, false
	}
	end := int(dec.InputOffset())
	for used := 0; n < len(lines) && used < end; n++ {
		used += len(lines[n])
	}
	return v, n, true
}

// suggestions are the strings of a decoded JSON value that hold
// suggested commands: each finding's "next" (in an object with a "code";
// a board session's "next" is its digest's text) and each "hint".
func suggestions(v any) []string {
	var out []string
	switch x := v.(type) {
	case map[string]any:
		_, finding := x["code"]
		for _, k := range slices.Sorted(maps.Keys(x)) {
			if s, ok := x[k].(string); ok && (k == "hint" || k == "next" && finding) {
				out = append(out, s)
				continue
			}
			out = append(out, suggestions(x[k])...)
		}
	case []any:
		for _, e := range x {
			out = append(out, suggestions(e)...)
		}
	}
	return out
}

// inSentence returns the commands in one sentence of suggestions.
func inSentence(rest string) []string {
	var out []string
	for {
		i := strings.Index(rest, "orc-state ")
		if i < 0 {
			return out
		}
		if i > 0 && !strings.ContainsRune(" (`:", rune(rest[i-1])) {
			rest = rest[i+len("orc-state "):]
			continue
		}
		cmd, n := command(rest[i:])
		if len(strings.Fields(cmd)) > 1 && !strings.HasSuffix(strings.Fields(cmd)[1], ":") {
			out = append(out, cmd)
		}
		rest = rest[i+n:]
	}
}

// command reads one command from s (which starts with "orc-state "): its
// text and how many bytes of s it used.
func command(s string) (string, int) {
	i, words := 0, 0
	end := 0
	for i < len(s) {
		for i < len(s) && s[i] == ' ' {
			i++
		}
		start := i
		quoted := false
		for i < len(s) && (quoted || s[i] != ' ') {
			switch {
			case s[i] == '\'':
				quoted = !quoted
			case !quoted && s[i] == '\\' && i+1 < len(s):
				i++ // an escaped character: the quote of '\''
			case !quoted && s[i] == '`':
				return s[:end], i
			case !quoted && strings.HasPrefix(s[i:], unpastable):
				// the marker runs to its own ")", whatever is inside
				if j := strings.Index(s[i:], ")"); j >= 0 {
					i += j
				}
			}
			i++
		}
		word := s[start:i]
		if word == "" {
			break
		}
		switch {
		case words >= 2 && (prose[word] || strings.HasPrefix(word, "(") && !strings.HasPrefix(word, unpastable)):
			return s[:end], end
		case !strings.Contains(word, "'") && !strings.Contains(word, unpastable) && (strings.HasSuffix(word, ",") || strings.HasSuffix(word, ";") || strings.HasSuffix(word, ")") || strings.HasSuffix(word, ".") && i == len(s)):
			return s[:start] + strings.TrimRight(word, ",;.)"), i
		}
		words++
		end = i
	}
	return s[:end], end
}

// Problem says what is wrong with cmd as a suggested command, "" when
// nothing: the shell's words (by a POSIX parser) are the words the
// command shows, with no redirection, pipe, expansion or second command;
// or, holding an unpastable value, no shell parses it.
func Problem(cmd string) string {
	file, err := syntax.NewParser(syntax.Variant(syntax.LangPOSIX)).Parse(strings.NewReader(cmd), "")
	if strings.Contains(cmd, unpastable) {
		if err == nil {
			return "holds an unpastable value but parses: pasting it would run it"
		}
		return ""
	}
	if err != nil {
		return "does not parse: " + err.Error()
	}
	if len(file.Stmts) != 1 {
		return fmt.Sprintf("is %d commands", len(file.Stmts))
	}
	st := file.Stmts[0]
	if len(st.Redirs) > 0 || st.Background || st.Negated {
		return "redirects or runs in the background"
	}
	call, ok := st.Cmd.(*syntax.CallExpr)
	if !ok || len(call.Assigns) > 0 {
		return "is not one plain command"
	}
	var bad string
	for _, w := range call.Args {
		syntax.Walk(w, func(n syntax.Node) bool {
			switch x := n.(type) {
			case *syntax.CmdSubst, *syntax.ParamExp, *syntax.ArithmExp, *syntax.ProcSubst, *syntax.ExtGlob:
				bad = fmt.Sprintf("expands %T", n)
			case *syntax.Lit:
				if strings.ContainsAny(x.Value, "*?[~") {
					bad = "has an unquoted glob or tilde: " + x.Value
				}
			}
			return true
		})
	}
	if bad != "" {
		return bad
	}
	fields, err := expand.Fields(&expand.Config{}, call.Args...)
	if err != nil {
		return err.Error()
	}
	if want := shown(cmd); !reflect.DeepEqual(fields, want) {
		return fmt.Sprintf("the shell's words %q are not the words shown %q", fields, want)
	}
	for _, f := range fields[1:] {
		if f == "--" {
			break // operands follow, whatever they begin with
		}
		if p := flagProblem(f); p != "" {
			return p
		}
	}
	return ""
}

// flagProblem says why a word before any "--" that begins with "-" is no
// flag orc-state prints ("" when it is one, or no flag-like word): the
// suggested commands give long flags only (--name or --name=VALUE) and
// "-" for stdin, so "-rf" or "---x" there is a value from data (an id of
// old data) that the CLI would read as a flag, where it must be passed
// as --flag=VALUE or after "--".
func flagProblem(f string) string {
	if !strings.HasPrefix(f, "-") || f == "-" {
		return ""
	}
	name, _, _ := strings.Cut(strings.TrimPrefix(f, "--"), "=")
	ok := strings.HasPrefix(f, "--") && name != "" && 'a' <= name[0] && name[0] <= 'z'
	for i := 0; ok && i < len(name); i++ {
		c := name[i]
		ok = 'a' <= c && c <= 'z' || '0' <= c && c <= '9' || c == '-'
	}
	if !ok {
		return fmt.Sprintf("%q is no flag and reads as one: a value is passed as --flag=VALUE or after --", f)
	}
	return ""
}

// shown is the words of cmd as a reader takes them: split at spaces, a
// single-quoted part taken as it is, '\” as a quote.
func shown(cmd string) []string {
	var words []string
	var b strings.Builder
	in, quoted := false, false
	for i := 0; i < len(cmd); i++ {
		c := cmd[i]
		switch {
		case c == '\'' && !quoted:
			quoted, in = true, true
		case c == '\'' && quoted:
			quoted = false
		case c == '\\' && !quoted && i+1 < len(cmd):
			i++
			b.WriteByte(cmd[i])
			in = true
		case c == ' ' && !quoted:
			if in {
				words = append(words, b.String())
				b.Reset()
				in = false
			}
		default:
			b.WriteByte(c)
			in = true
		}
	}
	if in {
		words = append(words, b.String())
	}
	return words
}

var (
	sandboxOnce sync.Once
	sandboxDir  string
	sandboxErr  error
	checked     sync.Map // command → its problem
)

// stub is the orc-state of the sandbox: it writes its arguments, one per
// line between NULs, where ARGV_FILE says.
const stub = "#!/bin/sh\nfor a in \"$@\"; do printf '%s\\0' \"$a\"; done > \"$ARGV_FILE\"\n"

// Run pastes cmd into a real POSIX shell (sh, one for the process) in an
// empty folder of its own, with
// orc-state a stub that records its arguments and nothing else on PATH,
// and says what went wrong: the stub not run, its arguments not the
// words the command shows, or any file made in the folder. Each command
// is run once per process. A command that holds an unpastable value is
// only parsed (sh -n), and must fail to.
func Run(cmd string) string {
	if p, ok := checked.Load(cmd); ok {
		return p.(string)
	}
	p := run(cmd)
	checked.Store(cmd, p)
	return p
}

func run(cmd string) string {
	sandboxOnce.Do(func() {
		sandboxDir, sandboxErr = os.MkdirTemp("", "pastetest-")
		if sandboxErr == nil {
			bin := filepath.Join(sandboxDir, "bin")
			if sandboxErr = os.Mkdir(bin, 0o755); sandboxErr == nil {
				sandboxErr = os.WriteFile(filepath.Join(bin, "orc-state"), []byte(stub), 0o755)
			}
		}
	})
	if sandboxErr != nil {
		return "no sandbox: " + sandboxErr.Error()
	}
	sh, err := exec.LookPath("sh")
	if err != nil {
		return "" // no shell to paste into: the parser's verdict stands
	}
	if strings.Contains(cmd, unpastable) {
		if exec.Command(sh, "-n", "-c", cmd).Run() == nil {
			return "holds an unpastable value but sh parses it"
		}
		return ""
	}
	work, err := os.MkdirTemp(sandboxDir, "run-")
	if err != nil {
		return err.Error()
	}
	defer os.RemoveAll(work)
	argv := filepath.Join(sandboxDir, filepath.Base(work)+".argv")
	defer os.Remove(argv)
	code, err := paste(sh, cmd, work, argv)
	if err != nil {
		return err.Error()
	}
	if code != 0 {
		return fmt.Sprintf("sh exited %d", code)
	}
	data, err := os.ReadFile(argv)
	if err != nil {
		return "the stub orc-state did not run"
	}
	got := strings.Split(strings.TrimSuffix(string(data), "\x00"), "\x00")
	if want := shown(cmd)[1:]; !reflect.DeepEqual(got, want) {
		return fmt.Sprintf("orc-state got %q; the command shows %q", got, want)
	}
	if entries, _ := os.ReadDir(work); len(entries) > 0 {
		return fmt.Sprintf("pasting it made %s", entries[0].Name())
	}
	return ""
}

// The shell every command is pasted into: one sh for the whole test
// process, each command run in a subshell of its own (its folder, its
// ARGV_FILE, no input, its output dropped) through eval, which reads the
// text as a pasted line is read. One process instead of one per command
// keeps the check cheap enough to run on every scenario's output.
var (
	shellMu  sync.Mutex
	shellIn  io.WriteCloser
	shellOut *bufio.Reader
)

// paste runs cmd in the sandbox shell in folder work and returns its exit
// code.
func paste(sh, cmd, work, argv string) (int, error) {
	shellMu.Lock()
	defer shellMu.Unlock()
	if shellIn == nil {
		c := exec.Command(sh)
		c.Dir = sandboxDir
		c.Env = []string{"PATH=" + filepath.Join(sandboxDir, "bin"), "HOME=" + sandboxDir}
		in, err := c.StdinPipe()
		if err != nil {
			return 0, err
		}
		out, err := c.StdoutPipe()
		if err != nil {
			return 0, err
		}
		if err := c.Start(); err != nil {
			return 0, err
		}
		shellIn, shellOut = in, bufio.NewReader(out)
	}
	q := func(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }
	line := "( cd " + q(work) + " && ARGV_FILE=" + q(argv) + " && export ARGV_FILE && eval " + q(cmd) + " ) </dev/null >/dev/null 2>&1; echo \"rc:$?\"\n"
	if _, err := io.WriteString(shellIn, line); err != nil {
		shellIn = nil
		return 0, fmt.Errorf("the sandbox shell: %w", err)
	}
	for {
		got, err := shellOut.ReadString('\n')
		if err != nil {
			shellIn = nil
			return 0, fmt.Errorf("the sandbox shell: %w", err)
		}
		if rest, ok := strings.CutPrefix(strings.TrimSpace(got), "rc:"); ok {
			var code int
			fmt.Sscan(rest, &code)
			return code, nil
		}
	}
}
