// Package refsync moves session state between clones through git refs
// (docs/protocol.md §17): each session is a chain of commits on
// refs/orc/sessions/<sessionId>, pushed to and fetched from a git remote.
//
// The rule it keeps: a divergence is reported only when two machines each
// changed the same session since their common base. The base is the local
// refs/orc/sessions/<id>: the last commit this machine published or
// imported, and so always one the remote has had. A session is changed
// locally when its entry and files differ from the base's; imports are not
// changes (they are recorded in the state dir's sync log, never in the
// session's journal), so a machine that only reads a session never
// publishes it and never diverges from it.
//
// Every verb works per session (one Result each) and runs git only outside
// the state lock: fetch and read first, then one transaction, then the
// refs. A push or pull that fails leaves every local ref as it was.
package refsync

import (
	"strconv"
	"strings"
	"time"

	"github.com/orc-state/orc-state/internal/journal"
	"github.com/orc-state/orc-state/registry"
)

// Ref namespaces and file names.
const (
	// SessionsPrefix holds each session's base: local and on the remote.
	SessionsPrefix = "refs/orc/sessions/"
	// RemotesPrefix holds, per remote, its session refs as last fetched.
	RemotesPrefix = "refs/orc/remotes/"
	// ArchivePrefix holds the sides sync resolve discarded:
	// refs/orc/archive/<sessionId>/<time>.
	ArchivePrefix = "refs/orc/archive/"
	// EntryFile is the session's registry entry inside a sync commit.
	EntryFile = "entry.json"
	// LogFile is the sync log in the state dir: imports and resolutions,
	// one JSON line each. It never travels.
	LogFile = "sync.jsonl"
	// Timeout bounds each git command (a fetch, a push).
	Timeout = 2 * time.Minute
	// WaitNotice is how long a fetch or push may be silent before the
	// verb says what it waits for.
	WaitNotice = 10 * time.Second
)

// BaseRef is the local base of a session.
func BaseRef(id string) string { return SessionsPrefix + id }

// Namespace is the tracking prefix of a remote: its name when it is a plain
// remote name, else (a path or URL) url-<16 hex of its sha256>, so the ref
// name is always valid.
func Namespace(remote string) string {
	if registry.OriginalKey(remote) != remote || strings.HasPrefix(remote, ".") { // the characters a ref name holds
		remote = "url-" + journal.Sum([]byte(remote))[:16]
	}
	return RemotesPrefix + remote + "/"
}

// refName reports why a sessionId cannot be a git ref name component
// ("" when it can). SessionIds hold only [A-Za-z0-9._-] and never start
// with a dot; git also refuses "..", a trailing dot and a trailing ".lock".
// Such an id can only come from a --branch that names no git branch.
func refName(id string) string {
	switch {
	case strings.Contains(id, ".."):
		return "it holds \"..\""
	case strings.HasSuffix(id, ".lock"):
		return "it ends with \".lock\""
	case strings.HasSuffix(id, "."):
		return "it ends with a dot"
	}
	return ""
}

// fetchSpec maps the remote's session refs onto the tracking namespace.
func fetchSpec(remote string) string { return "+" + SessionsPrefix + "*:" + Namespace(remote) + "*" }

// archiveName is the archive ref for a discard at t; n > 1 adds a suffix
// for a further one in the same second.
func archiveName(id string, t time.Time, n int) string {
	name := ArchivePrefix + id + "/" + t.UTC().Format("20060102T150405Z")
	if n > 1 {
		name += "-" + strconv.Itoa(n)
	}
	return name
}

func short(id string) string {
	if len(id) > 12 {
		return id[:12]
	}
	if id == "" {
		return "none"
	}
	return id
}
