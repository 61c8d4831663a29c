package checkpoint

import (
	"bytes"
	"errors"
	"fmt"

	"github.com/adrg/frontmatter"

	"github.com/orc-state/orc-state/internal/textin"
)

// Frontmatter is the registry mirror at the top of checkpoint.md, rendered in
// exactly this field order; an empty PhaseLabel or JiraTicket is omitted.
type Frontmatter struct {
	Schema    int
	Command   string
	Branch    string // the sessionId
	GitBranch string // the raw branch name
	// Phase is a decimal integer ≥ 1 without sign or leading zeros ("3"),
	// rendered as a YAML int (phase: 3), or "done", rendered as a string.
	Phase       string
	PhaseLabel  string
	TotalPhases int
	Status      string
	JiraTicket  string
	// UpdatedAt is RFC3339 UTC seconds (2026-08-20T18:11:00Z). It is kept as
	// a string and always read back as the same string, never as a time.
	UpdatedAt string
}

// Doc is a parsed checkpoint.md.
type Doc struct {
	Front    *Frontmatter // nil when the file has no valid frontmatter
	FrontErr error        // why the frontmatter was rejected; nil when valid or simply absent
	// Body is every byte after the closing "---" line, byte-for-byte; the
	// whole input when Front is nil.
	Body []byte
}

const delim = "---"

// Parse splits a checkpoint file into frontmatter and body. It never fails:
// a file whose frontmatter is missing, unterminated or invalid (unknown or
// duplicate key, missing or null required key, wrong type, yaml error, an
// invalid value) yields Front nil and its whole text as Body, with FrontErr
// saying why (nil when there simply is no frontmatter). A frontmatter
// starts with a "---" line at the very top of the file (LF or CRLF).
func Parse(data []byte) Doc {
	whole := Doc{Body: data}
	if !opens(data) {
		return whole
	}
	if fm, body, ok := quickFront(data); ok {
		return Doc{Front: &fm, Body: body}
	}
	return parseYAML(data)
}

// parseYAML is Parse through the YAML decoder, for a block quickFront
// does not read.
func parseYAML(data []byte) Doc {
	whole := Doc{Body: data}
	var in frontIn
	body, found, err := split(data, &in, yamlFormat)
	switch {
	case !found:
		whole.FrontErr = errors.New(`frontmatter has no closing "---" line`)
		return whole
	case err != nil:
		whole.FrontErr = err
		return whole
	}
	fm, err := in.toFrontmatter()
	if err != nil {
		whole.FrontErr = err
		return whole
	}
	return Doc{Front: &fm, Body: body}
}

// opens reports whether data starts with the "---" line that opens a
// frontmatter.
func opens(data []byte) bool {
	return bytes.HasPrefix(data, []byte(delim+"\n")) || bytes.HasPrefix(data, []byte(delim+"\r\n"))
}

// split lets adrg/frontmatter find the block (the first later line that is
// "---" once trimmed closes it) and decode it with format. It refuses a
// closing line that is not exactly "---": the library trims lines, and a
// "  ---" inside a YAML value would otherwise cut the block short. found
// is false when the block is never closed.
func split(data []byte, v any, format *frontmatter.Format) (body []byte, found bool, err error) {
	rest, err := frontmatter.MustParse(bytes.NewReader(data), v, format)
	if errors.Is(err, frontmatter.ErrNotFound) {
		return nil, false, nil
	}
	if err != nil {
		return nil, true, yamlError(err)
	}
	block := data[:len(data)-len(rest)]
	lines := bytes.Split(bytes.TrimSuffix(block, []byte("\n")), []byte("\n"))
	if last := lines[len(lines)-1]; string(bytes.TrimSuffix(last, []byte("\r"))) != delim {
		return nil, true, fmt.Errorf("frontmatter line %d looks like a %q delimiter", len(lines), delim)
	}
	return rest, true, nil
}

// Validate checks what Render refuses and Parse rejects: a phase that is
// neither "done" nor a canonical integer ≥ 1, and a line break, control
// character or invalid UTF-8 in any string field.
func (fm Frontmatter) Validate() error {
	if !validPhase(fm.Phase) {
		return fmt.Errorf("phase %q is neither done nor an integer ≥ 1", fm.Phase)
	}
	fields := []struct{ name, value string }{
		{"command", fm.Command},
		{"branch", fm.Branch},
		{"gitBranch", fm.GitBranch},
		{"phaseLabel", fm.PhaseLabel},
		{"status", fm.Status},
		{"jiraTicket", fm.JiraTicket},
		{"updatedAt", fm.UpdatedAt},
	}
	for _, f := range fields {
		if err := textin.SingleLine(f.name, f.value); err != nil {
			return err
		}
	}
	return nil
}

// validPhase accepts "done" or 1–9 decimal digits without a leading zero
// (the registry's rule).
func validPhase(p string) bool {
	if p == "done" {
		return true
	}
	_, err := textin.Decimal(p, 1, 999_999_999)
	return err == nil
}

// Render returns "---\n" + the frontmatter as YAML + "---\n" + body. Every
// value is YAML-encoded (2-space indent), so a branch named "yes" or a label
// such as "a: b" stays a string. It refuses what Validate refuses (a line
// break in a single-line field, which could otherwise close the frontmatter
// early and plant keys) and, as a last guard, output that would not parse
// back to the same frontmatter and body.
func Render(fm Frontmatter, body []byte) ([]byte, error) {
	if err := fm.Validate(); err != nil {
		return nil, err
	}
	yml, err := encodeFront(fm)
	if err != nil {
		return nil, err
	}
	out := make([]byte, 0, 2*len(delim)+2+len(yml)+len(body))
	out = append(out, delim+"\n"...)
	out = append(out, yml...)
	out = append(out, delim+"\n"...)
	out = append(out, body...)
	back := Parse(out)
	if back.Front == nil || *back.Front != fm || !bytes.Equal(back.Body, body) {
		return nil, fmt.Errorf("frontmatter does not survive a round trip (%v)", back.FrontErr)
	}
	return out, nil
}

// QuickBody returns what follows a frontmatter block without decoding it
// (the whole data when there is none): for displays that only read the
// body's sections, such as the statusline, which must stay cheap.
func QuickBody(data []byte) []byte {
	if !opens(data) {
		return data
	}
	if body, found, err := split(data, nil, skipFormat); found && err == nil {
		return body
	}
	return data
}
