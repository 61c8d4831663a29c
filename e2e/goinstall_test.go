//go:build e2e

package e2e

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/orc-state/orc-state/internal/version"
)

// TestGoInstallAtAVersion installs orc-state the way a user does,
// `go install github.com/orc-state/orc-state/cmd/orc-state@VERSION`, from a
// module proxy made of files: this repository's HEAD as a tagged version
// and as a pseudo-version, every dependency from this machine's module
// cache. `orc-state version` must report the module version, and the
// revision a pseudo-version names.
func TestGoInstallAtAVersion(t *testing.T) {
	start := time.Now()
	root, _ := filepath.Abs("..")
	head := strings.TrimSpace(run(t, root, nil, "git", "rev-parse", "HEAD"))
	modcache := strings.TrimSpace(run(t, root, nil, "go", "env", "GOMODCACHE"))

	tmp := t.TempDir()
	proxy := filepath.Join(tmp, "proxy")
	dir := filepath.Join(proxy, "github.com", "orc-state", "orc-state", "@v")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	tagged := "v" + version.Release()
	pseudo := "v" + version.Release() + "-0.20261201000000-" + head[:12]
	gomod, err := os.ReadFile(filepath.Join(root, "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	// A module zip is the tree under the prefix module@version/, less the
	// folders that hold a module of their own (tools/release), as the go
	// command leaves them out of a module's zip.
	paths := []string{"HEAD", "--", "."}
	for _, mod := range strings.Fields(run(t, root, nil, "git", "ls-files", "--", "*/go.mod")) {
		paths = append(paths, ":(exclude)"+filepath.ToSlash(filepath.Dir(mod)))
	}
	var list []string
	for _, v := range []string{tagged, pseudo} {
		run(t, root, nil, "git", append([]string{"archive", "--format=zip", "--prefix=github.com/orc-state/orc-state@" + v + "/",
			"-o", filepath.Join(dir, v+".zip")}, paths...)...)
		os.WriteFile(filepath.Join(dir, v+".mod"), gomod, 0o644)
		os.WriteFile(filepath.Join(dir, v+".info"), []byte(`{"Version":"`+v+`","Time":"2026-12-01T00:00:00Z"}`), 0o644)
		list = append(list, v)
	}
	os.WriteFile(filepath.Join(dir, "list"), []byte(strings.Join(list, "\n")+"\n"), 0o644)

	env := append(os.Environ(),
		"GOPROXY=file://"+filepath.ToSlash(proxy)+",file://"+filepath.ToSlash(filepath.Join(modcache, "cache", "download")),
		"GOSUMDB=off", "GOFLAGS=-mod=mod", "GOTOOLCHAIN=local", "CGO_ENABLED=0",
		"GOMODCACHE="+filepath.Join(tmp, "modcache"), "GOPATH="+filepath.Join(tmp, "gopath"))
	t.Cleanup(func() {
		// The module cache is read-only; let TempDir remove it.
		exec.Command("chmod", "-R", "u+w", filepath.Join(tmp, "modcache")).Run()
	})
	for _, tc := range []struct {
		version, want string
	}{
		{tagged, "orc-state " + version.Release() + " (module " + tagged + "; go"},
		{pseudo, "orc-state " + version.Release() + " (module " + pseudo + "; revision " + head[:12] + "; go"},
	} {
		gobin := filepath.Join(tmp, "bin-"+tc.version)
		run(t, tmp, append(env, "GOBIN="+gobin), "go", "install", "github.com/orc-state/orc-state/cmd/orc-state@"+tc.version)
		got := run(t, tmp, nil, filepath.Join(gobin, "orc-state"), "version")
		if !strings.HasPrefix(got, tc.want) {
			t.Errorf("go install …@%s: orc-state version printed %q, want it to start with %q", tc.version, got, tc.want)
		}
	}
	t.Logf("two go installs in %v", time.Since(start).Round(time.Millisecond))
}

func run(t *testing.T, dir string, env []string, name string, args ...string) string {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	if env != nil {
		cmd.Env = env
	}
	out, err := cmd.Output()
	if err != nil {
		stderr := ""
		if ee, ok := err.(*exec.ExitError); ok {
			stderr = string(ee.Stderr)
		}
		t.Fatalf("%s %s: %v\n%s%s", name, strings.Join(args, " "), err, out, stderr)
	}
	return string(out)
}
