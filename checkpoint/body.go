package checkpoint

import "bytes"

// DefaultBody is the body written when a session is initialized (the
// original tool's skeleton).
func DefaultBody() []byte {
	return []byte("\n" + DigestHeading + "\n" +
		"- Done: nothing — session initialized\n" +
		"- Next: phase 1\n" +
		"- Open decisions: none\n" +
		"- Artifacts: none\n" +
		"- Suite: unknown\n")
}

// span locates a section: the first line exactly equal to heading, its
// content [cStart, cEnd) up to the next line beginning "## " or the end,
// and how many lines equal heading. hStart is -1 when there is none.
type span struct {
	hStart, cStart, cEnd, count int
}

func locate(body []byte, heading string) span {
	s := span{hStart: -1}
	open := false
	for pos := 0; pos < len(body); {
		end, next := lineAt(body, pos)
		line := body[pos:end]
		if open && bytes.HasPrefix(line, []byte("## ")) {
			s.cEnd, open = pos, false
		}
		if string(line) == heading {
			if s.count == 0 {
				s.hStart, s.cStart, open = pos, next, true
			}
			s.count++
		}
		pos = next
	}
	if open {
		s.cEnd = len(body)
	}
	return s
}

// Section returns the content lines of the first section whose heading line
// is exactly heading (up to the next line beginning "## " or the end of the
// body), and how many lines equal heading.
func Section(body []byte, heading string) (content []byte, count int) {
	s := locate(body, heading)
	if s.hStart < 0 {
		return nil, 0
	}
	return body[s.cStart:s.cEnd], s.count
}

// SetSection replaces the content of the first section with that heading
// (the heading line is kept) or, when there is none, appends
// "\n" + heading + "\n" + content, first ending the body with a newline if
// needed. content is normalized to end with exactly one "\n" (trailing blank
// lines dropped; empty stays empty). The blank lines that separated the old
// content from what follows are kept, and every other byte is unchanged.
// content must not hold a line beginning "## " (callers validate it, e.g.
// with ParseDigest): such a line would open a section of its own.
func SetSection(body []byte, heading string, content []byte) []byte {
	content = content[:trailingBlankStart(content)]
	s := locate(body, heading)
	out := make([]byte, 0, len(body)+len(heading)+len(content)+3)
	if s.hStart < 0 {
		out = append(out, body...)
		if len(out) > 0 && out[len(out)-1] != '\n' {
			out = append(out, '\n')
		}
		out = append(out, '\n')
		out = append(out, heading...)
		out = append(out, '\n')
		return appendLines(out, content)
	}
	out = append(out, body[:s.cStart]...)
	if s.cStart == len(body) && body[len(body)-1] != '\n' {
		out = append(out, '\n') // the heading was the last line, unterminated
	}
	out = appendLines(out, content)
	keep := s.cStart + trailingBlankStart(body[s.cStart:s.cEnd])
	return append(out, body[keep:]...)
}

// appendLines appends content, ending it with "\n" when it is not empty.
func appendLines(out, content []byte) []byte {
	out = append(out, content...)
	if len(content) > 0 && content[len(content)-1] != '\n' {
		out = append(out, '\n')
	}
	return out
}

// SetAuto replaces the Auto-checkpoint's bullet block (the "- " lines right
// after the heading) with auto, keeping any other text that sits in the
// section after that block: free text appended under the last section by
// other tools is never erased by an auto-checkpoint.
func SetAuto(body, auto []byte) []byte {
	content, count := Section(body, AutoHeading)
	if count == 0 {
		return SetSection(body, AutoHeading, auto)
	}
	rest := content
	for len(rest) > 0 && bytes.HasPrefix(rest, []byte("- ")) {
		i := bytes.IndexByte(rest, '\n')
		if i < 0 {
			rest = nil
			break
		}
		rest = rest[i+1:]
	}
	if len(bytes.TrimSpace(rest)) == 0 {
		return SetSection(body, AutoHeading, auto)
	}
	merged := append(append([]byte{}, auto...), rest...)
	return SetSection(body, AutoHeading, merged)
}
