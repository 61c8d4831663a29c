package textin

import (
	"errors"
	"math"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestSingleLine(t *testing.T) {
	for _, tt := range []struct {
		in   string
		want string // "" accepts; else a part of the message
	}{
		{"", ""},
		{"plain words", ""},
		{"ünïcödé — dash, emoji 🙂", ""},
		{"a\u200bzero-width", ""},           // a format character, not a break
		{"right\u202eto-left", ""},          // bidi controls are shown escaped on output, not refused here
		{"a\nb", "line break (U+000A)"},     // LF
		{"a\rb", "line break (U+000D)"},     // CR
		{"a\r\nb", "line break (U+000D)"},   // CRLF: the first one is named
		{"a\vb", "line break (U+000B)"},     // VT
		{"a\fb", "line break (U+000C)"},     // FF
		{"a\u0085b", "line break (U+0085)"}, // NEL
		{"a\u2028b", "line break (U+2028)"}, // LINE SEPARATOR
		{"a\u2029b", "line break (U+2029)"}, // PARAGRAPH SEPARATOR
		{"trailing\n", "line break"},
		{"a\tb", "control character (U+0009)"},
		{"a\x1b[31mred", "control character (U+001B)"},
		{"bell\a", "control character (U+0007)"},
		{"nul\x00", "control character (U+0000)"},
		{"del\x7f", "control character (U+007F)"},
		{"c1\u009b", "control character (U+009B)"}, // CSI
		{"c1\u0080", "control character (U+0080)"},
		{"bad\xffutf8", "not valid UTF-8"},
		{"\xed\xa0\x80", "not valid UTF-8"}, // a surrogate
		{"\xc0\xae", "not valid UTF-8"},     // overlong
	} {
		err := SingleLine("--label", tt.in)
		switch {
		case tt.want == "" && err != nil:
			t.Errorf("SingleLine(%q) = %v, want nil", tt.in, err)
		case tt.want != "" && err == nil:
			t.Errorf("SingleLine(%q) = nil, want an error with %q", tt.in, tt.want)
		case err != nil && (!strings.Contains(err.Error(), tt.want) || !strings.HasPrefix(err.Error(), "--label ")):
			t.Errorf("SingleLine(%q) = %q, want it to start with the name and say %q", tt.in, err, tt.want)
		}
	}
}

// TestForbiddenEveryRune holds Forbidden to its definition over every
// code point, and IsBreak to be a part of it.
func TestForbiddenEveryRune(t *testing.T) {
	for r := rune(0); r <= utf8.MaxRune; r++ {
		want := r < 0x20 || r == 0x7f || 0x80 <= r && r < 0xa0 || r == 0x2028 || r == 0x2029
		if got := Forbidden(r); got != want {
			t.Fatalf("Forbidden(%U) = %v, want %v", r, got, want)
		}
		if IsBreak(r) && !Forbidden(r) {
			t.Fatalf("IsBreak(%U) but not Forbidden", r)
		}
	}
}

func TestToLF(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{"", ""},
		{"a\nb\n", "a\nb\n"},
		{"a\r\nb\r\n", "a\nb\n"},
		{"a\rb\r", "a\nb\n"}, // lone CRs
		{"a\r\r\n", "a\n\n"}, // a CR, then a CRLF
		{"a\n\r", "a\n\n"},   // LF then a lone CR
		{"\r\n\r\n", "\n\n"},
		{"\r", "\n"},
		{"mixed\r\nold\rnew\n", "mixed\nold\nnew\n"},
		{"no breaks", "no breaks"},
	} {
		if got := string(ToLF([]byte(tt.in))); got != tt.want {
			t.Errorf("ToLF(%q) = %q, want %q", tt.in, got, tt.want)
		}
		if got := string(ToLF([]byte(tt.in))); strings.Contains(got, "\r") {
			t.Errorf("ToLF(%q) keeps a CR", tt.in)
		}
	}
}

