// Package secrets owns the credential guard of docs/protocol.md §4 ("Secrets stay
// out"): text bound for the digest, decisions, progress, artifacts or a
// sync push is checked with [Find] first, and refused (exit 2) when it looks
// like a credential. [Decoded] gives the readings a program would decode
// (JSON, YAML and percent escapes), [FindDecoded] and [All] look through
// them, and [Redact] blanks credentials out of a message. The state
// package's transaction scans every byte it would write with [All]; the
// command line passes every line of stderr through [Redact].
//
// Find names what it found (a fixed kind such as "GitHub token") and where
// (a line number), never the matched text, so error messages cannot echo a
// secret. The patterns are anchored to the credential formats themselves
// (fixed prefixes, lengths, a header name followed by a scheme) so that
// ordinary prose, git shas and digests pass.
package secrets

import (
	"bytes"
	"regexp"
	"sync"
)

// The kinds Find reports. They are the only strings it ever returns.
const (
	KindPrivateKey   = "private key block"
	KindAWSAccessKey = "AWS access key"
	KindAWSSecretKey = "AWS secret key"
	KindGitHub       = "GitHub token"
	KindGitLab       = "GitLab token"
	KindSlack        = "Slack token"
	KindSlackWebhook = "Slack webhook URL"
	KindGoogleAPIKey = "Google API key"
	KindAuthHeader   = "Authorization header"
)

// pattern is one credential shape. Every match starts with one of the
// needles (compared in ASCII lower case when fold is set), so Find looks for
// the needles with bytes.Index and runs re, anchored, only where one occurs;
// that keeps Find linear and fast on long text.
type pattern struct {
	kind    string
	needles []string
	fold    bool // needles match case-insensitively (re has (?i) too)
	word    bool // the match must not follow a word character, like \b
	re      func() *regexp.Regexp
	// check, when set, must accept submatch 1 for the match to count.
	check func(value []byte) bool
}

// window bounds how much of a line re sees from a needle. Real credentials
// are far shorter; a longer run is judged on its first window bytes (which
// can only add a detection, since the cut acts as the end of a token).
const window = 256

// patterns are tried in this order; Find reports the match that starts
// first in the text (earlier patterns win ties). No pattern can match
// across a newline (no \s, no dot).
var patterns = sync.OnceValue(func() []pattern { return compilePatterns() })

// compilePatterns builds the table on first use: compiling a dozen
// regular expressions at start-up would tax every orc-state process,
// including the statusline's, which never scans for secrets.
func compilePatterns() []pattern {
	return []pattern{
		// PEM/OpenSSH/PGP armour: "-----BEGIN RSA PRIVATE KEY-----",
		// "-----BEGIN OPENSSH PRIVATE KEY-----", "-----BEGIN PGP PRIVATE KEY BLOCK-----".
		{
			kind:    KindPrivateKey,
			needles: []string{"-----BEGIN "},
			re:      lazyRe(`^-----BEGIN [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----`),
		},
		// Long-term (AKIA) and temporary (ASIA) access key ids: 20 upper-case
		// alphanumerics as a whole word.
		{
			kind:    KindAWSAccessKey,
			needles: []string{"AKIA", "ASIA"},
			word:    true,
			re:      lazyRe(`^(?:AKIA|ASIA)[0-9A-Z]{16}\b`),
		},
		// aws_secret_access_key = <40 base64 chars>, as in ~/.aws/credentials,
		// env files, YAML or JSON.
		{
			kind:    KindAWSSecretKey,
			needles: []string{"aws"},
			fold:    true,
			word:    true,
			re:      lazyRe(`(?i)^aws_?secret_?access_?key["']?[ \t]*(?::=|=>|[:=])[ \t]*["']?[A-Za-z0-9/+]{40}(?:[^A-Za-z0-9/+=]|$)`),
		},
		// Classic (ghp_, gho_, ghu_, ghs_, ghr_) and fine-grained PATs.
		{
			kind:    KindGitHub,
			needles: []string{"ghp_", "gho_", "ghu_", "ghs_", "ghr_"},
			word:    true,
			re:      lazyRe(`^gh[pousr]_[A-Za-z0-9]{36,}\b`),
		},
		{
			kind:    KindGitHub,
			needles: []string{"github_pat_"},
			word:    true,
			re:      lazyRe(`^github_pat_[A-Za-z0-9_]{22,}`),
		},
		// Personal, deploy, runner, pipeline-trigger and service-account tokens.
		{
			kind:    KindGitLab,
			needles: []string{"glpat-", "gldt-", "glrt-", "glptt-", "glsoat-"},
			word:    true,
			re:      lazyRe(`^gl(?:pat|dt|rt|ptt|soat)-[A-Za-z0-9_-]{20,}`),
		},
		// Bot, user, app, refresh... tokens, and app-level tokens.
		{
			kind:    KindSlack,
			needles: []string{"xox"},
			word:    true,
			re:      lazyRe(`^xox[abpors]-[A-Za-z0-9-]{10,}`),
		},
		{
			kind:    KindSlack,
			needles: []string{"xapp-"},
			word:    true,
			re:      lazyRe(`^xapp-[0-9]-[A-Za-z0-9-]{10,}`),
		},
		// Incoming webhooks: the URL itself is the credential.
		{
			kind:    KindSlackWebhook,
			needles: []string{"hooks.slack.com/services/"},
			re:      lazyRe(`^hooks\.slack\.com/services/[A-Za-z0-9_]+/[A-Za-z0-9_]+/[A-Za-z0-9_]{8,}`),
		},
		{
			kind:    KindGoogleAPIKey,
			needles: []string{"AIza"},
			word:    true,
			re:      lazyRe(`^AIza[0-9A-Za-z_-]{35}`),
		},
		// "Authorization: Bearer <value>" (also Basic, token, Digest, and
		// Proxy-Authorization), in a header dump, a curl -H or a JSON/YAML map.
		// Placeholders such as <token>, $TOKEN or YOUR-TOKEN are not values.
		{
			kind:    KindAuthHeader,
			needles: []string{"authorization"},
			fold:    true,
			word:    true,
			re:      lazyRe(`(?i)^authorization["']?[ \t]*[:=][ \t]*["']?(?:bearer|basic|token|digest)[ \t]+([A-Za-z0-9._~+/=-]{8,})`),
			check:   looksRandom,
		},
	}
}

