package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// harness runs orc-state and git with a hermetic environment.
type harness struct {
	bin      string   // the orc-state binary
	floor    string   // the floor program
	gitFloor string   // the git floor: git status run by a static Go program
	peak     string   // the peak-RSS probe
	tmp      string   // the bench's temp dir
	env      []string // environment of every process it starts
}

func newHarness(bin, tmp string) *harness {
	home := filepath.Join(tmp, "home")
	_ = os.MkdirAll(home, 0o755)
	return &harness{bin: bin, tmp: tmp, env: hermeticEnv(home)}
}

// buildOrcState builds ./cmd/orc-state of the module the bench belongs to
// into dir, the way the README installs it: CGO_ENABLED=0 gives a static
// binary, which starts about a millisecond sooner (no dynamic loader).
func buildOrcState(dir string) (string, error) {
	root, err := moduleRoot()
	if err != nil {
		return "", err
	}
	bin := filepath.Join(dir, "orc-state")
	cmd := exec.Command("go", "build", "-o", bin, "./cmd/orc-state")
	cmd.Dir = root
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("go build ./cmd/orc-state: %v\n%s", err, out)
	}
	return bin, nil
}

// moduleRoot is the directory of the go.mod that `go env GOMOD` names.
func moduleRoot() (string, error) {
	out, err := exec.Command("go", "env", "GOMOD").Output()
	if err != nil {
		return "", fmt.Errorf("go env GOMOD: %v", err)
	}
	gomod := strings.TrimSpace(string(out))
	if gomod == "" || gomod == os.DevNull {
		return "", fmt.Errorf("run the bench inside the orc-state module (go run ./bench)")
	}
	return filepath.Dir(gomod), nil
}

// hermeticEnv drops the caller's git and orc-state settings and fixes the
// git identity, so a user's config or hooks cannot change what is timed.
func hermeticEnv(home string) []string {
	var env []string
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		if strings.HasPrefix(k, "GIT_") || strings.HasPrefix(k, "ORC_") || k == "HOME" || k == "NO_COLOR" {
			continue
		}
		env = append(env, kv)
	}
	return append(env,
		"HOME="+home,
		"GIT_CONFIG_GLOBAL=/dev/null",
		"GIT_CONFIG_SYSTEM=/dev/null",
		"GIT_CONFIG_NOSYSTEM=1",
		"GIT_AUTHOR_NAME=Orc Bench",
		"GIT_AUTHOR_EMAIL=bench@example.com",
		"GIT_COMMITTER_NAME=Orc Bench",
		"GIT_COMMITTER_EMAIL=bench@example.com",
	)
}

// orc runs orc-state in dir and fails unless it exits 0.
func (h *harness) orc(dir, stdin string, args ...string) (string, error) {
	return h.run(dir, stdin, h.bin, args...)
}

// git runs git in dir and fails unless it exits 0.
func (h *harness) git(dir string, args ...string) (string, error) {
	return h.run(dir, "", "git", args...)
}

func (h *harness) run(dir, stdin, name string, args ...string) (string, error) {
	cmd := exec.Command(name, args...)
	cmd.Dir, cmd.Env = dir, h.env
	cmd.Stdin = strings.NewReader(stdin)
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	if err := cmd.Run(); err != nil {
		return out.String(), fmt.Errorf("%s %s: %v: %s", filepath.Base(name), strings.Join(args, " "), err, strings.TrimSpace(errOut.String()))
	}
	return out.String(), nil
}

// supports reports whether orc-state has verb (its --help exits 0).
func (h *harness) supports(dir string, verb ...string) bool {
	_, err := h.orc(dir, "", append(verb, "--help")...)
	return err == nil
}
