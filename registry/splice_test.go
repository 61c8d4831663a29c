package registry

import (
	"bytes"
	"fmt"
	"math/rand"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/orc-state/orc-state/internal/textin"
)

// spliceText is the raw material of generated free text: JSON escapes,
// HTML characters Marshal leaves unescaped, multi-byte UTF-8, and pieces
// of Marshal's own layout that a byte search must not take for an entry.
var spliceText = []string{"a", "é", "\"", "\\", "<>&", "{", "}", "    {", "    }",
	`"sessionId": "main",`, "\u00a0", " ", "main", "💥", "/"}

// genText is a short string of spliceText pieces, with extra (the fuzzer's
// own text) among them.
func genText(rng *rand.Rand, extra string) string {
	var b strings.Builder
	for n := rng.Intn(5); n > 0; n-- {
		if rng.Intn(4) == 0 {
			b.WriteString(extra)
		} else {
			b.WriteString(spliceText[rng.Intn(len(spliceText))])
		}
	}
	return b.String()
}

// genBranches are branch shapes whose keys take every path of Sanitize: a
// device name, a trailing dot, bytes mapped to '-', case twins.
var genBranches = []string{"main", "feat/x", "feat-x", "con", "CON", "aux.v2", "v1.", "é", "a.b", "x_y", "nul.a/b", "Main"}

// genRegistry is a valid registry of 1 to 30 random entries (a branch
// whose key another entry holds, or that is no key, is skipped).
func genRegistry(rng *rand.Rand, n int, extra string) *Registry {
	r := &Registry{Schema: Schema, Sessions: []Session{}}
	ids, branches := map[string]bool{}, map[string]bool{}
	for i := 0; i < n; i++ {
		branch := genBranches[rng.Intn(len(genBranches))]
		if rng.Intn(2) == 0 {
			branch = fmt.Sprintf("%s/%d", branch, rng.Intn(1000))
		}
		id, err := KeyFor(branch)
		if err != nil || ids[id] || branches[branch] {
			continue
		}
		ids[id], branches[branch] = true, true
		s := Session{SessionID: id, Branch: id, GitBranch: branch, Command: "flow", Status: Statuses[rng.Intn(len(Statuses))],
			TotalPhases: 1 + rng.Intn(9), Description: genText(rng, extra), LinkedPRs: []PR{},
			StartedAt: "2026-01-02T03:04:05Z", UpdatedAt: fmt.Sprintf("2026-01-%02dT03:04:05Z", 1+rng.Intn(28))}
		s.Phase = Phase{N: 1 + rng.Intn(s.TotalPhases)}
		for k := 0; k < 6; k++ {
			if rng.Intn(3) == 0 {
				genEdit(rng, &s, k, extra)
			}
		}
		r.Sessions = append(r.Sessions, s)
	}
	return r
}

// genEdit is one valid change of s, of kind k: what the verbs that write
// one entry do (phase, status, description, link-pr, repo set, gate
// record, a label cleared), with random values.
func genEdit(rng *rand.Rand, s *Session, k int, extra string) {
	switch k % 8 {
	case 0:
		if rng.Intn(3) == 0 {
			s.Phase = Phase{Done: true}
		} else {
			s.Phase = Phase{N: 1 + rng.Intn(s.TotalPhases)}
		}
	case 1:
		s.Status = Statuses[rng.Intn(len(Statuses))]
		s.UpdatedAt = fmt.Sprintf("2027-%02d-01T00:00:00Z", 1+rng.Intn(12))
	case 2:
		s.Description = genText(rng, extra)
	case 3:
		n := rng.Intn(3)
		s.LinkPR(PR{Repo: genText(rng, extra) + "r", URL: fmt.Sprintf("https://example.com/%d", rng.Intn(4)), Number: &n, StackID: Str(genText(rng, extra))})
	case 4:
		s.Scope, s.Repos = ScopeWorkspace, append(s.Repos, "r"+genText(rng, extra))
		slice := rng.Intn(5)
		s.SetRepo(genText(rng, extra), RepoState{RepoPath: "p" + genText(rng, extra), Branch: "b", CurrentSlice: &slice})
	case 5:
		if s.Gate == nil {
			s.Gate = &Gate{}
		}
		s.Gate.Verdicts = append(s.Gate.Verdicts, Verdict{Phase: 1, Verdict: Verdicts[rng.Intn(len(Verdicts))],
			Note: genText(rng, extra), At: "2027-01-01T00:00:00Z"})
		if s.Gate.Retries == nil {
			s.Gate.Retries = map[string]int{}
		}
		s.Gate.Retries[fmt.Sprint(1+rng.Intn(3))]++
	case 6:
		s.PhaseLabel, s.PlanFile, s.JiraTicket = Str(genText(rng, extra)), Str("plan.md"), Str(fmt.Sprintf("AB-%d", rng.Intn(99)))
	case 7:
		s.PhaseLabel, s.PlanFile, s.JiraTicket, s.LinkedPRs, s.Gate = nil, nil, nil, nil, nil
	}
}

