package refsync

import (
	"context"
	"errors"
	"fmt"

	"github.com/orc-state/orc-state/internal/gitx"
	"github.com/orc-state/orc-state/internal/safetext"
	"github.com/orc-state/orc-state/internal/state"
)

// Push publishes each session of ids (registry sessions) on its own: one
// Result each. A session is pushed only when it has something to publish
// (local changes, or a base the remote lacks) and the remote is still
// where the base is; the push is a compare-and-swap on the remote ref, so
// a push that lost a race is rejected and reported with both heads. Local
// refs move only for the sessions the remote accepted. Warnings are for
// refs that could not be moved after a successful push, and notes for
// base refs set because they lagged.
func (s *Syncer) Push(ids []string) (results []Result, warnings []string, err error) {
	unlock, err := s.lock()
	if err != nil {
		return nil, nil, err
	}
	defer unlock()
	if err := s.fetch(); err != nil {
		return nil, nil, err
	}
	locals, err := s.readLocals(ids, true)
	if err != nil {
		return nil, nil, err
	}
	rs, err := s.refs()
	if err != nil {
		return nil, nil, err
	}
	sessions, err := s.survey(rs, ids, locals)
	if err != nil {
		return nil, nil, err
	}
	var fixes refFixes
	var sends []*session
	sent := map[string]string{} // sessionId → the commit sent
	for _, ss := range sessions {
		r, commit := s.planPush(ss, &fixes)
		results = append(results, r)
		if commit != "" {
			sends = append(sends, ss)
			sent[ss.id] = commit
		}
	}
	if len(sends) > 0 {
		rejected := s.send(sends, sent, results, &fixes)
		if len(rejected) > 0 {
			for _, r := range s.explainRejections(rejected, locals, sent) {
				set(results, r)
			}
		}
	}
	return results, s.applyFixes(fixes), nil
}

// planPush decides one session's push: its Result, and the commit to send
// when there is one (its Result is then replaced by the remote's answer).
func (s *Syncer) planPush(ss *session, fixes *refFixes) (Result, string) {
	switch {
	case ss.local == nil:
		return Result{Session: ss.id, Outcome: Failed, Detail: "no such session here"}, ""
	case ss.state == InvalidName:
		return Result{Session: ss.id, Outcome: Refused, Detail: ss.err.Error()}, ""
	case ss.err != nil:
		return Result{Session: ss.id, Outcome: Failed, Detail: ss.err.Error()}, ""
	case ss.state == InSync:
		fixes.base(ss, ss.remote)
		return Result{Session: ss.id, Outcome: UpToDate, Detail: short(ss.remote)}, ""
	case ss.state == Behind:
		fixes.base(ss, ss.effBase)
		return Result{Session: ss.id, Outcome: IsBehind, Detail: "remote " + short(ss.remote) + "; pull first"}, ""
	case ss.state == Diverged:
		return s.diverged(ss, ""), ""
	}
	// Ahead or not pushed: there is a local commit to send, unless the
	// content may not leave (nothing holding a credential is written, even
	// locally) or would be refused by every other machine.
	if reason := unpublishable(ss); reason != "" {
		return Result{Session: ss.id, Outcome: Refused, Detail: reason + "; nothing of it was pushed"}, ""
	}
	c, err := s.localCommit(ss)
	if err != nil {
		return Result{Session: ss.id, Outcome: Failed, Detail: err.Error()}, ""
	}
	return Result{Session: ss.id, Outcome: Pushed, Detail: short(c)}, c
}

// unpublishable says why a session's local content may not be published:
// it holds a credential, or a file its verbs would refuse ("" when it may).
func unpublishable(ss *session) string {
	if reason, bad := credential(ss.local); bad {
		return reason
	}
	if err := validateLocal(ss.id, ss.local); err != nil {
		var st *state.StrayError
		if errors.As(err, &st) {
			return err.Error() + fmt.Sprintf(" (no verb writes it: remove %s from the session's folder by hand, then push again)", safetext.Escape(st.Path))
		}
		return err.Error() + " (orc-state doctor says what to do)"
	}
	return ""
}

// send pushes the commits in one git push, each ref on its own, and
// returns the sessions the remote rejected. Accepted ones get their refs
// moved (added to fixes).
func (s *Syncer) send(sends []*session, sent map[string]string, results []Result, fixes *refFixes) (rejected map[string]string) {
	var updates []gitx.PushUpdate
	for _, ss := range sends {
		updates = append(updates, gitx.PushUpdate{Ref: BaseRef(ss.id), Commit: sent[ss.id], Expect: ss.remote})
	}
	var answers []gitx.PushResult
	err := s.network("push", func(ctx context.Context) (err error) {
		answers, err = s.git.Push(ctx, s.Remote, updates)
		return err
	})
	if err != nil {
		detail := "not pushed: " + err.Error()
		var silent *silentError
		if errors.As(err, &silent) { // the remote may have taken it before it went silent
			detail = err.Error() + "; whether the remote took it, the next sync shows"
		}
		for _, ss := range sends {
			set(results, Result{Session: ss.id, Outcome: Failed, Detail: detail})
		}
		return nil
	}
	rejected = map[string]string{}
	for i, a := range answers {
		ss := sends[i]
		if !a.OK {
			rejected[ss.id] = a.Reason
			continue
		}
		fixes.base(ss, sent[ss.id])
		fixes.add(gitx.RefUpdate{Name: Namespace(s.Remote) + ss.id, New: sent[ss.id]})
	}
	return rejected
}

// explainRejections fetches again and says why each rejected session was
// refused: the remote moved meanwhile (both heads named), or the remote
// itself said no (its reason).
func (s *Syncer) explainRejections(rejected map[string]string, locals map[string]gitx.Snapshot, sent map[string]string) []Result {
	ids := make([]string, 0, len(rejected))
	for id := range rejected {
		ids = append(ids, id)
	}
	var again []*session
	if err := s.fetch(); err == nil {
		if rs, err := s.refs(); err == nil {
			again, _ = s.survey(rs, ids, locals)
		}
	}
	byID := map[string]*session{}
	for _, ss := range again {
		byID[ss.id] = ss
	}
	var out []Result
	for _, id := range ids {
		ss := byID[id]
		switch {
		case ss == nil || ss.err != nil:
			out = append(out, Result{Session: id, Outcome: Rejected, Detail: rejected[id]})
		case ss.state == InSync:
			out = append(out, Result{Session: id, Outcome: UpToDate, Detail: short(ss.remote)})
		case ss.state == Diverged:
			r := s.diverged(ss, " (the remote moved during the push)")
			r.Detail = "local " + short(sent[id]) + ", remote " + short(ss.remote) + " (the remote moved during the push)"
			out = append(out, r)
		case ss.state == Behind:
			out = append(out, Result{Session: id, Outcome: IsBehind, Detail: "remote " + short(ss.remote) + "; pull first"})
		default:
			out = append(out, Result{Session: id, Outcome: Rejected, Detail: rejected[id]})
		}
	}
	return out
}

// set replaces the result of r's session.
func set(results []Result, r Result) {
	for i := range results {
		if results[i].Session == r.Session {
			results[i] = r
		}
	}
}
