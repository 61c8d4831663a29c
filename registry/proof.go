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
	return proofOf(xxhash.Sum64(data), len(data))
}

// proofOf is the proof line of bytes whose XXH64 is sum and length n.
func proofOf(sum uint64, n int) []byte {
	return fmt.Appendf(nil, "orc-state registry proof %d xxh64 %016x %d\n", proofRules, sum, n)
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
//
// With keys the entries are found first (a byte search, which vouches for
// nothing until the hash matches), so that the hash of the bytes before
// the first of them is kept: MarshalProof then hashes only what follows.
func Read(data, proof []byte, keys ...string) (*Registry, error) {
	if len(keys) == 0 {
		if !Proven(data, proof) {
			return Parse(data)
		}
		return ReadProven(data)
	}
	if len(proof) == 0 {
		return Parse(data) // no proof: no search
	}
	spans := locate(data, keys)
	at := len(data)
	if len(spans) > 0 {
		at = spans[0].start
	}
	d := xxhash.New()
	_, _ = d.Write(data[:at])
	prefix := *d
	_, _ = d.Write(data[at:])
	if !bytes.Equal(proof, proofOf(d.Sum64(), len(data))) {
		return Parse(data)
	}
	r, err := readSpans(data, keys, spans)
	if err == nil && r.part != nil {
		r.part.prefix, r.part.hashed = prefix, at
	}
	return r, err
}

// ReadProven is Read for data that Proven has just vouched for (a reader
// that falls back to something other than the strict parse asks Proven
// itself, and so hashes the bytes once, not twice).
func ReadProven(data []byte, keys ...string) (*Registry, error) {
	if len(keys) == 0 {
		if len(data) <= handDecodeLimit {
			if r, ok := decodeRegistry(data); ok {
				return &r, nil
			}
		}
		var r Registry
		if err := strictjson.Decoded(data, &r); err != nil {
			return Parse(data) // cannot happen for proven bytes; the strict parse says why
		}
		return &r, nil
	}
	return readSpans(data, keys, locate(data, keys))
}

// handDecodeLimit is the size up to which a whole proven registry is
// decoded by hand (decode.go). What the hand decoder saves is json v2's
// set-up, paid once a process; per entry it is slower (10,000 sessions:
// 22 ms against json v2's 16 ms, with half as much memory again), so a
// registry beyond about a hundred sessions is left to json v2.
const handDecodeLimit = 64 << 10

// readSpans decodes, from proven data, the entries at spans whose
// sessionId or gitBranch is one of keys: a partial registry.
func readSpans(data []byte, keys []string, spans []span) (*Registry, error) {
	r := &Registry{Schema: Schema, Sessions: []Session{}, part: &partial{data: data, hashed: -1}}
	for _, sp := range spans {
		s, err := decodeProven(data[sp.start:sp.end])
		if err != nil {
			return Parse(data)
		}
		if slices.Contains(keys, s.SessionID) || slices.Contains(keys, s.GitBranch) {
			r.Sessions = append(r.Sessions, s)
			r.part.spans = append(r.part.spans, sp)
			r.part.ids = append(r.part.ids, s.SessionID)
			r.part.branches = append(r.part.branches, s.GitBranch)
		}
	}
	return r, nil
}

// MarshalProof is Marshal with Proof of the bytes it returns. A registry
// that Read found partial hashes only the bytes from its first entry on:
// those before it are the bytes Read hashed, and their hash was kept.
func (r *Registry) MarshalProof() (data, proof []byte, err error) {
	if data, err = r.Marshal(); err != nil {
		return nil, nil, err
	}
	p := r.part
	if p == nil || p.hashed < 0 {
		return data, Proof(data), nil
	}
	d := p.prefix // a copy: a second Marshal starts from the same state
	_, _ = d.Write(data[p.hashed:])
	return data, proofOf(d.Sum64(), len(data)), nil
}

// partial is what a registry read for some entries keeps of the rest: the
// proven bytes and where its entries lie in them.
type partial struct {
	data     []byte
	spans    []span   // of Sessions[i], in data
	ids      []string // Sessions[i].SessionID as read
	branches []string // Sessions[i].GitBranch as read
	// prefix is the hash state after data[:hashed], which splice copies
	// unchanged (hashed is at most the first span's start); hashed is -1
	// when no hash was kept (ReadProven).
	prefix xxhash.Digest
	hashed int
}

type span struct{ start, end int }

// Partial reports whether r holds only the entries it was read for (Read
// with keys and a matching proof): its Sessions may then be changed in
// place, but not added, removed, renamed or moved to another gitBranch,
// and Marshal keeps every other entry's bytes.
func (r *Registry) Partial() bool { return r.part != nil }

// errPartial is a programming error: a verb that adds, removes or renames
// sessions must read the whole registry.
var errPartial = errors.New("internal error: a registry read for one session cannot add, remove or rename sessions, nor change a gitBranch")

// splice renders a partial registry: the proven bytes with each entry read
// replaced by its canonical rendering, which is what Marshal would write
// for the whole registry. Only the changed entries are encoded; the rest
// is copied, once, into a buffer of the exact size.
//
// What Validate checks of the whole registry still holds of the result
// when it holds of the entries read (Tx validates them before writing):
// the schema is the one read; every other entry is the bytes the whole
// registry was validated with; and the rules across entries (no sessionId
// or gitBranch twice) are kept because no entry read may change either.
func (p *partial) splice(sessions []Session) ([]byte, error) {
	if len(sessions) != len(p.ids) {
		return nil, errPartial
	}
	entries := make([][]byte, len(sessions))
	size := len(p.data)
	for i := range sessions {
		s := &sessions[i]
		if s.SessionID != p.ids[i] || s.GitBranch != p.branches[i] {
			return nil, errPartial
		}
		s.normalize()
		entry, err := marshal(s, entryIndent, "  ")
		if err != nil {
			return nil, err
		}
		entries[i] = bytes.TrimSuffix(entry, []byte("\n"))
		size += len(entries[i]) - (p.spans[i].end - p.spans[i].start)
	}
	out := make([]byte, 0, size)
	if size >= largeBuffer {
		populate(out[:size])
	}
	at := 0
	for i, entry := range entries {
		out = append(out, p.data[at:p.spans[i].start]...)
		out = append(out, entry...)
		at = p.spans[i].end
	}
	return append(out, p.data[at:]...), nil
}

// largeBuffer is the size from which splice has its output's pages
// faulted in ahead (populate): a large registry's.
const largeBuffer = 256 << 10

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
			if sp, ok := entryWithID(data, id); ok {
				out = append(out, sp)
			}
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].start < out[j].start })
	return out
}

// entryWithID returns the span of the entry of proven data whose sessionId
// is id. Proven bytes passed Validate, which refuses a sessionId twice, so
// the search stops at the first.
func entryWithID(data []byte, id string) (span, bool) {
	v, err := marshal(id, "", "")
	if err != nil {
		return span{}, false
	}
	pat := append([]byte(entryFirst), bytes.TrimSuffix(v, []byte("\n"))...)
	pat = append(pat, ",\n"...)
	start := bytes.Index(data, pat)
	if start < 0 {
		return span{}, false
	}
	end := bytes.Index(data[start:], []byte(entryClose))
	if end < 0 {
		return span{}, false
	}
	return span{start: start, end: start + end + len(entryClose)}, true
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
	s, err := decodeProven(data[best.start:best.end])
	if err != nil {
		return nil, false
	}
	return &s, true
}

// decodeProven decodes one entry of proven bytes: by hand (decode.go),
// else by json v2.
func decodeProven(entry []byte) (Session, error) {
	if s, ok := decodeEntry(entry); ok {
		return s, nil
	}
	var s Session
	err := strictjson.Decoded(entry, &s)
	return s, err
}
