// Package clock is the time that slice claims are judged by: when a lease
// ends, whether a claim is live. It is orc-state's one test hook for time.
// Production code calls Now; only test builds replace it
// (cmd/orc-state/main_test.go sets a fixed time from $ORC_TEST_NOW, read
// there and nowhere else). Timestamps that record when something happened
// (the journal's at, updatedAt, generatedAt) always use the real time.
package clock

import "time"

// Now returns the current time.
var Now = time.Now
