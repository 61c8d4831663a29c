package checkpoint

import (
	"fmt"
	"strings"
	"testing"
)

// digest write --help states the rules ParseDigest enforces: the five
// bullets in order, the caps, and an example it accepts.
func TestDigestTextStatesTheRulesParseDigestEnforces(t *testing.T) {
	help := DigestText()
	at := 0
	for _, b := range DigestBullets() {
		i := strings.Index(help[at:], b)
		if i < 0 {
			t.Fatalf("DigestText lacks %q after byte %d", b, at)
		}
		at += i + len(b)
	}
	if want := fmt.Sprintf("At most %d lines and %d bytes", MaxDigestLines, MaxDigestBytes); !strings.Contains(help, want) {
		t.Errorf("DigestText lacks %q", want)
	}
	_, after, _ := strings.Cut(help, "<<'EOF'\n")
	body, _, _ := strings.Cut(after, "    EOF")
	var example strings.Builder
	for _, l := range strings.Split(strings.TrimRight(body, "\n"), "\n") {
		example.WriteString(strings.TrimPrefix(l, "    ") + "\n")
	}
	if _, err := ParseDigest([]byte(example.String())); err != nil {
		t.Errorf("the example is refused: %v\n%s", err, example.String())
	}
}
