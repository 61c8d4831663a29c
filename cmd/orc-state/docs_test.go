package main

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/orc-state/orc-state/internal/clitest"
	"github.com/orc-state/orc-state/internal/doctest"
)

// repoRoot is the repository's root, seen from this package.
const repoRoot = "../.."

// docOrder is the order the documents run in, one after the other in one
// scratch repository, so that each finds the state the ones before it
// built: the README's set-up and first session, the protocol agents
// follow, then resuming, looking at and cleaning up sessions. Documents
// not named here run after these, in path order.
var docOrder = []string{
	"README.md",
	"skills/state-protocol/SKILL.md",
	"skills/state-protocol/references/sessions.md",
	"skills/state-protocol/references/slices.md",
	"skills/state-protocol/references/gates.md",
	"skills/state-protocol/references/hooks-sync.md",
	"skills/state-protocol/references/exit-codes.md",
	"skills/state-protocol/references/schema.md",
	"skills/resume/SKILL.md",
	"skills/status/SKILL.md",
	"skills/cleanup/SKILL.md",
}

// TestDocs runs every shell command that the repository's Markdown
// documents show (README.md, docs/, skills/, hooks/), in document order,
// and checks each against the exit code and output its document annotates
// (package internal/doctest says how to write them). The commands run in
// a scratch git repository that is a copy of this source tree, with this
// test's orc-state first on PATH and a temp HOME, TMPDIR and GOPATH (so
// `go install` lands in a temp bin); the state dir is the scratch
// repository's own .orc. Nothing reaches the network: GOPROXY is off.
func TestDocs(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("the documents' commands are POSIX shell")
	}
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Fatal("the doc test needs bash: ", err)
	}
	paths := documents(t)
	docs := make([]*doctest.Doc, 0, len(paths))
	for _, p := range paths {
		data, err := os.ReadFile(filepath.Join(repoRoot, p))
		if err != nil {
			t.Fatal(err)
		}
		doc, err := doctest.Parse(p, data)
		if err != nil {
			t.Errorf("%v", err)
		}
		for _, c := range doc.Commands {
			if c.Want.Skip == "" && strings.Contains(c.Text, "go test") {
				t.Errorf("%s: %s\n\truns go test, which would run this test again; annotate \"# skip: REASON\"", c.Where(), c)
			}
		}
		docs = append(docs, doc)
	}
	if t.Failed() {
		t.FailNow()
	}

	tmp := t.TempDir()
	scratch := filepath.Join(tmp, "repo")
	copySource(t, scratch)
	home, tmpdir, gopath := filepath.Join(tmp, "home"), filepath.Join(tmp, "tmp"), filepath.Join(tmp, "gopath")
	for _, d := range []string{home, tmpdir, gopath} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	env := clitest.HermeticEnv(home,
		"PATH="+filepath.Dir(clitest.Binary(t))+string(os.PathListSeparator)+os.Getenv("PATH"),
		"TMPDIR="+tmpdir,
		"GOPATH="+gopath,
		"GOBIN="+filepath.Join(gopath, "bin"),
		// The module and build caches are this machine's, so nothing is
		// downloaded; -trimpath keeps the copy's build cacheable from one
		// run to the next (without it the cache is keyed by directory).
		"GOMODCACHE="+goEnv(t, "GOMODCACHE"),
		"GOCACHE="+goEnv(t, "GOCACHE"),
		"GOFLAGS="+strings.TrimSpace(os.Getenv("GOFLAGS")+" -trimpath"),
		"GOPROXY=off",
		"GOTOOLCHAIN=local",
	)
	// The scratch repository is this source tree: the README's commands
	// need it, and for the skills it is as good a project as any.
	r := &clitest.Rig{T: t, Dir: scratch, Env: env}
	r.Git("init", "-q", "-b", "main")
	r.Git("add", "-A")
	r.Git("commit", "-q", "-m", "the documents' scratch repository")

	runner := doctest.Runner{Bash: bash, Dir: scratch, Env: env, Timeout: 8 * time.Minute}
	ran, skipped := 0, map[string][]string{}
	for _, doc := range docs {
		t.Run(doc.Path, func(t *testing.T) {
			results, err := runner.Run(context.Background(), doc)
			if err != nil {
				t.Error(err)
			}
			for _, res := range results {
				if err := doctest.Check(res); err != nil {
					t.Error(err)
				}
				switch {
				case res.Command.Want.Skip != "":
					skipped[res.Command.Want.Skip] = append(skipped[res.Command.Want.Skip], res.Command.Where())
				case res.Ran:
					ran++
				}
			}
			t.Logf("%d blocks, %d commands", doc.Blocks, len(doc.Commands))
		})
	}
	n := 0
	for _, where := range skipped {
		n += len(where)
	}
	t.Logf("%d documents, %d commands run, %d skipped", len(docs), ran, n)
	for reason, where := range skipped {
		t.Logf("skipped (%s): %s", reason, strings.Join(where, ", "))
	}
}

