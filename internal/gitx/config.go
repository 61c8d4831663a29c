package gitx

import (
	"errors"
	"fmt"
	"io/fs"
	"strconv"
	"strings"

	"github.com/orc-state/orc-state/internal/atomicfile"
)

// repoConfig is what discovery reads from a repository's own config file:
// the keys that decide where the work tree is, and whether refs are files
// it may read by hand. Like git while it sets up a repository, it reads
// only that one file (no includes, no global or system config).
type repoConfig struct {
	bare       *bool  // core.bare; nil when unset
	worktree   string // core.worktree as written; "" when unset
	refStorage string // extensions.refStorage as written; "" when unset
	// plainFormat: a format every git orc-state supports reads (see
	// plainFormat).
	plainFormat bool
}

// readRepoConfig reads path; a missing file is an empty config. A file git
// would refuse to parse is refused, and so is a core.bare git would not
// read as a boolean.
func readRepoConfig(path string) (repoConfig, error) {
	var c repoConfig
	data, err := atomicfile.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return c, nil
	}
	if err != nil {
		return c, fmt.Errorf("read %s: %w", path, err)
	}
	entries, err := parseConfig(data)
	if err != nil {
		return c, fmt.Errorf("parse %s: %w", path, err)
	}
	version := ""
	extensions := map[string]configEntry{}
	for _, e := range entries { // the last one wins, as in git
		if strings.HasPrefix(e.name, "extensions.") {
			extensions[e.name] = e
		}
		switch e.name {
		case "core.repositoryformatversion":
			version = e.value
			if !e.hasValue {
				version = "none"
			}
		case "core.bare":
			b, err := configBool(e)
			if err != nil {
				return c, fmt.Errorf("parse %s: %w", path, err)
			}
			c.bare = &b
		case "core.worktree":
			c.worktree = e.value
		case "extensions.refstorage":
			c.refStorage = e.value
		}
	}
	c.plainFormat = plainFormat(version, extensions)
	return c, nil
}

// plainFormat reports whether every git orc-state supports (2.39 and
// later) reads a repository of this format: core.repositoryformatversion
// unset, 0 or 1, and only extensions all of them know, with values they
// accept (objectFormat only in version 1, as git requires). Anything else
// (an extension a newer git added, such as refStorage, or a version git
// does not know) is for the installed git to judge, and it may refuse the
// repository: the reads that stand in for git (reffiles.go) then ask it.
func plainFormat(version string, extensions map[string]configEntry) bool {
	if version != "" && version != "0" && version != "1" {
		return false
	}
	for name, e := range extensions {
		switch name {
		case "extensions.noop":
		case "extensions.preciousobjects", "extensions.worktreeconfig":
			if _, err := configBool(e); err != nil {
				return false
			}
		case "extensions.partialclone":
			if e.value == "" {
				return false
			}
		case "extensions.objectformat":
			if version != "1" || (e.value != "sha1" && e.value != "sha256") {
				return false
			}
		default:
			return false
		}
	}
	return true
}

// configEntry is one "name = value" of a config file, named as `git config
// --list` names it: section and key lower-cased, a quoted subsection as
// written ("remote.Origin.url"), a deprecated [section.sub] lower-cased
// whole.
type configEntry struct {
	name     string
	value    string
	hasValue bool // false for a key without "=" (a true boolean)
}

// parseConfig reads git's config syntax as git's own parser does: sections
// ([section], [section "sub"] with \-escapes, the deprecated
// [section.sub]), keys (a letter, then letters, digits and "-"), values
// (whitespace trimmed and each inner run kept one space per character,
// double quotes, the escapes \" \\ \n \t \b, a trailing \ continuing the
// line, ";" and "#" comments outside quotes), CRLF line ends and a leading
// UTF-8 byte order mark. Whatever git refuses is an error naming the line.
func parseConfig(data []byte) ([]configEntry, error) {
	p := configParser{data: data, line: 1}
	if err := p.skipBOM(); err != nil {
		return nil, err
	}
	var out []configEntry
	section := ""    // "section." or "section.sub." once a header is read
	comment := false // inside a comment, up to the line's end
	for {
		c := p.next()
		switch {
		case c == '\n':
			if p.eof {
				return out, nil
			}
			comment = false
		case comment, isConfigSpace(c):
		case c == '#' || c == ';':
			comment = true
		case c == '[':
			name, err := p.header()
			if err != nil {
				return nil, err
			}
			section = name + "."
		case isASCIILetter(c):
			e, err := p.entry(section, c)
			if err != nil {
				return nil, err
			}
			out = append(out, e)
		default:
			return nil, p.bad()
		}
	}
}

