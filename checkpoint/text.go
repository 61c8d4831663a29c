package checkpoint

import (
	"bytes"
	"unicode/utf8"

	"github.com/orc-state/orc-state/internal/safetext"
)

// lineAt returns the end of the line starting at pos (excluding its "\n")
// and the start of the next line.
func lineAt(b []byte, pos int) (end, next int) {
	if i := bytes.IndexByte(b[pos:], '\n'); i >= 0 {
		return pos + i, pos + i + 1
	}
	return len(b), len(b)
}

// isBlank reports whether a line holds only spaces, tabs or carriage returns.
func isBlank(line []byte) bool {
	return len(bytes.Trim(line, " \t\r")) == 0
}

// trailingBlankStart returns the offset in b where its trailing run of blank
// lines begins (len(b) when the last line is not blank).
func trailingBlankStart(b []byte) int {
	cut := len(b)
	for cut > 0 {
		lineEnd := cut
		if b[cut-1] == '\n' {
			lineEnd--
		}
		start := bytes.LastIndexByte(b[:lineEnd], '\n') + 1
		if !isBlank(b[start:lineEnd]) {
			return cut
		}
		cut = start
	}
	return 0
}

// clip shortens s to at most max runes, ending with "…" when cut.
func clip(s string, max int) string {
	if utf8.RuneCountInString(s) <= max {
		return s
	}
	r := []rune(s)
	return string(r[:max-1]) + "…"
}

// oneLine makes s safe for a single rendered line: the one escaping rule
// of every human-readable output (safetext.Escape): control characters,
// bidirectional controls, line separators and invalid UTF-8 are shown as
// escapes.
func oneLine(s string) string { return safetext.Escape(s) }
