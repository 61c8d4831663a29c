package removal

import (
	"errors"
	"os"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/orc-state/orc-state/checkpoint"
	"github.com/orc-state/orc-state/internal/fault"
	"github.com/orc-state/orc-state/internal/state"
	"github.com/orc-state/orc-state/internal/statetest"
)

const digestA = "- Done: phase 1\n- Next: phase 2; read files/plan.md\n- Open decisions: none\n- Artifacts: none\n- Suite: unknown\n"

// digest write refuses, with nothing written, a digest holding a
// credential, one that breaks a rule (the fix in its hint) and one over a
// cap (the lines over it named); a digest written replaces the last one,
// which digest restore brings back.
func TestWriteDigestRefusesThenRestoreGoesBack(t *testing.T) {
	now := time.Date(2026, 3, 4, 5, 6, 7, 0, time.UTC)
	d := seeded(t, entry("a", "in_progress", now))
	r := run(d, now)
	if err := r.WriteDigest("a", []byte(digestA)); err != nil {
		t.Fatal(err)
	}
	before := statetest.Contents(t, d.Path)
	for _, c := range []struct {
		name, text, says, hint string
	}{
		{"a credential", strings.Replace(digestA, "none\n- Suite", "ghp_"+strings.Repeat("a", 36)+"\n- Suite", 1), "credential", ""},
		{"no bullets", "did things\n", "", "- Done:"},
		{"over the line cap", digestA + strings.Repeat("more\n", checkpoint.MaxDigestLines), "over the cap", ""},
	} {
		err := r.WriteDigest("a", []byte(c.text))
		if fault.Code(err) != fault.Usage || !strings.Contains(err.Error(), c.says) || !strings.Contains(hintOf(err), c.hint) {
			t.Errorf("%s: %v (hint %q), want a usage error saying %q, hint %q", c.name, err, hintOf(err), c.says, c.hint)
		}
		if !reflect.DeepEqual(statetest.Contents(t, d.Path), before) {
			t.Errorf("%s: written after the refusal", c.name)
		}
	}
	if err := r.WriteDigest("a", []byte(strings.Replace(digestA, "phase 1", "phase 2", 1))); err != nil {
		t.Fatal(err)
	}
	if err := r.RestoreDigest("a", ""); err != nil {
		t.Fatal(err)
	}
	cp, err := d.ReadFile("a", state.CheckpointFile)
	if err != nil {
		t.Fatal(err)
	}
	if got, _ := checkpoint.Section(checkpoint.Parse(cp).Body, checkpoint.DigestHeading); !strings.Contains(string(got), "- Done: phase 1\n") {
		t.Errorf("restored digest:\n%s", got)
	}
	if err := r.RestoreDigest("a", "yesterday"); fault.Code(err) != fault.Usage {
		t.Errorf("--at yesterday: %v, want a usage error", err)
	}
}

// hintOf is the hint of a fault.Error, "" for another error.
func hintOf(err error) string {
	var f *fault.Error
	if errors.As(err, &f) {
		return f.Hint
	}
	return ""
}

// A digest that would replace one holding credential-shaped text (let in
// by hand or by an older release) is refused, exit 2, nothing written:
// what a digest write replaces is archived, and such text never is.
func TestWriteDigestOverACredentialIsRefused(t *testing.T) {
	now := time.Date(2026, 3, 4, 5, 6, 7, 0, time.UTC)
	d := seeded(t, entry("a", "in_progress", now))
	r := run(d, now)
	if err := r.WriteDigest("a", []byte(digestA)); err != nil {
		t.Fatal(err)
	}
	p := d.File("a", state.CheckpointFile)
	cp, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	planted := strings.Replace(string(cp), "- Artifacts: none", "- Artifacts: ghp_"+strings.Repeat("b", 36), 1)
	if planted == string(cp) {
		t.Fatal("the digest written holds no Artifacts line to plant a credential in")
	}
	if err := os.WriteFile(p, []byte(planted), 0o644); err != nil {
		t.Fatal(err)
	}
	before := statetest.Contents(t, d.Path)
	err = r.WriteDigest("a", []byte(strings.Replace(digestA, "phase 1", "phase 3", 1)))
	if fault.Code(err) != fault.Usage || !strings.Contains(err.Error(), "never archived") || !strings.Contains(hintOf(err), "repair --redact") {
		t.Errorf("digest write over a credential: %v (hint %q), want a usage error naming repair --redact", err, hintOf(err))
	}
	if !reflect.DeepEqual(statetest.Contents(t, d.Path), before) {
		t.Error("written after the refusal")
	}
}
