package cli

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
)

// printJSON writes v on w as JSON, indented by indent ("" is compact).
func printJSON(w io.Writer, v any, indent string) error {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", indent)
	if err := enc.Encode(v); err != nil {
		return err
	}
	_, err := w.Write(buf.Bytes())
	return err
}

// printLines prints each line of lines on w.
func printLines(w io.Writer, lines []string) {
	for _, l := range lines {
		fmt.Fprintln(w, l)
	}
}