// looksRandom tells a credential value from a word: it has a digit, or
// mixes lower case with upper case past its first letter.
func looksRandom(v []byte) bool {
	var lower, upper bool
	for i, c := range v {
		switch {
		case c >= '0' && c <= '9':
			return true
		case c >= 'a' && c <= 'z':
			lower = true
		case c >= 'A' && c <= 'Z' && i > 0:
			upper = true
		}
	}
	return lower && upper
}

// Find reports the first credential-shaped match in text: its kind (one of
// the Kind constants) and its 1-based line number. ok is false when there
// is none. The matched text itself is never returned.
func Find(text []byte) (kind string, line int, ok bool) {
	lower := asciiLower(text)
	best := -1
	for _, p := range patterns() {
		hay := text
		if p.fold {
			hay = lower
		}
		limit := len(text)
		if best >= 0 {
			limit = best // only an earlier match can win
		}
		if at := p.first(text, hay, limit); at >= 0 {
			best, kind = at, p.kind
		}
	}
	if best < 0 {
		return "", 0, false
	}
	return kind, 1 + bytes.Count(text[:best], []byte{'\n'}), true
}

// first returns the offset of the pattern's first accepted match starting
// before limit, or -1. hay is text, or its ASCII-lowered copy when p.fold.
func (p pattern) first(text, hay []byte, limit int) int {
	at, _ := p.next(text, hay, 0, limit)
	return at
}

// next returns the start and end of the pattern's first accepted match
// starting at or after from and before limit; start is -1 when there is
// none.
func (p pattern) next(text, hay []byte, from, limit int) (start, end int) {
	next := make([]int, len(p.needles)) // next occurrence of each needle at or after pos
	for j := range next {
		next[j] = -2 // not searched yet
	}
	lineEnd := -1
	for pos := from; pos < limit; {
		at := -1
		for j, n := range p.needles {
			if next[j] == -1 {
				continue // no more occurrences
			}
			if next[j] < pos {
				next[j] = bytes.Index(hay[pos:], []byte(n))
				if next[j] >= 0 {
					next[j] += pos
				}
			}
			if next[j] >= 0 && (at < 0 || next[j] < at) {
				at = next[j]
			}
		}
		if at < 0 || at >= limit {
			return -1, -1
		}
		if at > lineEnd {
			lineEnd = bytes.IndexByte(text[at:], '\n')
			if lineEnd < 0 {
				lineEnd = len(text)
			} else {
				lineEnd += at
			}
		}
		if n := p.matchAt(text, at, min(lineEnd, at+window)); n > 0 {
			return at, at + n
		}
		pos = at + 1
	}
	return -1, -1
}

// matchAt returns the length of the pattern's match at the start of
// text[at:end], or 0 when it does not match there.
func (p pattern) matchAt(text []byte, at, end int) int {
	if p.word && at > 0 && isWordByte(text[at-1]) {
		return 0
	}
	m := p.re().FindSubmatchIndex(text[at:end])
	if m == nil {
		return 0
	}
	if p.check != nil && !p.check(text[at+m[2]:at+m[3]]) {
		return 0
	}
	return m[1]
}

func isWordByte(c byte) bool {
	return c == '_' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

// asciiLower returns a copy of b with A-Z mapped to a-z and every other
// byte (UTF-8 included) unchanged, so offsets match b's.
func asciiLower(b []byte) []byte {
	out := make([]byte, len(b))
	for i, c := range b {
		if c >= 'A' && c <= 'Z' {
			c += 'a' - 'A'
		}
		out[i] = c
	}
	return out
}

// lazyRe compiles a pattern the first time a needle of it is found: most
// texts contain none, and every mutation scans its arguments.
func lazyRe(expr string) func() *regexp.Regexp {
	return sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(expr) })
}
