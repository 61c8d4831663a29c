package doctest

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

const sample = "# Title\n" + // 1
	"\n" + // 2
	"```sh\n" + // 3
	"tool init --name main   # prints the id; stdout: ^main$\n" + // 4
	"tool next               # exit 1: nothing ready; stderr: nothing is ready\n" + // 5
	"# prose about the next one, not an annotation\n" + // 6
	"tool write - <<'EOF'    # no output\n" + // 7
	"# not a comment: heredoc text\n" + // 8
	"EOF\n" + // 9
	"tool init \\\n" + // 10
	"  --name x              # stdout: ^x$; stdout: ^x\\n$\n" + // 11
	"git push origin main    # skip: needs a remote\n" + // 12
	"```\n" + // 13
	"\n" + // 14
	"```text\n" + // 15
	"tool init   # not run\n" + // 16
	"```\n" + // 17
	"\n" + // 18
	"- a list item:\n" + // 19
	"\n" + // 20
	"  ```bash\n" + // 21
	"  id=$(tool init --name main)\n" + // 22
	"  test \"$id\" = main\n" + // 23
	"  ```\n" // 24

func TestParse(t *testing.T) {
	doc, err := Parse("s.md", []byte(sample))
	if err != nil {
		t.Fatal(err)
	}
	if doc.Blocks != 2 {
		t.Errorf("Blocks = %d, want 2", doc.Blocks)
	}
	type row struct {
		line     int
		text     string
		exit     int
		stdout   int
		stderr   int
		noOutput bool
		skip     string
	}
	want := []row{
		{4, "tool init --name main   # prints the id; stdout: ^main$", 0, 1, 0, false, ""},
		{5, "tool next               # exit 1: nothing ready; stderr: nothing is ready", 1, 0, 1, false, ""},
		{7, "tool write - <<'EOF'    # no output\n# not a comment: heredoc text\nEOF", 0, 0, 0, true, ""},
		{10, "tool init \\\n  --name x              # stdout: ^x$; stdout: ^x\\n$", 0, 2, 0, false, ""},
		{12, "git push origin main    # skip: needs a remote", 0, 0, 0, false, "needs a remote"},
		{22, "id=$(tool init --name main)", 0, 0, 0, false, ""},
		{23, "test \"$id\" = main", 0, 0, 0, false, ""},
	}
	if len(doc.Commands) != len(want) {
		t.Fatalf("%d commands, want %d: %+v", len(doc.Commands), len(want), doc.Commands)
	}
	for i, w := range want {
		c := doc.Commands[i]
		got := row{c.Line, c.Text, c.Want.Exit, len(c.Want.Stdout), len(c.Want.Stderr), c.Want.NoStdout && c.Want.NoStderr, c.Want.Skip}
		if got != w {
			t.Errorf("command %d:\n got %+v\nwant %+v", i, got, w)
		}
	}
}

// TestParseNotes: a doctest comment before a block annotates the block's
// commands by the start of their first line, as if written on the line;
// the reader of the rendered document sees only the commands.
func TestParseNotes(t *testing.T) {
	doc := "# Set up\n" + // 1
		"\n" + // 2
		"<!-- doctest\n" + // 3
		"go test ./...   # skip: the doc test is part of it\n" + // 4
		"tool init       # prints the id; stdout: ^main$; exit 0\n" + // 5
		"-->\n" + // 6
		"```sh\n" + // 7
		"tool init --name main   # prints the id\n" + // 8
		"go test ./...\n" + // 9
		"tool next\n" + // 10
		"```\n" // 11
	d, err := Parse("r.md", []byte(doc))
	if err != nil {
		t.Fatal(err)
	}
	if len(d.Commands) != 3 {
		t.Fatalf("%d commands: %+v", len(d.Commands), d.Commands)
	}
	init, test, next := d.Commands[0], d.Commands[1], d.Commands[2]
	if init.Line != 8 || len(init.Want.Stdout) != 1 || !init.Want.Stdout[0].MatchString("main") || init.Want.Skip != "" {
		t.Errorf("init: %+v", init.Want)
	}
	if test.Line != 9 || test.Want.Skip != "the doc test is part of it" {
		t.Errorf("go test: %+v", test.Want)
	}
	if next.Want.Skip != "" || next.Want.Stdout != nil || next.Want.Exit != 0 {
		t.Errorf("next took a note: %+v", next.Want)
	}
	// A whole first line names its command among longer ones.
	d, err = Parse("r.md", []byte("<!-- doctest\ngo run ./bench   # skip: slow\ngo run ./bench -quick   # skip: slow too\n-->\n```sh\ngo run ./bench         # full\ngo run ./bench -quick\n```\n"))
	if err != nil || d.Commands[0].Want.Skip != "slow" || d.Commands[1].Want.Skip != "slow too" {
		t.Errorf("exact names: %v, %+v", err, d.Commands)
	}
	// Other HTML comments are the reader's business.
	if _, err := Parse("r.md", []byte("<!-- a note -->\n\n```sh\ntool next   # exit 1\n```\n")); err != nil {
		t.Errorf("a plain comment: %v", err)
	}
}

