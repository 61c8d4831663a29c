package registry

import (
	"bytes"
	"crypto/sha256"
	"fmt"
	"reflect"
	"strings"
	"testing"
)

// proofSeeds are canonical registries whose entries try to confuse the
// byte search of a proven file: keys needing JSON escapes, a repository
// named sessionId, free text that spells a member line, a sessionId that is
// another entry's gitBranch, workspace members and gates.
func proofSeeds(t testing.TB) [][]byte {
	entry := func(branch string, edit func(*Session)) Session {
		s := Session{SessionID: Sanitize(branch), Branch: Sanitize(branch), GitBranch: branch, Command: "flow",
			Status: "in_progress", Phase: Phase{N: 1}, TotalPhases: 3, LinkedPRs: []PR{},
			StartedAt: "2026-01-02T03:04:05Z", UpdatedAt: "2026-01-02T03:04:05Z"}
		if edit != nil {
			edit(&s)
		}
		return s
	}
	regs := []Registry{
		{Schema: 1, Sessions: []Session{}},
		{Schema: 1, Sessions: []Session{entry("main", nil)}},
		{Schema: 1, Sessions: []Session{
			entry("feat/x", func(s *Session) { s.Description = "      \"sessionId\": \"main\",    {    }" }),
			entry("main", func(s *Session) { s.Status = "paused"; s.UpdatedAt = "2026-03-01T00:00:00Z" }),
			entry("feat-x2", func(s *Session) {
				s.Scope, s.Repos = "workspace", []string{"sessionId", "gitBranch"}
				s.PerRepoState = map[string]RepoState{"sessionId": {RepoPath: "main", Branch: "main"}}
				s.Gate = &Gate{Verdicts: []Verdict{{Phase: 1, Verdict: "approved", At: "2026-01-02T03:04:05Z", Note: "    }"}}, Retries: map[string]int{"1": 2}}
			}),
			entry("é\"quote<>&", func(s *Session) { s.UpdatedAt = "2026-02-01T00:00:00Z" }),
			entry("con", func(s *Session) { s.SessionID, s.Branch = "con", "con" }),             // an earlier version's key
			entry("nul.a/b", func(s *Session) { s.SessionID, s.Branch = "nul.a-b", "nul.a-b" }), // found only by its original key
			entry("aux.v2", nil),
			entry("v1.", nil),
			entry("z", func(s *Session) {
				s.PhaseLabel, s.JiraTicket, s.PlanFile = Str("plan"), Str("AB-1"), Str("p.md")
				s.LinkedPRs = []PR{{Repo: "r", URL: "u"}}
				s.Phase = Phase{Done: true}
			}),
		}},
	}
	var out [][]byte
	for i := range regs {
		b, err := regs[i].Marshal()
		if err != nil {
			t.Fatal(err)
		}
		if _, err := Parse(b); err != nil {
			t.Fatalf("seed %d is invalid: %v\n%s", i, err, b)
		}
		out = append(out, b)
	}
	return out
}

// candidates is what a partial read for keys must hold: every entry whose
// sessionId or gitBranch is one of keys, in file order.
func candidates(r *Registry, keys []string) []Session {
	out := []Session{}
	for _, s := range r.Sessions {
		for _, k := range keys {
			if s.SessionID == k || s.GitBranch == k {
				out = append(out, s)
				break
			}
		}
	}
	return out
}

// newestLive is NewestLive by brute force over the whole registry.
func newestLive(r *Registry) *Session {
	var best *Session
	for i := range r.Sessions {
		s := &r.Sessions[i]
		if s.Status == "in_progress" && (best == nil || s.UpdatedAt > best.UpdatedAt) {
			best = s
		}
	}
	return best
}

