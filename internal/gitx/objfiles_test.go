package gitx

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/orc-state/orc-state/internal/atomicfile"
)

// gitObjects is every object of the repository as `git cat-file --batch`
// gives it: id → type and content.
func gitObjects(t *testing.T, dir string) map[string][2]string {
	t.Helper()
	ids := strings.Fields(mustGit(t, dir, "cat-file", "--batch-all-objects", "--batch-check=%(objectname)"))
	cmd := exec.Command(gitBin, "cat-file", "--batch")
	cmd.Dir, cmd.Env = dir, gitEnv()
	cmd.Stdin = strings.NewReader(strings.Join(ids, "\n") + "\n")
	out, err := cmd.Output()
	if err != nil {
		t.Fatal(err)
	}
	objs := map[string][2]string{}
	r := bufio.NewReader(bytes.NewReader(out))
	for range ids {
		header, err := r.ReadString('\n')
		if err != nil {
			t.Fatal(err)
		}
		f := strings.Fields(header)
		n, _ := strconv.Atoi(f[2])
		data := make([]byte, n+1)
		if _, err := io.ReadFull(r, data); err != nil {
			t.Fatal(err)
		}
		objs[f[0]] = [2]string{f[1], string(data[:n])}
	}
	return objs
}

// manyCommits makes commits whose long, similar messages git packs as
// deltas of each other, each changing one file.
func manyCommits(t *testing.T, dir string, n int) {
	t.Helper()
	long := strings.Repeat("a line of the message that every commit repeats\n", 40)
	for i := 0; i < n; i++ {
		writeFile(t, dir, fmt.Sprintf("d%d/f.txt", i%3), strings.Repeat(fmt.Sprintf("line %d\n", i), 50+i))
		mustGit(t, dir, "add", "-A")
		date := fmt.Sprintf("@%d +0000", 1_700_000_000+clock.Add(1)*60)
		if _, err := runGit(t, dir, []string{"GIT_AUTHOR_DATE=" + date, "GIT_COMMITTER_DATE=" + date},
			"commit", "-q", "-m", fmt.Sprintf("commit %d\n\n%s", i, long)); err != nil {
			t.Fatal(err)
		}
	}
}

// deltas counts the entries of the repository's packs stored as deltas,
// as git verify-pack lists them.
func deltas(t *testing.T, dir string) int {
	t.Helper()
	idx, _ := filepath.Glob(filepath.Join(dir, ".git", "objects", "pack", "*.idx"))
	n := 0
	for _, p := range idx {
		for _, line := range strings.Split(mustGit(t, dir, "verify-pack", "-v", p), "\n") {
			if f := strings.Fields(line); len(f) == 7 && isObjectID(f[0]) {
				n++ // id type size packed offset depth base
			}
		}
	}
	return n
}

// TestObjectFilesReadWhatGitReads: every object of the repository, read
// from the object files, is byte for byte what git cat-file gives, in
// each way git stores objects: loose; packed after git gc (refs packed
// too); packed as deltas on offsets and on ids, commits included; an
// index whose offsets are all in its large-offset table; SHA-256.
func TestObjectFilesReadWhatGitReads(t *testing.T) {
	t.Parallel()
	shapes := []struct {
		name   string
		init   []string
		pack   func(t *testing.T, dir string)
		deltas bool // the shape must hold deltas
	}{
		{"loose", nil, func(*testing.T, string) {}, false},
		{"git gc", nil, func(t *testing.T, dir string) { mustGit(t, dir, "gc", "-q") }, false},
		{"deltas on offsets", nil, func(t *testing.T, dir string) {
			mustGit(t, dir, "repack", "-q", "-a", "-d", "-f", "--depth=50", "--window=50")
		}, true},
		{"deltas on ids", nil, func(t *testing.T, dir string) {
			mustGit(t, dir, "-c", "repack.useDeltaBaseOffset=false", "repack", "-q", "-a", "-d", "-f", "--depth=50", "--window=50")
		}, true},
		{"large offsets", nil, func(t *testing.T, dir string) {
			mustGit(t, dir, "repack", "-q", "-a", "-d")
			idx, _ := filepath.Glob(filepath.Join(dir, ".git", "objects", "pack", "*.idx"))
			for _, p := range idx {
				os.Chmod(p, 0o644)
				os.Remove(p)
				mustGit(t, dir, "index-pack", "--index-version=2,0", strings.TrimSuffix(p, ".idx")+".pack")
			}
		}, false},
		{"sha256, packed", []string{"--object-format=sha256"}, func(t *testing.T, dir string) {
			mustGit(t, dir, "repack", "-q", "-a", "-d", "-f", "--depth=50", "--window=50")
		}, true},
		{"sha256, loose", []string{"--object-format=sha256"}, func(*testing.T, string) {}, false},
	}
	for _, sh := range shapes {
		t.Run(sh.name, func(t *testing.T) {
			t.Parallel()
			dir := initRepo(t, sh.init...)
			manyCommits(t, dir, 12)
			sh.pack(t, dir)
			if sh.deltas && deltas(t, dir) == 0 {
				t.Fatal("git stored no delta: the shape tests nothing")
			}
			r := mustOpen(t, dir)
			defer r.Close()
			files := r.objectFiles()
			if files == nil {
				t.Fatal("the object files are not read in a plain repository")
			}
			want := gitObjects(t, dir)
			readAll := func(how string) {
				for id, obj := range want {
					kind, data, err := files.read(id)
					if err != nil || kind != obj[0] || string(data) != obj[1] {
						t.Fatalf("%s: read %s = %s %q, %v; git cat-file says %s %q", how, id, kind, data, err, obj[0], obj[1])
					}
				}
			}
			readAll("ids read by first byte")
			for _, p := range files.packs {
				p.bucket = 0 // as in a repository of millions of objects
			}
			readAll("ids probed one by one")
			if r.objs != nil {
				t.Error("git cat-file was started")
			}
		})
	}
}

