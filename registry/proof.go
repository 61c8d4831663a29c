package registry

import (
	"bytes"
	"errors"
	"fmt"
	"slices"
	"sort"

	"github.com/cespare/xxhash/v2"

	"github.com/orc-state/orc-state/internal/strictjson"
)

// A proof lets a reader skip the strict parse of a large orc.json. Whoever
// writes orc.json (under the lock, from Marshal, after Validate) records
// Proof(bytes) beside it. A reader that reads bytes whose Proof equals the
// recorded one knows two things without parsing them: they passed every
// rule Parse applies, and they are laid out exactly as Marshal writes. The
// second is what lets it find one entry by a byte search and decode only
// that one. The proof is a hash of the exact bytes (size,
// mtime or inode would survive a hand edit; a hash does not), so a proof
// that does not match, is stale, torn or missing only costs the full parse.
// The hash guards against accident, not against an adversary: whoever can
// edit orc.json can rewrite its proof as well.
//
// proofRules changes whenever Parse refuses something it accepted before,
// accepts something it refused before, or Marshal's layout changes, so a
// proof written by another build never vouches for bytes that build would
// judge differently. 2: an entry may be keyed by the portable rule
// ("con-" for branch "con"), which builds of rule 1 refuse.
const proofRules = 2

// Proof is the line recorded beside orc.json for data: the rules version,
// the 64-bit xxHash (XXH64) of data and its length. The hash is read on
// every read of the registry, so its speed is a read's cost on a large
// registry: XXH64 runs at 13 GB/s here (0.3 ms for a 10,000-session
// registry) where SHA-256, even with the CPU's SHA extensions, ran at
// 1.6 GB/s (2.6 ms, most of what such a read cost beyond one of a
// 1-session registry). A change of orc.json that keeps its length and
// matches its proof by chance has a probability of 2^-64; a cryptographic
// hash would add nothing, since the proof is not a secret. The package
// has no CPU detection at start-up (BLAKE3's cost every process 0.2-0.5 ms
// on a VM, where each CPUID traps to the hypervisor). A proof naming
// another hash (an older build's SHA-256) only costs one full parse.
func Proof(data []byte) []byte {
	return fmt.Appendf(nil, "orc-state registry proof %d xxh64 %016x %d\n", proofRules, xxhash.Sum64(data), len(data))
}

// Proven reports whether proof vouches for data.
func Proven(data, proof []byte) bool {
	return len(proof) > 0 && bytes.Equal(proof, Proof(data))
}

// Read decodes orc.json. Unless proof vouches for data, it is Parse: the
// strict parse of every entry. With a matching proof nothing is checked
// again, and when keys are given only the entries whose sessionId or
// gitBranch equals one of them are decoded: the registry is then partial
// (see Partial), and Marshal writes the other entries back byte for byte.
func Read(data, proof []byte, keys ...string) (*Registry, error) {
	if !Proven(data, proof) {
		return Parse(data)
	}
	return ReadProven(data, keys...)
}

// ReadProven is Read for data that Proven has just vouched for (a reader
// that falls back to something other than the strict parse asks Proven
// itself, and so hashes the bytes once, not twice).
func ReadProven(data []byte, keys ...string) (*Registry, error) {
	if len(keys) == 0 {
		var r Registry
		if err := strictjson.Decoded(data, &r); err != nil {
			return Parse(data) // cannot happen for proven bytes; the strict parse says why
		}
		return &r, nil
	}
	r := &Registry{Schema: Schema, Sessions: []Session{}, part: &partial{data: data}}
	for _, sp := range locate(data, keys) {
		var s Session
		if err := strictjson.Decoded(data[sp.start:sp.end], &s); err != nil {
			return Parse(data)
		}
		if slices.Contains(keys, s.SessionID) || slices.Contains(keys, s.GitBranch) {
			r.Sessions = append(r.Sessions, s)
			r.part.spans = append(r.part.spans, sp)
			r.part.ids = append(r.part.ids, s.SessionID)
		}
	}
	return r, nil
}

// partial is what a registry read for some entries keeps of the rest: the
// proven bytes and where its entries lie in them.
type partial struct {
	data  []byte
	spans []span   // of Sessions[i], in data
	ids   []string // Sessions[i].SessionID as read
}

type span struct{ start, end int }

// Partial reports whether r holds only the entries it was read for (Read
// with keys and a matching proof): its Sessions may then be changed in
// place, but not added, removed or renamed, and Marshal keeps every other
// entry's bytes.
func (r *Registry) Partial() bool { return r.part != nil }

