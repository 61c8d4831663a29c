package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
)

// floorSource is the floor: the least a process that answers from orc.json
// can do. It starts (a static Go binary, like orc-state), reads orc.json
// and writes it to stdout (/dev/null while timed). Every row of the report
// is also given as a ratio to it, measured on the same fixture in the same
// rounds.
const floorSource = `package main

import "os"

func main() {
	data, err := os.ReadFile(".orc/orc.json")
	if err != nil {
		os.Exit(1)
	}
	os.Stdout.Write(data)
}
`

// buildFloor builds the floor program into dir/floor, statically
// (CGO_ENABLED=0), as orc-state is built.
func buildFloor(dir string) (string, error) { return buildTool(dir, "floor", floorSource) }

// gitFloorSource is the git floor: the least a tool that answers from
// git status can do. It starts (a static Go binary, like orc-state), runs
// the git status orc-state's git-bound verbs run, reads all of its output
// and exits. Over git status itself it costs one more process start and
// exec: on a slow machine that alone can pass the git-bound target.
const gitFloorSource = `package main

import (
	"io"
	"os"
	"os/exec"
)

func main() {
	cmd := exec.Command("git", "--no-optional-locks", "status", "--porcelain=v2", "--branch", "--no-ahead-behind", "-z", "--untracked-files=all")
	out, err := cmd.StdoutPipe()
	if err != nil {
		os.Exit(1)
	}
	if err := cmd.Start(); err != nil {
		os.Exit(1)
	}
	if _, err := io.Copy(os.Stdout, out); err != nil {
		os.Exit(1)
	}
	if err := cmd.Wait(); err != nil {
		os.Exit(1)
	}
}
`

// buildGitFloor builds the git floor into dir/gitfloor.
func buildGitFloor(dir string) (string, error) { return buildTool(dir, "gitfloor", gitFloorSource) }

// buildPeak builds the peak-RSS probe into dir/peak.
func buildPeak(dir string) (string, error) { return buildTool(dir, "peak", peakSource) }

func buildTool(dir, name, source string) (string, error) {
	src := filepath.Join(dir, name+"-src")
	if err := os.MkdirAll(src, 0o755); err != nil {
		return "", err
	}
	if err := os.WriteFile(filepath.Join(src, "go.mod"), []byte("module "+name+"\n\ngo 1.21\n"), 0o644); err != nil {
		return "", err
	}
	if err := os.WriteFile(filepath.Join(src, "main.go"), []byte(source), 0o644); err != nil {
		return "", err
	}
	bin := filepath.Join(dir, name)
	cmd := exec.Command("go", "build", "-o", bin, ".")
	cmd.Dir = src
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0", "GOWORK=off", "GOFLAGS=")
	if out, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("go build (%s): %v\n%s", name, err, out)
	}
	return bin, nil
}

// peakSource is the peak-RSS probe. A process started by Go's os/exec
// inherits its parent's high-water mark (the child is a vfork of the
// parent until it execs), so the bench's own resident set would show in
// every child's rusage. The probe is small: it runs its arguments, waits,
// and writes the child's ru_maxrss (KiB) to the file named first. What it
// adds to each figure is its own high-water mark, the probe row of the
// report (the probe running /bin/true).
const peakSource = `package main

import (
	"os"
	"os/exec"
	"strconv"
	"syscall"
)

func main() {
	cmd := exec.Command(os.Args[2], os.Args[3:]...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	err := cmd.Run()
	if cmd.ProcessState == nil {
		os.Exit(127)
	}
	ru := cmd.ProcessState.SysUsage().(*syscall.Rusage)
	os.WriteFile(os.Args[1], []byte(strconv.FormatInt(int64(ru.Maxrss), 10)), 0o644)
	if err != nil {
		os.Exit(cmd.ProcessState.ExitCode())
	}
}
`
