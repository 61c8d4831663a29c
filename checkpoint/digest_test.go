package checkpoint

import (
	"errors"
	"fmt"
	"strings"
	"testing"
)

const five = "- Done: slices 1-3\n- Next: plan.md\n- Open decisions: none\n- Artifacts: plan.md\n- Suite: green @ abc1234 (12 passed)\n"

func TestParseDigestAccepts(t *testing.T) {
	cases := []struct {
		name, in, text, verdict, sha string
	}{
		{"five bullets", five, five, "green", "abc1234"},
		{"no final newline", strings.TrimSuffix(five, "\n"), five, "green", "abc1234"},
		{"blank lines around are trimmed", "\n \n" + five + "\n\t\n\n", five, "green", "abc1234"},
		{"continuation lines and extra lines", "- Done: a\n  more about a\n- Next: b\n\n- Open decisions: none\n- Artifacts: x\n  - nested\n- Suite: unknown\n- Extra: y\nfree text\n### sub\n",
			"- Done: a\n  more about a\n- Next: b\n\n- Open decisions: none\n- Artifacts: x\n  - nested\n- Suite: unknown\n- Extra: y\nfree text\n### sub\n", "unknown", ""},
		{"suite unknown with note", strings.Replace(five, "green @ abc1234 (12 passed)", "unknown (not run)", 1), "", "unknown", ""},
		{"suite sha upper-case 40", strings.Replace(five, "abc1234 (12 passed)", strings.Repeat("AB", 20), 1), "", "green", strings.Repeat("ab", 20)},
		{"suite red no note", strings.Replace(five, "green @ abc1234 (12 passed)", "red @ 0123456", 1), "", "red", "0123456"},
		{"suite trailing spaces kept in text", strings.Replace(five, " (12 passed)", "  ", 1), strings.Replace(five, " (12 passed)", "  ", 1), "green", "abc1234"},
		{"tab allowed", strings.Replace(five, "slices", "slices\t", 1), "", "green", "abc1234"},
		{"unicode", strings.Replace(five, "slices 1-3", "nothing — session initialized 日本", 1), "", "green", "abc1234"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			d, err := ParseDigest([]byte(c.in))
			if err != nil {
				t.Fatalf("refused: %v", err)
			}
			text := c.text
			if text == "" {
				text = strings.TrimRight(c.in, " \n")
				text += "\n"
			}
			if string(d.Text) != text || d.SuiteVerdict != c.verdict || d.SuiteSHA != c.sha {
				t.Errorf("got %q %q %q\nwant %q %q %q", d.Text, d.SuiteVerdict, d.SuiteSHA, text, c.verdict, c.sha)
			}
		})
	}
}

// lines returns the five bullets followed by extra filler lines, n lines in all.
func lines(n int) string {
	var b strings.Builder
	b.WriteString(five)
	for i := 6; i <= n; i++ {
		fmt.Fprintf(&b, "  line %d\n", i)
	}
	return b.String()
}

// sized returns a digest of exactly n bytes without its final newline.
func sized(n int) string {
	base := strings.TrimSuffix(five, "\n")
	return base + "\n" + strings.Repeat("x", n-len(base)-1) + "\n"
}

func TestParseDigestCaps(t *testing.T) {
	if _, err := ParseDigest([]byte(lines(30))); err != nil {
		t.Errorf("30 lines refused: %v", err)
	}
	if _, err := ParseDigest([]byte(sized(2048))); err != nil {
		t.Errorf("2048 bytes refused: %v", err)
	}
	if d, err := ParseDigest([]byte(sized(2048) + "\n\n")); err != nil || len(d.Text) != 2049 {
		t.Errorf("2048 bytes + trailing newlines: %v, %d", err, len(d.Text))
	}
	long := "- Done: " + strings.Repeat("y", 2100)
	cases := []struct{ name, in, reason, overflow string }{
		{"31 lines", lines(31), "digest has 31 lines; the cap is 30 (1 over)", `line 31 does not fit: "  line 31"`},
		{"40 lines", lines(40), "digest has 40 lines; the cap is 30 (10 over)", `lines 31-40 do not fit, from "  line 31"`},
		{"2049 bytes", sized(2049), "digest is 2049 bytes; the cap is 2048 (1 over)", `line 6 does not fit: "xxx`},
		{"one long line", long, "digest is 2108 bytes; the cap is 2048 (60 over)", `line 1 alone is 2108 bytes: "- Done: yyy`},
		{"bytes over in the middle", five + strings.Repeat("z", 2000) + "\nlast\n", "digest is 2121 bytes; the cap is 2048 (73 over)", `lines 6-7 do not fit, from "zzz`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := ParseDigest([]byte(c.in))
			var de *DigestError
			if !errors.As(err, &de) {
				t.Fatalf("error %v (%T), want *DigestError", err, err)
			}
			if de.Reason != c.reason || err.Error() != c.reason {
				t.Errorf("reason %q, want %q", de.Reason, c.reason)
			}
			if !strings.HasPrefix(de.Overflow, c.overflow) {
				t.Errorf("overflow %q, want prefix %q", de.Overflow, c.overflow)
			}
		})
	}
}