// errPartial is a programming error: a verb that adds or removes sessions
// must read the whole registry.
var errPartial = errors.New("internal error: a registry read for one session cannot add, remove or rename sessions")

// splice renders a partial registry: the proven bytes with each entry read
// replaced by its canonical rendering, which is what Marshal would write
// for the whole registry. Only the changed entries are encoded; the rest
// is copied.
func (p *partial) splice(sessions []Session) ([]byte, error) {
	if len(sessions) != len(p.ids) {
		return nil, errPartial
	}
	out := make([]byte, 0, len(p.data)+512)
	at := 0
	for i := range sessions {
		s := &sessions[i]
		if s.SessionID != p.ids[i] {
			return nil, errPartial
		}
		s.normalize()
		entry, err := marshal(s, entryIndent, "  ")
		if err != nil {
			return nil, err
		}
		out = append(out, p.data[at:p.spans[i].start]...)
		out = append(out, bytes.TrimSuffix(entry, []byte("\n"))...)
		at = p.spans[i].end
	}
	return append(out, p.data[at:]...), nil
}

// Marshal's layout, which a proven file has: each entry starts on a line
// "    {", its members are on lines of their own indented by six spaces,
// sessionId first, and it ends on a line "    }" (nested values are
// indented deeper, and a JSON string holds no raw newline). So an entry is
// found by a byte search for its first line and member, and its end by the
// nearest closing line. The search starts with "{", a byte that opens each
// entry and few other things, which keeps it close to a memchr.
const (
	entryIndent = "    "
	entryOpen   = "\n" + entryIndent + "{"
	entryClose  = "\n" + entryIndent + "}"
	memberLead  = "\n" + entryIndent + "  "
	entryFirst  = "{" + memberLead + `"sessionId": `
)

// locate returns, in file order, the spans of the entries of proven data
// whose sessionId or gitBranch equals one of keys. A valid registry's
// sessionId is one of Keys(gitBranch), so the entries with gitBranch k are
// among those with such a sessionId: one search per distinct sessionId,
// then the decoded entries are filtered (see Read).
func locate(data []byte, keys []string) []span {
	ids := map[string]bool{}
	var out []span
	for _, key := range keys {
		for _, id := range append([]string{key}, Keys(key)...) {
			if ids[id] {
				continue
			}
			ids[id] = true
			out = append(out, entriesWithID(data, id)...)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].start < out[j].start })
	return out
}

// entriesWithID returns the spans of the entries of proven data whose
// sessionId is id.
func entriesWithID(data []byte, id string) []span {
	v, err := marshal(id, "", "")
	if err != nil {
		return nil
	}
	pat := append([]byte(entryFirst), bytes.TrimSuffix(v, []byte("\n"))...)
	pat = append(pat, ",\n"...)
	var out []span
	for from := 0; ; {
		i := bytes.Index(data[from:], pat)
		if i < 0 {
			return out
		}
		start := from + i
		end := bytes.Index(data[start:], []byte(entryClose))
		if end < 0 {
			return out
		}
		out = append(out, span{start: start, end: start + end + len(entryClose)})
		from = start + len(pat)
	}
}

// NewestLive returns, from proven data, the entry a statusline shows when
// the branch has no live session of its own: the in_progress entry with
// the latest updatedAt (the first of equals). It decodes that one entry
// only.
func NewestLive(data []byte) (*Session, bool) {
	first := []byte(entryFirst)
	live := []byte(memberLead + `"status": "in_progress",` + "\n")
	updated := []byte(memberLead + `"updatedAt": "`)
	best, bestAt := span{}, ""
	for from := 0; ; {
		i := bytes.Index(data[from:], first)
		if i < 0 {
			break
		}
		start := from + i
		end := bytes.Index(data[start:], []byte(entryClose))
		if end < 0 {
			break
		}
		entry := data[start : start+end]
		from = start + end
		if !bytes.Contains(entry, live) {
			continue
		}
		u := bytes.Index(entry, updated)
		if u < 0 {
			continue
		}
		t := entry[u+len(updated):]
		if q := bytes.IndexByte(t, '"'); q >= 0 {
			if s := string(t[:q]); s > bestAt {
				best, bestAt = span{start: start, end: start + end + len(entryClose)}, s
			}
		}
	}
	if bestAt == "" {
		return nil, false
	}
	var s Session
	if err := strictjson.Decoded(data[best.start:best.end], &s); err != nil {
		return nil, false
	}
	return &s, true
}
