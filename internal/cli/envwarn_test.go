package cli

import (
	"bytes"
	"strings"
	"testing"

	"github.com/orc-state/orc-state/internal/environ"
)

// TestWarnUnknownEnv: each ORC_* variable orc-state gives no meaning gets
// one stderr line naming the nearest known one; known ones, the tests'
// and other prefixes get none.
func TestWarnUnknownEnv(t *testing.T) {
	for _, c := range []struct {
		env  []string
		want []string
	}{
		{[]string{"ORC_AGENT=alice"}, []string{"orc-state slice claim: warning: $ORC_AGENT is not a variable orc-state reads; did you mean ORC_ACTOR?"}},
		{[]string{"ORC_AGENT_ID=a1"}, []string{"$ORC_AGENT_ID is not a variable orc-state reads; did you mean ORC_ACTOR?"}},
		{[]string{"ORC_SESION=main"}, []string{"did you mean ORC_SESSION?"}},
		{[]string{"ORC_STATEDIR=/x", "ORC_LOCK_TIMOUT=1s"}, []string{"$ORC_STATEDIR is not a variable orc-state reads; did you mean ORC_STATE_DIR?", "$ORC_LOCK_TIMOUT is not a variable orc-state reads; did you mean ORC_LOCK_TIMEOUT?"}},
		{[]string{"ORC_session_id=x"}, []string{"did you mean ORC_SESSION?"}},
		{[]string{"ORC_\x1b[31m=x"}, []string{`$ORC_\x1b[31m is not`}},
		{[]string{"ORC_ACTOR=a", "ORC_SESSION=s", "ORC_STATE_DIR=/x", "ORC_TEST_NOW=x", "ORC_SIM_SEEDS=1", "ORCA=1", "MY_ORC_X=1", "ORC_CONTEXT_CACHED_PWD=/"}, nil},
	} {
		var buf bytes.Buffer
		warnUnknownEnv(&Process{Environ: environ.List(c.env)}, []string{"slice", "claim"}, &buf)
		lines := strings.Split(strings.TrimSuffix(buf.String(), "\n"), "\n")
		if buf.Len() == 0 {
			lines = nil
		}
		if len(lines) != len(c.want) {
			t.Errorf("%q: %d lines, want %d: %q", c.env, len(lines), len(c.want), buf.String())
			continue
		}
		for i, w := range c.want {
			if !strings.Contains(lines[i], w) {
				t.Errorf("%q: line %q does not hold %q", c.env, lines[i], w)
			}
		}
	}
}
