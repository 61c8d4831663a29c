// Package clock holds orc-state's one test hook for recorded time. Stamp is
// the time recorded timestamps come from (the journal's at, updatedAt,
// generatedAt, tombstones, progress headings). Production code calls it;
// only a test binary replaces it, at start-up: the fault-injection test's
// child processes fix it ($ORC_TEST_STAMP, read in cmd/orc-state's test
// binary and nowhere else) so that a state repaired after an interruption
// can be compared byte for byte with an uninterrupted run; everywhere else
// it is the real time. The time slice claims are judged by is not here: it
// is the run's own (cli.Process.Now).
package clock

import "time"

// Stamp returns the current time, for recorded timestamps.
var Stamp = time.Now
