package gitx

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/go-git/go-git/v5/plumbing"
)

// Head describes HEAD of a work tree, or a branch tip.
type Head struct {
	SHA      string // full lower-case object id; "" when Unborn
	Branch   string // short branch name ("main", "feature/x"); "" when Detached
	Detached bool
	Unborn   bool   // HEAD names a branch that has no commit yet
	Subject  string // git's %s of the HEAD commit
}

// Commit is one entry of Log.
type Commit struct {
	SHA     string
	Subject string    // git's %s
	When    time.Time // committer time (the order key of Log)
}

// Head reads HEAD of the place the repository was opened from, with the
// commit's subject.
func (r *Repo) Head() (Head, error) {
	branch, detached, err := r.layout.CurrentBranch()
	if err != nil {
		return Head{}, err
	}
	h := Head{Branch: branch, Detached: detached}
	objs, err := r.objects()
	if err != nil {
		return Head{}, err
	}
	id, err := objs.ref("HEAD")
	if errors.Is(err, errMissing) && !detached {
		h.Unborn = true
		return h, nil
	}
	if err != nil {
		return Head{}, err
	}
	h.SHA = id
	c, err := r.commit(id)
	if err != nil {
		return Head{}, fmt.Errorf("read HEAD commit %s: %w", id, err)
	}
	h.Subject = c.Subject
	return h, nil
}

// ClaimState is what the repository says about a claimed commit id.
type ClaimState int

// The answers of Repo.CheckClaim.
const (
	ClaimCommit        ClaimState = iota // a commit of this repository
	ClaimNotCommit                       // no commit of this repository has that name
	ClaimAmbiguous                       // the abbreviation matches several commits
	ClaimBeyondShallow                   // absent from a shallow clone: it may be older than its boundary
	ClaimUnknown                         // git could not answer (Reason)
)

// Claim is the answer for one claimed commit id.
type Claim struct {
	Claim  string
	Full   string // the full id when State is ClaimCommit
	State  ClaimState
	Reason string // why, when State is ClaimUnknown
}

// OK reports whether the claim names a commit.
func (c Claim) OK() bool { return c.State == ClaimCommit }

// Problem describes a claim that is not a commit, for a message: "is not a
// commit of this repository", "is ambiguous ...", "is not in this shallow
// clone ...", "cannot be checked (...)". "" for a commit.
func (c Claim) Problem() string {
	switch c.State {
	case ClaimCommit:
		return ""
	case ClaimNotCommit:
		return "is not a commit of this repository"
	case ClaimAmbiguous:
		return "is ambiguous in this repository (give more digits)"
	case ClaimBeyondShallow:
		return "is not in this shallow clone: it may be " + BeyondShallow
	default:
		return "cannot be checked (" + c.Reason + ")"
	}
}

// BeyondShallow is how a commit the shallow clone lacks is described.
const BeyondShallow = "beyond the shallow boundary (git fetch --unshallow)"

// CheckClaim resolves a claimed commit id: 7 to 64 hex digits (any case),
// a full or abbreviated SHA-1 or SHA-256 id, read in the repository's own
// object format. An abbreviation must match exactly one commit; trees,
// blobs and tags never match.
func (r *Repo) CheckClaim(claim string) Claim {
	c := Claim{Claim: claim}
	if !IsClaim(claim) {
		c.State = ClaimNotCommit
		return c
	}
	if full := strings.ToLower(claim); isObjectID(full) {
		// A full id names that object, whatever the refs (git reads it
		// so): the object files answer when they hold it.
		if files := r.objectFiles(); files != nil {
			if kind, _, err := files.read(full); err == nil {
				if kind != "commit" {
					c.State = ClaimNotCommit
					return c
				}
				c.Full, c.State = full, ClaimCommit
				return c
			}
		}
	}
	objs, err := r.objects()
	if err != nil {
		c.State, c.Reason = ClaimUnknown, err.Error()
		return c
	}
	full, err := objs.claim(claim)
	switch {
	case err == nil:
		c.Full, c.State = full, ClaimCommit
	case errors.Is(err, errAmbiguous):
		c.State = ClaimAmbiguous
	case errors.Is(err, errMissing) && r.layout.IsShallow():
		c.State = ClaimBeyondShallow
	case errors.Is(err, errMissing), errors.Is(err, errNotCommit):
		c.State = ClaimNotCommit
	default:
		c.State, c.Reason = ClaimUnknown, err.Error()
	}
	return c
}

