package checkpoint

import (
	"bytes"
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/orc-state/orc-state/internal/hexid"
)

// digestBullets are the five bullets every digest starts with, in order.
var digestBullets = [5]string{"- Done:", "- Next:", "- Open decisions:", "- Artifacts:", "- Suite:"}

// DigestBullets returns the five bullets a digest starts with, in order.
func DigestBullets() [5]string { return digestBullets }

// Digest is a validated Resume digest: the content of the section, without
// its heading.
type Digest struct {
	Text         []byte // normalized: no leading or trailing blank lines, ends with one "\n"
	SuiteVerdict string // "unknown", or the word before " @ "
	SuiteSHA     string // lower-case 7–64 hex (SHA-1 or SHA-256); "" when the verdict is "unknown" without a sha
}

// DigestError is why a digest was refused.
type DigestError struct {
	Reason   string // one lower-case line naming the fault and the numbers
	Overflow string // which lines are past a cap, when a cap is the fault
	Fix      string // what to do about this fault (a cap's is to shorten; a shape's is not)
}

func (e *DigestError) Error() string { return e.Reason }

// The fixes, one per kind of fault.
const (
	FixShape   = "begin with the five bullets in order: - Done:, - Next:, - Open decisions:, - Artifacts:, - Suite: (more lines may follow them)"
	FixText    = "write plain UTF-8 text with \\n line endings and no control characters"
	FixCap     = "shorten the digest to 30 lines and 2048 bytes; move history to progress.md with orc-state progress append -"
	FixHeading = "drop the heading: the digest is one section; history goes to progress.md with orc-state progress append -"
	FixSuite   = "write - Suite: unknown, or - Suite: <verdict> @ <sha> with the full or short sha of the commit the suite ran at"
)

func refuse(fix, format string, args ...any) error {
	return &DigestError{Reason: fmt.Sprintf(format, args...), Fix: fix}
}

// ParseDigest validates text as piped to `digest write -` and returns it
// normalized. Leading and trailing blank lines are dropped first; what is
// left must be valid UTF-8 without control characters (a tab is allowed,
// a carriage return is not), at most MaxDigestLines lines and MaxDigestBytes
// bytes (the final newline not counted), hold no line that opens a heading
// ("# " or "## "), begin with a top-level bullet, and its first five
// top-level bullets ("- " lines) must be Done, Next, Open decisions,
// Artifacts and Suite, in that order. Other lines may sit between them and
// any lines may follow. Suite is "unknown" or "<verdict> @ <sha>" (sha 7–64
// hex), optionally followed by " (…)". Errors are *DigestError; line numbers
// count the input as given.
func ParseDigest(text []byte) (Digest, error) {
	all := splitLines(text)
	first := 0
	for first < len(all) && isBlank(all[first]) && !bytes.ContainsRune(all[first], '\r') {
		first++
	}
	last := len(all)
	for last > first && isBlank(all[last-1]) && !bytes.ContainsRune(all[last-1], '\r') {
		last--
	}
	lines := all[first:last]
	if len(lines) == 0 {
		return Digest{}, refuse(FixShape, "digest is empty")
	}
	num := func(i int) int { return first + i + 1 } // input line number of lines[i]
	for i, l := range lines {
		if err := checkDigestChars(l, num(i)); err != nil {
			return Digest{}, err
		}
	}
	if err := checkDigestCaps(lines, num); err != nil {
		return Digest{}, err
	}
	for i, l := range lines {
		if p := headingPrefix(l); p != "" {
			return Digest{}, refuse(FixHeading, "line %d begins with %q; a digest cannot open a section", num(i), p)
		}
	}
	d, err := checkBullets(lines, num)
	if err != nil {
		return Digest{}, err
	}
	d.Text = append(bytes.Join(lines, []byte("\n")), '\n')
	return d, nil
}

// splitLines splits on "\n"; a final "\n" does not start another line.
func splitLines(b []byte) [][]byte {
	if len(b) == 0 {
		return nil
	}
	return bytes.Split(bytes.TrimSuffix(b, []byte("\n")), []byte("\n"))
}

func checkDigestChars(l []byte, n int) error {
	if !utf8.Valid(l) {
		return refuse(FixText, "line %d is not valid utf-8", n)
	}
	for _, r := range string(l) {
		switch {
		case r == '\r':
			return refuse(FixText, "line %d contains a carriage return; use \\n line endings", n)
		case r != '\t' && (unicode.IsControl(r) || r == '\u2028' || r == '\u2029'):
			return refuse(FixText, "line %d contains control character %U", n, r)
		}
	}
	return nil
}

