package clitest

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"

	"github.com/rogpeppe/go-internal/testscript"
)

// nobody is the unprivileged user the permission scenarios run as: root
// writes through read-only modes, so a read-only file refuses only someone
// else.
const nobody = "65534"

// unpriv RC [<FILE] ARGS... runs orc-state ARGS as an unprivileged user
// (through setpriv when the test runs as root, as CI does) in the script's
// current directory, with the script's environment, FILE as stdin, and
// asserts the exit code RC. Its stdout and stderr are the script's.
//
// The binary is copied where that user can run it, and the work dir's
// ancestors are made traversable; the script itself decides what the user
// may write (e.g. exec chmod -R a+rwX repo, then chmod 0444 one file).
func unpriv(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 2 {
		ts.Fatalf("usage: unpriv RC [<FILE] ARGS...")
	}
	want, err := strconv.Atoi(args[0])
	ts.Check(err)
	args = args[1:]
	var stdin []byte
	if strings.HasPrefix(args[0], "<") {
		stdin, err = os.ReadFile(ts.MkAbs(args[0][1:]))
		ts.Check(err)
		args = args[1:]
	}
	bin := unprivBinary(ts)
	var cmd *exec.Cmd
	if os.Geteuid() == 0 {
		setpriv, err := exec.LookPath("setpriv")
		if err != nil {
			ts.Fatalf("running as root and setpriv (util-linux) is missing: the permission scenarios cannot run (install util-linux)")
		}
		cmd = exec.Command(setpriv, append([]string{"--reuid=" + nobody, "--regid=" + nobody, "--clear-groups", bin}, args...)...)
	} else {
		cmd = exec.Command(bin, args...)
	}
	cmd.Dir = ts.MkAbs(".")
	for _, kv := range os.Environ() {
		name, _, _ := strings.Cut(kv, "=")
		if v := ts.Getenv(name); v != "" || name == "PATH" {
			cmd.Env = append(cmd.Env, name+"="+ts.Getenv(name))
		}
	}
	for _, name := range []string{"HOME", "ORC_STATE_DIR", "ORC_LOCK_TIMEOUT", "GIT_CONFIG_GLOBAL", "GIT_CONFIG_SYSTEM",
		"GIT_AUTHOR_NAME", "GIT_AUTHOR_EMAIL", "GIT_COMMITTER_NAME", "GIT_COMMITTER_EMAIL", "GIT_AUTHOR_DATE", "GIT_COMMITTER_DATE"} {
		cmd.Env = append(cmd.Env, name+"="+ts.Getenv(name))
	}
	// The repository belongs to root: let git, run by the other user, use
	// it, through the user's global config (the git that archives and
	// syncs clears the command line's, docs/sync.md).
	cmd.Env = append(cmd.Env, "GIT_CONFIG_GLOBAL="+filepath.Join(filepath.Dir(bin), "gitconfig"))
	cmd.Stdin = bytes.NewReader(stdin)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err = cmd.Run()
	code := 0
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		code = ee.ExitCode()
	} else if err != nil {
		ts.Fatalf("unpriv: %v", err)
	}
	ts.Stdout().Write(stdout.Bytes())
	ts.Stderr().Write(stderr.Bytes())
	if code != want {
		ts.Fatalf("orc-state %s as uid %s: exit %d, want %d\nstdout: %s\nstderr: %s", strings.Join(args, " "), nobody, code, want, stdout.String(), stderr.String())
	}
}

var unprivBin struct {
	once sync.Once
	path string
	err  error
}

// unprivBinary copies the orc-state the scripts run into a directory every
// user can enter, and opens the way to the script's work dir.
func unprivBinary(ts *testscript.TestScript) string {
	unprivBin.once.Do(func() {
		src, err := exec.LookPath("orc-state")
		if err != nil {
			unprivBin.err = err
			return
		}
		dir, err := os.MkdirTemp("", "orc-state-unpriv-")
		if err == nil {
			err = os.Chmod(dir, 0o755)
		}
		if err != nil {
			unprivBin.err = err
			return
		}
		data, err := os.ReadFile(src)
		if err != nil {
			unprivBin.err = err
			return
		}
		unprivBin.path = filepath.Join(dir, "orc-state") // the name testscript.Main dispatches on
		unprivBin.err = os.WriteFile(unprivBin.path, data, 0o755)
		if unprivBin.err == nil {
			unprivBin.err = os.WriteFile(filepath.Join(dir, "gitconfig"), []byte("[safe]\n\tdirectory = *\n"), 0o644)
		}
	})
	if unprivBin.err != nil {
		ts.Fatalf("unpriv: %v", unprivBin.err)
	}
	// Every ancestor of the work dir must be enterable by the other user.
	for p := ts.Getenv("WORK"); p != filepath.Dir(p); p = filepath.Dir(p) {
		st, err := os.Stat(p)
		ts.Check(err)
		if st.Mode().Perm()&0o001 == 0 {
			ts.Check(os.Chmod(p, st.Mode().Perm()|0o005))
		}
	}
	return unprivBin.path
}

// mounttmpfs DIR SIZE mounts a tmpfs of SIZE (e.g. 512k) at DIR for the
// rest of the script: a small disk that really fills up. Guard the script
// with [tmpfs] (root, and mount allowed); TestFaultInjection covers ENOSPC
// at every step everywhere else.
func mounttmpfs(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 {
		ts.Fatalf("usage: mounttmpfs DIR SIZE")
	}
	dir := ts.MkAbs(args[0])
	ts.Check(os.MkdirAll(dir, 0o755))
	if out, err := exec.Command("mount", "-t", "tmpfs", "-o", "size="+args[1], "tmpfs", dir).CombinedOutput(); err != nil {
		ts.Fatalf("mount tmpfs: %v: %s", err, out)
	}
	ts.Defer(func() { _ = exec.Command("umount", "-l", dir).Run() })
}

var tmpfsOK struct {
	once sync.Once
	ok   bool
}

// canMountTmpfs is the [tmpfs] condition: a tmpfs can be mounted here.
func canMountTmpfs() bool {
	tmpfsOK.once.Do(func() {
		if os.Geteuid() != 0 {
			return
		}
		dir, err := os.MkdirTemp("", "orc-tmpfs-probe-")
		if err != nil {
			return
		}
		defer os.Remove(dir)
		if exec.Command("mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", dir).Run() == nil {
			tmpfsOK.ok = exec.Command("umount", dir).Run() == nil
		}
	})
	return tmpfsOK.ok
}