// ResolveCommit is CheckClaim reduced to (full id, ok).
func (r *Repo) ResolveCommit(claim string) (full string, ok bool) {
	c := r.CheckClaim(claim)
	return c.Full, c.OK()
}

// ErrNoRevision is ResolveRevision's answer for a name git resolves to no
// commit.
var ErrNoRevision = errors.New("names no commit of this repository")

// ResolveRevision asks git (git cat-file --batch, the name as given, then
// an annotated tag peeled by its id) which commit a revision names: HEAD,
// a branch, a tag, HEAD~1, main@{1}, :/message text, an abbreviated or
// full id, anything git's revision syntax resolves, exactly as git rev-parse
// --verify REV^{commit} does. It
// returns the commit's full id; ErrNoRevision (wrapped) when git resolves
// the name to no commit, or to several; another error when git cannot
// answer. Git is the oracle: nothing is parsed here.
func (r *Repo) ResolveRevision(rev string) (string, error) {
	if rev == "" || strings.ContainsAny(rev, "\n\r") {
		return "", fmt.Errorf("revision %q: %w", rev, ErrNoRevision)
	}
	objs, err := r.objects()
	if err != nil {
		return "", err
	}
	// The name is asked for as it is, and what it names is peeled by its
	// id: a suffix appended to the name would become part of a :/text
	// search or of a path (HEAD:file^{commit}).
	id, kind, _, err := objs.get(rev)
	if err == nil && kind == "tag" {
		id, err = objs.peel(id)
		kind = "commit"
	}
	switch {
	case errors.Is(err, errMissing), errors.Is(err, errAmbiguous), errors.Is(err, errNotCommit):
		return "", fmt.Errorf("revision %q: %w", rev, ErrNoRevision)
	case err != nil:
		return "", err
	case kind != "commit":
		return "", fmt.Errorf("revision %q: %w", rev, ErrNoRevision)
	}
	return id, nil
}

// resolveCommitish turns a revision into a commit id: a claim (see
// CheckClaim), "HEAD", or a ref name tried as refs/heads/<s>,
// refs/tags/<s>, refs/remotes/<s>, refs/remotes/<s>/HEAD and then <s>
// itself when it is a full name under refs/. Annotated tags are peeled to
// their commit. Revision syntax such as "HEAD~1" is not supported
// (orc-state passes claims and branch names).
func (r *Repo) resolveCommitish(s string) (string, error) {
	if IsClaim(s) {
		c := r.CheckClaim(s)
		if c.OK() {
			return c.Full, nil
		}
		switch c.State {
		case ClaimBeyondShallow:
			return "", fmt.Errorf("commit %q: %w", s, ErrBeyondShallow)
		case ClaimUnknown:
			return "", fmt.Errorf("commit %q cannot be checked: %s", s, c.Reason)
		}
		return "", fmt.Errorf("unknown commit %q", s)
	}
	if s == "" {
		return "", errors.New("resolve \"\": empty revision")
	}
	objs, err := r.objects()
	if err != nil {
		return "", err
	}
	candidates := []string{"HEAD"}
	if s != "HEAD" {
		candidates = []string{"refs/heads/" + s, "refs/tags/" + s, "refs/remotes/" + s, "refs/remotes/" + s + "/HEAD"}
		if strings.HasPrefix(s, "refs/") {
			candidates = append(candidates, s)
		}
	}
	for _, name := range candidates {
		if name != "HEAD" && plumbing.ReferenceName(name).Validate() != nil {
			continue
		}
		id, err := objs.ref(name)
		if errors.Is(err, errMissing) {
			continue
		}
		if err != nil {
			return "", fmt.Errorf("resolve %q: %w", s, err)
		}
		full, err := objs.peel(id)
		if err != nil {
			return "", fmt.Errorf("resolve %q: not a commit: %w", s, err)
		}
		return full, nil
	}
	return "", fmt.Errorf("resolve %q: %w", s, plumbing.ErrReferenceNotFound)
}

// ErrBeyondShallow is returned when a question needs history a shallow
// clone does not have.
var ErrBeyondShallow = errors.New(BeyondShallow)
