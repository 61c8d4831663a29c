package checkpoint

import (
	"regexp"
	"testing"
)

// The regexps the readers stand for: the oracle.
var (
	autoHeadOracle = regexp.MustCompile(`(?m)^- HEAD: (?:detached at )?([0-9a-f]{7,64})\b`)
	suiteOracle    = regexp.MustCompile(`(?m)^- Suite: \S+ @ ([0-9a-fA-F]{7,64})\b`)
)

func oracle(re *regexp.Regexp, text string) string {
	if m := re.FindStringSubmatch(text); m != nil {
		return m[1]
	}
	return ""
}

var shaLineSeeds = []string{
	"- HEAD: abc1234 subject\n",
	"- HEAD: detached at abc1234def\n",
	"- HEAD: detached at xyz\n- HEAD: 0123456789\n",
	"- HEAD: abc123 too short\n- HEAD: ABC1234 upper\n",
	"- HEAD: abc1234_word\n",
	"- HEAD: abc1234\r\n",
	"x- HEAD: abc1234\n",
	"- HEAD: " + "a1b2c3d4e5f6a7b8c9d0a1b2c3d4e5f6a7b8c9d0a1b2c3d4e5f6a7b8c9d0abcd" + "\n",
	"- HEAD: " + "a1b2c3d4e5f6a7b8c9d0a1b2c3d4e5f6a7b8c9d0a1b2c3d4e5f6a7b8c9d0abcde" + " (65)\n",
	"- Suite: PASS @ abc1234\n",
	"- Suite: PASS @ ABCDEF1 (note)\n",
	"- Suite: unknown\n- Suite: a@b @ 1234567\n",
	"- Suite: x @ y @ 1234567\n",
	"- Suite: two words @ 1234567\n",
	"- Suite:  @ 1234567\n",
	"- Suite: PASS\t@ 1234567\n",
	"- Suite: PASS @ 1234567é\n",
	"- Suite: PASS @ 1234567-x\n",
	"- Suite: PASS @ 123456\n- Suite: PASS @ 7654321\n",
	"",
	"\n\n- HEAD: 1234567",
}

func TestShaLinesAgreeWithRegexps(t *testing.T) {
	for _, text := range shaLineSeeds {
		if got, want := AutoHeadSHA([]byte(text)), oracle(autoHeadOracle, text); got != want {
			t.Errorf("AutoHeadSHA(%q) = %q, the regexp finds %q", text, got, want)
		}
		if got, want := SuiteSHA([]byte(text)), oracle(suiteOracle, text); got != want {
			t.Errorf("SuiteSHA(%q) = %q, the regexp finds %q", text, got, want)
		}
	}
	if AutoHeadSHA([]byte(shaLineSeeds[0])) == "" || SuiteSHA([]byte(shaLineSeeds[9])) == "" {
		t.Fatal("the seeds find nothing: the comparison is vacuous")
	}
}

func FuzzShaLines(f *testing.F) {
	for _, s := range shaLineSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		if got, want := AutoHeadSHA([]byte(text)), oracle(autoHeadOracle, text); got != want {
			t.Errorf("AutoHeadSHA(%q) = %q, the regexp finds %q", text, got, want)
		}
		if got, want := SuiteSHA([]byte(text)), oracle(suiteOracle, text); got != want {
			t.Errorf("SuiteSHA(%q) = %q, the regexp finds %q", text, got, want)
		}
	})
}
