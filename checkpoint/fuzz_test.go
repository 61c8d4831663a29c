package checkpoint

import (
	"bytes"
	"errors"
	"reflect"
	"strings"
	"testing"
)

func FuzzParse(f *testing.F) {
	f.Add([]byte(validFront + "body\n"))
	rendered := strings.Replace(validFront, "updatedAt: 2026-08-20T18:11:00Z", `updatedAt: "2026-08-20T18:11:00Z"`, 1)
	f.Add([]byte(rendered + "body\n")) // the layout Render writes, which quickFront reads
	f.Add([]byte(strings.Replace(rendered, "phase: 3", "phase: done\nphaseLabel: \"a: b\"", 1)))
	f.Add([]byte(validFront))
	f.Add([]byte(strings.TrimSuffix(validFront, "\n")))
	f.Add([]byte(validFront + "---\n\n## Resume digest\r\n- x\n"))
	f.Add([]byte(strings.Replace(validFront, "phase: 3", "phase: done\nphaseLabel: 'a: b'\njiraTicket: \"yes\"", 1)))
	f.Add([]byte(strings.Replace(validFront, "command: flow", "command: \"\\u2028\"", 1)))
	f.Add([]byte(strings.Replace(validFront, "command: flow", "command: |\n  a\n  ---\n", 1)))
	f.Add([]byte(strings.Replace(validFront, "command: flow", "command: &a x\nbranch2: *a", 1)))
	f.Add([]byte("---\nschema: 1\n"))
	f.Add([]byte("---\n---\n"))
	f.Add([]byte("\n---\nschema: 1\n---\n"))
	f.Add([]byte("plain text"))
	f.Add([]byte{})
	f.Fuzz(func(t *testing.T, data []byte) {
		agree(t, data)
		doc := Parse(data)
		if !bytes.HasSuffix(data, doc.Body) {
			t.Fatalf("body %q is not a suffix of the input", doc.Body)
		}
		if doc.Front == nil {
			if !bytes.Equal(doc.Body, data) {
				t.Fatalf("no frontmatter but body %q is not the whole input", doc.Body)
			}
			if doc.FrontErr != nil && strings.Contains(doc.FrontErr.Error(), "\n") {
				t.Fatalf("FrontErr is not one line: %q", doc.FrontErr)
			}
		} else {
			out, err := Render(*doc.Front, doc.Body)
			if err != nil {
				t.Fatalf("Render(Parse(x)) failed: %v", err)
			}
			again := Parse(out)
			if again.Front == nil || *again.Front != *doc.Front || !bytes.Equal(again.Body, doc.Body) {
				t.Fatalf("round trip changed it: %+v %q -> %+v %v", *doc.Front, doc.Body, again.Front, again.FrontErr)
			}
		}
		for _, fd := range Lint(data) {
			if strings.Contains(fd.Message, "\n") {
				t.Fatalf("lint message is not one line: %q", fd.Message)
			}
		}
	})
}

func FuzzParseDigest(f *testing.F) {
	f.Add([]byte(five))
	f.Add([]byte(lines(30)))
	f.Add([]byte(lines(31)))
	f.Add([]byte(sized(2048)))
	f.Add([]byte(sized(2049)))
	f.Add([]byte("\n\n" + five + "\n \n"))
	f.Add([]byte(five + "## x\n"))
	f.Add([]byte(strings.Replace(five, "green @ abc1234 (12 passed)", "unknown", 1)))
	f.Add([]byte("- Done: a\n- Next: b\n- Artifacts: c\n"))
	f.Add([]byte("- Done:\n- Next:\n- Open decisions:\n- Artifacts:\n- Suite: X @ ABCDEF0 ()"))
	f.Fuzz(func(t *testing.T, text []byte) {
		d, err := ParseDigest(text)
		if err != nil {
			var de *DigestError
			if !errors.As(err, &de) || de.Reason == "" || strings.Contains(de.Reason, "\n") || strings.Contains(de.Overflow, "\n") {
				t.Fatalf("bad error %#v", err)
			}
			return
		}
		if n := bytes.Count(d.Text, []byte("\n")); n > MaxDigestLines || n == 0 {
			t.Fatalf("accepted %d lines", n)
		}
		if n := len(d.Text) - 1; n > MaxDigestBytes {
			t.Fatalf("accepted %d bytes", n)
		}
		if !bytes.HasSuffix(d.Text, []byte("\n")) || bytes.HasSuffix(d.Text, []byte("\n\n")) {
			t.Fatalf("text %q does not end with exactly one newline", d.Text)
		}
		if sec, n := Section([]byte(DigestHeading+"\n"+string(d.Text)+"## Next\n"), DigestHeading); n != 1 || !bytes.Equal(sec, d.Text) {
			t.Fatalf("digest leaks out of its section: %q", sec)
		}
		again, err := ParseDigest(d.Text)
		if err != nil || !reflect.DeepEqual(again, d) {
			t.Fatalf("re-parse: %+v, %v; want %+v", again, err, d)
		}
	})
}

