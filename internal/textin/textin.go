// Package textin is the one statement of docs/protocol.md §4's input rules
// that are about the shape of text, whatever the source (a flag, an
// argument, an environment variable, stdin, a plan file, a pulled state):
//
//   - SingleLine: what a one-line field may hold. No line break of any
//     kind (LF, CR, VT, FF, NEL U+0085, LINE SEPARATOR U+2028, PARAGRAPH
//     SEPARATOR U+2029), no other control character (C0, DEL, C1), and
//     valid UTF-8.
//   - ToLF: multi-line text as orc-state stores it: CRLF and a lone CR
//     both become LF.
//   - Decimal: an integer as a person writes it in base 10; "010", "0x10",
//     "+3", " 3", "1_000" and out-of-range values are refused, never read
//     in another base or cut.
//
// It is pure: no I/O, no exit codes. Callers wrap its errors (fault.Usagef
// for input, an invalid-state error for a file).
package textin

import (
	"bytes"
	"errors"
	"fmt"
	"strconv"
	"unicode"
	"unicode/utf8"
)

// Forbidden reports whether r may not appear in a one-line field: a
// control character (C0 including tab, DEL, C1 including NEL U+0085) or a
// Unicode line or paragraph separator (U+2028, U+2029), which some
// renderers and parsers (JavaScript, YAML, editors) treat as a line break.
func Forbidden(r rune) bool {
	return unicode.IsControl(r) || r == '\u2028' || r == '\u2029'
}

// IsBreak reports whether r ends a line for some reader: LF, VT, FF, CR,
// NEL, LINE SEPARATOR or PARAGRAPH SEPARATOR.
func IsBreak(r rune) bool {
	switch r {
	case '\n', '\v', '\f', '\r', '\u0085', '\u2028', '\u2029':
		return true
	}
	return false
}

// SingleLine refuses v when it is not valid UTF-8 or holds a character
// Forbidden names; name is how the message calls the field (a flag, a
// variable, a JSON member). The message names the character as U+XXXX and
// never repeats the value.
func SingleLine(name, v string) error {
	if !utf8.ValidString(v) {
		return fmt.Errorf("%s is not valid UTF-8", name)
	}
	for _, r := range v {
		if !Forbidden(r) {
			continue
		}
		if IsBreak(r) {
			return fmt.Errorf("%s contains a line break (%U); it must be one line", name, r)
		}
		return fmt.Errorf("%s contains a control character (%U); it must be one line", name, r)
	}
	return nil
}

// ToLF returns text with every line ending as LF: CRLF and a CR on its own
// (old Mac files, a terminal's carriage returns) each become one LF. data
// is not changed; when it holds no CR it is returned as is.
func ToLF(data []byte) []byte {
	if bytes.IndexByte(data, '\r') < 0 {
		return data
	}
	out := make([]byte, 0, len(data))
	for i := 0; i < len(data); i++ {
		c := data[i]
		if c != '\r' {
			out = append(out, c)
			continue
		}
		out = append(out, '\n')
		if i+1 < len(data) && data[i+1] == '\n' {
			i++ // CRLF is one ending
		}
	}
	return out
}

// ErrNotDecimal and ErrRange are what Decimal's errors wrap.
var (
	ErrNotDecimal = errors.New("not a decimal integer")
	ErrRange      = errors.New("out of range")
)

// DecimalError is Decimal's refusal: the text (quoted, clipped) and why.
type DecimalError struct {
	Text     string
	Min, Max int64
	Err      error // ErrNotDecimal or ErrRange
}

func (e *DecimalError) Error() string {
	if errors.Is(e.Err, ErrRange) {
		return fmt.Sprintf("%s is out of range (%d to %d)", clip(e.Text), e.Min, e.Max)
	}
	return fmt.Sprintf("%s is not a decimal integer (digits 0-9, no leading zero, no sign but -)", clip(e.Text))
}

func (e *DecimalError) Unwrap() error { return e.Err }

// Decimal reads s as a base-10 integer between min and max: an optional
// "-", then "0" or a digit 1-9 followed by digits 0-9, nothing else (no
// "+", no spaces, no "_", no leading zero that another reader would take
// for octal, no "0x"). Anything else is an error; so is a value outside
// min..max.
func Decimal(s string, min, max int64) (int64, error) {
	digits := s
	if len(digits) > 0 && digits[0] == '-' {
		digits = digits[1:]
	}
	ok := digits != "" && (digits == "0" || digits[0] != '0') && (digits != "0" || len(s) == 1)
	for i := 0; ok && i < len(digits); i++ {
		ok = '0' <= digits[i] && digits[i] <= '9'
	}
	if !ok {
		return 0, &DecimalError{Text: s, Min: min, Max: max, Err: ErrNotDecimal}
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil || n < min || n > max {
		return 0, &DecimalError{Text: s, Min: min, Max: max, Err: ErrRange}
	}
	return n, nil
}

// clip quotes s for a message, at most 40 bytes of it, with control
// characters escaped.
func clip(s string) string {
	if len(s) > 40 {
		cut := 40
		for cut > 0 && !utf8.RuneStart(s[cut]) {
			cut--
		}
		return strconv.QuoteToASCII(s[:cut]) + "..."
	}
	return strconv.QuoteToASCII(s)
}
