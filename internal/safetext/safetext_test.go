package safetext

import (
	"strings"
	"testing"
	"unicode/utf8"

	"mvdan.cc/sh/v3/expand"
	"mvdan.cc/sh/v3/syntax"
)

func TestEscape(t *testing.T) {
	tests := []struct{ in, want string }{
		{"", ""},
		{"plain name.json", "plain name.json"},
		{`back\slash`, `back\slash`},
		{"héllo wörld ✓", "héllo wörld ✓"},
		{"a\x1b[31mred", `a\x1b[31mred`},
		{"bell\a", `bell\x07`},
		{"nul\x00", `nul\x00`},
		{"del\x7f", `del\x7f`},
		{"tab\tnl\ncr\r", `tab\tnl\ncr\r`},
		{"forged\n## Resume digest", `forged\n## Resume digest`},
		{"nel\u0085", `nel\u0085`},
		{"csi\u009b", `csi\u009b`},
		{"ls\u2028ps\u2029", `ls\u2028ps\u2029`},
		{"rlo\u202egnp.exe", `rlo\u202egnp.exe`},
		{"\u202a\u202b\u202c\u202d", `\u202a\u202b\u202c\u202d`},
		{"\u2066\u2067\u2068\u2069", `\u2066\u2067\u2068\u2069`},
		{"lrm\u200erlm\u200falm\u061c", `lrm\u200erlm\u200falm\u061c`},
		{"bad\xffutf8\xc3", `bad\xffutf8\xc3`},
		{".g\u200cit", `.g\u200cit`},
		{"zw\u200bsp\u200djoin\u2060", `zw\u200bsp\u200djoin\u2060`},
		{"\ufeffbom", `\ufeffbom`},
		{"soft\u00adhyphen", `soft\u00adhyphen`},
	}
	for _, tt := range tests {
		if got := Escape(tt.in); got != tt.want {
			t.Errorf("Escape(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// Whatever the input, the result holds nothing a terminal acts on and no
// line break of any kind.
func FuzzEscape(f *testing.F) {
	for _, s := range []string{"a\x1bb", "\u202e", "\xff", "x\u2028y", "ok"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		out := Escape(s)
		for i := 0; i < len(out); {
			r, size := utf8.DecodeRuneInString(out[i:])
			if shown(r, size) {
				t.Fatalf("Escape(%q) = %q keeps %U", s, out, r)
			}
			i += size
		}
		if Escape(out) != out {
			t.Fatalf("Escape(%q) = %q is not shown as itself", s, out)
		}
	})
}

func TestQuote(t *testing.T) {
	tests := []struct{ in, want string }{
		{"main", "main"},
		{"feat/x-1.2_b@c%d+e=f:g,h", "feat/x-1.2_b@c%d+e=f:g,h"},
		{"", "''"},
		{"o$(touch PWNED)", "'o$(touch PWNED)'"},
		{"s1`id`", "'s1`id`'"},
		{"it's", `'it'\''s'`},
		{"a b", "'a b'"},
		{"*", "'*'"},
		{"~root", "'~root'"},
		{"x;rm -rf /", "'x;rm -rf /'"},
		{"$HOME", "'$HOME'"},
		// A value shown escaped cannot be pasted as itself: no pasteable
		// word is given for it.
		{"new\nline", `(unpastable:new\nline)`},
		{"feat-\u202eevil", `(unpastable:feat-\u202eevil)`},
		{"a\u200bb", `(unpastable:a\u200bb)`},
		{"x\xff", `(unpastable:x\xff)`},
	}
	for _, tt := range tests {
		if got := Quote(tt.in); got != tt.want {
			t.Errorf("Quote(%q) = %q, want %q", tt.in, got, tt.want)
		}
		if Unpastable(Quote(tt.in)) != (Escape(tt.in) != tt.in) {
			t.Errorf("Unpastable(Quote(%q)) is wrong", tt.in)
		}
	}
}

// unparsable reports whether a POSIX shell refuses line as a whole, so
// that pasting it runs nothing.
func unparsable(line string) bool {
	_, err := syntax.NewParser(syntax.Variant(syntax.LangPOSIX)).Parse(strings.NewReader(line), "")
	return err != nil
}

// words parses line as a POSIX shell command and returns its words as the
// shell would pass them, failing on anything a shell would run or expand
// (a command substitution, a parameter, a second command).
func words(t *testing.T, line string) []string {
	t.Helper()
	file, err := syntax.NewParser(syntax.Variant(syntax.LangPOSIX)).Parse(strings.NewReader(line), "")
	if err != nil {
		t.Fatalf("%q does not parse: %v", line, err)
	}
	if len(file.Stmts) != 1 {
		t.Fatalf("%q is %d commands", line, len(file.Stmts))
	}
	call, ok := file.Stmts[0].Cmd.(*syntax.CallExpr)
	if !ok || len(call.Assigns) > 0 {
		t.Fatalf("%q is not a plain command", line)
	}
	for _, w := range call.Args {
		syntax.Walk(w, func(n syntax.Node) bool {
			switch n.(type) {
			case *syntax.CmdSubst, *syntax.ParamExp, *syntax.ArithmExp, *syntax.ProcSubst, *syntax.ExtGlob:
				t.Fatalf("%q expands %T", line, n)
			}
			return true
		})
	}
	out, err := expand.Fields(&expand.Config{}, call.Args...)
	if err != nil {
		t.Fatalf("%q: %v", line, err)
	}
	return out
}

// A quoted argument is one word, itself, in a POSIX shell.
func FuzzQuote(f *testing.F) {
	for _, s := range []string{"o$(touch PWNED)", "it's", "", "a b", "`x`", "\\", "'", "''\\'"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if strings.ContainsRune(s, 0) || !utf8Valid(s) {
			return // no shell argument holds a NUL; the parser wants UTF-8
		}
		line := "orc-state repair --remove-orphan " + Quote(s)
		if Escape(s) != s {
			// Shown escaped, so never pasteable: the shell refuses it.
			if !Unpastable(line) || !unparsable(line) || !unparsable(line+" --force") || !unparsable("orc-state verify --session="+Quote(s)+"; touch x") {
				t.Fatalf("Quote(%q) = %q is pasteable", s, Quote(s))
			}
			return
		}
		got := words(t, line)
		if len(got) != 4 || got[3] != s {
			t.Fatalf("Quote(%q) = %q parses to %q", s, Quote(s), got)
		}
	})
}

func utf8Valid(s string) bool { return strings.ToValidUTF8(s, "") == s }

func TestNameProblem(t *testing.T) {
	tests := []struct{ in, want string }{
		{"s1", ""},
		{"2", ""},
		{"maxRetriesPerSlice", ""},
		{"a.b_c-d", ""},
		{strings.Repeat("a", 128), ""},
		{"", "is empty"},
		{strings.Repeat("a", 129), "is longer than 128 characters"},
		{"-rf", "does not start with a letter or digit"},
		{".hidden", "does not start with a letter or digit"},
		{"_x", "does not start with a letter or digit"},
		{"s1$(touch PWNED)", `has '$', outside A-Z a-z 0-9 . _ -`},
		{"a b", `has ' ', outside A-Z a-z 0-9 . _ -`},
		{"a/b", `has '/', outside A-Z a-z 0-9 . _ -`},
		{"é", "does not start with a letter or digit"},
		{"xé", `has 'é', outside A-Z a-z 0-9 . _ -`},
		{"x\u2028", `has '\u2028', outside A-Z a-z 0-9 . _ -`},
	}
	for _, tt := range tests {
		if got := NameProblem(tt.in, MaxName); got != tt.want {
			t.Errorf("NameProblem(%q) = %q, want %q", tt.in, got, tt.want)
		}
		if tt.want == "" && (Quote(tt.in) != tt.in || Escape(tt.in) != tt.in) {
			t.Errorf("%q is in the alphabet but Quote or Escape changes it", tt.in)
		}
	}
}

// An operand that begins with "-" comes after "--"; pasted, it is one
// word after the end of the flags.
func TestOperand(t *testing.T) {
	for in, want := range map[string]string{"s1": "s1", "-rf": "-- -rf", "--force": "-- --force", "-a b": "-- '-a b'", "a-b": "a-b"} {
		if got := Operand(in); got != want {
			t.Errorf("Operand(%q) = %q, want %q", in, got, want)
		}
	}
	if got := words(t, "orc-state session restore "+Operand("-rf")); len(got) != 5 || got[3] != "--" || got[4] != "-rf" {
		t.Errorf("pasted: %q", got)
	}
}

// TestClipEscapesThenCaps: Clip caps the escaped text, counting runes (not
// bytes), and marks a cut with an ellipsis that keeps it within n.
func TestClipEscapesThenCaps(t *testing.T) {
	for _, tt := range []struct {
		in   string
		n    int
		want string
	}{
		{"short", 10, "short"},
		{"exactly10!", 10, "exactly10!"},
		{"eleven 11ch", 10, "eleven 11…"},
		{"機機機機機", 3, "機機…"},
		{"a\nb", 4, `a\nb`},  // the escape is what is counted
		{"a\nbc", 4, `a\n…`}, // and what is cut
		{"", 1, ""},
	} {
		got := Clip(tt.in, tt.n)
		if got != tt.want {
			t.Errorf("Clip(%q, %d) = %q, want %q", tt.in, tt.n, got, tt.want)
		}
		if utf8.RuneCountInString(got) > tt.n {
			t.Errorf("Clip(%q, %d) = %q, over %d runes", tt.in, tt.n, got, tt.n)
		}
	}
}