// configParser walks a config file one byte at a time.
type configParser struct {
	data []byte
	pos  int
	line int
	eof  bool
}

// next returns the next byte, "\r\n" as '\n', and '\n' at the end of the
// data (eof set).
func (p *configParser) next() byte {
	if p.pos >= len(p.data) {
		p.eof = true
		return '\n'
	}
	c := p.data[p.pos]
	p.pos++
	if c == '\r' && p.pos < len(p.data) && p.data[p.pos] == '\n' {
		c = '\n'
		p.pos++
	}
	if c == '\n' {
		p.line++
	}
	return c
}

// bad is git's refusal: the line the parser stopped on (the one just
// ended, when the byte that failed was its '\n').
func (p *configParser) bad() error {
	line := p.line
	if p.pos > 0 && p.data[p.pos-1] == '\n' || p.eof {
		line--
	}
	return fmt.Errorf("bad config line %d", max(line, 1))
}

// skipBOM skips a UTF-8 byte order mark; a partial one is refused.
func (p *configParser) skipBOM() error {
	const bom = "\xef\xbb\xbf"
	for i := 0; i < len(bom); i++ {
		if i < len(p.data) && p.data[i] == bom[i] {
			continue
		}
		if i > 0 {
			return fmt.Errorf("bad config line 1")
		}
		return nil
	}
	p.pos = len(bom)
	return nil
}

// header reads a section header after its '[' up to its ']' and returns
// the section's name as git lower-cases it ("core", "remote.Origin").
func (p *configParser) header() (string, error) {
	var name strings.Builder
	for {
		c := p.next()
		switch {
		case p.eof:
			return "", p.bad()
		case c == ']':
			if name.Len() == 0 {
				return "", p.bad()
			}
			return name.String(), nil
		case isConfigSpace(c):
			if err := p.subsection(&name, c); err != nil {
				return "", err
			}
			return name.String(), nil
		case isKeyChar(c) || c == '.':
			name.WriteByte(lower(c))
		default:
			return "", p.bad()
		}
	}
}

// subsection reads ` "sub"]` (c is the first space): the subsection as
// written, a backslash taking the next byte as it is.
func (p *configParser) subsection(name *strings.Builder, c byte) error {
	for isConfigSpace(c) {
		if c == '\n' {
			return p.bad()
		}
		c = p.next()
	}
	if c != '"' {
		return p.bad()
	}
	name.WriteByte('.')
	for {
		c = p.next()
		if c == '\n' {
			return p.bad()
		}
		if c == '"' {
			break
		}
		if c == '\\' {
			if c = p.next(); c == '\n' {
				return p.bad()
			}
		}
		name.WriteByte(c)
	}
	if p.next() != ']' {
		return p.bad()
	}
	return nil
}

// entry reads a key (first byte c) and its value, if any.
func (p *configParser) entry(section string, c byte) (configEntry, error) {
	var key strings.Builder
	key.WriteString(section)
	key.WriteByte(lower(c))
	for {
		c = p.next()
		if p.eof || !isKeyChar(c) {
			break
		}
		key.WriteByte(lower(c))
	}
	for c == ' ' || c == '\t' {
		c = p.next()
	}
	e := configEntry{name: key.String()}
	if c == '\n' {
		return e, nil
	}
	if c != '=' {
		return e, p.bad()
	}
	v, err := p.value()
	e.value, e.hasValue = v, true
	return e, err
}

