//go:build race

package refsync_test

// raceEnabled shortens the simulation under the race detector: it is
// sequential, and CI's race run is there for in-process concurrency.
const raceEnabled = true
