// Package checkpoint owns the format of .orc/<sessionId>/files/checkpoint.md:
// a YAML frontmatter block mirrored from the registry, followed by a markdown
// body holding the "## Resume digest", "## Open decisions" and
// "## Auto-checkpoint" sections and any free text other tools append.
//
// Everything here is a pure function over bytes. The package reads no file,
// runs no git and knows nothing about the registry; callers pass what is
// needed and write the result themselves.
//
// # Frontmatter
//
// A file has frontmatter when it begins with the line "---" (LF or CRLF).
// github.com/adrg/frontmatter finds the block (MustParse with one explicit
// "---" format, never the library's default formats: the first later line
// that trims to "---" closes it, and the body is every byte after that line,
// kept byte-for-byte) and decodes it with a gopkg.in/yaml.v3 decoder with
// KnownFields(true). A closing line that is not exactly "---" (" ---",
// "--- ") is refused rather than taken as the delimiter. QuickBody lets the
// library find the block without decoding it. Render writes "---\n" + YAML +
// "---\n" + body with yaml.v3 (2-space indent, every value encoded, so `yes`,
// `null` or `a: b` stay strings) and checks that its output parses back to
// the same frontmatter and body.
//
// A file whose frontmatter is absent, unterminated or invalid keeps its whole
// text as body (Parse never fails); Doc.FrontErr says why it was rejected.
//
// # Body
//
// Sections are found by exact heading lines and end at the next line that
// begins "## ". The Resume digest is validated by ParseDigest (five bullets
// in order, at most 30 lines and 2048 bytes, no line that opens a section);
// RenderAuto renders the Auto-checkpoint section; Lint reports what verify
// needs to know with stable codes.
package checkpoint

// Caps and headings of the checkpoint format.
const (
	MaxFileBytes         = 4096 // whole checkpoint.md
	MaxDigestLines       = 30   // Resume digest content lines
	MaxDigestBytes       = 2048 // Resume digest content bytes, without the final newline
	MaxOpenDecisionLines = 10   // Open decisions content lines, trailing blank lines ignored

	DigestHeading        = "## Resume digest"
	OpenDecisionsHeading = "## Open decisions"
	AutoHeading          = "## Auto-checkpoint"
)
