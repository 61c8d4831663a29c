package clitest

import "testing"

// TestMain runs this package's own tests (the in-process runner's) in a
// binary that doubles as orc-state, as every scenario package's does.
func TestMain(m *testing.M) { Main(m) }
