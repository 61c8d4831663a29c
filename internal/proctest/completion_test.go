package proctest

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/orc-state/orc-state/internal/clitest"
)

// TestCompletionShells loads `orc-state completion <shell>` into each shell
// that is installed and asks the shell itself to complete, verbs, enum
// values and the state's data (a sessionId, a slice id): fish through
// `complete -C`, bash and zsh by pressing Tab in an interactive shell under
// tmux (without tmux, the registration the script made). A shell that is
// not installed is skipped; completion_script.txtar pins every script's text.
func TestCompletionShells(t *testing.T) {
	// A repository whose state the data predictors read: the session of
	// feat/checkout-retry, with slices 1 and auth-api, checked out on main.
	r := clitest.NewRig(t, "git")
	r.Git("checkout", "-q", "-b", "feat/checkout-retry")
	r.MustOrc("", "init", "--command", "flow", "--total-phases", "3")
	r.MustOrc(`{"slices": [{"id": 1}, {"id": "auth-api"}]}`, "slice", "init", "-")
	r.Git("checkout", "-q", "main")
	repo := r.Dir
	// orc-state by that name first on $PATH, the shells' home an empty dir
	// of its own.
	dir := t.TempDir()
	binDir := filepath.Join(dir, "bin")
	if err := os.MkdirAll(binDir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(clitest.Binary(t), filepath.Join(binDir, "orc-state")); err != nil {
		t.Fatal(err)
	}
	home := filepath.Join(dir, "home")
	if err := os.MkdirAll(home, 0o755); err != nil {
		t.Fatal(err)
	}
	env := r.Env.With("HOME="+home, "PATH="+binDir+string(os.PathListSeparator)+os.Getenv("PATH"))

	t.Run("fish", func(t *testing.T) {
		fish := lookShell(t, "fish")
		cmd := exec.Command(fish, "--no-config", "-c", `orc-state completion fish | source
complete -C"orc-state sl"
echo ---
complete -C"orc-state slice list --status "
echo ---
complete -C"orc-state resume fe"
echo ---
complete -C"orc-state slice set --branch feat/checkout-retry au"`)
		cmd.Env, cmd.Dir = env, repo
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("fish: %v\n%s", err, out)
		}
		parts := strings.Split(string(out), "---\n")
		if len(parts) != 4 {
			t.Fatalf("fish printed %q", out)
		}
		if strings.TrimSpace(parts[0]) != "slice" {
			t.Errorf("fish completes %q to %q, want slice", "orc-state sl", parts[0])
		}
		got := strings.Fields(parts[1])
		slices.Sort(got)
		if strings.Join(got, " ") != "committed escalated green pending red skipped" {
			t.Errorf("fish completes --status to %q, want the slice statuses:\n%s", got, out)
		}
		if strings.TrimSpace(parts[2]) != "feat-checkout-retry" || strings.TrimSpace(parts[3]) != "auth-api" {
			t.Errorf("fish completes the session and the slice to %q and %q, want feat-checkout-retry and auth-api", parts[2], parts[3])
		}
	})

	t.Run("bash", func(t *testing.T) {
		bash := lookShell(t, "bash")
		setup := []string{`eval "$(orc-state completion bash)"`}
		if tm := newTmux(t, env, bash+" --norc --noprofile -i"); tm != nil {
			tm.completes(t, setup, "orc-state sl", "$ orc-state slice")
			newTmux(t, env, bash+" --norc --noprofile -i").completes(t, setup, "orc-state slice list --status ", "escalated")
			inRepo := append([]string{"cd " + repo}, setup...)
			newTmux(t, env, bash+" --norc --noprofile -i").completes(t, inRepo, "orc-state resume fe", "$ orc-state resume feat-checkout-retry")
			return
		}
		cmd := exec.Command(bash, "--norc", "--noprofile", "-c", setup[0]+"\ncomplete -p orc-state")
		cmd.Env = env
		out, err := cmd.CombinedOutput()
		if err != nil || !strings.Contains(string(out), "-C 'orc-state' orc-state") && !strings.Contains(string(out), "-C orc-state orc-state") {
			t.Errorf("bash did not register the completer: %v\n%s", err, out)
		}
	})

	t.Run("zsh", func(t *testing.T) {
		zsh := lookShell(t, "zsh")
		setup := []string{"autoload -U compinit; compinit -u", `eval "$(orc-state completion zsh)"`}
		if tm := newTmux(t, env, zsh+" -f -i"); tm != nil {
			tm.completes(t, setup, "orc-state sl", "$ orc-state slice")
			newTmux(t, env, zsh+" -f -i").completes(t, setup, "orc-state slice list --status ", "escalated")
			inRepo := append([]string{"cd " + repo}, setup...)
			newTmux(t, env, zsh+" -f -i").completes(t, inRepo, "orc-state slice set --branch feat/checkout-retry au", "$ orc-state slice set --branch feat/checkout-retry auth-api")
			return
		}
		cmd := exec.Command(zsh, "-f", "-c", strings.Join(setup, "\n")+"\nprint -r -- ${_comps[orc-state]}")
		cmd.Env = env
		out, err := cmd.CombinedOutput()
		if err != nil || !strings.Contains(string(out), "_bash_complete -o default -C orc-state") {
			t.Errorf("zsh did not register the completer: %v\n%s", err, out)
		}
	})
}

