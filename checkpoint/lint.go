package checkpoint

import (
	"errors"
	"fmt"
)

// Finding codes reported by Lint. They are stable: verify prints them and
// scripts match on them.
const (
	CodeFrontmatterMissing = "checkpoint.frontmatter-missing"
	CodeFrontmatterInvalid = "checkpoint.frontmatter-invalid"
	CodeOverCap            = "checkpoint.over-cap"
	CodeDigestMissing      = "digest.missing"
	CodeDigestDuplicate    = "digest.duplicate"
	CodeDigestShape        = "digest.shape"
	CodeSectionDuplicate   = "section.duplicate"
	CodeOpenDecisionsCap   = "open-decisions.over-cap"
)

// Finding is one problem in a checkpoint file: a stable code and a
// one-line, lower-case message naming the numbers.
type Finding struct {
	Code    string
	Message string
}

// Lint reports the problems of a checkpoint file that can be seen from its
// bytes alone, in a fixed order: frontmatter, file size, digest, other
// sections. Comparing the frontmatter with the registry is the caller's job
// (use Parse(data).Front). A file without frontmatter is linted as all body.
func Lint(data []byte) []Finding {
	var out []Finding
	add := func(code, format string, args ...any) {
		out = append(out, Finding{Code: code, Message: fmt.Sprintf(format, args...)})
	}

	doc := Parse(data)
	switch {
	case doc.FrontErr != nil:
		add(CodeFrontmatterInvalid, "frontmatter is invalid: %v", doc.FrontErr)
	case doc.Front == nil:
		add(CodeFrontmatterMissing, "checkpoint has no frontmatter; it must begin with a \"---\" line")
	}
	if n := len(data); n > MaxFileBytes {
		add(CodeOverCap, "checkpoint is %d bytes; the cap is %d (%d over)", n, MaxFileBytes, n-MaxFileBytes)
	}

	digest, count := Section(doc.Body, DigestHeading)
	switch {
	case count == 0:
		add(CodeDigestMissing, "checkpoint has no %q section", DigestHeading)
	default:
		if count > 1 {
			add(CodeDigestDuplicate, "%q appears %d times; expected once", DigestHeading, count)
		}
		if _, err := ParseDigest(digest); err != nil {
			var de *DigestError
			if errors.As(err, &de) {
				add(CodeDigestShape, "%s", de.Reason)
			} else {
				add(CodeDigestShape, "%v", err)
			}
		}
	}

	for _, h := range []string{OpenDecisionsHeading, AutoHeading} {
		if _, n := Section(doc.Body, h); n > 1 {
			add(CodeSectionDuplicate, "%q appears %d times; expected at most once", h, n)
		}
	}
	if od, _ := Section(doc.Body, OpenDecisionsHeading); len(od) > 0 {
		if n := len(splitLines(od[:trailingBlankStart(od)])); n > MaxOpenDecisionLines {
			add(CodeOpenDecisionsCap, "open decisions has %d lines; the cap is %d (%d over)", n, MaxOpenDecisionLines, n-MaxOpenDecisionLines)
		}
	}
	return out
}
