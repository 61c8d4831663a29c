package fault

import (
	"strings"

	"github.com/orc-state/orc-state/decisions"
	"github.com/orc-state/orc-state/internal/lock"
	"github.com/orc-state/orc-state/internal/safetext"
	"github.com/orc-state/orc-state/internal/schemaver"
	"github.com/orc-state/orc-state/registry"
	"github.com/orc-state/orc-state/slices"
)

// Explain returns what the user sees for err: its exit code, its message
// and a hint naming the next step ("" when none helps). The first error in
// err's tree (walked in the order errors.As walks it) that Explain knows
// decides; an error it does not know is an internal failure (exit 7), never
// an answer such as "not found".
func Explain(err error) (code int, msg, hint string) {
	if err == nil {
		return OK, "", ""
	}
	code, hint, suffix, ok := explainKnown(err)
	if !ok {
		code, hint = Internal, hintInternal
	}
	return code, err.Error() + suffix, hint
}

// Code is the exit code Explain gives err.
func Code(err error) int {
	code, _, _ := Explain(err)
	return code
}

// The hints that several errors share.
const (
	hintDoctor  = "run orc-state doctor"
	hintMigrate = "run orc-state migrate"
	hintUpgrade = "upgrade orc-state"
	hintRebuild = "orc-state repair --rebuild-registry rebuilds orc.json from each session's checkpoint and journal (the damaged file kept aside), or fix orc.json by hand, then run orc-state migrate"
	// hintInternal follows a failure orc-state has no word for.
	hintInternal = "this is not an answer: retry once the cause the message names is gone; if it stays, run orc-state doctor"
)

// registryHints is what to do about each kind of unusable orc.json.
var registryHints = map[registry.Problem]string{
	registry.Damaged:     hintDoctor,
	registry.Legacy:      hintMigrate,
	registry.Newer:       hintUpgrade,
	registry.Garbled:     hintRebuild,
	registry.NotObject:   "restore orc.json from a backup, or remove it",
	registry.BadSessions: hintRebuild,
	registry.BadEntry:    "fix that entry by hand, then " + hintMigrate,
	registry.Collision:   "remove or rename one entry by hand, then " + hintMigrate,
}

// explainKnown describes the first error of err's tree that it knows;
// suffix is added to the message.
func explainKnown(err error) (code int, hint, suffix string, ok bool) {
	switch e := err.(type) {
	case *Error:
		return e.Code, e.Hint, "", true
	case *OutputError:
		if e.ClosedPipe {
			return Internal, "", "", true
		}
		return Internal, "make room where the output goes (or send it elsewhere), then run the command again", "", true
	case *lock.TimeoutError:
		return Locked, "", "", true
	case *schemaver.InvalidError:
		return invalid(e)
	case *decisions.InputError:
		return Usage, "", "", true
	case *decisions.SettledError:
		return NotFound, "", "; pass --supersede to change it", true
	case *decisions.SettingError:
		return Invalid, "settle it again: orc-state decision set " + safetext.Quote(e.Key) + " N --provenance policy --supersede (N: the retries allowed, such as 2)", "", true
	case *slices.NotFoundError:
		if len(e.Near) > 0 {
			quoted := make([]string, len(e.Near))
			for i, id := range e.Near {
				quoted[i] = safetext.Quote(id)
			}
			return NotFound, "did you mean " + strings.Join(quoted, " or ") + "? run orc-state slice list", "", true
		}
		return NotFound, "run orc-state slice list", "", true
	case *slices.EdgeError:
		if slices.Terminal[e.From] {
			hint = "pass --force to leave a terminal status (the move is journaled)"
		}
		return Usage, hint, "", true
	case *slices.UsageError:
		return Usage, sliceUsageHint(e), "", true
	case *slices.NothingReadyError:
		return NotFound, nothingReadyHint(e), "", true
	case *slices.ClaimedError:
		return NotFound, claimedHint(e), "", true
	case *slices.NotClaimedError:
		return NotFound, "take a ready slice with orc-state slice claim", "", true
	}
	switch u := err.(type) {
	case interface{ Unwrap() error }:
		if next := u.Unwrap(); next != nil {
			return explainKnown(next)
		}
	case interface{ Unwrap() []error }:
		for _, next := range u.Unwrap() {
			if code, hint, suffix, ok = explainKnown(next); ok {
				return code, hint, suffix, true
			}
		}
	}
	return 0, "", "", false
}

// invalid is a document a format refused (every format returns the one
// schemaver.InvalidError): one the user gave is exit 2, a state-dir file
// exit 3; the hint follows the Problem (registryHints: orc.json's kinds
// include every other format's Damaged and NewerSchema).
func invalid(e *schemaver.InvalidError) (code int, hint, suffix string, ok bool) {
	code, hint = Invalid, registryHints[e.Problem]
	if e.Input {
		code, hint = Usage, "fix the plan file and run orc-state slice init again"
	}
	if e.Newer() {
		hint = hintUpgrade
	}
	return code, hint, "", true
}

// sliceUsageHint names the flag or value a refused slice update needs.
func sliceUsageHint(e *slices.UsageError) string {
	switch {
	case e.Field == "Commit" && e.Missing:
		return "pass --commit SHA"
	case e.Field == "Commit":
		return "pass a commit sha"
	case e.Field == "Note" && e.Missing:
		return "pass --note saying why"
	case e.Field == "Agent" && e.Missing:
		return "pass --agent NAME, or set ORC_ACTOR"
	case e.Field == "Agent" && e.Limit:
		return "pass a shorter --agent NAME"
	case e.Field == "Agent":
		return "pass --agent NAME"
	case e.Field == "Lease":
		return "pass --lease like 30m (renew a long task with orc-state slice renew)"
	}
	return ""
}

// nothingReadyHint says when a claim may succeed, or that it will not
// until a person acts: an escalated slice waits for a human, not for time.
func nothingReadyHint(e *slices.NothingReadyError) string {
	var escalated []string
	for _, w := range e.Waiting {
		if id, ok := strings.CutSuffix(w, " escalated"); ok {
			escalated = append(escalated, safetext.Quote(id))
		}
	}
	if r := e.Reason(); len(escalated) > 0 && (r == "blocked" || r == "waiting") {
		return "a human must act: escalated slice(s) " + strings.Join(escalated, ", ") + " used their retry budget, and retrying the claim will not change that; " +
			"a person sets each to pending or red (to try again) or to skipped with a note (orc-state slice list shows them)"
	}
	switch e.Reason() {
	case "done":
		return ""
	case "claimed":
		if t := e.Next(); !t.IsZero() {
			return "retry after " + t.Format(slices.TimeLayout) + ", when the first lease held by another agent ends"
		}
		return "finish or release your own claim (orc-state slice set, orc-state slice release)"
	case "blocked":
		return "retry when the slices they depend on are committed or skipped"
	}
	return "green slices wait for their commit, escalated ones for a human (orc-state slice list)"
}

// claimedHint names the ways past another agent's claim for the refused
// verb.
func claimedHint(e *slices.ClaimedError) string {
	switch {
	case e.Verb == "set":
		return "leave it to its holder, or pass --force to act anyway (journaled)"
	case e.Verb == "renew" && e.Expired:
		return "take it with orc-state slice claim"
	case e.Verb == "renew":
		return "it is not yours to renew; check --agent and $ORC_ACTOR"
	}
	return "only its holder releases it; pass --force to remove another agent's claim (journaled)"
}