// documents lists the repository's Markdown files (doctest.Markdown) in
// docOrder, then the rest by path. A document named in docOrder must exist.
func documents(t *testing.T) []string {
	t.Helper()
	all, err := doctest.Markdown(repoRoot)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range docOrder {
		if !slices.Contains(all, p) {
			t.Fatalf("docOrder names %s, which is not a document of the repository", p)
		}
	}
	out := slices.Clone(docOrder)
	for _, p := range all {
		if !slices.Contains(docOrder, p) {
			out = append(out, p)
		}
	}
	return out
}

// copySource copies the files git knows of (tracked, or untracked and not
// ignored) into dst, keeping their modes.
func copySource(t *testing.T, dst string) {
	t.Helper()
	out, err := exec.Command("git", "-C", repoRoot, "ls-files", "-z", "--cached", "--others", "--exclude-standard").Output()
	if err != nil {
		t.Fatalf("git ls-files: %v", err)
	}
	for _, rel := range strings.Split(strings.TrimRight(string(out), "\x00"), "\x00") {
		src := filepath.Join(repoRoot, rel)
		info, err := os.Lstat(src)
		if err != nil || !info.Mode().IsRegular() {
			continue // deleted in the work tree, or a link
		}
		data, err := os.ReadFile(src)
		if err != nil {
			t.Fatal(err)
		}
		target := filepath.Join(dst, rel)
		if err := os.MkdirAll(filepath.Dir(target), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(target, data, info.Mode().Perm()); err != nil {
			t.Fatal(err)
		}
	}
}

func goEnv(t *testing.T, name string) string {
	t.Helper()
	out, err := exec.Command("go", "env", name).Output()
	if err != nil {
		t.Fatalf("go env %s: %v", name, err)
	}
	return string(bytes.TrimSpace(out))
}

// TestReadmeSetUpReadsAsCommands: the README opens with its two set-up
// commands, before any section, and a reader of the rendered page sees
// them as they are to be typed: their annotations are in the doctest
// comment above the block (internal/doctest), not on the lines.
func TestReadmeSetUpReadsAsCommands(t *testing.T) {
	data, err := os.ReadFile(filepath.Join(repoRoot, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	text := string(data)
	start := strings.Index(text, "```sh\n")
	if start < 0 || strings.Contains(text[:start], "\n## ") {
		t.Fatal("the README's first section comes before its set-up commands")
	}
	block, _, _ := strings.Cut(text[start+len("```sh\n"):], "```")
	lines := strings.Split(strings.TrimSuffix(block, "\n"), "\n")
	if len(lines) != 2 || !strings.HasPrefix(lines[0], "CGO_ENABLED=0 go install ") || lines[1] != "go test ./..." {
		t.Fatalf("the README's set-up block is %q; want the install line and go test ./...", lines)
	}
	doc, err := doctest.Parse("README.md", data)
	if err != nil {
		t.Fatal(err)
	}
	if c := doc.Commands[1]; c.String() != "go test ./..." || c.Want.Skip == "" {
		t.Errorf("go test ./... in the README is not skipped by its doctest comment: %+v", c.Want)
	}
}
