//go:build !race

package refsync_test

const raceEnabled = false
