package slices

import (
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/orc-state/orc-state/internal/textin"
)

// Claims let several agents work one ledger in parallel without taking the
// same slice twice (docs/protocol.md §7). A claim is the pair claimedBy (the
// agent) and claimedUntil (the end of its lease, TimeLayout) on one slice.
// It is live while now is before claimedUntil; an expired claim is no
// claim for Claim and Set, but stays recorded until it is taken, released
// or its slice is closed.

// DefaultLease is the lease of a claim when the caller names none.
const DefaultLease = 30 * time.Minute

// MinLease and MaxLease bound a lease. claimedUntil has whole seconds, so
// a shorter lease would mean nothing; a longer one would let a dead agent
// hold a slice for days (renew instead).
const (
	MinLease = time.Second
	MaxLease = 24 * time.Hour
)

// MaxAgent bounds an agent id given to Claim, Renew, Release or Set, in
// bytes (a worktree path is the longest default).
const MaxAgent = 1024

// TimeLayout is the format of claimedUntil: UTC, whole seconds (the
// registry's updatedAt format).
const TimeLayout = "2006-01-02T15:04:05Z"

// Closing statuses end a claim: Set removes the claim of a slice that
// reaches one of them.
var Closing = map[string]bool{"committed": true, "skipped": true, "escalated": true}

// Claimable statuses are the ones Claim may hand out.
var Claimable = map[string]bool{"pending": true, "red": true}

// Live reports whether s carries a claim whose lease has not ended at now.
func (s Slice) Live(now time.Time) bool {
	return s.ClaimedBy != "" && now.Before(s.ClaimedUntil)
}

// ClaimResult says what Claim, Renew or Release did.
type ClaimResult struct {
	ID      string    // the slice
	Agent   string    // who holds it now ("" after Release)
	Until   time.Time // the new end of the lease (zero after Release)
	Took    string    // the previous holder whose claim was replaced or removed; "" if none
	Lapsed  bool      // Renew: the caller's own lease had already ended
	Changed bool      // false when the ledger is byte-for-byte unchanged
}

// CheckAgent refuses an agent id that cannot be recorded: empty, not one
// line (textin.SingleLine: not UTF-8, a line break or another control
// character), or over MaxAgent bytes.
func CheckAgent(agent string) error {
	if agent == "" {
		return &UsageError{Fault: "the agent id is empty", Field: "Agent", Missing: true}
	}
	if err := textin.SingleLine("the agent id", agent); err != nil {
		return &UsageError{Fault: err.Error(), Field: "Agent"}
	}
	if len(agent) > MaxAgent {
		return &UsageError{Fault: fmt.Sprintf("the agent id is %d bytes; the limit is %d", len(agent), MaxAgent), Field: "Agent", Limit: true}
	}
	return nil
}

// CheckLease refuses a lease outside MinLease..MaxLease.
func CheckLease(lease time.Duration) error {
	if lease < MinLease || lease > MaxLease {
		return &UsageError{Fault: fmt.Sprintf("lease %s is outside %s..%s", lease, MinLease, MaxLease), Field: "Lease"}
	}
	return nil
}

// leaseEnd is now plus lease, rounded up to a whole second so that a lease
// is never shorter than asked.
func leaseEnd(now time.Time, lease time.Duration) time.Time {
	t := now.Add(lease).UTC()
	if r := t.Truncate(time.Second); !r.Equal(t) {
		t = r.Add(time.Second)
	}
	return t
}

// Claim gives agent the first slice, in ledger order, that is ready: its
// status is pending or red, every slice it depends on is committed or
// skipped, and it carries no live claim (an expired one, anybody's, is
// replaced and named in Took). The claim lasts lease from now. When no
// slice is ready the error is a *NothingReadyError saying why. An agent
// that already holds a live claim gets another slice: each call takes a
// new one.
func (l *Ledger) Claim(agent string, now time.Time, lease time.Duration) (ClaimResult, error) {
	if err := CheckAgent(agent); err != nil {
		return ClaimResult{}, err
	}
	if err := CheckLease(lease); err != nil {
		return ClaimResult{}, err
	}
	for i := range l.slices {
		e := &l.slices[i]
		if !Claimable[e.view.Status] || e.view.Live(now) || len(l.waitsOn(e.view)) > 0 {
			continue
		}
		r := ClaimResult{ID: e.view.ID, Agent: agent, Until: leaseEnd(now, lease), Took: e.view.ClaimedBy}
		l.setClaim(e, agent, r.Until)
		r.Changed = true
		return r, nil
	}
	return ClaimResult{}, l.nothingReady(agent, now)
}