func checkDigestCaps(lines [][]byte, num func(int) int) error {
	if n := len(lines); n > MaxDigestLines {
		return &DigestError{
			Reason:   fmt.Sprintf("digest has %d lines; the cap is %d (%d over)", n, MaxDigestLines, n-MaxDigestLines),
			Overflow: overflow(lines, MaxDigestLines, num),
			Fix:      FixCap,
		}
	}
	size := len(lines) - 1 // the newlines between lines
	for _, l := range lines {
		size += len(l)
	}
	if size <= MaxDigestBytes {
		return nil
	}
	// The first line that ends past the cap does not fit.
	k, end := 0, 0
	for ; k < len(lines); k++ {
		end += len(lines[k])
		if end > MaxDigestBytes {
			break
		}
		end++ // its newline
	}
	ov := overflow(lines, k, num)
	if len(lines[k]) > MaxDigestBytes {
		ov = fmt.Sprintf("line %d alone is %d bytes: %q", num(k), len(lines[k]), clip(string(lines[k]), 40))
	}
	return &DigestError{
		Reason:   fmt.Sprintf("digest is %d bytes; the cap is %d (%d over)", size, MaxDigestBytes, size-MaxDigestBytes),
		Overflow: ov,
		Fix:      FixCap,
	}
}

// overflow names lines[k:], the lines past a cap.
func overflow(lines [][]byte, k int, num func(int) int) string {
	from := clip(string(lines[k]), 60)
	if k == len(lines)-1 {
		return fmt.Sprintf("line %d does not fit: %q", num(k), from)
	}
	return fmt.Sprintf("lines %d-%d do not fit, from %q", num(k), num(len(lines)-1), from)
}

// headingPrefix returns the level-1 or level-2 ATX heading marker a line
// begins with ("# ", "## ", or the whole line "#"/"##"), or "".
func headingPrefix(l []byte) string {
	for _, h := range []string{"##", "#"} {
		if !bytes.HasPrefix(l, []byte(h)) {
			continue
		}
		if len(l) == len(h) {
			return h
		}
		if c := l[len(h)]; c == ' ' || c == '\t' {
			return h + string(c)
		}
	}
	return ""
}

func checkBullets(lines [][]byte, num func(int) int) (Digest, error) {
	if !bytes.HasPrefix(lines[0], []byte("- ")) {
		return Digest{}, refuse(FixShape, "line %d is %q; a digest begins with %q", num(0), clip(string(lines[0]), 40), digestBullets[0])
	}
	found := 0
	var suite string
	for _, l := range lines {
		if found == len(digestBullets) {
			break
		}
		if !bytes.HasPrefix(l, []byte("- ")) {
			continue
		}
		want := digestBullets[found]
		if !bytes.HasPrefix(l, []byte(want)) {
			return Digest{}, refuse(FixShape, "bullet %d is %q; expected %q", found+1, bulletLabel(string(l)), want)
		}
		suite = string(l[len(want):])
		found++
	}
	if found < len(digestBullets) {
		return Digest{}, refuse(FixShape, "digest has %d of the %d bullets; %q is missing", found, len(digestBullets), digestBullets[found])
	}
	return parseSuite(suite)
}

// bulletLabel shows a bullet up to its first colon, or a short preview.
func bulletLabel(l string) string {
	if i := strings.IndexByte(l, ':'); i >= 0 && i < 40 {
		return l[:i+1]
	}
	return clip(l, 40)
}

// parseSuite checks the value after "- Suite:".
func parseSuite(v string) (Digest, error) {
	v = strings.Trim(v, " \t")
	verdict, rest, ok := strings.Cut(v, " @ ")
	if !ok {
		if v == "unknown" || (strings.HasPrefix(v, "unknown (") && strings.HasSuffix(v, ")")) {
			return Digest{SuiteVerdict: "unknown"}, nil
		}
		return Digest{}, refuse(FixSuite, "suite is %q; expected \"unknown\" or \"<verdict> @ <sha>\"", clip(v, 60))
	}
	if !isWord(verdict) {
		return Digest{}, refuse(FixSuite, "suite verdict %q is not a single word", clip(verdict, 40))
	}
	sha, tail, _ := strings.Cut(rest, " ")
	if !hexid.Commit(sha) {
		return Digest{}, refuse(FixSuite, "suite sha %q is not 7-64 hex characters", clip(sha, 70))
	}
	if tail != "" && !(strings.HasPrefix(tail, "(") && strings.HasSuffix(tail, ")")) {
		return Digest{}, refuse(FixSuite, "suite has %q after the sha; only \" (…)\" may follow it", clip(tail, 40))
	}
	return Digest{SuiteVerdict: verdict, SuiteSHA: strings.ToLower(sha)}, nil
}

// isWord: a letter, then letters, digits, '_', '-' or '.'.
func isWord(s string) bool {
	for i, r := range s {
		letter := r < utf8.RuneSelf && unicode.IsLetter(r)
		other := r < utf8.RuneSelf && (unicode.IsDigit(r) || r == '_' || r == '-' || r == '.')
		if !letter && (i == 0 || !other) {
			return false
		}
	}
	return s != ""
}