func TestParseRefuses(t *testing.T) {
	for _, tc := range []struct {
		name, doc, want string
	}{
		{"untagged block", "x\n\n```\norc-state init\n```\n", "d.md:4: a fenced block without a tag"},
		{"indented block", "x\n\n    orc-state init\n", "d.md:3: an indented code block"},
		{"bad exit", "```sh\ntool next   # exit 1 when nothing is ready\n```\n", `d.md:2: "exit 1 when nothing is ready": an exit annotation is`},
		{"exit out of range", "```sh\ntool   # exit 256\n```\n", "an exit status is 0 to 255"},
		{"bad regexp", "```sh\ntool   # stdout: ^(main$\n```\n", "d.md:2: \"stdout: ^(main$\": error parsing regexp"},
		{"empty regexp", "```sh\ntool   # stderr:\n```\n", "give the regular expression stderr must match"},
		{"skip without reason", "```sh\ntool   # skip:\n```\n", "say why the command is not run"},
		{"skip with more", "```sh\ntool   # skip: remote; exit 1\n```\n", "a skipped command has no other annotation"},
		{"annotation alone", "```sh\n# exit 1\ntool\n```\n", "d.md:2: an annotation on a line of its own"},
		{"annotation last", "```sh\ntool\n# stdout: x\n```\n", "d.md:3: an annotation on a line of its own"},
		{"two on a line", "```sh\ntool a; tool b   # exit 1\n```\n", "d.md:2: two commands on one line"},
		{"not shell", "a\n\n```bash\ntool 'unterminated\n```\n", "d.md:4: not a shell command bash can parse"},
		{"note names no command", "<!-- doctest\ntool nope   # exit 1\n-->\n```sh\ntool next\n```\n", `d.md:2: "tool nope" starts 0 commands of the block`},
		{"note names two", "<!-- doctest\ntool   # exit 1\n-->\n```sh\ntool next\ntool init\n```\n", `d.md:2: "tool" starts 2 commands of the block`},
		{"annotated twice", "<!-- doctest\ntool next   # exit 1\n-->\n```sh\ntool next   # exit 1\n```\n", "d.md:2: the command at line 5 is annotated where it stands"},
		{"note without annotation", "<!-- doctest\ntool next   # just prose\n-->\n```sh\ntool next\n```\n", `d.md:2: a doctest line is the start of a command`},
		{"note without a block", "<!-- doctest\ntool next   # exit 1\n-->\n\nprose\n\n```sh\ntool next\n```\n", "d.md:1: a doctest comment must come right before"},
		{"note before a text block", "<!-- doctest\ntool next   # exit 1\n-->\n```text\ntool next\n```\n", "d.md:1: a doctest comment must come right before"},
		{"note at the end", "x\n\n<!-- doctest\ntool next   # exit 1\n-->\n", "d.md:3: a doctest comment must come right before"},
		{"bad note regexp", "<!-- doctest\ntool next   # stdout: ^(\n-->\n```sh\ntool next\n```\n", "d.md:2: \"stdout: ^(\": error parsing regexp"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Parse("d.md", []byte(tc.doc))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v; want it to contain %q", err, tc.want)
			}
		})
	}
}

// fakeTool is the program the sample documents: honest, or with one
// behaviour changed (a mutation the doc test must catch).
func fakeTool(t *testing.T, dir, mutation string) {
	t.Helper()
	script := `#!/bin/sh
case "$1" in
init)
  [ "$2" = --name ] || { echo "tool init: --name is required" >&2; exit 2; }
  case "$MUTATION" in
  init-exit) exit 3 ;;
  init-shape) echo "session $3"; exit 0 ;;
  init-warns) echo "warning: deprecated" >&2 ;;
  esac
  echo "$3" ;;
next)
  [ "$MUTATION" = next-exit ] && exit 0
  echo "nothing is ready" >&2; exit 1 ;;
write)
  cat >/dev/null
  [ "$MUTATION" = write-talks ] && echo "written"
  exit 0 ;;
esac
`
	if err := os.WriteFile(filepath.Join(dir, "tool"), []byte(strings.Replace(script, `"$MUTATION"`, `"`+mutation+`"`, -1)), 0o755); err != nil {
		t.Fatal(err)
	}
}

func runSample(t *testing.T, mutation string) []string {
	t.Helper()
	if runtime.GOOS == "windows" {
		t.Skip("the fake tool is a sh script")
	}
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Fatal("bash is required: ", err)
	}
	bin, work := t.TempDir(), t.TempDir()
	fakeTool(t, bin, mutation)
	doc, err := Parse("s.md", []byte(sample))
	if err != nil {
		t.Fatal(err)
	}
	r := Runner{Bash: bash, Dir: work, Env: []string{"PATH=" + bin + string(os.PathListSeparator) + os.Getenv("PATH")}}
	results, err := r.Run(context.Background(), doc)
	if err != nil {
		t.Fatal(err)
	}
	var faults []string
	for _, res := range results {
		if err := Check(res); err != nil {
			faults = append(faults, err.Error())
		}
	}
	return faults
}

