package checkpoint

import (
	"strings"
	"testing"
)

func TestDefaultBody(t *testing.T) {
	want := "\n## Resume digest\n- Done: nothing — session initialized\n- Next: phase 1\n- Open decisions: none\n- Artifacts: none\n- Suite: unknown\n"
	if got := string(DefaultBody()); got != want {
		t.Errorf("DefaultBody = %q", got)
	}
	if _, err := ParseDigest(must(Section(DefaultBody(), DigestHeading))); err != nil {
		t.Errorf("the default digest is invalid: %v", err)
	}
}

func must(b []byte, _ int) []byte { return b }

const threeSections = "intro\n\n## Resume digest\n- Done: a\n\n## Open decisions\n- q1\n\n## Auto-checkpoint\n- At: t\n"

func TestSection(t *testing.T) {
	cases := []struct {
		name, body, heading, want string
		count                     int
	}{
		{"middle", threeSections, OpenDecisionsHeading, "- q1\n\n", 1},
		{"first", threeSections, DigestHeading, "- Done: a\n\n", 1},
		{"last", threeSections, AutoHeading, "- At: t\n", 1},
		{"absent", "x\n", DigestHeading, "", 0},
		{"heading at eof", "x\n## Resume digest", DigestHeading, "", 1},
		{"empty section", "## Resume digest\n## Open decisions\nq\n", DigestHeading, "", 1},
		{"no trailing newline", "## Resume digest\n- a", DigestHeading, "- a", 1},
		{"twice", "## Resume digest\none\n## Resume digest\ntwo\n", DigestHeading, "one\n", 2},
		{"not exact", "## Resume digest \n## Resume digest:\n### Resume digest\n", DigestHeading, "", 0},
		{"crlf heading is not it", "## Resume digest\r\nx\r\n", DigestHeading, "", 0},
		{"deeper headings stay inside", "## Resume digest\n### sub\n#### x\n## next\n", DigestHeading, "### sub\n#### x\n", 1},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, n := Section([]byte(c.body), c.heading)
			if string(got) != c.want || n != c.count {
				t.Errorf("Section = %q, %d; want %q, %d", got, n, c.want, c.count)
			}
		})
	}
}

func TestSetSection(t *testing.T) {
	cases := []struct {
		name, body, heading, content, want string
	}{
		{"replace middle keeps neighbours and separator", threeSections, OpenDecisionsHeading, "- q2\n- q3\n",
			"intro\n\n## Resume digest\n- Done: a\n\n## Open decisions\n- q2\n- q3\n\n## Auto-checkpoint\n- At: t\n"},
		{"replace last", threeSections, AutoHeading, "- At: u\n- Phase: 1/2\n",
			"intro\n\n## Resume digest\n- Done: a\n\n## Open decisions\n- q1\n\n## Auto-checkpoint\n- At: u\n- Phase: 1/2\n"},
		{"content without newline", threeSections, DigestHeading, "- Done: b",
			"intro\n\n## Resume digest\n- Done: b\n\n## Open decisions\n- q1\n\n## Auto-checkpoint\n- At: t\n"},
		{"content trailing blanks dropped", threeSections, DigestHeading, "- Done: b\n\n \n",
			"intro\n\n## Resume digest\n- Done: b\n\n## Open decisions\n- q1\n\n## Auto-checkpoint\n- At: t\n"},
		{"append", "intro\n", AutoHeading, "- At: t\n", "intro\n\n## Auto-checkpoint\n- At: t\n"},
		{"append after unterminated line", "intro", AutoHeading, "- At: t\n", "intro\n\n## Auto-checkpoint\n- At: t\n"},
		{"append to empty body", "", DigestHeading, "- Done: x\n", "\n## Resume digest\n- Done: x\n"},
		{"append keeps crlf text", "a\r\nb\r\n", AutoHeading, "x\n", "a\r\nb\r\n\n## Auto-checkpoint\nx\n"},
		{"heading twice: first replaced, second untouched", "## Resume digest\none\n## Resume digest\ntwo\n", DigestHeading, "new\n",
			"## Resume digest\nnew\n## Resume digest\ntwo\n"},
		{"heading unterminated at eof", "x\n## Auto-checkpoint", AutoHeading, "- At: t\n", "x\n## Auto-checkpoint\n- At: t\n"},
		{"old content unterminated", "## Auto-checkpoint\n- old", AutoHeading, "- new\n", "## Auto-checkpoint\n- new\n"},
		{"empty content", threeSections, OpenDecisionsHeading, "",
			"intro\n\n## Resume digest\n- Done: a\n\n## Open decisions\n\n## Auto-checkpoint\n- At: t\n"},
		{"free text after a section is part of it", "## Auto-checkpoint\n- At: t\n\nnotes\n", AutoHeading, "- At: u\n", "## Auto-checkpoint\n- At: u\n"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := string(SetSection([]byte(c.body), c.heading, []byte(c.content)))
			if got != c.want {
				t.Errorf("SetSection =\n%q\nwant\n%q", got, c.want)
			}
			again := string(SetSection([]byte(got), c.heading, []byte(c.content)))
			if again != got {
				t.Errorf("not idempotent:\n%q\nthen\n%q", got, again)
			}
		})
	}
}

func TestSetSectionDoesNotAliasInput(t *testing.T) {
	body := []byte(threeSections)
	orig := strings.Clone(threeSections)
	out := SetSection(body[:len(body):len(body)], DigestHeading, []byte("- Done: z\n"))
	out[0] = 'X'
	if string(body) != orig {
		t.Errorf("input modified: %q", body)
	}
}

func TestSetAuto(t *testing.T) {
	auto := []byte("- At: T2 (trigger: manual)\n- Dirty: 0 files\n")
	tests := []struct{ name, body, want string }{
		{"absent: appended",
			"\n## Resume digest\n- Done: x\n",
			"\n## Resume digest\n- Done: x\n\n## Auto-checkpoint\n- At: T2 (trigger: manual)\n- Dirty: 0 files\n"},
		{"replaces the old bullets",
			"## Auto-checkpoint\n- At: T1 (trigger: auto)\n- HEAD: abc\n- Dirty: 3 files\n",
			"## Auto-checkpoint\n- At: T2 (trigger: manual)\n- Dirty: 0 files\n"},
		{"keeps free text appended below the bullets",
			"## Auto-checkpoint\n- At: T1 (trigger: auto)\ndocker_env_status: ready (api, db)\n",
			"## Auto-checkpoint\n- At: T2 (trigger: manual)\n- Dirty: 0 files\ndocker_env_status: ready (api, db)\n"},
		{"keeps the next section",
			"## Auto-checkpoint\n- At: T1\n\n## Notes\nfree\n",
			"## Auto-checkpoint\n- At: T2 (trigger: manual)\n- Dirty: 0 files\n\n## Notes\nfree\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := string(SetAuto([]byte(tt.body), auto)); got != tt.want {
				t.Errorf("SetAuto:\n got %q\nwant %q", got, tt.want)
			}
		})
	}
}