// value reads a value after its '=', up to the end of its line.
func (p *configParser) value() (string, error) {
	var v strings.Builder
	quote, comment, spaces := false, false, 0
	for {
		c := p.next()
		switch {
		case c == '\n':
			if quote {
				return "", p.bad()
			}
			return v.String(), nil
		case comment:
			continue
		case isConfigSpace(c) && !quote:
			if v.Len() > 0 {
				spaces++
			}
			continue
		case !quote && (c == ';' || c == '#'):
			comment = true
			continue
		}
		for ; spaces > 0; spaces-- {
			v.WriteByte(' ')
		}
		switch c {
		case '\\':
			switch c = p.next(); c {
			case '\n':
				continue // the value goes on on the next line
			case 't':
				c = '\t'
			case 'b':
				c = '\b'
			case 'n':
				c = '\n'
			case '\\', '"':
			default:
				return "", p.bad()
			}
			v.WriteByte(c)
		case '"':
			quote = !quote
		default:
			v.WriteByte(c)
		}
	}
}

// isConfigSpace is git's isspace: space, tab, '\n' and '\r' only.
func isConfigSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

func isASCIILetter(c byte) bool { return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' }

// isKeyChar is git's iskeychar: an ASCII letter or digit, or '-'.
func isKeyChar(c byte) bool { return isASCIILetter(c) || '0' <= c && c <= '9' || c == '-' }

func lower(c byte) byte {
	if 'A' <= c && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

// configBool reads an entry as git reads a boolean: no value is true; "" is
// false; true/yes/on and false/no/off in any case; else an integer (with an
// optional k, m or g unit), true when not zero. Anything else is refused,
// as git refuses it.
func configBool(e configEntry) (bool, error) {
	if !e.hasValue {
		return true, nil
	}
	if b, ok := boolWord(e.value); ok {
		return b, nil
	}
	if n, ok := configInt(e.value); ok {
		return n != 0, nil
	}
	return false, fmt.Errorf("bad boolean config value '%s' for '%s'", e.value, e.name)
}

func boolWord(v string) (b, ok bool) {
	switch strings.ToLower(v) {
	case "":
		return false, true
	case "true", "yes", "on":
		return true, true
	case "false", "no", "off":
		return false, true
	}
	return false, false
}

// configInt is git's git_parse_int: a decimal, octal (0...) or hex (0x...)
// integer, leading spaces allowed, with an optional unit k, m or g (any
// case), that fits in a C int.
func configInt(v string) (int64, bool) {
	v = strings.TrimLeft(v, " \t\n\v\f\r")
	if v == "" {
		return 0, false
	}
	factor := int64(1)
	switch v[len(v)-1] {
	case 'k', 'K':
		factor = 1 << 10
	case 'm', 'M':
		factor = 1 << 20
	case 'g', 'G':
		factor = 1 << 30
	}
	if factor > 1 {
		v = v[:len(v)-1]
	}
	// strtoimax's base 0: no "0b", "0o" or "_" as Go's ParseInt allows.
	digits := strings.ToLower(strings.TrimLeft(v, "+-"))
	if strings.HasPrefix(digits, "0b") || strings.HasPrefix(digits, "0o") || strings.Contains(digits, "_") {
		return 0, false
	}
	n, err := strconv.ParseInt(v, 0, 64)
	if err != nil {
		return 0, false
	}
	const maxInt = 1<<31 - 1 // git bounds a boolean's number by C's int, symmetrically
	if n > maxInt/factor || n < -maxInt/factor {
		return 0, false
	}
	return n * factor, true
}

// parseBool reads a boolean environment variable the lenient way
// (GIT_DISCOVERY_ACROSS_FILESYSTEM, GIT_IMPLICIT_WORK_TREE): true/yes/on
// or a non-zero number.
func parseBool(v string) bool {
	b, err := configBool(configEntry{value: strings.TrimSpace(v), hasValue: true})
	return err == nil && b
}