// TestRunHonest: the sample's promises hold for the honest tool, including
// the variable a command sets for the next one.
func TestRunHonest(t *testing.T) {
	if faults := runSample(t, ""); len(faults) > 0 {
		t.Errorf("the honest tool breaks the sample:\n%s", strings.Join(faults, "\n"))
	}
}

// TestRunCatchesMutations is the proof that a document cannot drift: each
// changed exit code or output shape fails at the line that documents it,
// with a message saying what was expected and what happened.
func TestRunCatchesMutations(t *testing.T) {
	for _, tc := range []struct {
		mutation string
		want     []string // one per expected fault, in order
	}{
		{"init-exit", []string{
			"s.md:4: tool init --name main   # prints the id; stdout: ^main$\n\texit 3, want 0 (if the document means it, annotate \"# exit 3\")\n\tstdout does not match \"^main$\"",
			"s.md:10: tool init \\\n\texit 3, want 0",
			"s.md:22: id=$(tool init --name main)\n\texit 3, want 0",
			"s.md:23: test \"$id\" = main\n\texit 1, want 0",
		}},
		{"init-shape", []string{
			"s.md:4: tool init --name main   # prints the id; stdout: ^main$\n\tstdout does not match \"^main$\"\n\tstdout: \n\t\tsession main",
			"s.md:10: tool init \\\n\tstdout does not match \"^x$\"\n\tstdout does not match \"^x\\\\n$\"",
			"s.md:23: test \"$id\" = main\n\texit 1, want 0",
		}},
		{"init-warns", []string{
			"s.md:4: tool init --name main   # prints the id; stdout: ^main$\n\tit wrote to stderr",
			"s.md:10: tool init \\\n\tit wrote to stderr",
			"s.md:22: id=$(tool init --name main)\n\tit wrote to stderr",
		}},
		{"next-exit", []string{
			"s.md:5: tool next               # exit 1: nothing ready; stderr: nothing is ready\n\texit 0, want 1\n\tstderr does not match \"nothing is ready\"",
		}},
		{"write-talks", []string{
			"s.md:7: tool write - <<'EOF'    # no output\n\tstdout is not empty",
		}},
	} {
		t.Run(tc.mutation, func(t *testing.T) {
			faults := runSample(t, tc.mutation)
			if len(faults) != len(tc.want) {
				t.Fatalf("%d faults, want %d:\n%s", len(faults), len(tc.want), strings.Join(faults, "\n"))
			}
			for i, w := range tc.want {
				if !strings.HasPrefix(faults[i], w) {
					t.Errorf("fault %d:\n%s\nwant it to begin\n%s", i, faults[i], w)
				}
			}
		})
	}
}

// TestRunStops: a command that ends the shell leaves the later ones
// reported as not run, not as passing; a skipped command does not run.
func TestRunStops(t *testing.T) {
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("no bash")
	}
	work := t.TempDir()
	doc, err := Parse("x.md", []byte("```sh\ntouch skipped   # skip: for the test\necho one   # stdout: ^one$\nexit 0\necho two\n```\n"))
	if err != nil {
		t.Fatal(err)
	}
	r := Runner{Bash: bash, Dir: work, Env: []string{"PATH=" + os.Getenv("PATH")}}
	results, err := r.Run(context.Background(), doc)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(work, "skipped")); err == nil {
		t.Error("the skipped command ran")
	}
	for i, want := range []string{"", "", "x.md:4: exit 0\n\tthe shell ended in this command", "x.md:5: echo two\n\tdid not run: the shell ended earlier, in x.md:4"} {
		err := Check(results[i])
		switch {
		case want == "" && err != nil:
			t.Errorf("command %d: %v", i, err)
		case want != "" && (err == nil || !strings.HasPrefix(err.Error(), want)):
			t.Errorf("command %d: %v; want %q", i, err, want)
		}
	}
}

// FuzzParse: any document parses or is refused with an error, never a
// panic; a doctest note never annotates more than one command per line.
func FuzzParse(f *testing.F) {
	f.Add(sample)
	f.Add("<!-- doctest\ntool init   # stdout: ^x$\n-->\n```sh\ntool init\ntool next\n```\n")
	f.Add("<!-- doctest\n-->\n```sh\n```\n")
	f.Add("<!-- doctest\ntool # exit 1\n")
	f.Fuzz(func(t *testing.T, doc string) {
		d, err := Parse("f.md", []byte(doc))
		if d == nil {
			t.Fatalf("nil doc (err %v)", err)
		}
	})
}
