package packet

import (
	"strings"
	"testing"
	"time"

	"github.com/orc-state/orc-state/slices"
)

// TestReentryNamesTheCallersClaimFirst: the re-entry slice is the
// caller's own live claim, else the next ready slice (with its holder
// when another agent holds it), else "none ready", always with the count
// done; the live claims list the caller's first, and lapsed ones are none.
func TestReentryNamesTheCallersClaimFirst(t *testing.T) {
	now := time.Date(2031, 1, 1, 0, 0, 0, 0, time.UTC)
	until := `"claimedUntil":"2031-01-01T00:30:00Z"`
	lapsed := `"claimedUntil":"2030-12-31T23:00:00Z"`
	for _, tt := range []struct {
		name, slices, agent string
		slice               string
		claims, own         []string
	}{
		{"nothing claimed: the next ready", `{"id":"1","title":"a","status":"committed"},{"id":"2","title":"b"}`, "me",
			"2 (pending) b — 1/2 slices done", nil, nil},
		{"the caller's own claim first", `{"id":"1","title":"a","claimedBy":"other",` + until + `},{"id":"2","title":"b","status":"red","claimedBy":"me",` + until + `}`, "me",
			"2 (red) b — claimed by you until 2031-01-01T00:30:00Z — 0/2 slices done",
			[]string{"2 (red) b: yours until 2031-01-01T00:30:00Z", "1 (pending) a: claimed by other until 2031-01-01T00:30:00Z"},
			[]string{"2 (red) b until 2031-01-01T00:30:00Z"}},
		{"the next slice, held by another agent, names its holder", `{"id":"1","title":"a","claimedBy":"other",` + until + `}`, "me",
			"1 (pending) a — claimed by other until 2031-01-01T00:30:00Z — 0/1 slices done", []string{"1 (pending) a: claimed by other until 2031-01-01T00:30:00Z"}, nil},
		{"a lapsed claim is no claim", `{"id":"1","title":"a","claimedBy":"me",` + lapsed + `}`, "me",
			"1 (pending) a — 0/1 slices done", nil, nil},
		{"all done", `{"id":"1","title":"a","status":"committed","commit":"` + strings.Repeat("a", 40) + `"}`, "",
			"none ready — 1/1 slices done", nil, nil},
	} {
		t.Run(tt.name, func(t *testing.T) {
			l, err := slices.Parse([]byte(`{"schema":1,"slices":[` + tt.slices + `]}`))
			if err != nil {
				t.Fatal(err)
			}
			slice, claims, own := reentry(l, tt.agent, now)
			if slice != tt.slice {
				t.Errorf("slice %q, want %q", slice, tt.slice)
			}
			if strings.Join(claims, "|") != strings.Join(tt.claims, "|") {
				t.Errorf("claims %q, want %q", claims, tt.claims)
			}
			if strings.Join(own, "|") != strings.Join(tt.own, "|") {
				t.Errorf("own %q, want %q", own, tt.own)
			}
		})
	}
}
