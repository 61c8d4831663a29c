package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/orc-state/orc-state/internal/clitest"
)

// TestWindowsLikeFileSystem runs the portable-names and CRLF scenarios
// with their work directory on a file system that behaves as Windows'
// does: an NTFS image mounted by lowntfs-3g with ignore_case (names
// compared ignoring case, as on NTFS and macOS's APFS) and windows_names
// (device names, a trailing dot or space, and : < > " | ? * \ refused, as
// Windows refuses them). The scenarios assert the same exit codes,
// messages and files as on Linux's ordinary file system, so the collision
// rules are shown to hold where two names really are one folder. The
// rules are also table-tested as pure functions (internal/portable,
// registry), which always run.
//
// Unlike Windows, the mount lists every name in lower case; git then loses
// a branch whose name has capitals (refs/heads/Feat/X), so the sync
// scenario, which pushes one, does not run here.
//
// It needs Linux, root (to mount through FUSE), /dev/fuse, mkfs.ntfs and
// lowntfs-3g (Debian: ntfs-3g); without them it skips and says which is
// missing. A kernel built with CONFIG_UNICODE could use an ext4 casefold
// directory instead, but that only folds case; this one also refuses
// Windows names.
func TestWindowsLikeFileSystem(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("mounts an NTFS image through FUSE, which this test does on Linux only")
	}
	if os.Geteuid() != 0 {
		t.Skip("mounting the NTFS image through FUSE needs root")
	}
	if _, err := os.Stat("/dev/fuse"); err != nil {
		t.Skipf("no FUSE device: %v", err)
	}
	for _, tool := range []string{"mkfs.ntfs", "lowntfs-3g", "fusermount"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("%s is not installed (Debian package ntfs-3g, fuse3): %v", tool, err)
		}
	}
	tmp := t.TempDir()
	img, mnt := filepath.Join(tmp, "ntfs.img"), filepath.Join(tmp, "mnt")
	if err := os.Mkdir(mnt, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(img, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(img, 32<<20); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command("mkfs.ntfs", "-F", "-f", "-q", img).CombinedOutput(); err != nil {
		t.Skipf("mkfs.ntfs cannot make an image here: %v: %s", err, out)
	}
	if out, err := exec.Command("lowntfs-3g", "-o", "ignore_case,windows_names", img, mnt).CombinedOutput(); err != nil {
		t.Skipf("cannot mount the NTFS image (a sandbox may forbid FUSE mounts): %v: %s", err, out)
	}
	t.Cleanup(func() { // before TempDir's removal: cleanups run last first
		if out, err := exec.Command("fusermount", "-u", mnt).CombinedOutput(); err != nil {
			t.Errorf("unmount %s: %v: %s", mnt, err, out)
		}
	})

	// The file system is what the test claims: one folder for names that
	// differ in case, and Windows' names refused.
	if err := os.Mkdir(filepath.Join(mnt, "Feat-X"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(mnt, "feat-x"), 0o755); !os.IsExist(err) {
		t.Fatalf("mkdir feat-x beside Feat-X = %v; the mount does not ignore case", err)
	}
	for _, name := range []string{"con", "trail.", "a:b"} {
		if err := os.WriteFile(filepath.Join(mnt, name), nil, 0o644); err == nil {
			t.Fatalf("the mount stored %q; it does not refuse Windows names", name)
		}
	}
	if err := os.Remove(filepath.Join(mnt, "Feat-X")); err != nil {
		t.Fatal(err)
	}

	p := clitest.Scripts("testdata/script")
	for _, name := range []string{"platform_names", "platform_crlf"} {
		p.Files = append(p.Files, filepath.Join("testdata", "script", name+".txtar"))
	}
	p.Dir = ""
	p.WorkdirRoot = mnt
	testscript.Run(t, p)
}
