package checkpoint

import (
	"bytes"
	"strconv"
	"strings"
	"time"

	"gopkg.in/yaml.v3"
)

// Every mutation of a session mirrors its entry into checkpoint.md: it
// parses the old file for its body and parses what it renders back as a
// guard (Render). A YAML decoder is most of what that costs, for a block
// Render laid out itself. quickFront reads exactly that layout, and only
// values whose meaning in YAML is plain: anything else (another order, a
// comment, another quoting style, an escape, CRLF, a value YAML could
// take for a number, a boolean or null) is left to the YAML decoder, so
// what it accepts it reads as the decoder does (TestQuickFrontAgreesWithYAML
// and FuzzParse hold the two together).

// frontKey is one line of the layout Render writes, in its order.
type frontKey struct {
	name     string
	number   bool // a decimal integer (schema, totalPhases)
	optional bool // omitted when empty
}

var frontKeys = [...]frontKey{
	{name: "schema", number: true},
	{name: "command"},
	{name: "branch"},
	{name: "gitBranch"},
	{name: "phase"},
	{name: "phaseLabel", optional: true},
	{name: "totalPhases", number: true},
	{name: "status"},
	{name: "jiraTicket", optional: true},
	{name: "updatedAt"},
}

// quickFront decodes data's frontmatter when it is laid out as Render
// writes it; ok is false for anything else (Parse then decodes it with
// YAML, which also gives the reason a block is refused).
func quickFront(data []byte) (fm Frontmatter, body []byte, ok bool) {
	rest, found := bytes.CutPrefix(data, []byte(delim+"\n"))
	if !found {
		return fm, nil, false
	}
	var in frontIn
	next := 0
	for {
		nl := bytes.IndexByte(rest, '\n')
		if nl < 0 {
			return fm, nil, false
		}
		line := string(rest[:nl])
		rest = rest[nl+1:]
		if line == delim {
			break
		}
		name, value, found := strings.Cut(line, ": ")
		if !found {
			return fm, nil, false
		}
		for next < len(frontKeys) && frontKeys[next].name != name && frontKeys[next].optional {
			next++
		}
		if next == len(frontKeys) || frontKeys[next].name != name {
			return fm, nil, false
		}
		key := frontKeys[next]
		next++
		if !in.set(key, value) {
			return fm, nil, false
		}
	}
	fm, err := in.toFrontmatter()
	if err != nil {
		return fm, nil, false
	}
	return fm, rest, true
}

// set stores one value of the layout in in; false for a value whose YAML
// reading is not plain.
func (in *frontIn) set(key frontKey, value string) bool {
	if key.number {
		n, ok := plainInt(value)
		if !ok {
			return false
		}
		if key.name == "schema" {
			in.Schema = &n
		} else {
			in.TotalPhases = &n
		}
		return true
	}
	if key.name == "phase" {
		// An integer is a YAML int, "done" unquoted a YAML string:
		// decodePhase then judges it as it judges the decoder's node.
		if _, ok := plainInt(value); ok {
			in.Phase = yaml.Node{Kind: yaml.ScalarNode, Tag: "!!int", Value: value}
			return true
		}
		if value == "done" {
			in.Phase = yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: value}
			return true
		}
		return false
	}
	s, ok := plainString(value)
	if !ok {
		return false
	}
	switch key.name {
	case "command":
		in.Command = &s
	case "branch":
		in.Branch = &s
	case "gitBranch":
		in.GitBranch = &s
	case "phaseLabel":
		in.PhaseLabel = &s
	case "status":
		in.Status = &s
	case "jiraTicket":
		in.JiraTicket = &s
	case "updatedAt":
		in.UpdatedAt = &s
	default:
		return false
	}
	return true
}

// plainInt reads 0, or 1 to 9 decimal digits without a leading zero: what
// YAML reads as that integer in any version.
func plainInt(v string) (int, bool) {
	if v == "" || len(v) > 9 || (v[0] == '0' && len(v) > 1) {
		return 0, false
	}
	n := 0
	for i := 0; i < len(v); i++ {
		if v[i] < '0' || v[i] > '9' {
			return 0, false
		}
		n = n*10 + int(v[i]-'0')
	}
	return n, true
}

// plainString reads a string value written either between double quotes
// with nothing to unescape (printable ASCII but `"` and `\`), or unquoted
// as a word YAML can only read as that string: a letter, then letters,
// digits and _ . / -, and none of the words YAML 1.1 or 1.2 read as a
// boolean or null.
func plainString(v string) (string, bool) {
	if len(v) >= 2 && v[0] == '"' && v[len(v)-1] == '"' {
		inner := v[1 : len(v)-1]
		for i := 0; i < len(inner); i++ {
			if c := inner[i]; c < 0x20 || c > 0x7e || c == '"' || c == '\\' {
				return "", false
			}
		}
		return inner, true
	}
	if v == "" || !isLetter(v[0]) {
		return "", false
	}
	for i := 1; i < len(v); i++ {
		c := v[i]
		if !isLetter(c) && (c < '0' || c > '9') && c != '_' && c != '.' && c != '/' && c != '-' {
			return "", false
		}
	}
	switch strings.ToLower(v) {
	case "true", "false", "null", "yes", "no", "on", "off", "y", "n":
		return "", false
	}
	return v, true
}

func isLetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

// quickRender renders the lines between the delimiters as yaml.v3 encodes
// them (encodeFront), for a frontmatter whose every value yaml.v3 writes
// in a way known here: a decimal integer, "done", a word plainString reads
// unquoted, or an RFC 3339 time in seconds (UTC), which it quotes because
// YAML would read it as a timestamp. False for anything else, which
// encodeFront then encodes (TestQuickRenderIsYAMLs holds the two together).
func quickRender(fm Frontmatter) ([]byte, bool) {
	b := make([]byte, 0, 256)
	ok := true
	word := func(name, v string) {
		b = append(append(b, name...), ": "...)
		switch {
		case isPlainWord(v):
			b = append(b, v...)
		case isStamp(v):
			b = append(append(append(b, '"'), v...), '"')
		default:
			ok = false
		}
		b = append(b, '\n')
	}
	number := func(name string, n int) {
		b = strconv.AppendInt(append(append(b, name...), ": "...), int64(n), 10)
		b = append(b, '\n')
	}
	number("schema", fm.Schema)
	word("command", fm.Command)
	word("branch", fm.Branch)
	word("gitBranch", fm.GitBranch)
	if n, isInt := plainInt(fm.Phase); isInt && fm.Phase != "0" {
		number("phase", n)
	} else if fm.Phase == "done" {
		b = append(b, "phase: done\n"...)
	} else {
		ok = false
	}
	if fm.PhaseLabel != "" {
		word("phaseLabel", fm.PhaseLabel)
	}
	number("totalPhases", fm.TotalPhases)
	word("status", fm.Status)
	if fm.JiraTicket != "" {
		word("jiraTicket", fm.JiraTicket)
	}
	word("updatedAt", fm.UpdatedAt)
	return b, ok
}

// isPlainWord reports whether plainString reads v unquoted as itself.
func isPlainWord(v string) bool {
	s, ok := plainString(v)
	return ok && s == v && (v == "" || v[0] != '"')
}

// isStamp reports whether v is a time as registry.Stamp writes it
// (2026-08-20T18:11:00Z).
func isStamp(v string) bool {
	t, err := time.Parse("2006-01-02T15:04:05Z", v)
	return err == nil && t.Format("2006-01-02T15:04:05Z") == v
}
