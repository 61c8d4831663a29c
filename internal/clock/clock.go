// Package clock holds orc-state's test hooks for time. Production code calls
// them; only test builds replace them (cmd/orc-state's test binary, from
// environment variables read there and nowhere else).
//
//   - Now is the time slice claims are judged by: when a lease ends,
//     whether a claim is live ($ORC_TEST_NOW).
//   - Stamp is the time recorded timestamps come from (the journal's at,
//     updatedAt, generatedAt, tombstones, progress headings). The
//     fault-injection test fixes it ($ORC_TEST_STAMP) so that a state
//     repaired after an interruption can be compared byte for byte with an
//     uninterrupted run; everywhere else it is the real time.
package clock

import "time"

// Now returns the current time, for claims.
var Now = time.Now

// Stamp returns the current time, for recorded timestamps.
var Stamp = time.Now