func lookShell(t *testing.T, name string) string {
	t.Helper()
	p, err := exec.LookPath(name)
	if err != nil {
		t.Skipf("%s is not installed; completion_script.txtar checks its script's text", name)
	}
	return p
}

// tmuxShell is an interactive shell in a private tmux server.
type tmuxShell struct {
	cmd func(args ...string) *exec.Cmd
}

// newTmux starts shell in a private tmux server, or returns nil when tmux
// is missing or cannot start here.
func newTmux(t *testing.T, env []string, shell string) *tmuxShell {
	t.Helper()
	tmux, err := exec.LookPath("tmux")
	if err != nil {
		t.Log("no tmux: checking the registration only")
		return nil
	}
	sock, err := os.MkdirTemp("", "orccomp")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(sock) })
	base := []string{"-u", "-S", filepath.Join(sock, "tmux"), "-f", "/dev/null"}
	tm := &tmuxShell{cmd: func(args ...string) *exec.Cmd {
		c := exec.Command(tmux, append(append([]string{}, base...), args...)...)
		c.Env = append(append([]string{}, env...), "TERM=xterm-256color")
		return c
	}}
	if out, err := tm.cmd("new-session", "-d", "-x", "160", "-y", "20", "-s", "orc", "env PS1='$ ' "+shell).CombinedOutput(); err != nil {
		t.Logf("tmux cannot start a session here (%v: %s): checking the registration only", err, strings.TrimSpace(string(out)))
		return nil
	}
	// One shell per server; wait for its prompt (capture-pane drops trailing blanks).
	t.Cleanup(func() { tm.cmd("kill-server").Run() })
	tm.waitFor(t, "$")
	return tm
}

// completes runs the setup lines, types line, presses Tab (twice, for a
// list), and waits for want on the screen.
func (tm *tmuxShell) completes(t *testing.T, setup []string, line, want string) {
	t.Helper()
	for i, s := range setup {
		// The marker as printed differs from the marker as typed.
		tm.cmd("send-keys", "-t", "orc", s+fmt.Sprintf("; printf '%%s-%%d\\n' setup-done %d", i), "Enter").Run()
		tm.waitFor(t, fmt.Sprintf("setup-done-%d\n", i))
	}
	tm.cmd("send-keys", "-t", "orc", "C-u", line, "Tab").Run()
	time.Sleep(300 * time.Millisecond)
	tm.cmd("send-keys", "-t", "orc", "Tab").Run()
	tm.waitFor(t, want)
}

func (tm *tmuxShell) waitFor(t *testing.T, want string) {
	t.Helper()
	deadline := time.Now().Add(15 * time.Second)
	for {
		out, _ := tm.cmd("capture-pane", "-p", "-t", "orc").Output()
		if strings.Contains(string(out), want) {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("the shell never showed %q; screen:\n%s", want, out)
		}
		time.Sleep(50 * time.Millisecond)
	}
}