// checkAgreement holds Read, given proven or stale proofs, to what the full
// strict parse says about data: the same entries for keys, the same
// refusal, the same bytes after an edit.
func checkAgreement(t *testing.T, data []byte, keys []string, edit int) {
	t.Helper()
	full, ferr := Parse(data)
	// No proof, a garbage proof, a proof of other bytes: the strict parse.
	for _, proof := range [][]byte{nil, []byte("x"), Proof(append([]byte(" "), data...))} {
		got, err := Read(data, proof, keys...)
		if fmt.Sprint(err) != fmt.Sprint(ferr) || (err == nil && (got.Partial() || !reflect.DeepEqual(got, full))) {
			t.Fatalf("Read with a proof of other bytes = %v, %v; Parse = %v, %v", got, err, full, ferr)
		}
	}
	if ferr != nil {
		return
	}
	again, _ := Parse(data) // Marshal fills empty lists in: keep full as parsed
	canon, err := again.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	proof := Proof(canon)
	if !bytes.Equal(canon, data) {
		if got, err := Read(data, proof, keys...); err != nil || got.Partial() || !reflect.DeepEqual(got, full) {
			t.Fatalf("the proof of the canonical form vouched for other bytes: %v, %v", got, err)
		}
	}
	whole, err := Parse(canon)
	if err != nil {
		t.Fatal(err)
	}
	all, err := Read(canon, proof)
	if err != nil || all.Partial() || !reflect.DeepEqual(normalize(all), normalize(whole)) {
		t.Fatalf("proven Read without keys = %+v, %v; want %+v", all, err, whole)
	}
	part, err := Read(canon, proof, keys...)
	if err != nil {
		t.Fatalf("proven Read: %v", err)
	}
	want := candidates(whole, keys)
	if !reflect.DeepEqual(normalize(&Registry{Schema: 1, Sessions: part.Sessions}), normalize(&Registry{Schema: 1, Sessions: want})) {
		t.Fatalf("proven Read for %q = %+v, want %+v", keys, part.Sessions, want)
	}
	wantLive := newestLive(whole)
	gotLive, ok := NewestLive(canon)
	if (wantLive == nil) != !ok || (ok && gotLive.SessionID != wantLive.SessionID) {
		t.Fatalf("NewestLive = %v, %v; want %v", gotLive, ok, wantLive)
	}
	// An edit through the partial registry writes what an edit of the
	// whole one writes.
	for i := range part.Sessions {
		change(&part.Sessions[i], edit)
		for j := range whole.Sessions {
			if whole.Sessions[j].SessionID == part.Sessions[i].SessionID {
				change(&whole.Sessions[j], edit)
			}
		}
	}
	got, err := part.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	wantBytes, err := whole.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, wantBytes) {
		t.Fatalf("spliced registry differs from the marshaled one:\n%s\n---\n%s", got, wantBytes)
	}
	checkMarshalProof(t, part, wantBytes)
	checkMarshalProof(t, whole, wantBytes)
	if _, err := Parse(got); err != nil {
		t.Fatalf("spliced registry does not parse: %v\n%s", err, got)
	}
}

// checkMarshalProof holds MarshalProof to Marshal and Proof: the bytes of
// the whole Marshal and the proof of exactly those bytes, twice in a row
// (the hash kept from the read is not used up by the first).
func checkMarshalProof(t *testing.T, r *Registry, want []byte) {
	t.Helper()
	for range 2 {
		data, proof, err := r.MarshalProof()
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(data, want) || !bytes.Equal(proof, Proof(want)) {
			t.Fatalf("MarshalProof = %q, %q; want the whole Marshal and its Proof %q", data, proof, Proof(want))
		}
	}
}

// change is a valid edit of an entry, one of several kinds.
func change(s *Session, kind int) {
	switch kind % 5 {
	case 0:
		s.UpdatedAt = "2027-01-01T00:00:00Z"
	case 1:
		s.LinkedPRs = append(s.LinkedPRs, PR{Repo: "bench", URL: fmt.Sprintf("https://example.com/%s/%d", s.SessionID, len(s.LinkedPRs))})
	case 2:
		s.Description = strings.Repeat("é", kind%7) + " \"}\\"
	case 3:
		s.Phase, s.PhaseLabel = Phase{Done: true}, nil
	case 4:
		s.Gate = &Gate{Verdicts: []Verdict{{Phase: 1, Verdict: "changes_requested", At: "2027-01-01T00:00:00Z"}}}
	}
}

func TestReadProvenAgreesWithParse(t *testing.T) {
	for i, data := range append(proofSeeds(t), readTestdata(t, "full.json")) {
		whole, err := Parse(data)
		if err != nil {
			t.Fatal(err)
		}
		keySets := [][]string{{"main"}, {"nope"}, {"feat/x", "feat-x"}, {"feat-x2"}, {"sessionId"}}
		for _, s := range whole.Sessions {
			keySets = append(keySets, []string{s.GitBranch, Sanitize(s.GitBranch)}, []string{s.SessionID})
		}
		for j, keys := range keySets {
			for edit := 0; edit < 5; edit++ {
				t.Run(fmt.Sprintf("seed%d/keys%d/edit%d", i, j, edit), func(t *testing.T) {
					checkAgreement(t, data, keys, edit)
				})
			}
		}
	}
}

// TestPartialRefusesAddingAndRemoving: a registry read for one entry
// cannot write a change to the set of entries or to an entry's identity,
// the one thing the rules across entries (no sessionId or gitBranch twice)
// depend on.
func TestPartialRefusesAddingAndRemoving(t *testing.T) {
	data := proofSeeds(t)[2]
	for name, edit := range map[string]func(r *Registry){
		"add":    func(r *Registry) { r.Sessions = append(r.Sessions, r.Sessions[0]) },
		"remove": func(r *Registry) { r.Remove(r.Sessions[0].SessionID) },
		"rename": func(r *Registry) { r.Sessions[0].SessionID = "other" },
		// Another entry may hold that gitBranch: only the whole registry's
		// Validate would see the two.
		"move": func(r *Registry) { r.Sessions[0].GitBranch = "feat/x" },
	} {
		t.Run(name, func(t *testing.T) {
			r, err := Read(data, Proof(data), "main")
			if err != nil || !r.Partial() || len(r.Sessions) != 1 {
				t.Fatalf("Read = %+v, %v", r, err)
			}
			edit(r)
			if _, err := r.Marshal(); err == nil {
				t.Fatal("Marshal of a partial registry with an entry added, removed or renamed succeeded")
			}
		})
	}
}

