package secrets

import (
	"bytes"
	"encoding/json"
	"strings"
)

// Hit is one redacted place: the 1-based line of the text it was on and
// the kind of credential. It never holds the credential.
type Hit struct {
	Line int
	Kind string
}

// marker is what stands where a credential was.
func marker(kind string) string { return "[redacted " + kind + "]" }

// RedactLines removes every credential from text, line by line: each
// credential-shaped run becomes "[redacted <kind>]" ([Redact]), and a line
// that still shows one in a decoded reading is replaced by the marker as a
// whole. Lines without a credential keep every byte, and so do the line
// endings. It returns the text unchanged (the same slice) when there was
// nothing to redact. This is `repair --redact` on a text file.
func RedactLines(text []byte) ([]byte, []Hit) {
	return redactEach(text, func(line []byte) []byte {
		return []byte(Redact(string(line)))
	})
}

// RedactJSON removes every credential from JSON text (a document or JSON
// lines), keeping the text valid JSON: each string (member name or value)
// that holds one, raw or once decoded, is replaced by its decoded value
// with the runs redacted ([Redact]), re-encoded, or by the marker when a
// decoded reading still shows one. Everything else keeps its bytes. A line
// that still holds a credential outside any string (text that is not
// JSON) is redacted as [RedactLines] does.
func RedactJSON(text []byte) ([]byte, []Hit) {
	return redactEach(text, func(line []byte) []byte {
		out := redactStrings(line)
		if len(All(out)) > 0 {
			out = []byte(Redact(string(out)))
		}
		return out
	})
}

// redactEach applies fix to each line that holds a credential and makes
// sure none is left: a line fix could not clean becomes the marker.
func redactEach(text []byte, fix func(line []byte) []byte) ([]byte, []Hit) {
	if len(All(text)) == 0 {
		return text, nil
	}
	var out bytes.Buffer
	var hits []Hit
	for n, rest := 1, text; len(rest) > 0; n++ {
		line, after, found := bytes.Cut(rest, []byte{'\n'})
		rest = after
		body, cr := bytes.CutSuffix(line, []byte{'\r'})
		if m := All(body); len(m) > 0 {
			seen := map[string]bool{}
			for _, x := range m {
				if !seen[x.Kind] {
					seen[x.Kind] = true
					hits = append(hits, Hit{Line: n, Kind: x.Kind})
				}
			}
			body = fix(body)
			if left := All(body); len(left) > 0 {
				body = []byte(marker(left[0].Kind))
			}
		}
		out.Write(body)
		if cr {
			out.WriteByte('\r')
		}
		if found {
			out.WriteByte('\n')
		}
	}
	return out.Bytes(), hits
}

// redactStrings rewrites each JSON string literal of line that holds a
// credential; the bytes between literals are kept. A credential that
// spans a member name and its value ("aws_secret_access_key": "…",
// "Authorization": "Bearer …") is judged on the pair, and the value goes.
func redactStrings(line []byte) []byte {
	var out []byte
	at, prev := 0, -1 // prev: where the literal before this one starts
	for i := 0; i < len(line); i++ {
		if line[i] != '"' {
			continue
		}
		end := literalEnd(line, i)
		if end < 0 {
			break // an unterminated string: left to the line-wise pass
		}
		lit := line[i:end]
		var red []byte
		if len(All(lit)) > 0 {
			red = redactLiteral(lit)
		} else if prev >= at {
			if m := All(line[prev:end]); len(m) > 0 {
				red = encodeString(marker(m[0].Kind))
			}
		}
		if red != nil {
			out = append(out, line[at:i]...)
			out = append(out, red...)
			at = end
		}
		prev = i
		i = end - 1
	}
	if out == nil {
		return line
	}
	return append(out, line[at:]...)
}

// literalEnd returns the offset just after the JSON string starting at
// line[start] (a quote), or -1 when it does not end on the line.
func literalEnd(line []byte, start int) int {
	for i := start + 1; i < len(line); i++ {
		switch line[i] {
		case '\\':
			i++
		case '"':
			return i + 1
		}
	}
	return -1
}

// redactLiteral returns a JSON string literal standing for lit's value
// with its credentials redacted.
func redactLiteral(lit []byte) []byte {
	var v string
	if err := json.Unmarshal(lit, &v); err != nil {
		v = string(lit[1 : len(lit)-1]) // not valid JSON: judged as it is
	}
	red := Redact(v)
	if left := All([]byte(red)); len(left) > 0 {
		red = marker(left[0].Kind)
	}
	return encodeString(red)
}

// encodeString renders s as a JSON string literal, leaving <, > and &
// as they are.
func encodeString(s string) []byte {
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s) // a string always encodes
	return []byte(strings.TrimSuffix(b.String(), "\n"))
}

// RedactName returns a file or folder name with every credential replaced
// by the word "redacted" (no spaces or brackets, so the name stays a plain
// name), keeping its extension; a name that shows one only once decoded
// becomes "redacted" plus its extension. A clean name is returned as it is.
func RedactName(name string) string {
	if _, _, ok := FindDecoded([]byte(name)); !ok {
		return name
	}
	ext := ""
	if i := strings.LastIndexByte(name, '.'); i > 0 {
		ext = name[i:]
		if _, _, ok := FindDecoded([]byte(ext)); ok {
			ext = ""
		}
	}
	b := []byte(name)
	var out strings.Builder
	at := 0
	for _, s := range spans(b) {
		out.Write(b[at:s.start])
		out.WriteString("redacted")
		at = s.end
	}
	out.Write(b[at:])
	red := out.String()
	if _, _, ok := FindDecoded([]byte(red)); ok || !strings.HasSuffix(red, ext) {
		red = "redacted" + ext
	}
	return red
}