// Renew moves the end of agent's claim on slice id to lease from now (a
// shorter lease shortens it). A claim of agent's that already expired is
// renewed too, with Lapsed set, since nobody took it meanwhile. Errors:
// *NotFoundError, *NotClaimedError when nobody claims the slice,
// *ClaimedError when another agent does (live or expired).
func (l *Ledger) Renew(id, agent string, now time.Time, lease time.Duration) (ClaimResult, error) {
	if err := CheckAgent(agent); err != nil {
		return ClaimResult{}, err
	}
	if err := CheckLease(lease); err != nil {
		return ClaimResult{}, err
	}
	e := l.find(id)
	switch {
	case e == nil:
		return ClaimResult{}, l.notFound(id)
	case e.view.ClaimedBy == "":
		return ClaimResult{}, &NotClaimedError{ID: id, Status: e.view.Status}
	case e.view.ClaimedBy != agent:
		return ClaimResult{}, claimedError(e.view, now, "renew")
	}
	r := ClaimResult{ID: id, Agent: agent, Until: leaseEnd(now, lease), Lapsed: !e.view.Live(now)}
	r.Changed = !r.Until.Equal(e.view.ClaimedUntil)
	l.setClaim(e, agent, r.Until)
	return r, nil
}

// Release removes agent's claim on slice id, live or expired. A slice
// nobody claims is left as it is (Changed false): a repeated release
// converges. Another agent's claim, live or expired, is removed only with
// force, and Took names that agent. Errors: *NotFoundError, *ClaimedError.
func (l *Ledger) Release(id, agent string, now time.Time, force bool) (ClaimResult, error) {
	if err := CheckAgent(agent); err != nil {
		return ClaimResult{}, err
	}
	e := l.find(id)
	switch {
	case e == nil:
		return ClaimResult{}, l.notFound(id)
	case e.view.ClaimedBy == "":
		return ClaimResult{ID: id}, nil
	case e.view.ClaimedBy != agent && !force:
		return ClaimResult{}, claimedError(e.view, now, "release")
	}
	r := ClaimResult{ID: id, Changed: true}
	if e.view.ClaimedBy != agent {
		r.Took = e.view.ClaimedBy
	}
	l.dropClaim(e)
	return r, nil
}

// setClaim records a claim on e (the keys are appended when absent).
func (l *Ledger) setClaim(e *entry, agent string, until time.Time) {
	obj := e.obj.clone()
	obj.set("claimedBy", encode(agent))
	obj.set("claimedUntil", encode(until.Format(TimeLayout)))
	e.obj = obj
	e.view.ClaimedBy, e.view.ClaimedUntil = agent, until
}

// dropClaim removes e's claim keys.
func (l *Ledger) dropClaim(e *entry) {
	obj := e.obj.clone()
	obj.del("claimedBy")
	obj.del("claimedUntil")
	e.obj = obj
	e.view.ClaimedBy, e.view.ClaimedUntil = "", time.Time{}
}

// waitsOn returns the dependencies of s that are not finished.
func (l *Ledger) waitsOn(s Slice) []string {
	var out []string
	for _, d := range s.DependsOn {
		if dep := l.find(d); dep == nil || !Finished[dep.view.Status] {
			out = append(out, d)
		}
	}
	return out
}

// A Holding is one live claim: the slice, its holder and the lease's end.
type Holding struct {
	ID    string
	By    string
	Until time.Time
}

// Holdings returns the live claims at now, in ledger order.
func (l *Ledger) Holdings(now time.Time) []Holding {
	var out []Holding
	for _, e := range l.slices {
		if e.view.Live(now) {
			out = append(out, Holding{e.view.ID, e.view.ClaimedBy, e.view.ClaimedUntil})
		}
	}
	return out
}

