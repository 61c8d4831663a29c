package secrets

import (
	"bytes"
	"crypto/sha256"
	"sort"
	"strings"
)

// Match is one credential-shaped run: its kind, its 1-based line (0 when it
// shows only once decoded, see [Decoded]) and a fingerprint (the sha256 of
// the run) that tells two runs apart without keeping the text.
type Match struct {
	Kind string
	Line int
	Sum  [32]byte
}

// span is a match inside one text.
type span struct {
	kind       string
	start, end int
	order      int // the pattern's place in the table: earlier wins a tie
}

// spans returns the non-overlapping matches in text, in order. Where two
// overlap, the one that starts first wins (the earlier pattern on a tie),
// as in [Find].
func spans(text []byte) []span {
	var lower []byte
	var all []span
	for i, p := range patterns() {
		hay := text
		if p.fold {
			if lower == nil {
				lower = asciiLower(text)
			}
			hay = lower
		}
		for from := 0; from < len(text); {
			start, end := p.next(text, hay, from, len(text))
			if start < 0 {
				break
			}
			all = append(all, span{kind: p.kind, start: start, end: end, order: i})
			from = end
		}
	}
	sort.Slice(all, func(i, j int) bool {
		if all[i].start != all[j].start {
			return all[i].start < all[j].start
		}
		return all[i].order < all[j].order
	})
	out := all[:0]
	last := -1
	for _, s := range all {
		if s.start < last {
			continue
		}
		out = append(out, s)
		last = s.end
	}
	return out
}

// All returns every credential-shaped run in text and in each of its
// decoded readings ([Decoded]), the raw ones first. The runs' text is never
// returned; Sum fingerprints it.
func All(text []byte) []Match {
	var out []Match
	for _, s := range spans(text) {
		out = append(out, Match{Kind: s.kind, Line: 1 + bytes.Count(text[:s.start], []byte{'\n'}),
			Sum: sha256.Sum256(text[s.start:s.end])})
	}
	for _, view := range Decoded(text) {
		for _, s := range spans(view) {
			out = append(out, Match{Kind: s.kind, Sum: sha256.Sum256(view[s.start:s.end])})
		}
	}
	return out
}

// FindDecoded is [Find] over text and its decoded readings: a credential
// written with JSON or percent escapes ("\u0067hp_…", "%67hp_…") is found
// too, with line 0 when only a decoded reading shows it.
func FindDecoded(text []byte) (kind string, line int, ok bool) {
	if kind, line, ok := Find(text); ok {
		return kind, line, ok
	}
	for _, view := range Decoded(text) {
		if kind, _, ok := Find(view); ok {
			return kind, 0, true
		}
	}
	return "", 0, false
}

// Redact returns s with every credential-shaped run replaced by
// "[redacted <kind>]", and every space-separated word that shows one only
// once decoded replaced likewise. Messages pass through it, so that no
// refusal can echo the text it refused.
func Redact(s string) string {
	b := []byte(s)
	if sp := spans(b); len(sp) > 0 {
		var out strings.Builder
		at := 0
		for _, m := range sp {
			out.Write(b[at:m.start])
			out.WriteString("[redacted " + m.kind + "]")
			at = m.end
		}
		out.Write(b[at:])
		s = out.String()
	}
	if !strings.ContainsAny(s, `\%`) {
		return s
	}
	words := strings.Split(s, " ")
	for i, w := range words {
		if kind, _, ok := FindDecoded([]byte(w)); ok {
			words[i] = "[redacted " + kind + "]"
		}
	}
	return strings.Join(words, " ")
}
