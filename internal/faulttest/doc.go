// Package faulttest holds the fault-injection test of the CLI's
// mutations (fault_test.go, docs/reliability.md): every file-system step
// of every verb fails once, and the state must roll back whole or be
// finished by repair. Its test binary doubles as orc-state (clitest.Main)
// for the uninterrupted runs that log their steps; the faulted runs are
// the CLI in this process, routed by the fault hook its TestMain installs.
// It has no code of its own.
package faulttest
