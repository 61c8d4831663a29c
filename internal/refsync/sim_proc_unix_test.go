//go:build unix

package refsync_test

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"syscall"
)

// realProcesses: this platform can start orc-state as a process of its own
// group and kill it from a git hook.
const realProcesses = true

// proc is orc-state running as a process of its own group (so that a hook
// can kill it, and what it started, without touching the test).
type proc struct {
	cmd      *exec.Cmd
	out, err bytes.Buffer
}

// start runs the test binary as orc-state in dir, as actor, with args
// (orc-state's arguments make it the CLI: clitest.Main). Its pid is
// written to pidFile (when set) for the hooks that kill it.
func start(dir, actor, pidFile string, args ...string) (*proc, error) {
	self, err := os.Executable()
	if err != nil {
		return nil, err
	}
	p := &proc{cmd: exec.Command(self, args...)}
	p.cmd.Dir = dir
	p.cmd.Env = append(os.Environ(), "ORC_ACTOR="+actor)
	p.cmd.Stdout, p.cmd.Stderr = &p.out, &p.err
	p.cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := p.cmd.Start(); err != nil {
		return nil, err
	}
	if pidFile != "" {
		tmp := pidFile + ".tmp"
		if err := os.WriteFile(tmp, []byte(strconv.Itoa(p.cmd.Process.Pid)), 0o644); err != nil {
			return nil, err
		}
		if err := os.Rename(tmp, pidFile); err != nil {
			return nil, err
		}
	}
	return p, nil
}

// wait returns the exit code, -1 when the process was killed by a signal.
func (p *proc) wait() int {
	err := p.cmd.Wait()
	var exit *exec.ExitError
	if errors.As(err, &exit) {
		if ws, ok := exit.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
			return -1
		}
		return exit.ExitCode()
	}
	if err != nil {
		return -2
	}
	return 0
}

// killAfterAcceptHook is the remote's post-receive hook of a killed push:
// the remote has moved its refs; the pushing orc-state (its pid in the
// file the hook names) and its process group die before it can move its
// own, and so does the hook's own group (git push, receive-pack).
func killAfterAcceptHook(pidFile string) string {
	return `#!/bin/sh
i=0
while [ ! -s ` + shq(pidFile) + ` ] && [ $i -lt 200 ]; do sleep 0.05; i=$((i+1)); done
pid=$(cat ` + shq(pidFile) + `)
[ -n "$pid" ] && [ "$pid" != "$ORC_SIM_TEST_PID" ] || exit 0
kill -9 -"$pid"
own=$(cut -d' ' -f5 /proc/$$/stat)
[ "$own" != "$ORC_SIM_TEST_PGID" ] && kill -9 -"$own"
exit 0
`
}

// killBeforeSendHook is a machine's pre-push hook of a push killed before
// the remote gets anything: it kills the pushing orc-state's group, then
// refuses, so git push sends nothing.
func killBeforeSendHook(pidFile string) string {
	return `#!/bin/sh
i=0
while [ ! -s ` + shq(pidFile) + ` ] && [ $i -lt 200 ]; do sleep 0.05; i=$((i+1)); done
pid=$(cat ` + shq(pidFile) + `)
[ -n "$pid" ] && [ "$pid" != "$ORC_SIM_TEST_PID" ] && kill -9 -"$pid"
exit 1
`
}

// refHook is a machine's reference-transaction hook that stops the first
// transaction updating a session base (refs/orc/sessions/*) in its
// prepared state, while the file arm exists: with kill, the orc-state
// whose pid is in pidFile is killed first (a process stopped between its
// import, or the remote's acceptance, and its ref move); the transaction
// is refused either way, so git leaves the refs as they were.
func refHook(arm, pidFile string, kill bool) string {
	killing := ""
	if kill {
		killing = `pid=$(cat ` + shq(pidFile) + ` 2>/dev/null)
[ -n "$pid" ] && [ "$pid" != "$ORC_SIM_TEST_PID" ] && kill -9 "$pid"
`
	}
	return `#!/bin/sh
[ "$1" = prepared ] && [ -e ` + shq(arm) + ` ] || exit 0
hit=
while read -r old new ref; do
	case "$ref" in refs/orc/sessions/*) hit=1 ;; esac
done
[ -n "$hit" ] || exit 0
rm -f ` + shq(arm) + `
` + killing + `echo "refusing the base update" >&2
exit 1
`
}

// holdHook is the remote's post-receive hook of a silent remote: it keeps
// the connection open far longer than the push's timeout.
const holdHook = "#!/bin/sh\nsleep 60\n"

// installHook writes an executable hook.
func installHook(dir, name, script string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, name), []byte(script), 0o755)
}

// testProcessIDs are the test's pid and process group, which the hooks
// never kill.
func testProcessIDs() []string {
	pgid, _ := syscall.Getpgid(os.Getpid())
	return []string{"ORC_SIM_TEST_PID=" + strconv.Itoa(os.Getpid()), "ORC_SIM_TEST_PGID=" + strconv.Itoa(pgid)}
}

func shq(s string) string {
	return "'" + string(bytes.ReplaceAll([]byte(s), []byte("'"), []byte(`'\''`))) + "'"
}