func TestDecimal(t *testing.T) {
	const lo, hi = -1000, 1000
	for _, tt := range []struct {
		in   string
		want int64
		err  error // nil accepts
	}{
		{"0", 0, nil},
		{"7", 7, nil},
		{"10", 10, nil},
		{"1000", 1000, nil},
		{"-1", -1, nil},
		{"-1000", -1000, nil},
		{"010", 0, ErrNotDecimal}, // octal to strconv's base 0
		{"0x10", 0, ErrNotDecimal},
		{"0X10", 0, ErrNotDecimal},
		{"0o10", 0, ErrNotDecimal},
		{"0b10", 0, ErrNotDecimal},
		{"00", 0, ErrNotDecimal},
		{"-0", 0, ErrNotDecimal},
		{"-010", 0, ErrNotDecimal},
		{"+3", 0, ErrNotDecimal},
		{" 3", 0, ErrNotDecimal},
		{"3 ", 0, ErrNotDecimal},
		{"3\n", 0, ErrNotDecimal},
		{"1_000", 0, ErrNotDecimal},
		{"1e3", 0, ErrNotDecimal},
		{"1.0", 0, ErrNotDecimal},
		{"", 0, ErrNotDecimal},
		{"-", 0, ErrNotDecimal},
		{"--1", 0, ErrNotDecimal},
		{"abc", 0, ErrNotDecimal},
		{"٣", 0, ErrNotDecimal}, // ARABIC-INDIC DIGIT THREE
		{"３", 0, ErrNotDecimal}, // FULLWIDTH DIGIT THREE
		{"1001", 0, ErrRange},
		{"-1001", 0, ErrRange},
		{"99999999999999999999", 0, ErrRange}, // past int64
		{"-99999999999999999999", 0, ErrRange},
	} {
		n, err := Decimal(tt.in, lo, hi)
		switch {
		case tt.err == nil && (err != nil || n != tt.want):
			t.Errorf("Decimal(%q) = %d, %v; want %d", tt.in, n, err, tt.want)
		case tt.err != nil && !errors.Is(err, tt.err):
			t.Errorf("Decimal(%q) = %d, %v; want %v", tt.in, n, err, tt.err)
		}
	}
	if n, err := Decimal("9223372036854775807", math.MinInt64, math.MaxInt64); err != nil || n != math.MaxInt64 {
		t.Errorf("Decimal(MaxInt64) = %d, %v", n, err)
	}
	if n, err := Decimal("-9223372036854775808", math.MinInt64, math.MaxInt64); err != nil || n != math.MinInt64 {
		t.Errorf("Decimal(MinInt64) = %d, %v", n, err)
	}
}

func TestDecimalMessages(t *testing.T) {
	_, err := Decimal("0x10", 1, 99)
	if want := `"0x10" is not a decimal integer`; err == nil || !strings.HasPrefix(err.Error(), want) {
		t.Errorf("got %v, want it to start with %s", err, want)
	}
	_, err = Decimal("100", 1, 99)
	if want := `"100" is out of range (1 to 99)`; err == nil || err.Error() != want {
		t.Errorf("got %v, want %s", err, want)
	}
	_, err = Decimal("1\x1b[2J"+strings.Repeat("9", 60), 1, 99)
	if err == nil || strings.ContainsRune(err.Error(), 0x1b) || len(err.Error()) > 160 {
		t.Errorf("a message must escape and clip the text: %q", err)
	}
}

func FuzzDecimal(f *testing.F) {
	for _, s := range []string{"0", "12", "-5", "010", "0x1f", "+1", "1_0", " 1", "99999999999999999999"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		n, err := Decimal(s, math.MinInt64, math.MaxInt64)
		if err != nil {
			return
		}
		// Accepted text is exactly the canonical spelling of its value.
		if got := strconv.FormatInt(n, 10); got != s {
			t.Fatalf("Decimal(%q) = %d, whose spelling is %q", s, n, got)
		}
	})
}
