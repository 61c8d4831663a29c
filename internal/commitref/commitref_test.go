package commitref

import (
	"strings"
	"testing"
)

// Outside a repository a sha is kept as given, unverified, with why; any
// other revision is refused, since nothing can resolve it.
func TestResolveOutsideARepository(t *testing.T) {
	for _, tt := range []struct {
		rev, commit, why, err string
	}{
		{"abc1234", "abc1234", "cannot be checked (not inside a git repository)", ""},
		{strings.Repeat("f", 40), strings.Repeat("f", 40), "cannot be checked", ""},
		{"HEAD", "", "", "is no sha, and there is no repository"},
		{"main~1", "", "", "is no sha"},
	} {
		commit, verified, why, err := Resolve(nil, tt.rev)
		if tt.err != "" {
			if err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Errorf("%s: err %v, want %q", tt.rev, err, tt.err)
			}
			continue
		}
		if err != nil || verified || commit != tt.commit || !strings.Contains(why, tt.why) {
			t.Errorf("%s: %q %v %q %v", tt.rev, commit, verified, why, err)
		}
	}
}