// nothingReady explains why Claim found nothing.
func (l *Ledger) nothingReady(agent string, now time.Time) *NothingReadyError {
	n := &NothingReadyError{Agent: agent}
	n.Done, n.Total = l.Done()
	for _, e := range l.slices {
		s := e.view
		switch {
		case Finished[s.Status]:
		case s.Live(now):
			n.Claimed = append(n.Claimed, Holding{s.ID, s.ClaimedBy, s.ClaimedUntil})
		case !Claimable[s.Status]:
			n.Waiting = append(n.Waiting, s.ID+" "+s.Status)
		default:
			n.Blocked = append(n.Blocked, s.ID)
		}
	}
	return n
}

// NothingReadyError is a Claim with no ready slice. The message
// says whether everything is done, or which slices are claimed (by whom,
// until when), blocked by dependencies, or waiting (green, escalated).
type NothingReadyError struct {
	Agent       string
	Done, Total int
	Claimed     []Holding // live claims on open slices, in ledger order
	Blocked     []string  // pending or red slices waiting on dependencies
	Waiting     []string  // "id status" of green and escalated slices
}

// Reason is the first of done, claimed, blocked, waiting that applies.
func (e *NothingReadyError) Reason() string {
	switch {
	case e.Done == e.Total:
		return "done"
	case len(e.Claimed) > 0:
		return "claimed"
	case len(e.Blocked) > 0:
		return "blocked"
	}
	return "waiting"
}

// Next is the earliest end of a lease held by another agent (zero when
// none): the moment a retry may succeed.
func (e *NothingReadyError) Next() time.Time {
	var t time.Time
	for _, h := range e.Claimed {
		if h.By != e.Agent && (t.IsZero() || h.Until.Before(t)) {
			t = h.Until
		}
	}
	return t
}

func (e *NothingReadyError) Error() string {
	if e.Reason() == "done" {
		if e.Total == 0 {
			return "nothing to claim: the ledger has no slices"
		}
		return fmt.Sprintf("nothing to claim: all %d slices are done", e.Total)
	}
	var parts []string
	var mine, others []string
	for _, h := range e.Claimed {
		s := fmt.Sprintf("%s until %s", h.ID, h.Until.Format(TimeLayout))
		if h.By == e.Agent {
			mine = append(mine, s)
		} else {
			others = append(others, fmt.Sprintf("%s by %s until %s", h.ID, h.By, h.Until.Format(TimeLayout)))
		}
	}
	if len(others) > 0 {
		parts = append(parts, "claimed by others: "+listed(others))
	}
	if len(mine) > 0 {
		parts = append(parts, "claimed by you: "+listed(mine))
	}
	if len(e.Blocked) > 0 {
		parts = append(parts, "blocked by dependencies: "+listed(e.Blocked))
	}
	if len(e.Waiting) > 0 {
		parts = append(parts, "not claimable: "+listed(e.Waiting))
	}
	return fmt.Sprintf("nothing to claim (%d of %d slices done); %s", e.Done, e.Total, strings.Join(parts, "; "))
}

// listed joins at most 5 items and counts the rest.
func listed(items []string) string {
	if len(items) > 5 {
		return strings.Join(items[:5], ", ") + fmt.Sprintf(" (+%d more)", len(items)-5)
	}
	return strings.Join(items, ", ")
}

// ClaimedError is a slice another agent claims. It names the
// holder and when the lease ends (or ended).
type ClaimedError struct {
	ID, By, Verb string
	Until        time.Time
	Expired      bool
}

func claimedError(s Slice, now time.Time, verb string) *ClaimedError {
	return &ClaimedError{ID: s.ID, By: s.ClaimedBy, Until: s.ClaimedUntil, Expired: !s.Live(now), Verb: verb}
}

func (e *ClaimedError) Error() string {
	if e.Expired {
		return fmt.Sprintf("slice %s is claimed by %s, whose lease ended at %s", e.ID, e.By, e.Until.Format(TimeLayout))
	}
	return fmt.Sprintf("slice %s is claimed by %s until %s", e.ID, e.By, e.Until.Format(TimeLayout))
}