func FuzzSetSection(f *testing.F) {
	f.Add([]byte(threeSections), []byte("- new\n"), uint8(0))
	f.Add([]byte(threeSections), []byte(""), uint8(1))
	f.Add([]byte(threeSections), []byte("x\n\n\n"), uint8(2))
	f.Add([]byte("## Resume digest\none\n## Resume digest\ntwo"), []byte("y"), uint8(0))
	f.Add([]byte("x\n## Auto-checkpoint"), []byte("- At: t"), uint8(2))
	f.Add([]byte("no sections"), []byte("a\r\nb"), uint8(1))
	f.Add([]byte(""), []byte("\n"), uint8(0))
	headings := []string{DigestHeading, OpenDecisionsHeading, AutoHeading}
	f.Fuzz(func(t *testing.T, body, content []byte, which uint8) {
		for _, l := range bytes.Split(content, []byte("\n")) {
			if bytes.HasPrefix(l, []byte("## ")) {
				return // content that opens sections is the caller's to refuse
			}
		}
		h := headings[int(which)%len(headings)]
		norm := content[:trailingBlankStart(content)]
		if len(norm) > 0 && norm[len(norm)-1] != '\n' {
			norm = append(norm[:len(norm):len(norm)], '\n')
		}
		before := locate(body, h)
		orig := bytes.Clone(body)
		out := SetSection(body, h, content)
		if !bytes.Equal(body, orig) {
			t.Fatal("input modified")
		}
		after := locate(out, h)
		if after.count != max(before.count, 1) {
			t.Fatalf("heading count %d -> %d", before.count, after.count)
		}
		sec := out[after.cStart:after.cEnd]
		if got := sec[:trailingBlankStart(sec)]; !bytes.Equal(got, norm) {
			t.Fatalf("section content %q, want %q", got, norm)
		}
		if before.hStart < 0 {
			want := append(bytes.Clone(body), "\n"+h+"\n"...)
			if len(body) > 0 && body[len(body)-1] != '\n' {
				want = append(bytes.Clone(body), "\n\n"+h+"\n"...)
			}
			if !bytes.Equal(out, append(want, norm...)) {
				t.Fatalf("append: %q", out)
			}
			return
		}
		// Everything before the content and after it is unchanged.
		if !bytes.Equal(out[:before.cStart], body[:before.cStart]) {
			t.Fatalf("prefix changed: %q -> %q", body[:before.cStart], out[:before.cStart])
		}
		if !bytes.Equal(out[after.cEnd:], body[before.cEnd:]) {
			t.Fatalf("following sections changed: %q -> %q", body[before.cEnd:], out[after.cEnd:])
		}
		old := body[before.cStart:before.cEnd]
		if !bytes.HasSuffix(sec, old[trailingBlankStart(old):]) {
			t.Fatalf("separator lost: %q -> %q", old, sec)
		}
	})
}

// FuzzRender: whatever Render accepts parses back to the same frontmatter
// and body, and nothing in a value can close the frontmatter early.
func FuzzRender(f *testing.F) {
	for _, v := range trickyValues {
		f.Add(v, v, "5", []byte("body\n"))
	}
	f.Add("impl\n---\nstatus: completed", "x", "3", []byte("---\n"))
	f.Add("a", "b", "done", []byte(""))
	f.Fuzz(func(t *testing.T, label, branch, phase string, body []byte) {
		fm := typical()
		fm.PhaseLabel, fm.Branch, fm.GitBranch, fm.Command, fm.Phase = label, branch, branch, label, phase
		out, err := Render(fm, body)
		if err != nil {
			if fm.Validate() == nil {
				t.Fatalf("Render refused a valid frontmatter: %v", err)
			}
			return
		}
		doc := Parse(out)
		if doc.Front == nil || *doc.Front != fm || !bytes.Equal(doc.Body, body) {
			t.Fatalf("round trip: %+v %v %q", doc.Front, doc.FrontErr, doc.Body)
		}
		if end := bytes.Index(out, []byte("\n---\n")); end+5 != len(out)-len(body) {
			t.Fatalf("frontmatter closes early at %d:\n%s", end, out)
		}
	})
}
