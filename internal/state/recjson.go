package state

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"sort"
	"strconv"
	"unicode/utf8"
)

// appendIntent appends in as encoding/json would encode it (the field
// order and omissions of Intent's tags, HTML left unescaped), without its
// reflection: a process writes one record, and building the encoder for
// Intent was most of what encoding it cost. TestRecordEncodingIsEncodingJSONs
// holds the two byte for byte.
func appendIntent(b []byte, in *Intent) ([]byte, error) {
	b = append(b, '{')
	sep := func() {
		if b[len(b)-1] != '{' {
			b = append(b, ',')
		}
	}
	if in.Boot != "" {
		b = appendString(append(b, `"boot":`...), in.Boot)
	}
	if in.Seq != 0 {
		sep()
		b = strconv.AppendInt(append(b, `"seq":`...), in.Seq, 10)
	}
	if in.Applied != 0 {
		sep()
		b = strconv.AppendInt(append(b, `"applied":`...), in.Applied, 10)
	}
	if in.Verb != "" {
		sep()
		b = appendString(append(b, `"verb":`...), in.Verb)
	}
	sep()
	b = appendString(append(b, `"actor":`...), in.Actor)
	b = appendString(append(b, `,"at":`...), in.At)
	b = strconv.AppendInt(append(b, `,"pid":`...), int64(in.PID), 10)
	b = appendStrings(append(b, `,"sessions":`...), in.Sessions)
	if len(in.Args) > 0 {
		b = append(b, `,"args":{`...)
		keys := make([]string, 0, len(in.Args))
		for k := range in.Args {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for i, k := range keys {
			if i > 0 {
				b = append(b, ',')
			}
			b = append(appendString(b, k), ':')
			raw := in.Args[k]
			if raw == nil {
				b = append(b, "null"...)
				continue
			}
			var buf bytes.Buffer
			if err := json.Compact(&buf, raw); err != nil {
				return nil, err
			}
			b = append(b, buf.Bytes()...)
		}
		b = append(b, '}')
	}
	b = append(b, `,"steps":`...)
	if in.Steps == nil {
		b = append(b, "null"...)
	} else {
		b = append(b, '[')
		for i, s := range in.Steps {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendString(append(b, `{"op":`...), s.Op)
			b = appendString(append(b, `,"path":`...), s.Path)
			if s.To != "" {
				b = appendString(append(b, `,"to":`...), s.To)
			}
			if s.Size != 0 {
				b = strconv.AppendInt(append(b, `,"size":`...), s.Size, 10)
			}
			if len(s.Data) > 0 {
				b = append(append(b, `,"data":"`...), base64.StdEncoding.AppendEncode(nil, s.Data)...)
				b = append(b, '"')
			}
			if s.Content {
				b = append(b, `,"content":true`...)
			}
			b = append(b, '}')
		}
		b = append(b, ']')
	}
	b = appendStrings(append(b, `,"sync":`...), in.Sync)
	return append(b, '}'), nil
}

// appendStrings appends a list of strings (null for none).
func appendStrings(b []byte, list []string) []byte {
	if list == nil {
		return append(b, "null"...)
	}
	b = append(b, '[')
	for i, s := range list {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendString(b, s)
	}
	return append(b, ']')
}

// appendString appends s as a JSON string the way encoding/json writes it
// without HTML escaping; a string holding anything but printable ASCII
// other than `"` and `\` is left to encoding/json itself.
func appendString(b []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c >= utf8.RuneSelf || c == '"' || c == '\\' {
			var buf bytes.Buffer
			enc := json.NewEncoder(&buf)
			enc.SetEscapeHTML(false)
			_ = enc.Encode(s) // a string always encodes
			return append(b, bytes.TrimSuffix(buf.Bytes(), []byte("\n"))...)
		}
	}
	b = append(b, '"')
	b = append(b, s...)
	return append(b, '"')
}