func TestParseDigestRefuses(t *testing.T) {
	swap := func(old, new string) string { return strings.Replace(five, old, new, 1) }
	cases := []struct{ name, in, reason string }{
		{"empty", "", "digest is empty"},
		{"blank", "\n  \n\t\n", "digest is empty"},
		{"carriage return", strings.ReplaceAll(five, "\n", "\r\n"), "line 1 contains a carriage return; use \\n line endings"},
		{"lone cr line at the end", five + "\r\n", "line 6 contains a carriage return; use \\n line endings"},
		{"invalid utf-8", swap("plan.md\n- Open", "plan\xff\n- Open"), "line 2 is not valid utf-8"},
		{"nul", swap("none", "no\x00ne"), "line 3 contains control character U+0000"},
		{"section heading", five + "## Notes\nx\n", `line 6 begins with "## "; a digest cannot open a section`},
		{"h1", five + "# Notes\n", `line 6 begins with "# "; a digest cannot open a section`},
		{"bare ##", five + "##\n", `line 6 begins with "##"; a digest cannot open a section`},
		{"heading counts input lines", "\n\n" + five + "## x\n", `line 8 begins with "## "; a digest cannot open a section`},
		{"not a bullet first", "Summary\n" + five, `line 1 is "Summary"; a digest begins with "- Done:"`},
		{"misordered", "- Done: a\n- Next: b\n- Artifacts: c\n- Open decisions: d\n- Suite: unknown\n", `bullet 3 is "- Artifacts:"; expected "- Open decisions:"`},
		{"first bullet wrong", "- Next: b\n", `bullet 1 is "- Next:"; expected "- Done:"`},
		{"bullet without colon", swap("- Next: plan.md", "- plan.md is next"), `bullet 2 is "- plan.md is next"; expected "- Next:"`},
		{"missing suite", "- Done: a\n- Next: b\n- Open decisions: c\n- Artifacts: d\n", `digest has 4 of the 5 bullets; "- Suite:" is missing`},
		{"star bullets are not bullets", "- Done: a\n* Next: b\n", `digest has 1 of the 5 bullets; "- Next:" is missing`},
		{"suite without sha", swap("green @ abc1234 (12 passed)", "green"), `suite is "green"; expected "unknown" or "<verdict> @ <sha>"`},
		{"suite empty", swap(" green @ abc1234 (12 passed)", ""), `suite is ""; expected "unknown" or "<verdict> @ <sha>"`},
		{"suite sha short", swap("abc1234", "abc123"), `suite sha "abc123" is not 7-40 hex characters`},
		{"suite sha long", swap("abc1234", strings.Repeat("a", 41)), `suite sha "` + strings.Repeat("a", 41) + `" is not 7-40 hex characters`},
		{"suite sha not hex", swap("abc1234", "abcdefg"), `suite sha "abcdefg" is not 7-40 hex characters`},
		{"suite verdict two words", swap("green @", "all green @"), `suite verdict "all green" is not a single word`},
		{"suite junk after sha", swap("(12 passed)", "12 passed"), `suite has "12 passed" after the sha; only " (…)" may follow it`},
		{"suite unclosed paren", swap("(12 passed)", "(12 passed"), `suite has "(12 passed" after the sha`},
		{"suite unknown junk", swap("green @ abc1234 (12 passed)", "unknown yet"), `suite is "unknown yet"; expected`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			d, err := ParseDigest([]byte(c.in))
			if err == nil {
				t.Fatalf("accepted: %q", d.Text)
			}
			var de *DigestError
			if !errors.As(err, &de) {
				t.Fatalf("error type %T", err)
			}
			if !strings.HasPrefix(de.Reason, c.reason) {
				t.Errorf("reason %q\nwant   %q", de.Reason, c.reason)
			}
			if de.Overflow != "" {
				t.Errorf("overflow %q on a shape error", de.Overflow)
			}
		})
	}
}

// Each refusal carries the fix for its own fault: a misordered digest is
// not told to shorten itself, an oversized one is.
func TestDigestRefusalFix(t *testing.T) {
	five := "- Done: a\n- Next: b\n- Open decisions: none\n- Artifacts: none\n- Suite: unknown\n"
	tests := []struct {
		name, text, fix string
	}{
		{"empty", "\n\n", FixShape},
		{"misordered", "- Next: b\n- Done: a\n- Open decisions: none\n- Artifacts: none\n- Suite: unknown\n", FixShape},
		{"missing bullet", "- Done: a\n- Next: b\n", FixShape},
		{"not a bullet first", "Done: a\n" + five, FixShape},
		{"heading", five + "## More\n", FixHeading},
		{"carriage return", "- Done: a\r\n- Next: b\n", FixText},
		{"control character", "- Done: a\x1b[31m\n" + five[10:], FixText},
		{"too many lines", five + strings.Repeat("more\n", 30), FixCap},
		{"too many bytes", five + strings.Repeat("x", 2100) + "\n", FixCap},
		{"suite shape", strings.Replace(five, "unknown", "green", 1), FixSuite},
		{"suite sha", strings.Replace(five, "unknown", "green @ xyz1234", 1), FixSuite},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := ParseDigest([]byte(tt.text))
			var de *DigestError
			if !errors.As(err, &de) {
				t.Fatalf("err = %v; want a *DigestError", err)
			}
			if de.Fix != tt.fix {
				t.Fatalf("%s: Fix = %q; want %q", de.Reason, de.Fix, tt.fix)
			}
		})
	}
}