// TestObjectFilesAskGitOnDoubt: what the files cannot give exactly as git
// would is not read from them, and the answer is git's: replace refs
// (loose or packed), an index of version 1, an object only an alternate
// holds, a loose object whose content does not hash to its name.
func TestObjectFilesAskGitOnDoubt(t *testing.T) {
	t.Parallel()
	t.Run("replace refs", func(t *testing.T) {
		t.Parallel()
		for _, packed := range []bool{false, true} {
			dir := initRepo(t)
			old := commit(t, dir, "the original")
			mustGit(t, dir, "checkout", "-q", "--orphan", "other")
			other := commit(t, dir, "its replacement")
			mustGit(t, dir, "checkout", "-q", "main")
			mustGit(t, dir, "replace", old, other)
			if packed {
				mustGit(t, dir, "pack-refs", "--all")
			}
			r := mustOpen(t, dir)
			if r.objectFiles() != nil {
				t.Errorf("packed %v: the object files are read despite a replace ref", packed)
			}
			o := r.ObserveBranchLast(context.Background(), "main", 1)
			if want := mustGit(t, dir, "log", "-1", "--format=%s", "HEAD"); o.Head.Subject != want || o.Log[0].Subject != want {
				t.Errorf("packed %v: subject %q, log %+v; git says %q", packed, o.Head.Subject, o.Log, want)
			}
		}
	})
	t.Run("index version 1", func(t *testing.T) {
		t.Parallel()
		dir := initRepo(t)
		manyCommits(t, dir, 3)
		mustGit(t, dir, "repack", "-q", "-a", "-d")
		idx, _ := filepath.Glob(filepath.Join(dir, ".git", "objects", "pack", "*.idx"))
		os.Remove(idx[0])
		mustGit(t, dir, "index-pack", "--index-version=1", strings.TrimSuffix(idx[0], ".idx")+".pack")
		r := mustOpen(t, dir)
		defer r.Close()
		head := mustGit(t, dir, "rev-parse", "HEAD")
		if _, _, err := r.objectFiles().read(head); err == nil {
			t.Error("an index of version 1 was read")
		}
		if c, ok := r.Commit(head); !ok || c.Subject != "commit 2" {
			t.Errorf("Commit(HEAD) = %+v, %v; want git's subject %q", c, ok, "commit 2")
		}
	})
	t.Run("alternates", func(t *testing.T) {
		t.Parallel()
		origin := initRepo(t)
		head := commit(t, origin, "in the alternate")
		dir := tempDir(t)
		mustGit(t, dir, "clone", "-q", "--shared", origin, ".")
		r := mustOpen(t, dir)
		defer r.Close()
		if _, _, err := r.objectFiles().read(head); err == nil {
			t.Error("an alternate's object was read as this repository's")
		}
		if c, ok := r.Commit(head); !ok || c.Subject != "in the alternate" {
			t.Errorf("Commit(HEAD) = %+v, %v; want git's", c, ok)
		}
	})
	t.Run("content that is not its name's", func(t *testing.T) {
		t.Parallel()
		dir := initRepo(t)
		a := commit(t, dir, "one")
		b := commit(t, dir, "two")
		pa := filepath.Join(dir, ".git", "objects", a[:2], a[2:])
		pb := filepath.Join(dir, ".git", "objects", b[:2], b[2:])
		data, err := os.ReadFile(pb)
		if err != nil {
			t.Fatal(err)
		}
		os.Chmod(pa, 0o644)
		if err := os.WriteFile(pa, data, 0o644); err != nil {
			t.Fatal(err)
		}
		r := mustOpen(t, dir)
		defer r.Close()
		if _, _, err := r.objectFiles().read(a); err == nil {
			t.Error("a loose object was read under another object's name")
		}
	})
}

