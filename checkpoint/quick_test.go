package checkpoint

import (
	"bytes"
	"strings"
	"testing"
)

// agree fails the test when quickFront reads data and the YAML decoder
// reads it otherwise.
func agree(t *testing.T, data []byte) (read bool) {
	t.Helper()
	fm, body, ok := quickFront(data)
	if !ok {
		return false
	}
	slow := parseYAML(data)
	if slow.Front == nil || *slow.Front != fm || !bytes.Equal(slow.Body, body) {
		t.Fatalf("quickFront read %q as %+v %q; the YAML decoder as %+v %q (%v)", data, fm, body, slow.Front, slow.Body, slow.FrontErr)
	}
	return true
}

// What Render writes, quickFront reads exactly as the YAML decoder does,
// and a block laid out otherwise, or holding a value whose YAML reading
// is not plain, is left to the decoder (which may accept or refuse it).
func TestQuickFrontAgreesWithYAML(t *testing.T) {
	base := Frontmatter{Schema: 1, Command: "flow", Branch: "main", GitBranch: "main", Phase: "3", TotalPhases: 9, Status: "in_progress", UpdatedAt: "2026-08-20T18:11:00Z"}
	values := []string{"main", "feature/a.b-c_d", "yes", "No", "null", "~", "true", "y", "0x10", "1e3", ".inf", "-", "a b", "a: b", "a #b",
		"'q'", `"q"`, `a\b`, "é", "2026-08-20", "  lead", "trail ", "#x", "&a", "*a", "!t", "%x", "@x", "`x", "[x]", "{x}", ">x", "|x", "?x", ",x", "3", "007", "done", "---", "..."}
	quick := 0
	for _, edit := range textFields {
		for _, v := range values {
			fm := base
			edit(&fm, v)
			for _, phase := range []string{"1", "3", "999999999", "done"} {
				fm.Phase = phase
				out, err := Render(fm, []byte("\n## Resume digest\n- Done: x\n"))
				if err != nil {
					continue // refused before writing: nothing to read back
				}
				if agree(t, out) {
					quick++
				}
			}
		}
	}
	if quick == 0 {
		t.Fatal("quickFront read nothing Render wrote")
	}
	if !agree(t, []byte(strings.Replace(validFront, "updatedAt: 2026-08-20T18:11:00Z", `updatedAt: "2026-08-20T18:11:00Z"`, 1)+"body\n")) {
		t.Fatal("quickFront does not read the layout Render writes")
	}
	for _, c := range []string{
		validFront, // an unquoted time: left to the decoder
		strings.ReplaceAll(validFront, "\n", "\r\n"),                                           // CRLF
		strings.Replace(validFront, "command: flow\nbranch: b", "branch: b\ncommand: flow", 1), // another order
		strings.Replace(validFront, "command: flow", "command: flow # note", 1),
		strings.Replace(validFront, "command: flow", "command: 'flow'", 1),
		strings.Replace(validFront, "command: flow", `command: "fl\u006fw"`, 1),
		strings.Replace(validFront, "command: flow", "command: yes", 1),
		strings.Replace(validFront, "command: flow", "command: null", 1),
		strings.Replace(validFront, "command: flow", "command: 12", 1),
		strings.Replace(validFront, "command: flow", "command:  flow", 1),
		strings.Replace(validFront, "command: flow", "command: flow\ncommand: flow", 1),
		strings.Replace(validFront, "command: flow", "command: flow\nextra: x", 1),
		strings.Replace(validFront, "phase: 3", "phase: \"3\"", 1),
		strings.Replace(validFront, "phase: 3", "phase: 03", 1),
		strings.Replace(validFront, "phase: 3", "phase: 0", 1),
		strings.Replace(validFront, "schema: 1", "schema: +1", 1),
		strings.Replace(validFront, "status: in_progress\n", "", 1),
		strings.TrimSuffix(validFront, "\n"), // closed at the end of the file
		"---\n---\n",
		"---\nschema: 1\n",
	} {
		if agree(t, []byte(c+"body\n")) {
			t.Errorf("quickFront read %q, which is not the layout Render writes", c)
		}
	}
}