// NotClaimedError is a renew of a slice nobody claims.
type NotClaimedError struct{ ID, Status string }

func (e *NotClaimedError) Error() string {
	return fmt.Sprintf("slice %s (%s) is not claimed; there is no lease to renew", e.ID, e.Status)
}

// A ClaimProblem is a claim verify reports: Code is claim.closed (a
// committed, skipped or escalated slice still claimed, which no verb
// leaves behind), claim.expired (an open slice whose lease ended: its
// agent likely stopped) or claim.too-long (a lease ending more than
// MaxLease from now, which no claim asks for: a hand edit, or a machine
// whose clock runs ahead).
type ClaimProblem struct {
	ID, Code, Message string
}

// ClaimProblems returns the claims that need a look at now, in ledger
// order.
func (l *Ledger) ClaimProblems(now time.Time) []ClaimProblem {
	var out []ClaimProblem
	for _, e := range l.slices {
		s := e.view
		switch {
		case s.ClaimedBy == "":
		case Closing[s.Status]:
			out = append(out, ClaimProblem{s.ID, "claim.closed",
				fmt.Sprintf("slice %s is %s but still claimed by %s", s.ID, s.Status, s.ClaimedBy)})
		case !s.Live(now):
			out = append(out, ClaimProblem{s.ID, "claim.expired",
				fmt.Sprintf("slice %s (%s) is claimed by %s, whose lease ended at %s", s.ID, s.Status, s.ClaimedBy, s.ClaimedUntil.Format(TimeLayout))})
		case s.ClaimedUntil.Sub(now) > MaxLease:
			out = append(out, ClaimProblem{s.ID, "claim.too-long",
				fmt.Sprintf("slice %s is claimed by %s until %s, more than %s from now", s.ID, s.ClaimedBy, s.ClaimedUntil.Format(TimeLayout), MaxLease)})
		}
	}
	return out
}

// Counts are a ledger's figures for a statusline.
type Counts struct {
	Done    int // committed or skipped
	Total   int
	Claimed int // slices with a live claim at now
	// Escalated counts escalated slices: a retry budget ran out and a
	// person must decide.
	Escalated int
}

// Count reads data leniently, the way a statusline must: it needs only
// the slices array with string statuses, ignores every other field and
// every value it cannot read, and reports ok false when data has no such
// array. It never validates; use Parse for that.
func Count(data []byte, now time.Time) (c Counts, ok bool) {
	var doc struct {
		Slices []struct {
			Status       any `json:"status"`
			ClaimedBy    any `json:"claimedBy"`
			ClaimedUntil any `json:"claimedUntil"`
		} `json:"slices"`
	}
	if json.Unmarshal(data, &doc) != nil || doc.Slices == nil {
		return Counts{}, false
	}
	for _, s := range doc.Slices {
		c.Total++
		st, _ := s.Status.(string)
		if Finished[st] {
			c.Done++
		}
		if st == "escalated" {
			c.Escalated++
		}
		by, _ := s.ClaimedBy.(string)
		until, _ := s.ClaimedUntil.(string)
		if t, err := time.Parse(TimeLayout, until); by != "" && err == nil && now.Before(t) {
			c.Claimed++
		}
	}
	return c, true
}

// agentOf reads claimedBy: a non-empty one-line string.
func agentOf(v json.RawMessage, field string) (string, error) {
	s, err := str(v, field)
	if err == nil && (s == "" || textin.SingleLine(field, s) != nil) {
		err = fmt.Errorf("%s %s must be non-empty and on one line", field, clip(v))
	}
	return s, err
}

// timeOf reads claimedUntil: exactly TimeLayout.
func timeOf(v json.RawMessage, field string) (time.Time, error) {
	s, err := str(v, field)
	if err != nil {
		return time.Time{}, err
	}
	t, err := time.Parse(TimeLayout, s)
	if err != nil || t.Format(TimeLayout) != s {
		return time.Time{}, fmt.Errorf("%s %s is not a UTC time like 2026-01-02T15:04:05Z", field, clip(v))
	}
	return t, nil
}
