package cli

import (
	"fmt"
	"io"
	"strings"
)

// HeaderFlag is --header, taken by every verb whose output is TSV: a
// first line naming the columns, so a person (or a script that reads by
// name) knows what each is. Without it the output is as it always was.
type HeaderFlag struct {
	Header bool `name:"header" help:"Print a first line naming the TSV columns (not with --json)."`
}

// printHeader writes cols as a TSV line when on.
func printHeader(w io.Writer, on bool, cols ...string) {
	if on {
		fmt.Fprintln(w, strings.Join(cols, "\t"))
	}
}