// TestObserveReadsNoObjectThroughGit: in a plain repository (loose or
// packed objects, loose or packed refs, HEAD on a branch or detached)
// observing a branch starts git status where the branch is checked out
// and no other git process (the branch tip of one checked out nowhere is
// read from the ref files), and says what git says: HEAD, its subject and
// the log. (Not parallel: it counts the processes the package starts.)
func TestObserveReadsNoObjectThroughGit(t *testing.T) {
	for _, sh := range []struct {
		name  string
		make  func(t *testing.T, dir string)
		procs int64
	}{
		{"loose", func(*testing.T, string) {}, 1},
		{"git gc", func(t *testing.T, dir string) { mustGit(t, dir, "gc", "-q") }, 1},
		{"deltas", func(t *testing.T, dir string) {
			mustGit(t, dir, "repack", "-q", "-a", "-d", "-f", "--depth=50", "--window=50")
			mustGit(t, dir, "pack-refs", "--all")
		}, 1},
		{"detached, the branch checked out nowhere", func(t *testing.T, dir string) {
			mustGit(t, dir, "gc", "-q")
			mustGit(t, dir, "checkout", "-q", "--detach", "HEAD~2")
			mustGit(t, dir, "branch", "-q", "-f", "main", "HEAD~1")
		}, 0},
		{"a loose ref over a packed one", func(t *testing.T, dir string) {
			mustGit(t, dir, "gc", "-q")
			mustGit(t, dir, "update-ref", "refs/heads/main", "HEAD~3")
		}, 1},
	} {
		t.Run(sh.name, func(t *testing.T) {
			dir := initRepo(t)
			manyCommits(t, dir, 8)
			sh.make(t, dir)
			r := mustOpen(t, dir)
			before := atomicfile.Processes()
			o := r.ObserveBranchLast(context.Background(), "main", 4)
			if n := atomicfile.Processes() - before; n != sh.procs {
				t.Errorf("%d git processes started, want %d", n, sh.procs)
			}
			want := mustGit(t, dir, "rev-parse", "main")
			if o.HeadErr != "" || o.Head.SHA != want {
				t.Fatalf("head %+v (%s); git says %s", o.Head, o.HeadErr, want)
			}
			if subject := mustGit(t, dir, "log", "-1", "--format=%s", want); o.Head.Subject != subject {
				t.Errorf("subject %q; git says %q", o.Head.Subject, subject)
			}
			var log []string
			for _, c := range o.Log {
				log = append(log, c.SHA+" "+c.Subject)
			}
			if gitLog := mustGit(t, dir, "log", "-n", "4", "--format=%H %s", want); strings.Join(log, "\n") != gitLog {
				t.Errorf("log %q; git log says %q", log, gitLog)
			}
		})
	}
}

// TestObserveWhenGitStatusFailsAsksGitForHead: when git status fails (a
// broken index) HEAD read ahead from the files is no answer: git is asked
// for it, as it was before the files were read, and the dirty list is
// unknown with git's reason.
func TestObserveWhenGitStatusFailsAsksGitForHead(t *testing.T) {
	t.Parallel()
	dir := initRepo(t)
	manyCommits(t, dir, 3)
	mustGit(t, dir, "gc", "-q")
	if err := os.WriteFile(filepath.Join(dir, ".git", "index"), []byte("not an index"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := runGit(t, dir, nil, "status"); err == nil {
		t.Fatal("git status succeeded on a broken index; the test needs it to fail")
	}
	r := mustOpen(t, dir)
	o := r.ObserveBranchLast(context.Background(), "main", 2)
	want := mustGit(t, dir, "rev-parse", "HEAD")
	if o.HeadErr != "" || o.Head.SHA != want || o.Head.Branch != "main" || o.Head.Subject != "commit 2" || len(o.Log) != 2 {
		t.Errorf("head %+v, log %+v (%s); git says %s, commit 2", o.Head, o.Log, o.HeadErr, want)
	}
	if o.Dirty.Known || !strings.Contains(o.Dirty.Reason, "index") {
		t.Errorf("dirty %+v; want unknown, with git's reason", o.Dirty)
	}
}
