package cli

import (
	"bytes"
	"errors"
	"reflect"
	"regexp"
	"strings"
	"testing"

	"github.com/alecthomas/kong"

	"github.com/orc-state/orc-state/checkpoint"
	"github.com/orc-state/orc-state/slices"
)

// TestEnumFlagsShowValues: no verb's --help shows a flag as =STRING (a
// flag with values shows them, any other its own placeholder) or offers
// "" as a value; each enum flag shows its values.
func TestEnumFlagsShowValues(t *testing.T) {
	p, err := newParser(Process{}.settled(), grammar("", ""), &bytes.Buffer{}, &bytes.Buffer{})
	if err != nil {
		t.Fatal(err)
	}
	enumFlags := 0
	var walk func(n *kong.Node)
	walk = func(n *kong.Node) {
		for _, f := range n.Flags {
			if f.Enum == "" {
				continue
			}
			enumFlags++
			ph := f.FormatPlaceHolder()
			for _, v := range f.EnumSlice() {
				if v != "" && !strings.Contains("|"+strings.TrimSuffix(ph, ",...")+"|", "|"+v+"|") {
					t.Errorf("%s --%s shows %q, without %q", n.Path(), f.Name, ph, v)
				}
			}
			if strings.Contains(ph, `""`) || strings.Contains(ph, "||") || strings.HasPrefix(ph, "|") || strings.HasSuffix(ph, "|") {
				t.Errorf("%s --%s offers an empty value: %q", n.Path(), f.Name, ph)
			}
		}
		for _, c := range n.Children {
			walk(c)
		}
	}
	walk(p.Model.Node)
	if !strings.Contains(helpWith(t, grammar("", ""), []string{"decision", "set", "--help"}), "--provenance=flag|asked|policy|inferred") {
		t.Error("decision set --help does not show the provenances")
	}
	if enumFlags < 6 {
		t.Fatalf("only %d enum flags found", enumFlags)
	}
	for _, v := range verbs {
		if v.flags == nil {
			continue
		}
		help := helpWith(t, grammar("", ""), append(strings.Fields(v.words), "--help"))
		if strings.Contains(help, "=STRING") || strings.Contains(help, `=""`) {
			t.Errorf("%s --help shows a flag without its values:\n%s", v.words, help)
		}
	}
}

// TestFlagHint: a positional word that is a value of one enum flag of the
// verb is suggested behind that flag, quoted; anything else gets no hint.
func TestFlagHint(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"slice", "set", "3", "red"}, "red is a value of --status: orc-state slice set 3 --status red"},
		{[]string{"slice", "set", "red", "red"}, "red is a value of --status: orc-state slice set red --status red"},
		{[]string{"slice", "set", "it's", "committed", "--commit", "HEAD"}, "committed is a value of --status: orc-state slice set 'it'\\''s' --status committed --commit HEAD"},
		{[]string{"gate", "record", "2", "approved"}, "approved is a value of --verdict: orc-state gate record 2 --verdict approved"},
		{[]string{"sync", "resolve", "feat-x", "remote"}, "remote is a value of --keep: orc-state sync resolve feat-x --keep remote"},
		{[]string{"--dir", "x y", "slice", "set", "1", "green"}, "green is a value of --status: orc-state --dir 'x y' slice set 1 --status green"},
		{[]string{"slice", "set", "3", "red", "--note", "red"}, "red is a value of --status: orc-state slice set 3 --status red --note red"},
		{[]string{"slice", "set", "red", "--force", "red"}, "red is a value of --status: orc-state slice set red --force --status red"},
		{[]string{"slice", "set", "3", "purple"}, ""},
		{[]string{"slice", "set", "3", "--status", "red", "extra"}, ""},
		{[]string{"phase", "set", "2", "red"}, ""},
	} {
		model := grammarFor(c.args)
		p, err := newParser(Process{}.settled(), model, &bytes.Buffer{}, &bytes.Buffer{})
		if err != nil {
			t.Fatal(err)
		}
		_, perr := p.Parse(c.args)
		if perr == nil {
			t.Errorf("%q parsed", c.args)
			continue
		}
		if got := flagHint(c.args, perr); got != c.want {
			t.Errorf("%q (%v): hint %q, want %q", c.args, perr, got, c.want)
		}
	}
	if flagHint([]string{"x"}, errors.New("unexpected argument x")) != "" {
		t.Error("a hint without kong's parse context")
	}
}

