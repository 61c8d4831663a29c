package cli

import (
	"bytes"
	"testing"

	"github.com/orc-state/orc-state/internal/fault"
)

// TestRunRefusalsSayWhoAndWhatToDo: every refusal Run makes before a verb
// runs is printed the one way (refuse): who refuses, the message on one
// line with whatever the user typed shown escaped, then the hint when
// there is one, with the exit code fault.Explain gives; nothing on stdout.
func TestRunRefusalsSayWhoAndWhatToDo(t *testing.T) {
	for _, tt := range []struct {
		name   string
		args   []string
		code   int
		stderr string
	}{
		{"no verb", nil, fault.Usage,
			"usage: orc-state <verb> [flags]; run orc-state --help for the verbs\n"},
		{"an argument that is not UTF-8", []string{"phase", "set", "\xff"}, fault.Usage,
			"orc-state: argument 3 is not valid UTF-8; nothing was written\n"},
		{"a stray argument, escaped", []string{"phase", "set", "2", "x\ny\x1b"}, fault.Usage,
			"orc-state phase set: unexpected argument x\\ny\\x1b\nhint: run orc-state phase set --help\n"},
		{"an unknown verb", []string{"no\tsuch"}, fault.Usage,
			"orc-state: unexpected argument no\\tsuch\nhint: run orc-state --help\n"},
		{"a flag without its value", []string{"phase", "set", "--label"}, fault.Usage,
			"orc-state phase set: --label needs a value\nhint: run orc-state phase set --help\n"},
		{"a value where its flag belongs", []string{"slice", "set", "3", "red"}, fault.Usage,
			"orc-state slice set: unexpected argument red\nhint: red is a value of --status: orc-state slice set 3 --status red\n"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			code := Run(Process{Args: tt.args, Stdout: &stdout, Stderr: &stderr, Dir: t.TempDir()})
			if code != tt.code || stderr.String() != tt.stderr || stdout.Len() != 0 {
				t.Errorf("exit %d, stderr %q, stdout %q; want exit %d, stderr %q", code, stderr.String(), stdout.String(), tt.code, tt.stderr)
			}
		})
	}
}

// TestTooFewFilesSaysTheLimit: under too low an open-file limit a verb is
// refused with exit 3 naming the limit, a hook says so and exits 0, and a
// display path stays silent.
func TestTooFewFilesSaysTheLimit(t *testing.T) {
	const msg = ": the process may have only 5 files open (ulimit -n); orc-state needs 16; nothing was written\n" +
		"hint: raise the limit (for example ulimit -n 1024) and run the command again\n"
	for _, tt := range []struct {
		args   []string
		code   int
		stderr string
	}{
		{[]string{"phase", "set", "2"}, fault.Invalid, "orc-state phase set" + msg},
		{[]string{"--json", "nosuch"}, fault.Invalid, "orc-state" + msg},
		{[]string{"hook", "stop"}, fault.OK, "orc-state hook stop" + msg},
		{[]string{"statusline"}, fault.OK, ""},
		{[]string{"line"}, fault.OK, ""},
		{[]string{"hook", "post-tool-use"}, fault.OK, ""},
	} {
		var stderr bytes.Buffer
		if code := tooFewFiles(tt.args, 5, &stderr); code != tt.code || stderr.String() != tt.stderr {
			t.Errorf("%q: exit %d, stderr %q; want exit %d, stderr %q", tt.args, code, stderr.String(), tt.code, tt.stderr)
		}
	}
}
