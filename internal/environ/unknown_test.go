package environ

import (
	"reflect"
	"strings"
	"testing"
)

// Each ORC_* variable orc-state gives no meaning is listed once with the
// known name nearest it, by meaning (ORC_AGENT: the agent is ORC_ACTOR)
// before edit distance; known ones, the tests' and other prefixes are not.
func TestUnknownNamesTheNearestKnownVariable(t *testing.T) {
	for _, c := range []struct {
		env  List
		want []Unknown
	}{
		{List{"ORC_AGENT=alice"}, []Unknown{{"ORC_AGENT", "ORC_ACTOR"}}},
		{List{"ORC_AGENT_ID=a1"}, []Unknown{{"ORC_AGENT_ID", "ORC_ACTOR"}}},
		{List{"ORC_SESION=main"}, []Unknown{{"ORC_SESION", "ORC_SESSION"}}},
		{List{"ORC_STATEDIR=/x", "ORC_LOCK_TIMOUT=1s"}, []Unknown{{"ORC_STATEDIR", "ORC_STATE_DIR"}, {"ORC_LOCK_TIMOUT", "ORC_LOCK_TIMEOUT"}}},
		{List{"ORC_session_id=x"}, []Unknown{{"ORC_session_id", "ORC_SESSION"}}},
		{List{"ORC_ACTOR=a", "ORC_SESSION=s", "ORC_STATE_DIR=/x", "ORC_TEST_NOW=x", "ORC_SIM_SEEDS=1", "ORCA=1", "MY_ORC_X=1", "ORC_CONTEXT_CACHED_PWD=/"}, nil},
	} {
		if got := c.env.Unknown(); !reflect.DeepEqual(got, c.want) {
			t.Errorf("%q: Unknown() = %q, want %q", c.env, got, c.want)
		}
	}
}

// The edit distance counts bytes inserted, deleted and replaced.
func TestEditDistance(t *testing.T) {
	for _, c := range []struct {
		a, b string
		want int
	}{{"", "", 0}, {"abc", "", 3}, {"kitten", "sitting", 3}, {"ORC_SESION", "ORC_SESSION", 1}} {
		if got := editDistance(c.a, c.b); got != c.want {
			t.Errorf("editDistance(%q, %q) = %d, want %d", c.a, c.b, got, c.want)
		}
	}
}

// BenchmarkUnknown is its cost on every verb, with an environment of 60
// variables (one of them ORC_*, known).
func BenchmarkUnknown(b *testing.B) {
	env := List{"ORC_ACTOR=a"}
	for i := 0; i < 59; i++ {
		env = append(env, "SOME_VARIABLE_NAME_"+strings.Repeat("x", i%7)+"=value")
	}
	for i := 0; i < b.N; i++ {
		_ = env.Unknown()
	}
}
