// Package proctest holds the tests of orc-state as real processes, where
// the process boundary is what is tested: writers and claims racing from
// many processes, processes killed at random points, a soak of many
// writers, a held lock, and shell completion asked of real shells. Its
// test binary doubles as orc-state (clitest.Main); the tests that can run
// the CLI in process are in cmd/orc-state. It has no code of its own.
package proctest
