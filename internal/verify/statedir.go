package verify

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/orc-state/orc-state/internal/archive"
	"github.com/orc-state/orc-state/internal/atomicfile"
	"github.com/orc-state/orc-state/internal/binding"
	"github.com/orc-state/orc-state/internal/environ"
	"github.com/orc-state/orc-state/internal/fault"
	"github.com/orc-state/orc-state/internal/journal"
	"github.com/orc-state/orc-state/internal/lock"
	"github.com/orc-state/orc-state/internal/portable"
	"github.com/orc-state/orc-state/internal/safetext"
	"github.com/orc-state/orc-state/internal/secrets"
	"github.com/orc-state/orc-state/internal/selection"
	"github.com/orc-state/orc-state/internal/state"
	"github.com/orc-state/orc-state/internal/textin"
	"github.com/orc-state/orc-state/registry"
)

// PerRepo are the names under .orc/ that belong to the repository, not to
// a session; sweeps and doctor leave them alone.
var PerRepo = map[string]bool{
	"knowledge": true, "project-context.md": true, "planning-calibration.json": true,
	"pr-budget.json": true, ".worktrees": true,
}

// DirFinding is a finding about the whole state dir (Session empty) or
// one session.
type DirFinding struct {
	Session string `json:"session,omitempty"`
	Finding
}

// archiveWarnBytes is the total size of the archives above which doctor
// reports archive.size; $ORC_ARCHIVE_WARN_BYTES sets another.
const archiveWarnBytes = 64 << 20

// Archives reports archives whose total size passes the threshold
// (docs/protocol.md §21): warnBytes is $ORC_ARCHIVE_WARN_BYTES, "" for
// the default. In a repository listing them runs git (no lock is held);
// an archive that cannot be listed is named too.
func Archives(d *state.Dir, warnBytes string) []DirFinding {
	limit := int64(archiveWarnBytes)
	if v := warnBytes; v != "" {
		n, err := textin.Decimal(v, 0, math.MaxInt64)
		if err != nil {
			return []DirFinding{{Finding: Finding{Code: "archive.threshold", Message: fmt.Sprintf("$ORC_ARCHIVE_WARN_BYTES=%q: %v", v, err),
				Next: "set ORC_ARCHIVE_WARN_BYTES to a number of bytes, or unset it"}}}
		}
		limit = n
	}
	all, err := archive.Open(d).List("")
	if err != nil {
		return []DirFinding{{Finding: Finding{Code: "archive.unreadable", Message: fmt.Sprintf("cannot list the archives: %v", err),
			Next: "git status, to see why git cannot answer"}}}
	}
	var total int64
	for _, a := range all {
		total += a.Size
	}
	if total <= limit {
		return nil
	}
	return []DirFinding{{Finding: Finding{Code: "archive.size",
		Message: fmt.Sprintf("%d archive(s) hold %d bytes, over %d (orc-state archive list shows them)", len(all), total, limit),
		Next:    "orc-state cleanup --archives --older-than 30d  # lists the older ones; deleting them (--force) is for good"}}}
}

