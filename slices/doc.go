// Package slices owns the format of .orc/<sessionId>/files/slices.json, the
// slice ledger (schema 1), and the status machine of its slices.
//
// Folder and package share the name the design card gives them. A file that
// also needs the standard library's slices package imports that one as
// stdslices, so slices.Parse, slices.Readiness and so on always mean this
// package.
//
// Everything here is a pure function over bytes: no file I/O, no git, no
// lock. The caller (package internal/state) locks, reads, calls Parse and
// Set, writes Marshal's output atomically and journals the change.
//
// # Format
//
//	{"schema": 1, "planPath": "...", "planSha256": "...",
//	 "slices": [{"id": 1, "title": "...", "repo": "...", "estLoc": 120,
//	             "shipsAsStack": false, "parallelGroup": 1, "dependsOn": [],
//	             "touchpoints": ["a.go", "a_test.go"], "acceptance": ["...", "..."],
//	             "status": "pending", "commit": "...", "actualLoc": 130, "note": "...",
//	             "claimedBy": "agent:a", "claimedUntil": "2026-01-02T15:04:05Z"}]}
//
// The planner owns the plan. Parse validates only the fields with a meaning
// here and keeps every member of the top level and of each slice as its
// original key and value bytes, in order. Set replaces or appends only the
// tool-owned keys (status, commit, commitVerified, actualLoc, note,
// attempts, commitHistory), Claim, Renew and Release only claimedBy and claimedUntil;
// Marshal lays the objects out one member per line with a
// 2-space indent and writes every other value byte-for-byte. Unknown fields,
// top-level or per slice, therefore survive any number of Set calls.
//
// Validation (a fault is an *InvalidError, with Input set from ParseInput,
// which slice init uses for the user's file):
//   - the input is one JSON object, valid UTF-8, without duplicate keys at
//     any depth; schema, if present and not null, is 1 (above 1: an
//     InvalidError with Newer set); planPath and planSha256 are strings;
//     slices is an array of objects;
//   - id is required: an integer literal or a non-empty one-line string,
//     compared as a string (1 and "1" are the same id, so both at once are a
//     duplicate); ids are unique;
//   - status is one of Statuses (absent or null means pending); commit is 7
//     to 64 hex digits; commitVerified is a boolean; actualLoc and attempts
//     are non-negative integers; title, repo and note are strings;
//     touchpoints and acceptance are arrays of strings; estLoc is a
//     non-negative number; shipsAsStack is a boolean; parallelGroup is an
//     integer or a string; claimedBy is a non-empty one-line string and
//     claimedUntil a UTC time in TimeLayout, both present or both absent;
//     commitHistory is an array of objects with commit and supersededAt
//     (TimeLayout), optionally commitVerified (false) and actualLoc, and
//     nothing else;
//   - dependsOn is an array of ids of other slices, and the graph has no
//     cycle (the fault names the path, "dependsOn cycle: 1 → 2 → 1").
//
// null counts as absent for every optional field.
//
// # Status machine
//
// Edges, Terminal and Requires are the machine as data; Set enforces them
// and MachineMarkdown renders them into docs/slices-machine.md (a test
// fails when the two drift apart). Setting the current status again changes
// no status and counts no attempt, but still records a differing commit,
// actualLoc or note: a retried call converges. Leaving committed or skipped
// needs Update.Force, which allows any target and sets Result.Forced so the
// caller journals it; Force makes no other edge legal.
//
// # Retry budget
//
// attempts counts entries into red (pending → red is attempt 1; each later
// green → red or escalated → red counts again). The budget N is the number
// of retries after the first attempt: entries 1 to N+1 enter red, and the
// entry that would make attempts N+2 sets the slice to escalated instead,
// with the note "retry budget exhausted (N+1 attempts: the first and N
// retries)", leaves attempts at N+1 and sets Result.Escalated (the CLI
// exits 5). N is Update.MaxRetries, the decision maxRetriesPerSlice: 0
// means DefaultMaxRetries (2); a negative value means no retry (the CLI
// passes a settled 0 that way): the slice enters red once and escalates on
// its first retry. With the default: red, red, red, then escalated on the
// fourth entry. Leaving escalated, or a forced move out of a terminal
// status, is a human's decision and starts a fresh budget (attempts
// restarts at 0, so escalated → red is attempt 1).
//
// # Commits
//
// A commit is stored lowercase. When the caller could not resolve it in the
// repository (Update.CommitVerified false) the slice also gets
// "commitVerified": false and Result.Warnings says so; a verified commit
// removes that key, so a verified slice carries no extra field. A commit
// is current only while its slice is committed: leaving committed (a
// forced reopen), or a different commit replacing it, moves it with its
// commitVerified and actualLoc to a new last entry of commitHistory
// (supersededAt: Update.Now) and sets Result.Retired.
//
// # Claims
//
// Several agents can work one ledger in parallel (claim.go). Claim gives
// an agent the first ready slice in ledger order (status pending or red,
// every dependency committed or skipped, no live claim) and records
// claimedBy and claimedUntil (now plus the lease, rounded up to a second).
// A claim is live while now is before claimedUntil; an expired claim is
// taken by the next Claim. Renew moves the holder's lease; Release removes
// a claim (another agent's only with force). Set refuses a slice another
// agent holds a live claim on (*ClaimedError, exit 1) unless Update.Force,
// and a slice reaching committed, skipped or escalated loses its claim. A
// slice nobody claims is settable by anyone, so callers that never claim
// work as before. Every function takes now: the caller owns the clock.
// ClaimProblems lists what verify reports (a claim left on a closed slice,
// an expired claim, a lease longer than any claim asks for); Count gives a statusline done, total and claimed
// without validating.
//
// # Readiness
//
// Readiness runs the checks of slice verify and returns the rows of
// readiness.json; see its documentation for the verdict rule.
package slices
