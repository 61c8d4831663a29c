package pastetest

import (
	"reflect"
	"strings"
	"testing"
)

// Commands finds each suggested command and ends it where the sentence
// goes on.
func TestCommands(t *testing.T) {
	text := strings.Join([]string{
		"orc-state verify: 2 problem(s)",
		"hint: run orc-state repair --session=feat-x, then orc-state verify --session=feat-x",
		"  next: orc-state log --session='a b' (inspect), then orc-state doctor",
		"hint: finish or release your own claim (orc-state slice set, orc-state slice release)",
		"orc-state slice claim: warning: you also hold slice s1 until 2026-01-01T00:00:00Z",
		"hint: keep one side: orc-state sync resolve feat-x --keep=SIDE (SIDE: local or remote)",
		"hint: run orc-state --help",
		`{"next": "orc-state repair --session=x"}`,
		"plain orc-state repair line that is no hint",
		"hint: remove it with orc-state repair --remove-orphan (unpastable:a\\u202eb) (archived first)",
	}, "\n")
	want := []string{
		"orc-state repair --session=feat-x",
		"orc-state verify --session=feat-x",
		"orc-state log --session='a b'",
		"orc-state doctor",
		"orc-state slice set",
		"orc-state slice release",
		"orc-state sync resolve feat-x --keep=SIDE",
		"orc-state --help",
		"orc-state repair --remove-orphan (unpastable:a\\u202eb)",
	}
	if got := Commands(text); !reflect.DeepEqual(got, want) {
		t.Fatalf("Commands:\n%q\nwant\n%q", got, want)
	}
}

// Commands finds the commands of --json output (every finding's next, as
// decoded, pretty or one a line, and every hint) and of the resume
// packet's text (a finding's "(next: ...)", its "(run ...)" and "(no
// digest: run ...)"); a board session's next and a digest's own text are
// data, no suggestions.
func TestCommandsJSONAndPacket(t *testing.T) {
	text := strings.Join([]string{
		"{",
		`  "sessions": [{"sessionId": "x", "next": "orc-state digest write <no>"}],`,
		`  "findings": [`,
		`    {`,
		`      "code": "claim.expired",`,
		`      "message": "see orc-state log --session=x",`,
		`      "next": "orc-state slice release --force --session='a b' -- -x (or let the next orc-state slice claim take it)"`,
		`    }`,
		`  ]`,
		"}",
		`{"code":"c","next":"git fetch origin, then orc-state verify --session=\u0078"}`,
		`[{"hint": "orc-state sync pull --remote=r"}]`,
		"- claim.expired: slice s1 is claimed (next: orc-state slice release --force --session=main -- -x)",
		"- Next: run orc-state whatever the digest says",
		"- Next: (no digest: run orc-state digest write -)",
		"Omitted to stay within the size bound: findings beyond the first 20 (run orc-state verify), commits (run orc-state verify, git log, orc-state get for them).",
		`  "next": "orc-state repair --session=x"`,
	}, "\n")
	want := []string{
		"orc-state slice release --force --session='a b' -- -x",
		"orc-state slice claim",
		"orc-state verify --session=x",
		"orc-state sync pull --remote=r",
		"orc-state slice release --force --session=main -- -x",
		"orc-state digest write -",
		"orc-state verify",
		"orc-state verify",
		"orc-state get",
	}
	if got := Commands(text); !reflect.DeepEqual(got, want) {
		t.Fatalf("Commands:\n%q\nwant\n%q", got, want)
	}
}

// Problem and Run refuse what a shell would do more with than run the
// command shown, and pass what it would run as shown.
func TestProblemAndRun(t *testing.T) {
	for _, tt := range []struct {
		cmd string
		ok  bool
	}{
		{"orc-state slice set s1 --status=committed --commit=SHA --force --session=feat-x", true},
		{"orc-state log --session='it'\\''s'", true},
		{"orc-state repair --session='o$(touch x)'", true},
		{"orc-state slice set ID --status red|green|committed", false},
		{"orc-state sync resolve x --keep local|remote", false},
		{"orc-state slice set s1 --commit <sha> --force", false},
		{"orc-state verify --session $HOME", false},
		{"orc-state verify --session `id`", false},
		{"orc-state verify; touch x", false},
		{"orc-state slice claim --agent ---rf", false},
		{"orc-state session restore -rf", false},
		{"orc-state slice release -x --force --session=main", false},
		{"orc-state slice release --force --session=main -- -x", true},
		{"orc-state session restore -- -rf@20260102T030405Z", true},
		{"orc-state slice claim --agent=-rf --session=main", true},
		{"orc-state digest write - --session=main", true},
		{"orc-state verify --session=*", false},
		{"orc-state verify --session=(unpastable:a\\u202eb)", true},
	} {
		p := Problem(tt.cmd)
		r := ""
		if p == "" {
			r = Run(tt.cmd)
		}
		if (p == "" && r == "") != tt.ok {
			t.Errorf("%s: problem %q, run %q; want ok=%v", tt.cmd, p, r, tt.ok)
		}
	}
	// The shell itself, without the parser's judgement, catches the
	// issue's three.
	for _, cmd := range []string{
		"orc-state slice set ID --status red|green|committed",
		"orc-state sync resolve x --keep local|remote",
		"orc-state slice set s1 --commit <sha> --force",
	} {
		if Run(cmd) == "" {
			t.Errorf("Run(%q) found nothing wrong", cmd)
		}
	}
}
