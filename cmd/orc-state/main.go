// Command orc-state is the single writer of a repository's .orc/ workflow
// state. See the README and docs/contract for the verbs.
package main

import (
	"os"

	"github.com/orc-state/orc-state/internal/cli"
)

func main() {
	os.Exit(cli.Main(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}
