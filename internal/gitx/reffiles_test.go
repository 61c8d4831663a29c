package gitx

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/go-git/go-git/v5/plumbing"

	"github.com/orc-state/orc-state/internal/environ"
)

// refsRepo is a repository made once per object format and copied for
// each shape: commits one and two on main, and refs/orc/sessions/a and
// refs/orc/sessions/b at one and two.
type refsRepo struct {
	dir, one, two string
}

func newRefsRepo(t *testing.T, format string) refsRepo {
	t.Helper()
	r := refsRepo{dir: initRepo(t, "--object-format="+format)}
	r.one = commit(t, r.dir, "one")
	r.two = commit(t, r.dir, "two")
	mustGit(t, r.dir, "update-ref", "refs/orc/sessions/a", r.one)
	mustGit(t, r.dir, "update-ref", "refs/orc/sessions/b", r.two)
	return r
}

// copyRepo copies a repository (regular files and folders only) to a new
// temp dir.
func copyRepo(t *testing.T, src string) string {
	t.Helper()
	dst := tempDir(t)
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		to := filepath.Join(dst, rel)
		if d.IsDir() {
			return os.MkdirAll(to, 0o755)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(to, b, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	return dst
}

// gitForEachRef is the oracle for refsFromFiles: git's own listing, run
// where the layout was discovered, with its environment.
func gitForEachRef(l Layout, prefix string) (map[string]string, error) {
	cmd := exec.Command(gitBin, "for-each-ref", "--format=%(objectname) %(refname)", prefix)
	cmd.Dir, cmd.Env = l.Place, l.Env
	out, err := cmd.Output()
	if err != nil {
		return nil, err
	}
	refs := map[string]string{}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		if id, name, ok := strings.Cut(line, " "); ok {
			refs[name] = id
		}
	}
	return refs, nil
}

// gitShowRef is the oracle for refFromFiles: `git show-ref --verify`,
// which names exactly one ref (no abbreviation, no search).
func gitShowRef(l Layout, name string) (id string, exists bool, err error) {
	cmd := exec.Command(gitBin, "show-ref", "--verify", name)
	cmd.Dir, cmd.Env = l.Place, l.Env
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err == nil {
		id, _, _ = strings.Cut(string(out), " ")
		return id, true, nil
	}
	if strings.Contains(stderr.String(), "not a valid ref") {
		return "", false, nil
	}
	return "", false, errors.New(strings.TrimSpace(stderr.String()))
}

// TestRefsFromFiles: for each shape of the ref files, the file answer is
// git's own (for-each-ref for a prefix, show-ref --verify for a name) or
// no answer (fallback: git is asked); and the public questions
// (ListRefs, Branches, BranchHead) give git's answer either way.
func TestRefsFromFiles(t *testing.T) {
	t.Parallel()
	type shape struct {
		name string
		// setup changes the copied repository; it returns the directory to
		// discover from ("" for the repository).
		setup func(t *testing.T, r refsRepo) string
		// files: the prefixes (of refs/orc/ and refs/heads/) that
		// refsFromFiles answers; git answers the others.
		files []string
		// refused: git refuses the repository or its refs: every question
		// is an error.
		refused bool
		// names asked with refFromFiles and BranchHead, each answered from
		// the files unless named in doubt.
		names []string
		doubt []string
	}
	names := []string{"refs/heads/main", "refs/heads/nope", "refs/orc/sessions/a", "refs/orc/sessions/zz"}
	both, heads := []string{"refs/orc/", "refs/heads/"}, []string{"refs/heads/"}
	shapes := []shape{
		{name: "loose only", files: both, names: names},
		{name: "packed only", files: both, names: names, setup: func(t *testing.T, r refsRepo) string {
			mustGit(t, r.dir, "pack-refs", "--all")
			return ""
		}},
		{name: "packed, overridden by a newer loose ref", files: both, names: names, setup: func(t *testing.T, r refsRepo) string {
			mustGit(t, r.dir, "pack-refs", "--all")
			mustGit(t, r.dir, "update-ref", "refs/orc/sessions/a", r.two)
			return ""
		}},
		{name: "deleted after packing", files: both, names: names, setup: func(t *testing.T, r refsRepo) string {
			mustGit(t, r.dir, "pack-refs", "--all")
			mustGit(t, r.dir, "update-ref", "-d", "refs/orc/sessions/a")
			return ""
		}},
		{name: "an annotated tag packed (peeled line)", files: both, names: []string{"refs/orc/tagged"}, setup: func(t *testing.T, r refsRepo) string {
			mustGit(t, r.dir, "tag", "-a", "-m", "t", "t1", r.one)
			mustGit(t, r.dir, "update-ref", "refs/orc/tagged", mustGit(t, r.dir, "rev-parse", "t1"))
			mustGit(t, r.dir, "pack-refs", "--all")
			if b, _ := os.ReadFile(filepath.Join(r.dir, ".git", "packed-refs")); !strings.Contains(string(b), "\n^") {
				t.Fatalf("packed-refs has no peeled line:\n%s", b)
			}
			return ""
		}},
		{name: "a symbolic ref under the prefix", files: heads, names: []string{"refs/orc/sessions/a"}, doubt: []string{"refs/orc/sym"}, setup: func(t *testing.T, r refsRepo) string {
			mustGit(t, r.dir, "symbolic-ref", "refs/orc/sym", "refs/heads/main")
			return ""
		}},
		{name: "branch names with slashes and unicode", files: both, setup: func(t *testing.T, r refsRepo) string {
			mustGit(t, r.dir, "branch", "feat/ünï/cödé", r.one)
			mustGit(t, r.dir, "branch", "feat/x", r.two)
			return ""
		}, names: []string{"refs/heads/feat/ünï/cödé", "refs/heads/feat/x", "refs/heads/feat", "refs/heads/feat/ünï"}},
		{name: "a linked worktree: the refs of the common dir", files: both, names: names, setup: func(t *testing.T, r refsRepo) string {
			wt := filepath.Join(tempDir(t), "wt")
			mustGit(t, r.dir, "worktree", "add", "-q", "-b", "side", wt, r.one)
			mustGit(t, wt, "update-ref", "refs/orc/sessions/from-wt", r.one)
			mustGit(t, r.dir, "pack-refs", "--all")
			return wt
		}},
		{name: "an empty loose ref", files: heads, names: []string{"refs/heads/main"}, doubt: []string{"refs/orc/sessions/a"}, setup: func(t *testing.T, r refsRepo) string {
			writeFile(t, r.dir, ".git/refs/orc/sessions/a", "")
			return ""
		}},
		{name: "a loose ref of garbage", files: heads, doubt: []string{"refs/orc/sessions/a"}, setup: func(t *testing.T, r refsRepo) string {
			writeFile(t, r.dir, ".git/refs/orc/sessions/a", "not an id\n")
			return ""
		}},
		{name: "an id with trailing words (git reads the id)", files: heads, doubt: []string{"refs/orc/sessions/a"}, setup: func(t *testing.T, r refsRepo) string {
			writeFile(t, r.dir, ".git/refs/orc/sessions/a", r.one+" trailing\n")
			return ""
		}},
		{name: "an id after a space (git: a broken ref)", files: heads, doubt: []string{"refs/orc/sessions/a"}, setup: func(t *testing.T, r refsRepo) string {
			writeFile(t, r.dir, ".git/refs/orc/sessions/a", " "+r.one+"\n")
			return ""
		}},
		{name: "a symlink (git reads a target in refs/ as a symbolic ref)", files: heads, doubt: []string{"refs/orc/link"}, setup: func(t *testing.T, r refsRepo) string {
			// The link's target, as a path, is another ref, with another id.
			writeFile(t, r.dir, ".git/refs/orc/refs/heads/main", r.one+"\n")
			if err := os.Symlink("refs/heads/main", filepath.Join(r.dir, ".git", "refs", "orc", "link")); err != nil {
				t.Fatal(err)
			}
			return ""
		}},
		{name: "an id in upper case", files: heads, doubt: []string{"refs/orc/sessions/a"}, setup: func(t *testing.T, r refsRepo) string {
			writeFile(t, r.dir, ".git/refs/orc/sessions/a", strings.ToUpper(r.one)+"\n")
			return ""
		}},
		{name: "an id of the other object format", files: heads, doubt: []string{"refs/orc/sessions/a"}, setup: func(t *testing.T, r refsRepo) string {
			other := strings.Repeat(r.one, 2)[:104-len(r.one)] // 64 digits for SHA-1, 40 for SHA-256
			writeFile(t, r.dir, ".git/refs/orc/sessions/a", other+"\n")
			return ""
		}},
		{name: "a ref to a missing object", files: heads, doubt: []string{"refs/orc/sessions/a"}, setup: func(t *testing.T, r refsRepo) string {
			writeFile(t, r.dir, ".git/refs/orc/sessions/a", strings.Repeat("1", len(r.one))+"\n")
			return ""
		}},
		{name: "objects only in a pack", files: both, names: names, setup: func(t *testing.T, r refsRepo) string {
			mustGit(t, r.dir, "repack", "-adq")
			mustGit(t, r.dir, "prune-packed")
			return ""
		}},
		{name: "objects only in a pack whose pack file is gone", doubt: names[:1], names: names[1:2], setup: func(t *testing.T, r refsRepo) string {
			mustGit(t, r.dir, "repack", "-adq")
			mustGit(t, r.dir, "prune-packed")
			packs, _ := filepath.Glob(filepath.Join(r.dir, ".git", "objects", "pack", "*.pack"))
			for _, p := range packs {
				os.Remove(p)
			}
			return ""
		}},
		{name: "a stale lock file (git skips it)", files: heads, names: []string{"refs/orc/sessions/a"}, setup: func(t *testing.T, r refsRepo) string {
			writeFile(t, r.dir, ".git/refs/orc/sessions/b.lock", r.one+"\n")
			return ""
		}},
		{name: "a folder where the branch would be", files: both, names: []string{"refs/heads/dir", "refs/heads/dir/x"}, setup: func(t *testing.T, r refsRepo) string {
			mustGit(t, r.dir, "branch", "dir/x", r.one)
			return ""
		}},
		{name: "a branch named like a full ref (no abbreviation)", files: both, names: []string{"refs/heads/x", "refs/heads/refs/heads/x"}, setup: func(t *testing.T, r refsRepo) string {
			mustGit(t, r.dir, "update-ref", "refs/heads/refs/heads/x", r.one)
			return ""
		}},
		{name: "packed-refs without its last newline (git refuses it)", refused: true, doubt: []string{"refs/heads/main"}, setup: func(t *testing.T, r refsRepo) string {
			mustGit(t, r.dir, "pack-refs", "--all")
			p := filepath.Join(r.dir, ".git", "packed-refs")
			b, _ := os.ReadFile(p)
			if err := os.WriteFile(p, []byte(strings.TrimSuffix(string(b), "\n")), 0o644); err != nil {
				t.Fatal(err)
			}
			return ""
		}},
		{name: "an extension git does not know", refused: true, doubt: names, setup: func(t *testing.T, r refsRepo) string {
			mustGit(t, r.dir, "config", "core.repositoryformatversion", "1")
			mustGit(t, r.dir, "config", "extensions.orcTestUnknown", "true")
			return ""
		}},
		{name: "refs not stored as files (extensions.refStorage)", refused: true, doubt: names, setup: func(t *testing.T, r refsRepo) string {
			mustGit(t, r.dir, "config", "core.repositoryformatversion", "1")
			mustGit(t, r.dir, "config", "extensions.refStorage", "reftable")
			return ""
		}},
	}
	for _, format := range formats {
		base := newRefsRepo(t, format)
		for _, sh := range shapes {
			t.Run(format+"/"+sh.name, func(t *testing.T) {
				t.Parallel()
				r := base
				r.dir = copyRepo(t, base.dir)
				place := r.dir
				if sh.setup != nil {
					if p := sh.setup(t, r); p != "" {
						place = p
					}
				}
				l, err := Discover(place, environ.OS())
				if err != nil {
					t.Fatal(err)
				}
				for _, prefix := range both {
					checkRefsUnder(t, l, prefix, contains(sh.files, prefix), sh.refused)
				}
				for _, name := range sh.names {
					checkRef(t, l, name, true, sh.refused)
				}
				for _, name := range sh.doubt {
					checkRef(t, l, name, false, sh.refused)
				}
			})
		}
	}
}

// checkRefsUnder compares refsFromFiles, ListRefs and Branches with git
// for one prefix. files: the files must answer; refused: git must fail.
func checkRefsUnder(t *testing.T, l Layout, prefix string, files, refused bool) {
	t.Helper()
	want, gitErr := gitForEachRef(l, prefix)
	if refused != (gitErr != nil) {
		t.Fatalf("git for-each-ref %s: %v; the shape expects git to fail: %v", prefix, gitErr, refused)
	}
	got, ok := l.refsFromFiles(prefix)
	if ok != files {
		t.Errorf("refsFromFiles(%s): answered %v, want %v (git says %v)", prefix, ok, files, want)
	}
	if ok && !equalMaps(got, want) {
		t.Errorf("refsFromFiles(%s) = %v; git says %v", prefix, got, want)
	}
	listed, err := l.ListRefs(context.Background(), prefix)
	if (err != nil) != (gitErr != nil) || !equalMaps(listed, want) {
		t.Errorf("ListRefs(%s) = %v, %v; git says %v, %v", prefix, listed, err, want, gitErr)
	}
	if prefix != "refs/heads/" {
		return
	}
	repo, _ := OpenLayout(l)
	defer repo.Close()
	branches, err := repo.Branches()
	if (err != nil) != (gitErr != nil) || len(branches) != len(want) {
		t.Errorf("Branches = %v, %v; git says %v, %v", branches, err, want, gitErr)
	}
	for name, id := range branches {
		if want["refs/heads/"+name] != id {
			t.Errorf("Branches[%s] = %s; git says %s", name, id, want["refs/heads/"+name])
		}
	}
}

// checkRef compares refFromFiles (and BranchHead, for a branch) with git
// show-ref --verify for one name. files: the files must answer; refused:
// git refuses the repository, and BranchHead must say so.
func checkRef(t *testing.T, l Layout, name string, files, refused bool) {
	t.Helper()
	want, wantExists, gitErr := gitShowRef(l, name)
	id, exists, ok := l.refFromFiles(name)
	if ok != files {
		t.Errorf("refFromFiles(%s): answered %v, want %v", name, ok, files)
	}
	if ok && (gitErr != nil || id != want || exists != wantExists) {
		t.Errorf("refFromFiles(%s) = %q, %v; git says %q, %v, %v", name, id, exists, want, wantExists, gitErr)
	}
	branch, isBranch := strings.CutPrefix(name, "refs/heads/")
	if !isBranch {
		return
	}
	repo, _ := OpenLayout(l)
	defer repo.Close()
	id, exists, err := repo.BranchHead(branch)
	switch {
	case refused:
		if err == nil {
			t.Errorf("BranchHead(%s) = %q, %v; git refuses the repository (%v), want its error", branch, id, exists, gitErr)
		}
	case gitErr == nil && (err != nil || id != want || exists != wantExists):
		t.Errorf("BranchHead(%s) = %q, %v, %v; git says %q, %v", branch, id, exists, err, want, wantExists)
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// TestRefsFromFilesDefer: where git might answer otherwise or not at all,
// the files give no answer: no git program, a prefix that is a pattern or
// per-worktree, a place that is gone, another object directory.
func TestRefsFromFilesDefer(t *testing.T) {
	t.Parallel()
	r := newRefsRepo(t, "sha1")
	l, err := Discover(r.dir, environ.OS())
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := l.refsFromFiles("refs/orc/"); !ok {
		t.Fatal("the plain repository is not answered from the files")
	}
	noGit := l
	noGit.Env = l.Env.With("PATH=")
	objects := l
	objects.Env = l.Env.With("GIT_OBJECT_DIRECTORY=" + filepath.Join(r.dir, ".git", "objects"))
	gone := l
	gone.Place = filepath.Join(r.dir, "gone")
	for _, tc := range []struct {
		what   string
		l      Layout
		prefix string
	}{
		{"no git program", noGit, "refs/orc/"},
		{"GIT_OBJECT_DIRECTORY", objects, "refs/orc/"},
		{"the place is gone", gone, "refs/orc/"},
		{"a pattern", l, "refs/orc/*/"},
		{"no trailing slash", l, "refs/orc"},
		{"per-worktree refs", l, "refs/bisect/"},
		{"tags", l, "refs/tags/"},
	} {
		if refs, ok := tc.l.refsFromFiles(tc.prefix); ok {
			t.Errorf("%s: refsFromFiles(%s) = %v; want git asked", tc.what, tc.prefix, refs)
		}
		if _, _, ok := tc.l.refFromFiles("refs/orc/sessions/a"); ok && tc.prefix == "refs/orc/" {
			t.Errorf("%s: refFromFiles answered; want git asked", tc.what)
		}
	}
}

// TestRefsFromFilesReftable: a repository made with the reftable backend
// is never read by hand (needs git 2.45).
func TestRefsFromFilesReftable(t *testing.T) {
	t.Parallel()
	dir := tempDir(t)
	if _, err := runGit(t, dir, nil, "init", "-q", "--ref-format=reftable", "-b", "main"); err != nil {
		t.Skipf("this git cannot make a reftable repository (git init --ref-format=reftable needs git 2.45): %s", firstLine(err.Error()))
	}
	one := commit(t, dir, "one")
	mustGit(t, dir, "update-ref", "refs/orc/sessions/a", one)
	l, err := Discover(dir, environ.OS())
	if err != nil {
		t.Fatal(err)
	}
	if refs, ok := l.refsFromFiles("refs/orc/"); ok {
		t.Errorf("refsFromFiles = %v; want git asked", refs)
	}
	checkRefsUnder(t, l, "refs/orc/", false, false)
	checkRef(t, l, "refs/heads/main", false, false)
}

// FuzzPackedRefs: whatever packed-refs holds, packedRefs never panics, and
// an answer it gives has only valid names under the prefix with lower-case
// ids, each from a "<id> <name>" line of the file.
func FuzzPackedRefs(f *testing.F) {
	id := strings.Repeat("ab", 20)
	f.Add("# pack-refs with: peeled fully-peeled sorted \n" + id + " refs/orc/a\n^" + id + "\n" + id + " refs/heads/main\n")
	f.Add(id + " refs/orc/a\n" + id + " refs/orc/a\n")
	f.Add(id + " refs/orc/a")
	f.Add("^" + id + "\n")
	f.Add(id + " refs/orc/a b\n")
	dir := f.TempDir()
	l := Layout{CommonDir: dir}
	f.Fuzz(func(t *testing.T, content string) {
		if err := os.WriteFile(filepath.Join(dir, "packed-refs"), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		refs, ok := l.packedRefs(func(name string) bool { return strings.HasPrefix(name, "refs/orc/") })
		if !ok {
			return
		}
		for name, id := range refs {
			if plumbing.ReferenceName(name).Validate() != nil || !strings.HasPrefix(name, "refs/orc/") || !isLowerObjectID(id) || !strings.Contains(content, id+" "+name+"\n") {
				t.Errorf("packedRefs(%q) gave %s = %s", content, name, id)
			}
		}
	})
}