// StateDir inspects the whole state dir without a lock and without git
// (but for asking git whether it tracks a folder that looks orphaned):
// the lock, an interrupted transaction, temp files, removed.jsonl, the
// registry, orphan folders, names, the worktree bindings (env is the
// process's, for git) and every session (Session, StoredSecrets,
// StrayFiles); now judges the sessions' slice claims. A folder holding a
// workspace back-pointer (selection.IsLinkFolder) is no orphan.
func StateDir(d *state.Dir, now time.Time, env environ.List) []DirFinding {
	var out []DirFinding
	add := func(session, code, next, format string, args ...any) {
		out = append(out, DirFinding{Session: session, Finding: Finding{Code: code, Message: fmt.Sprintf(format, args...), Next: next}})
	}
	st, err := os.Lstat(d.Path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil || !st.IsDir() {
		add("", "statedir.not-a-directory", "move it away, or pass --dir", "%s is not a directory", d.Path)
		return out
	}
	held, _ := lock.Held(d.Path)
	if !held {
		if h := lock.Holder(d.Path); h != "" {
			add("", "lock.dead-holder", "nothing: the lock is free (its holder died); the next writer overwrites the line",
				"the lock file names %q, but no process holds the lock", h)
		}
	}
	// An interrupted transaction is named once; what it is in the middle of
	// (its sessions, temp files and folders) is not reported as damage.
	inTx := map[string]bool{}
	logged := readPending(d)
	in, err := logged.in, logged.err
	if err != nil {
		add("", "transaction.unreadable", "orc-state doctor after fixing the cause", "%v", err)
	}
	if in != nil && in.Invalid != nil {
		add("", "transaction.invalid", state.UntrustedNext,
			"%s is not a record orc-state wrote: %v; repair and every writer refuse it", state.IntentFile, in.Invalid)
		in = nil // what it names is not in the middle of anything
	}
	if in != nil {
		if !held {
			add("", "transaction.interrupted", "orc-state repair (completes it)",
				"%s was interrupted; its record is %s", in.Describe(), state.IntentFile)
		}
		for _, p := range in.Paths() {
			inTx[filepath.FromSlash(p)] = true
			inTx[strings.SplitN(p, "/", 2)[0]] = true
		}
		for _, id := range in.Sessions {
			inTx[id] = true
		}
	}
	for _, t := range TempFiles(d.Path) {
		if top, _, _ := strings.Cut(filepath.ToSlash(t), "/"); !inTx[t] && !inTx[top] {
			add("", "temp.stale", "orc-state repair --temp", "temporary file %s was left by an interrupted write", t)
		}
	}
	if !inTx[state.RemovedFile] {
		out = append(out, removedFindings(d)...)
	}
	reg, exists, err := d.ReadRegistry()
	if err != nil && in != nil {
		return out // orc.json is between two states; repair completes it
	}
	if err != nil {
		code, next := "registry.invalid", "orc-state migrate (merges duplicates, records unknown keys in the journal); if it cannot, orc-state repair --rebuild-registry rebuilds orc.json from each session's checkpoint and journal, keeping the damaged file aside"
		var ie *registry.InvalidError
		if errors.As(err, &ie) {
			_, _, hint := fault.Explain(ie)
			switch ie.Problem {
			case registry.Legacy:
				code, next = "registry.legacy", hint
			case registry.Newer:
				code, next = "registry.newer-schema", hint
			}
		}
		add("", code, next, "%v", err)
		return out // folders cannot be judged orphans against an unreadable registry
	}
	if reg == nil || !exists {
		return append(out, orphanFindings(d, nil, inTx)...)
	}
	out = append(out, orphanFindings(d, reg, inTx)...)
	out = append(out, nameFindings(reg)...)
	if !inTx[binding.FileName] {
		for _, f := range Bindings(d, env, "", reg) {
			out = append(out, DirFinding{Finding: f})
		}
	}
	for i := range reg.Sessions {
		s := &reg.Sessions[i]
		if inTx[s.SessionID] || in != nil && in.Torn {
			continue // between two states until repair completes the transaction
		}
		if _, err := os.Stat(d.FilesDir(s.SessionID)); errors.Is(err, fs.ErrNotExist) {
			add(s.SessionID, "entry.no-folder", "orc-state repair --session="+safetext.Quote(s.SessionID)+" (recreates checkpoint.md from the entry)",
				"the registry lists %s but its folder does not exist", s.SessionID)
			continue
		}
		fs, err := session(d, reg, s, now, logged)
		if err != nil {
			add(s.SessionID, "session.unreadable", "orc-state verify --session="+safetext.Quote(s.SessionID), "%v", err)
			continue
		}
		fs = append(fs, StoredSecrets(d, s)...)
		fs = append(fs, StrayFiles(d, s.SessionID)...)
		for _, f := range fs {
			if f.Code == "transaction.invalid" {
				continue // named once, above
			}
			out = append(out, DirFinding{Session: s.SessionID, Finding: f})
		}
	}
	return out
}

// removedFindings names the credentials an older orc-state stored in
// removed.jsonl (the final entry of a session it removed), by line and
// kind, never the credential; or why the file cannot be read.
func removedFindings(d *state.Dir) []DirFinding {
	data, err := d.ReadStateFile(state.RemovedFile)
	if err != nil {
		return []DirFinding{{Finding: Finding{Code: "removed.unreadable", Message: err.Error(),
			Next: "replace " + state.RemovedFile + " with a plain file, then orc-state doctor"}}}
	}
	_, hits := secrets.RedactJSON(data)
	if len(hits) == 0 {
		return nil
	}
	places := make([]string, len(hits))
	for i, h := range hits {
		places[i] = fmt.Sprintf("line %d (%s)", h.Line, h.Kind)
	}
	return []DirFinding{{Finding: Finding{Code: "secret.stored", Next: "orc-state repair --redact-removed",
		Message: fmt.Sprintf("a credential is stored in %s %s, written by an older orc-state", state.RemovedFile, strings.Join(places, ", "))}}}
}

// orphanFindings names session folders under .orc/ that no entry owns.
func orphanFindings(d *state.Dir, reg *registry.Registry, inTx map[string]bool) []DirFinding {
	var out []DirFinding
	for _, o := range orphans(d, reg) {
		name := o.name
		if inTx[name] {
			continue
		}
		f := Finding{Code: "folder.orphan", Message: fmt.Sprintf("folder %s has no registry entry", name),
			Next: "orc-state repair --adopt=" + safetext.Quote(name) + " (from its checkpoint) or orc-state repair --remove-orphan=" + safetext.Quote(name) + " (archived first: orc-state session restore " + safetext.Operand(name) + " brings it back)"}
		switch {
		case o.empty:
			f.Message = fmt.Sprintf("folder %s has no registry entry and holds only an empty files/ folder: removing it loses nothing", name)
			f.Next = "orc-state repair --remove-orphan=" + safetext.Quote(name) + "  # it holds nothing to lose"
		case registry.CheckKey(name) != nil:
			f.Message += "; its name is no session key, so it cannot be adopted"
			f.Next = "orc-state repair --remove-orphan=" + safetext.Quote(name) + "  # archived first: orc-state session restore " + safetext.Operand(name) + " brings it back"
		}
		out = append(out, DirFinding{Finding: f})
	}
	return out
}

// orphan is a session-shaped folder no entry owns; empty when it holds
// nothing but an empty files/ folder (a session whose first write never
// happened), which is safe to remove.
type orphan struct {
	name  string
	empty bool
}

// nameFindings names the sessions whose keys would not survive a move to
// macOS or Windows: keys that differ only in case (one folder there), and
// keys Windows cannot use as a folder (written before init refused them).
func nameFindings(reg *registry.Registry) []DirFinding {
	var out []DirFinding
	for _, group := range reg.FolderCollisions() {
		var names []string
		for _, s := range group {
			names = append(names, fmt.Sprintf("%s (branch %q)", s.SessionID, s.GitBranch))
		}
		where := SharedOn(group[0].SessionID, group[1].SessionID)
		for _, s := range group[2:] {
			if !portable.CaseOnly(group[0].SessionID, s.SessionID) {
				where = SharedOn(group[0].SessionID, s.SessionID) // Windows alone
			}
		}
		out = append(out, DirFinding{Finding: Finding{Code: "name.case-collision",
			Message: fmt.Sprintf("sessions %s share one folder on %s", strings.Join(names, " and "), where),
			Next: fmt.Sprintf("keep one: orc-state session remove --session=%s, on a machine where they are separate folders (Linux); it is archived first, and orc-state session restore %s brings it back",
				safetext.Quote(group[len(group)-1].SessionID), safetext.Operand(group[len(group)-1].SessionID))}})
	}
	for i := range reg.Sessions {
		s := &reg.Sessions[i]
		err := registry.CheckPortable(s.SessionID)
		if err == nil {
			continue
		}
		next := fmt.Sprintf("nothing, while it stays on Linux or macOS; to move it to Windows, finish it, orc-state session remove --session=%s (archived first: orc-state session restore brings it back), and init branch %s again", safetext.Quote(s.SessionID), safetext.Quote(s.GitBranch))
		if id, kerr := registry.KeyFor(s.GitBranch); kerr == nil {
			next += " (its key is then " + id + ")"
		} else {
			next = fmt.Sprintf("branch %s needs another name (%v); finish it, then orc-state session remove --session=%s (archived first: orc-state session restore brings it back)", safetext.Quote(s.GitBranch), kerr, safetext.Quote(s.SessionID))
		}
		out = append(out, DirFinding{Session: s.SessionID, Finding: Finding{Code: "name.not-portable",
			Message: fmt.Sprintf("%v; an earlier version stored it", err),
			Next:    next}})
	}
	return out
}

func orphans(d *state.Dir, reg *registry.Registry) []orphan {
	entries, err := os.ReadDir(d.Path)
	if err != nil {
		return nil
	}
	var out []orphan
	for _, en := range entries {
		name := en.Name()
		if !en.IsDir() || PerRepo[name] || strings.HasPrefix(name, ".") {
			continue
		}
		empty := EmptySession(d, name)
		if reg != nil && reg.Exact(name) != nil || selection.IsLinkFolder(d, name) || !empty && !SessionShaped(d, name) {
			continue
		}
		if tracked, err := GitTracks(d, name); tracked || err != nil {
			continue // never proposed for removal: git has it, or cannot say
		}
		out = append(out, orphan{name: name, empty: empty})
	}
	return out
}

// EmptySession reports whether the folder name under the state dir holds
// exactly one thing, an empty files/ folder (not a symlink): the shape a
// session's first transaction leaves when it dies after creating the
// folder, or once repair --temp took its temp files. Nothing in it can be
// lost, so it is an orphan doctor names and repair --remove-orphan removes.
func EmptySession(d *state.Dir, name string) bool {
	entries, err := os.ReadDir(filepath.Join(d.Path, name))
	if err != nil || len(entries) != 1 || entries[0].Name() != "files" {
		return false
	}
	files := filepath.Join(d.Path, name, "files")
	if st, err := os.Lstat(files); err != nil || !st.IsDir() {
		return false
	}
	inside, err := os.ReadDir(files)
	return err == nil && len(inside) == 0
}

// SessionShaped reports whether the folder name under the state dir looks
// like a session's: a files/ folder holding a checkpoint or a journal. Only
// such a folder can be an orphan; anything else there (a folder of the
// repository when the state dir is a worktree root) is not orc-state's.
func SessionShaped(d *state.Dir, name string) bool {
	files := filepath.Join(d.Path, name, "files")
	if st, err := os.Lstat(files); err != nil || !st.IsDir() {
		return false
	}
	for _, f := range []string{state.CheckpointFile, journal.FileName} {
		if st, err := os.Lstat(filepath.Join(files, f)); err == nil && st.Mode().IsRegular() {
			return true
		}
	}
	return false
}

// GitTracks reports whether git tracks anything under the folder name of
// the state dir, asking the repository whose worktree holds it; a folder
// outside every worktree is tracked by none. An error means git could not
// say, and the caller must not treat the folder as removable.
func GitTracks(d *state.Dir, name string) (bool, error) {
	if d.Git == nil {
		return false, nil
	}
	path := filepath.Join(d.Path, name)
	for _, root := range []string{d.Git.WorktreeRoot, d.Git.MainWorktree} {
		if root == "" {
			continue // a bare repository has no work tree
		}
		rel, err := filepath.Rel(root, path)
		if err != nil || !filepath.IsLocal(rel) {
			continue
		}
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		out, err := d.Git.Read(ctx, "-C", root, "ls-files", "-z", "--", ":(literal)"+filepath.ToSlash(rel))
		cancel()
		if err != nil {
			return false, err
		}
		if len(out) > 0 {
			return true, nil
		}
	}
	return false, nil
}

// TempFiles lists leftover temp files of atomic writes (relative paths),
// outside the per-repository folders.
func TempFiles(root string) []string {
	var out []string
	_ = filepath.WalkDir(root, func(path string, de fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		rel, _ := filepath.Rel(root, path)
		if de.IsDir() && path != root && PerRepo[rel] {
			return filepath.SkipDir
		}
		if !de.IsDir() && atomicfile.IsTemp(de.Name()) {
			out = append(out, rel)
		}
		return nil
	})
	sort.Strings(out)
	return out
}

// SharedOn names the systems on which the names a and b (portable.Same)
// are one folder, and why.
func SharedOn(a, b string) string {
	if portable.CaseOnly(a, b) {
		return "macOS and Windows, which ignore case"
	}
	return "Windows, which ignores case and drops a trailing dot"
}
