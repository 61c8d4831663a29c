// Command claude runs the pinned Claude Code client (package e2e/client),
// installing it from the npm registry into the cache dir on first use, with
// an isolated HOME and no network traffic of its own. CI uses it to
// validate the plugin:
//
//	go run ./e2e/cmd/claude plugin validate --strict .
//
// With -path it prints the binary's path instead of running it.
package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"

	"github.com/orc-state/orc-state/e2e/client"
)

func main() {
	args := os.Args[1:]
	cache, err := client.CacheDir()
	if err != nil {
		fail(err)
	}
	var log bytes.Buffer
	bin, err := client.Install(cache, client.Version, &log)
	if err != nil {
		os.Stderr.Write(log.Bytes())
		fail(err)
	}
	if len(args) == 1 && args[0] == "-path" {
		fmt.Println(bin)
		return
	}
	home, err := os.MkdirTemp("", "orc-state-claude-home-")
	if err != nil {
		fail(err)
	}
	defer os.RemoveAll(home)
	cmd := exec.Command(bin, args...)
	// No API is reachable: the base URL points at a closed loopback port.
	cmd.Env = client.Env(home, home, "http://127.0.0.1:9", "PATH="+os.Getenv("PATH"))
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	err = cmd.Run()
	if ee, ok := err.(*exec.ExitError); ok {
		os.RemoveAll(home)
		os.Exit(ee.ExitCode())
	}
	if err != nil {
		fail(err)
	}
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "claude:", err)
	os.Exit(1)
}