func TestProofIsOfTheExactBytes(t *testing.T) {
	data := proofSeeds(t)[1]
	proof := Proof(data)
	if !Proven(data, proof) {
		t.Fatal("a proof does not vouch for its own bytes")
	}
	for _, other := range [][]byte{append(data, ' '), bytes.Replace(data, []byte("flow"), []byte("flox"), 1), data[:len(data)-1], nil} {
		if Proven(other, proof) {
			t.Fatalf("the proof vouched for other bytes: %q", other)
		}
	}
	if Proven(data, proof[:len(proof)-2]) || Proven(data, nil) {
		t.Fatal("a torn or missing proof vouched")
	}
}

// FuzzReadAgreesWithParse: on any input, what Read returns (the fast path:
// a proof beside the file, one entry decoded) agrees with the full strict
// parse: the same entries for the keys, the same refusal when the proof is
// missing, stale or of other bytes, and the same bytes after an edit.
func FuzzReadAgreesWithParse(f *testing.F) {
	for _, s := range append(proofSeeds(f), fuzzSeeds(f)...) {
		f.Add(s, "main", 0)
		f.Add(s, "feat/x", 1)
	}
	f.Fuzz(func(t *testing.T, data []byte, key string, edit int) {
		if edit < 0 {
			edit = -edit
		}
		keys := []string{key, Sanitize(key)}
		if r, err := Parse(data); err == nil && len(r.Sessions) > 0 {
			s := r.Sessions[edit%len(r.Sessions)]
			keys = append(keys, s.GitBranch)
		}
		checkAgreement(t, data, keys, edit)
	})
}

// TestAnOlderBuildsProofCostsOneStrictParse: the proof an earlier build
// wrote (a SHA-256 line of the same bytes, an older rules version) vouches
// for nothing, so the registry is parsed strictly, as with no proof, and a
// file that the strict parse refuses is still refused.
func TestAnOlderBuildsProofCostsOneStrictParse(t *testing.T) {
	data := proofSeeds(t)[1]
	sum := sha256.Sum256(data)
	for _, proof := range [][]byte{
		fmt.Appendf(nil, "orc-state registry proof %d sha256 %x %d\n", proofRules, sum, len(data)),
		fmt.Appendf(nil, "orc-state registry proof %d sha256 %x %d\n", proofRules-1, sum, len(data)),
	} {
		if Proven(data, proof) {
			t.Fatalf("an older build's proof vouched: %q", proof)
		}
		got, err := Read(data, proof, "main")
		if err != nil || got.Partial() {
			t.Fatalf("Read with an older build's proof = %+v, %v; want the whole strict parse", got, err)
		}
		bad := append(bytes.Clone(data), '}')
		badSum := sha256.Sum256(bad)
		old := fmt.Appendf(nil, "orc-state registry proof %d sha256 %x %d\n", proofRules, badSum, len(bad))
		_, perr := Parse(bad)
		if _, err := Read(bad, old, "main"); perr == nil || fmt.Sprint(err) != fmt.Sprint(perr) {
			t.Fatalf("Read of invalid bytes with an older build's proof = %v; Parse = %v", err, perr)
		}
	}
}

// TestLargeSpliceIsTheWholeMarshal: the rewrite of a large registry (over
// 256 KiB, the size from which orc.json is read through a mapping) read for
// one entry and changed in place is byte for byte what Marshal writes for
// the whole registry with the same change, twice in a row.
func TestLargeSpliceIsTheWholeMarshal(t *testing.T) {
	whole := &Registry{Schema: 1, Sessions: []Session{}}
	for i := 0; i < 2000; i++ {
		b := fmt.Sprintf("b%05d", i)
		whole.Sessions = append(whole.Sessions, Session{SessionID: b, Branch: b, GitBranch: b, Command: "flow",
			Status: "in_progress", Phase: Phase{N: 1}, TotalPhases: 9, LinkedPRs: []PR{},
			StartedAt: "2026-01-02T03:04:05Z", UpdatedAt: "2026-01-02T03:04:05Z"})
	}
	data, err := whole.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	if len(data) < 256<<10 {
		t.Fatalf("the registry is %d bytes; the test needs more than 256 KiB", len(data))
	}
	for _, phase := range []int{2, 3} {
		part, err := Read(data, Proof(data), "b01234")
		if err != nil || !part.Partial() || len(part.Sessions) != 1 {
			t.Fatalf("Read = %+v, %v", part, err)
		}
		part.Sessions[0].Phase = Phase{N: phase}
		got, err := part.Marshal()
		if err != nil {
			t.Fatal(err)
		}
		whole.Sessions[1234].Phase = Phase{N: phase}
		want, err := whole.Marshal()
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Fatalf("phase %d: the splice differs from the whole Marshal", phase)
		}
		data = got
	}
}