// TestHookHelpNamesDecodedFields: the fields a hook verb's --help says it
// reads are fields of the payload it decodes.
func TestHookHelpNamesDecodedFields(t *testing.T) {
	decoded := map[string]bool{}
	typ := reflect.TypeFor[hookPayload]()
	for i := 0; i < typ.NumField(); i++ {
		decoded[strings.Split(typ.Field(i).Tag.Get("json"), ",")[0]] = true
	}
	for _, h := range []interface{ Help() string }{&HookPreCompactCmd{}, &HookSessionStartCmd{}, &HookStopCmd{}, &HookPostToolUseCmd{},
		&HookSubagentStopCmd{}, &HookSessionEndCmd{}, &HookStopFailureCmd{}, &HookWorktreeCreateCmd{}, &HookWorktreeRemoveCmd{}} {
		m := regexp.MustCompile(`(?s)it reads: (.*?);`).FindStringSubmatch(h.Help())
		if m == nil {
			t.Errorf("%T: its help names no fields", h)
			continue
		}
		for _, f := range strings.Split(strings.Join(strings.Fields(m[1]), " "), ", ") {
			if !decoded[f] {
				t.Errorf("%T: its help names %q, which hookPayload does not decode", h, f)
			}
		}
	}
}

// TestFormatHelp: the formats --help states are the ones the code
// enforces: the digest's bullets in order and its caps, every status of
// the machine with exactly the moves the table allows, the readiness
// checks.
func TestFormatHelp(t *testing.T) {
	digest := (&DigestWriteCmd{}).Help()
	at := 0
	for _, b := range checkpoint.DigestBullets() {
		i := strings.Index(digest[at:], b)
		if i < 0 {
			t.Fatalf("digest write --help lacks %q after byte %d:\n%s", b, at, digest)
		}
		at += i + len(b)
	}
	for _, want := range []string{"At most 30 lines and 2048 bytes", "unknown (why)", "<verdict> @ <sha> (note)", "orc-state digest write - <<'EOF'"} {
		if !strings.Contains(digest, want) {
			t.Errorf("digest write --help lacks %q", want)
		}
	}
	if _, err := checkpoint.ParseDigest([]byte(exampleDigest(digest))); err != nil {
		t.Errorf("the example of digest write --help is refused: %v", err)
	}
	set := (&SliceSetCmd{}).Help()
	for _, s := range slices.Statuses {
		line := regexp.MustCompile(`(?m)^    ` + s + ` +-> (.*)$`).FindStringSubmatch(set)
		if line == nil {
			t.Errorf("slice set --help has no line for %s", s)
			continue
		}
		want := strings.Join(slices.Allowed(s), ", ")
		if slices.Terminal[s] {
			want = "none: terminal; --force moves it to any status"
		}
		if line[1] != want {
			t.Errorf("slice set --help: %s -> %q, want %q", s, line[1], want)
		}
	}
	initHelp := (&SliceInitCmd{}).Help()
	for _, want := range []string{"estLoc", "acceptance", "touchpoints", "at least 2 acceptance criteria", "_test.", "planSha256", slices.CheckTestNamed, slices.CheckTouchpoints} {
		if !strings.Contains(initHelp, want) {
			t.Errorf("slice init --help lacks %q", want)
		}
	}
}

// exampleDigest is the digest of the example in digest write --help.
func exampleDigest(help string) string {
	_, after, _ := strings.Cut(help, "<<'EOF'\n")
	body, _, _ := strings.Cut(after, "    EOF")
	var b strings.Builder
	for _, l := range strings.Split(strings.TrimRight(body, "\n"), "\n") {
		b.WriteString(strings.TrimPrefix(l, "    ") + "\n")
	}
	return b.String()
}
