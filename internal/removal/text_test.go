package removal

import (
	"testing"

	"github.com/orc-state/orc-state/checkpoint"
	"github.com/orc-state/orc-state/internal/archive"
)

// What the sweeps print says "would" in a dry run, and escapes every name
// from data, so a session named with a control character cannot forge a
// line of its own.
func TestPrintedTablesEscapeDataAndSayWould(t *testing.T) {
	plan := []Row{
		{Session: "a", Status: "completed", Action: "remove", Reason: "completed"},
		{Session: "b\nremove\tc", Status: "paused", Action: "keep", Reason: "protected (paused)"},
	}
	a := archive.Archive{Meta: archive.Meta{Session: "x\x1b[2J", Kind: "session", Verb: "cleanup", At: "2026-01-02T03:04:05Z", Files: 3, Size: 42},
		Name: ".orc/.archive/x/20260102T030405Z", Time: "20260102T030405Z"}
	bad := a
	bad.Invalid = "its entry.json\nis gone"
	for _, c := range []struct{ name, got, want string }{
		{"plan, dry run", PlanText(plan, true),
			"would remove\ta\tcompleted\tcompleted\nkeep\tb\\nremove\\tc\tpaused\tprotected (paused)\n"},
		{"plan", PlanText(plan[:1], false), "remove\ta\tcompleted\tcompleted\n"},
		{"plan, empty", PlanText(nil, true), ""},
		{"list with header", ListText([]archive.Archive{a}, true),
			"session\ttime\tkind\tverb\tat\tfiles\tsize\twhere\n" +
				"x\\x1b[2J\t20260102T030405Z\tsession\tcleanup\t2026-01-02T03:04:05Z\t3 files\t42 bytes\t.orc/.archive/x/20260102T030405Z\n"},
		{"list, invalid", ListText([]archive.Archive{bad}, false),
			"x\\x1b[2J\t20260102T030405Z\tsession\tcleanup\t2026-01-02T03:04:05Z\t3 files\t42 bytes\t.orc/.archive/x/20260102T030405Z\tinvalid: its entry.json\\nis gone\n"},
		{"sweep", SweepText([]ArchiveRow{{Action: "would delete", Archive: bad}}),
			"would delete\t.orc/.archive/x/20260102T030405Z\tx\\x1b[2J\tsession\t2026-01-02T03:04:05Z\t42\tinvalid: its entry.json\\nis gone\n"},
	} {
		if c.got != c.want {
			t.Errorf("%s:\n got %q\nwant %q", c.name, c.got, c.want)
		}
	}
}

// A digest write keeps the digest it replaces, and only a digest worth
// keeping: none, init's own, or the same text again keeps nothing.
func TestReplacedDigestKeepsOnlyARealDigest(t *testing.T) {
	with := func(text string) []byte {
		return checkpoint.SetSection(checkpoint.DefaultBody(), checkpoint.DigestHeading, []byte(text))
	}
	for _, c := range []struct {
		name       string
		body, text []byte
		kept       bool
	}{
		{"init's digest", checkpoint.DefaultBody(), []byte("new\n"), false},
		{"a digest replaced", with("old work\n"), []byte("new\n"), true},
		{"the same digest again", with("same\n"), []byte("same\n"), false},
		{"no digest section", []byte("# Notes\n\nx\n"), []byte("new\n"), false},
	} {
		if got := replacedDigest(c.body, c.text); (got != "") != c.kept {
			t.Errorf("%s: replacedDigest = %q; want kept %v", c.name, got, c.kept)
		}
	}
}
