package environ

// The ORC_* variables orc-state gives a meaning, and the nearest of them
// to one it does not.

import "strings"

// knownEnv are the ORC_* variables orc-state, its launcher and the
// original's plugin give a meaning: read by a verb, exported by hook
// session-start for the agent's later calls, or read by bin/orc-state.
// ORC_TEST_* and ORC_SIM_* belong to the tests.
var knownEnv = []string{
	"ORC_ACTOR", "ORC_SESSION", "ORC_STATE_DIR", "ORC_LOCK_TIMEOUT", "ORC_ARCHIVE_WARN_BYTES",
	"ORC_CONTEXT", "ORC_CONTEXT_CACHED", "ORC_CONTEXT_CACHED_PWD", "ORC_REPO_ROOT",
	"ORC_WORKSPACE_ROOT", "ORC_WORKSPACE_NAME", "ORC_WORKSPACE_REPOS",
	"ORC_INTERACTION_POLICY", "ORC_PR_LOC_BUDGET",
	"ORC_STATE_LAUNCHER_DEBUG", "ORC_STATE_LAUNCHER_PROBE", "ORC_STATE_RELEASE_URL", "ORC_STATE_DOWNLOAD_TIMEOUT",
}

// meantEnv are the names people reach for, by what they mean: the agent
// id is ORC_ACTOR (or --agent), the session ORC_SESSION, the folder
// ORC_STATE_DIR. Edit distance alone would not find these.
var meantEnv = map[string]string{
	"AGENT": "ORC_ACTOR", "AGENT_ID": "ORC_ACTOR", "AGENTID": "ORC_ACTOR", "USER": "ORC_ACTOR", "NAME": "ORC_ACTOR",
	"WHO": "ORC_ACTOR", "ID": "ORC_ACTOR", "OWNER": "ORC_ACTOR", "CLAIMANT": "ORC_ACTOR",
	"SESSION_ID": "ORC_SESSION", "SESSIONID": "ORC_SESSION", "SID": "ORC_SESSION", "BRANCH": "ORC_SESSION",
	"DIR": "ORC_STATE_DIR", "STATE": "ORC_STATE_DIR", "STATEDIR": "ORC_STATE_DIR", "HOME": "ORC_STATE_DIR", "ROOT": "ORC_STATE_DIR",
	"TIMEOUT": "ORC_LOCK_TIMEOUT", "LOCK": "ORC_LOCK_TIMEOUT",
}

// Unknown is an ORC_* variable of an environment that orc-state gives
// no meaning, and the known one its name is nearest.
type Unknown struct {
	Name, Nearest string
}

// Unknown lists, in the environment's order, each ORC_* variable of l
// that orc-state gives no meaning (ORC_TEST_* and ORC_SIM_* are the
// tests'), naming the nearest known one: a misspelt identity (ORC_AGENT)
// would otherwise be ignored without a word.
func (l List) Unknown() []Unknown {
	var out []Unknown
	for _, kv := range l {
		name, _, _ := strings.Cut(kv, "=")
		if !strings.HasPrefix(name, "ORC_") || strings.HasPrefix(name, "ORC_TEST_") || strings.HasPrefix(name, "ORC_SIM_") || isKnownEnv(name) {
			continue
		}
		out = append(out, Unknown{Name: name, Nearest: nearestEnv(name)})
	}
	return out
}

func isKnownEnv(name string) bool {
	for _, k := range knownEnv {
		if k == name {
			return true
		}
	}
	return false
}

// nearestEnv is the known variable name is closest to: by meaning when
// meantEnv has its suffix, else by edit distance (case-insensitive).
func nearestEnv(name string) string {
	if m, ok := meantEnv[strings.ToUpper(strings.TrimPrefix(name, "ORC_"))]; ok {
		return m
	}
	best, bestD := knownEnv[0], -1
	for _, k := range knownEnv {
		if d := editDistance(strings.ToUpper(name), k); bestD < 0 || d < bestD {
			best, bestD = k, d
		}
	}
	return best
}

// editDistance is the Levenshtein distance of a and b, in bytes.
func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
