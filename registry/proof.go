package registry

import (
	"bytes"
	"errors"
	"fmt"
	"sort"

	"lukechampine.com/blake3"

	"github.com/orc-state/orc-state/internal/strictjson"
)

// A proof lets a reader skip the strict parse of a large orc.json. Whoever
// writes orc.json (under the lock, from Marshal, after Validate) records
// Proof(bytes) beside it. A reader that reads bytes whose Proof equals the
// recorded one knows two things without parsing them: they passed every
// rule Parse applies, and they are laid out exactly as Marshal writes. The
// second is what lets it find one entry by a byte search and decode only
// that one. The proof is a cryptographic hash of the exact bytes (size,
// mtime or inode would survive a hand edit; a hash does not), so a proof
// that does not match, is stale, torn or missing only costs the full parse.
//
// proofRules changes whenever Parse refuses something it accepted before or
// Marshal's layout changes, so a proof written by another build never
// vouches for bytes this build would judge differently.
const proofRules = 1

// Proof is the line recorded beside orc.json for data: the rules version,
// the BLAKE3 hash of data and its length.
func Proof(data []byte) []byte {
	sum := blake3.Sum256(data)
	return fmt.Appendf(nil, "orc-state registry proof %d blake3 %x %d\n", proofRules, sum, len(data))
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
	if len(keys) == 0 {
		var r Registry
		if err := strictjson.Decoded(data, &r); err != nil {
			return Parse(data) // cannot happen for proven bytes; the strict parse says why
		}
		return &r, nil
	}
	spans := locate(data, keys)
	r := &Registry{Schema: Schema, Sessions: make([]Session, len(spans)),
		part: &partial{data: data, spans: spans, ids: make([]string, len(spans))}}
	for i, sp := range spans {
		if err := strictjson.Decoded(data[sp.start:sp.end], &r.Sessions[i]); err != nil {
			return Parse(data)
		}
		r.part.ids[i] = r.Sessions[i].SessionID
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
// and it ends on a line "    }" (nested values are indented deeper, and a
// JSON string holds no raw newline). So a member line of an entry is
// found by a byte search, and the entry around it by the nearest such
// lines.
const (
	entryIndent = "    "
	entryOpen   = "\n" + entryIndent + "{"
	entryClose  = "\n" + entryIndent + "}"
	memberLead  = "\n" + entryIndent + "  "
)

// locate returns, in file order, the spans of the entries of proven data
// whose sessionId or gitBranch equals one of keys.
func locate(data []byte, keys []string) []span {
	seen := map[int]bool{}
	var out []span
	for _, key := range keys {
		for _, field := range [...]string{"sessionId", "gitBranch"} {
			for _, sp := range memberSpans(data, field, key) {
				if !seen[sp.start] {
					seen[sp.start] = true
					out = append(out, sp)
				}
			}
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].start < out[j].start })
	return out
}

// memberSpans returns the spans of the entries of proven data that have
// the string member field: value (both members are followed by another).
func memberSpans(data []byte, field, value string) []span {
	v, err := marshal(value, "", "")
	if err != nil {
		return nil
	}
	pat := append([]byte(memberLead+`"`+field+`": `), bytes.TrimSuffix(v, []byte("\n"))...)
	pat = append(pat, ",\n"...)
	var out []span
	for from := 0; ; {
		i := bytes.Index(data[from:], pat)
		if i < 0 {
			return out
		}
		at := from + i
		if sp, ok := entryAround(data, at); ok {
			out = append(out, sp)
		}
		from = at + len(pat)
	}
}

// entryAround returns the span of the entry holding the member line at at.
func entryAround(data []byte, at int) (span, bool) {
	open := bytes.LastIndex(data[:at], []byte(entryOpen))
	end := bytes.Index(data[at:], []byte(entryClose))
	if open < 0 || end < 0 {
		return span{}, false
	}
	return span{start: open + len(entryOpen) - 1, end: at + end + len(entryClose)}, true
}

// NewestLive returns, from proven data, the entry a statusline shows when
// the branch has no live session of its own: the in_progress entry with
// the latest updatedAt (the first of equals). It decodes that one entry
// only.
func NewestLive(data []byte) (*Session, bool) {
	pat := []byte(memberLead + `"status": "in_progress",` + "\n")
	updated := []byte(memberLead + `"updatedAt": "`)
	best, bestAt := span{}, ""
	for from := 0; ; {
		i := bytes.Index(data[from:], pat)
		if i < 0 {
			break
		}
		at := from + i
		from = at + len(pat)
		sp, ok := entryAround(data, at)
		if !ok {
			continue
		}
		u := bytes.Index(data[at:sp.end], updated)
		if u < 0 {
			continue
		}
		t := data[at+u+len(updated):]
		if q := bytes.IndexByte(t, '"'); q >= 0 {
			if s := string(t[:q]); s > bestAt {
				best, bestAt = sp, s
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
