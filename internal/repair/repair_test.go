package repair

import (
	"reflect"
	"testing"

	"github.com/orc-state/orc-state/checkpoint"
	"github.com/orc-state/orc-state/registry"
)

// Plain repair fixes the mirror and the journal's baseline, never the
// history: a damaged chain or an unknown finding is left to the person.
func TestFixesOnlyTheMirrorAndTheBaseline(t *testing.T) {
	for code, want := range map[string]bool{
		"checkpoint.missing": true, "frontmatter.mismatch": true,
		checkpoint.CodeFrontmatterMissing: true, checkpoint.CodeFrontmatterInvalid: true,
		"journal.missing": true, "journal.anchor": true, "edited.slices": true,
		"journal.chain": false, "registry.invalid": false, "": false,
	} {
		if got := Fixes(code); got != want {
			t.Errorf("Fixes(%q) = %v, want %v", code, got, want)
		}
	}
}

// An orphan is one plain folder name of the state dir: no hidden name, no
// path, no per-repository folder.
func TestOrphanName(t *testing.T) {
	for name, want := range map[string]bool{
		"feat-x": true, "Some_Folder": true,
		".hidden": false, "a/b": false, "..": false, "": false, "knowledge": false,
	} {
		if got := OrphanName(name); got != want {
			t.Errorf("OrphanName(%q) = %v, want %v", name, got, want)
		}
	}
}

// A PR linked again replaces its entry (by URL); a new one is appended.
func TestLinkPRReplacesByURL(t *testing.T) {
	a := registry.PR{URL: "https://x/pr/1", Repo: "old"}
	b := registry.PR{URL: "https://x/pr/2", Repo: "old"}
	a2 := registry.PR{URL: "https://x/pr/1", Repo: "new"}
	got := linkPR(linkPR(linkPR(nil, a), b), a2)
	if want := []registry.PR{a2, b}; !reflect.DeepEqual(got, want) {
		t.Fatalf("got %+v, want %+v", got, want)
	}
}