// checkSplice reads the marshaled whole, proven, for one entry (by its
// sessionId or its gitBranch), applies edits to it and to the whole, and
// requires the partial rendering and its proof to be the whole Marshal's
// bytes and their Proof, for edits rounds in a row (each read from the
// bytes and proof the one before wrote).
func checkSplice(t *testing.T, rng *rand.Rand, whole *Registry, extra string, rounds int) {
	t.Helper()
	data, err := whole.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Parse(data); err != nil {
		t.Fatalf("generated registry is invalid: %v\n%s", err, data)
	}
	proof := Proof(data)
	for round := 0; round < rounds && len(whole.Sessions) > 0; round++ {
		i := rng.Intn(len(whole.Sessions))
		key := whole.Sessions[i].SessionID
		if rng.Intn(2) == 0 {
			key = whole.Sessions[i].GitBranch
		}
		part, err := Read(data, proof, key)
		if err != nil || !part.Partial() {
			t.Fatalf("round %d: Read(%q) = %+v, %v", round, key, part, err)
		}
		var got *Session
		for j := range part.Sessions {
			if part.Sessions[j].SessionID == whole.Sessions[i].SessionID {
				got = &part.Sessions[j]
			}
		}
		if got == nil {
			t.Fatalf("round %d: Read(%q) misses entry %q", round, key, whole.Sessions[i].SessionID)
		}
		for e := rng.Intn(3); e >= 0; e-- {
			k := rng.Intn(8)
			state := rng.Int63()
			genEdit(rand.New(rand.NewSource(state)), got, k, extra)
			genEdit(rand.New(rand.NewSource(state)), &whole.Sessions[i], k, extra)
		}
		want, err := whole.Marshal()
		if err != nil {
			t.Fatal(err)
		}
		spliced, sprood, err := part.MarshalProof()
		if err != nil {
			t.Fatalf("round %d: MarshalProof: %v", round, err)
		}
		if !bytes.Equal(spliced, want) {
			t.Fatalf("round %d: the splice differs from the whole Marshal:\n%s\n---\n%s", round, spliced, want)
		}
		if !bytes.Equal(sprood, Proof(want)) {
			t.Fatalf("round %d: MarshalProof's proof %q; Proof of the bytes %q", round, sprood, Proof(want))
		}
		if _, err := Parse(spliced); err != nil {
			t.Fatalf("round %d: the spliced registry does not parse: %v", round, err)
		}
		data, proof = spliced, sprood
	}
}

// TestSpliceIsTheWholeMarshal: a one-entry change written by splicing into
// the proven bytes is byte for byte what Marshal of the whole registry
// writes, with the same proof, over generated registries and edits.
func TestSpliceIsTheWholeMarshal(t *testing.T) {
	for seed := int64(0); seed < 200; seed++ {
		t.Run(fmt.Sprint(seed), func(t *testing.T) {
			rng := rand.New(rand.NewSource(seed))
			checkSplice(t, rng, genRegistry(rng, 1+int(seed%30), "x"), "x", 8)
		})
	}
}

// FuzzSpliceIsTheWholeMarshal is TestSpliceIsTheWholeMarshal with the
// fuzzer choosing the generator's seed, the registry's size and a piece of
// the free text.
func FuzzSpliceIsTheWholeMarshal(f *testing.F) {
	f.Add(int64(1), uint8(3), "x")
	f.Add(int64(7), uint8(30), "\"sessionId\": \"main\",    }")
	f.Add(int64(42), uint8(12), "é\"\\<")
	f.Fuzz(func(t *testing.T, seed int64, n uint8, extra string) {
		if textin.SingleLine("text", extra) != nil || utf8.RuneCountInString(extra) > 25 {
			t.Skip() // a registry holding it would be refused: no proof vouches for one
		}
		rng := rand.New(rand.NewSource(seed))
		checkSplice(t, rng, genRegistry(rng, 1+int(n%40), extra), extra, 4)
	})
}
