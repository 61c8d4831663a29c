package checkpoint

import (
	"reflect"
	"strings"
	"testing"
)

func render(t *testing.T, body string) string {
	t.Helper()
	out, err := Render(typical(), []byte(body))
	if err != nil {
		t.Fatal(err)
	}
	return string(out)
}

func TestLint(t *testing.T) {
	digest := "\n" + DigestHeading + "\n" + five
	od := func(n int) string {
		s := "\n" + OpenDecisionsHeading + "\n"
		for i := range n {
			s += "- q" + string(rune('a'+i)) + "\n"
		}
		return s + "\n\n"
	}
	cases := []struct {
		name string
		file func(t *testing.T) string
		want []Finding
	}{
		{"clean default", func(t *testing.T) string { return render(t, string(DefaultBody())) }, nil},
		{"clean full", func(t *testing.T) string {
			return render(t, digest+od(10)+"\n"+AutoHeading+"\n"+string(RenderAuto(baseAuto()))+"free text\n")
		}, nil},
		{"no frontmatter", func(*testing.T) string { return digest }, []Finding{
			{CodeFrontmatterMissing, `checkpoint has no frontmatter; it must begin with a "---" line`}}},
		{"invalid frontmatter", func(t *testing.T) string {
			return strings.Replace(render(t, digest), "status: in_progress", "status: in_progress\nbogus: x", 1)
		}, []Finding{{CodeFrontmatterInvalid, "frontmatter is invalid: invalid frontmatter yaml: line 9: field bogus not found"}}},
		{"over cap", func(t *testing.T) string { return render(t, digest+"\n## History\n"+strings.Repeat("history\n", 500)) }, []Finding{
			{CodeOverCap, "checkpoint is 4329 bytes; the cap is 4096 (233 over)"}}},
		{"digest missing", func(t *testing.T) string { return render(t, "\nnotes\n") }, []Finding{
			{CodeDigestMissing, `checkpoint has no "## Resume digest" section`}}},
		{"digest twice", func(t *testing.T) string { return render(t, digest+digest) }, []Finding{
			{CodeDigestDuplicate, `"## Resume digest" appears 2 times; expected once`}}},
		{"digest shape", func(t *testing.T) string {
			return render(t, strings.Replace(digest, "- Suite: green @ abc1234 (12 passed)\n", "", 1))
		}, []Finding{{CodeDigestShape, `digest has 4 of the 5 bullets; "- Suite:" is missing`}}},
		{"digest over cap", func(t *testing.T) string { return render(t, digest+strings.Repeat("more\n", 26)) }, []Finding{
			{CodeDigestShape, "digest has 31 lines; the cap is 30 (1 over)"}}},
		{"sections twice", func(t *testing.T) string {
			auto := "\n" + AutoHeading + "\n- At: t\n"
			return render(t, digest+od(1)+od(1)+od(1)+auto+auto)
		}, []Finding{
			{CodeSectionDuplicate, `"## Open decisions" appears 3 times; expected at most once`},
			{CodeSectionDuplicate, `"## Auto-checkpoint" appears 2 times; expected at most once`}}},
		{"open decisions over cap", func(t *testing.T) string { return render(t, digest+od(12)) }, []Finding{
			{CodeOpenDecisionsCap, "open decisions has 12 lines; the cap is 10 (2 over)"}}},
		{"everything at once", func(*testing.T) string {
			return "---\nschema: 1\n" + strings.Repeat("x\n", 2100)
		}, []Finding{
			{CodeFrontmatterInvalid, `frontmatter is invalid: frontmatter has no closing "---" line`},
			{CodeOverCap, "checkpoint is 4214 bytes; the cap is 4096 (118 over)"},
			{CodeDigestMissing, `checkpoint has no "## Resume digest" section`}}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := Lint([]byte(c.file(t)))
			if !reflect.DeepEqual(got, c.want) {
				t.Errorf("Lint =\n%q\nwant\n%q", got, c.want)
			}
			for _, f := range got {
				if strings.Contains(f.Message, "\n") {
					t.Errorf("message is not one line: %q", f.Message)
				}
			}
		})
	}
}
