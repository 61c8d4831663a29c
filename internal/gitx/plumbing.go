package gitx

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"path"
	"sort"
	"strconv"
	"strings"
	"time"
	"unicode"
)

// This file is the plumbing sync uses to read and write its own commits and
// refs. Everything goes through the git CLI (cat-file, fast-import,
// update-ref, for-each-ref, merge-base, fetch, push), so it
// works in every object format git supports (SHA-1 and SHA-256) without a
// branch per format, and in a partial clone git fetches a missing object on
// demand. None of it may run while the state lock is held.

// Snapshot is a set of files by slash-separated path: the content of a
// commit that orc-state writes on its own refs (sync).
type Snapshot map[string][]byte

// Equal reports whether two snapshots hold the same paths with the same
// bytes.
func (s Snapshot) Equal(o Snapshot) bool {
	if len(s) != len(o) {
		return false
	}
	for p, b := range s {
		ob, ok := o[p]
		if !ok || !bytes.Equal(b, ob) {
			return false
		}
	}
	return true
}

// Tree is the content of a commit as read back: each file's bytes and
// blob id, by slash-separated path.
type Tree map[string]Blob

// Blob is one entry of a Tree: a file, or (Mode set) a symlink, whose
// Data is its target, or a gitlink (a submodule's commit), which has no
// Data.
type Blob struct {
	ID   string
	Data []byte
	Mode string // "" for a regular file; "symlink" or "gitlink"
}

// Snapshot returns the files' bytes without their ids.
func (t Tree) Snapshot() Snapshot {
	out := make(Snapshot, len(t))
	for p, b := range t {
		out[p] = b.Data
	}
	return out
}

// ErrMissing is returned for an object the repository does not have (and,
// in a partial clone, could not fetch).
var ErrMissing = errors.New("object not found")

// Objects reads objects through one `git cat-file --batch` process. Close
// it when done. It is not safe for concurrent use.
type Objects struct {
	cmd    *exec.Cmd
	in     *bufio.Writer
	inPipe io.WriteCloser
	out    *bufio.Reader
	stderr *bytes.Buffer
	dir    string
}

// OpenObjects starts the reader. env is added to the environment
// (GIT_NO_LAZY_FETCH=1 keeps a partial clone from fetching, with git 2.44
// and later).
func (l Layout) OpenObjects(ctx context.Context, env ...string) (*Objects, error) {
	cmd, err := l.command(ctx, env, "cat-file", "--batch")
	if err != nil {
		return nil, err
	}
	in, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	o := &Objects{cmd: cmd, inPipe: in, in: bufio.NewWriter(in), out: bufio.NewReader(out), stderr: &bytes.Buffer{}, dir: l.Place}
	cmd.Stderr = o.stderr
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("git cat-file in %s: %w", l.Place, err)
	}
	return o, nil
}

// Close stops the reader.
func (o *Objects) Close() error {
	o.inPipe.Close()
	return o.cmd.Wait()
}

// Read returns the type, id and content of the object rev names (an id, or
// any revision such as "<commit>^{tree}").
func (o *Objects) Read(rev string) (typ, id string, data []byte, err error) {
	if err := o.ask(rev); err != nil {
		return "", "", nil, err
	}
	if err := o.in.Flush(); err != nil {
		return "", "", nil, o.failed(err)
	}
	return o.answer(rev)
}

// ask writes the request for rev, unflushed.
func (o *Objects) ask(rev string) error {
	if strings.ContainsAny(rev, "\n\x00") {
		return fmt.Errorf("invalid object name %q", rev)
	}
	if _, err := o.in.WriteString(rev + "\n"); err != nil {
		return o.failed(err)
	}
	return nil
}

// answer reads git's answer to the request for rev.
func (o *Objects) answer(rev string) (typ, id string, data []byte, err error) {
	header, err := o.out.ReadString('\n')
	if err != nil {
		return "", "", nil, o.failed(err)
	}
	fields := strings.Fields(header)
	if len(fields) == 2 && (fields[1] == "missing" || fields[1] == "ambiguous") {
		return "", "", nil, fmt.Errorf("%s: %w", rev, ErrMissing)
	}
	if len(fields) != 3 {
		return "", "", nil, fmt.Errorf("git cat-file: unexpected answer %q", strings.TrimSpace(header))
	}
	size, err := strconv.Atoi(fields[2])
	if err != nil || size < 0 {
		return "", "", nil, fmt.Errorf("git cat-file: unexpected size in %q", strings.TrimSpace(header))
	}
	data = make([]byte, size+1) // the content, then a newline
	if _, err := io.ReadFull(o.out, data); err != nil {
		return "", "", nil, o.failed(err)
	}
	return fields[1], fields[0], data[:size], nil
}

// failed turns a broken pipe into git's own complaint, when it made one.
func (o *Objects) failed(err error) error {
	if line := strings.TrimSpace(firstLine(o.stderr.String())); line != "" {
		return fmt.Errorf("git cat-file in %s: %s", o.dir, line)
	}
	return fmt.Errorf("git cat-file in %s: %w", o.dir, err)
}

// ReadTree returns every entry under the tree of commit, recursively:
// files, and symlinks and gitlinks marked by their Mode (for the caller to
// refuse). An entry of any other mode is an error.
func (o *Objects) ReadTree(commit string) (Tree, error) {
	typ, _, head, err := o.Read(commit)
	if err != nil {
		return nil, err
	}
	treeID, ok := strings.CutPrefix(string(head), "tree ")
	if typ != "commit" || !ok {
		return nil, fmt.Errorf("%s is a %s, not a commit", commit, typ)
	}
	treeID, _, _ = strings.Cut(treeID, "\n")
	typ, id, data, err := o.Read(treeID)
	if err != nil {
		return nil, err
	}
	if typ != "tree" {
		return nil, fmt.Errorf("%s is not a commit", commit)
	}
	out := Tree{}
	return out, o.readTree(out, "", id, data)
}

func (o *Objects) readTree(out Tree, dir, id string, data []byte) error {
	idLen := len(id) / 2 // raw id bytes: 20 (SHA-1) or 32 (SHA-256)
	for len(data) > 0 {
		sp := bytes.IndexByte(data, ' ')
		nul := bytes.IndexByte(data, 0)
		if sp < 0 || nul < sp || len(data) < nul+1+idLen {
			return fmt.Errorf("tree %s is malformed", id)
		}
		mode, name := string(data[:sp]), string(data[sp+1:nul])
		child := fmt.Sprintf("%x", data[nul+1:nul+1+idLen])
		data = data[nul+1+idLen:]
		p := path.Join(dir, name)
		switch mode {
		case "40000":
			typ, _, sub, err := o.Read(child)
			if err != nil {
				return err
			}
			if typ != "tree" {
				return fmt.Errorf("%s is not a tree", p)
			}
			if err := o.readTree(out, p, child, sub); err != nil {
				return err
			}
		case "100644", "100755", "120000":
			typ, _, blob, err := o.Read(child)
			if err != nil {
				return err
			}
			if typ != "blob" {
				return fmt.Errorf("%s is not a file", p)
			}
			b := Blob{ID: child, Data: blob}
			if mode == "120000" {
				b.Mode = "symlink"
			}
			out[p] = b
		case "160000":
			out[p] = Blob{ID: child, Mode: "gitlink"}
		default:
			return fmt.Errorf("%s has mode %s; only regular files are expected", p, mode)
		}
	}
	return nil
}

// Parents returns the parents of a commit.
func (o *Objects) Parents(commit string) ([]string, error) {
	typ, _, data, err := o.Read(commit)
	if err != nil {
		return nil, err
	}
	if typ != "commit" {
		return nil, fmt.Errorf("%s is not a commit", commit)
	}
	var parents []string
	for _, line := range strings.Split(string(data), "\n") {
		if line == "" {
			break // end of the header
		}
		if p, ok := strings.CutPrefix(line, "parent "); ok {
			parents = append(parents, p)
		}
	}
	return parents, nil
}

// Identity is the author and committer of a commit orc-state writes.
type Identity struct {
	Name, Email string
	When        time.Time
}

// CommitSnapshot stores files as blobs, trees and a commit with the given
// parents (none, or one) and returns the commit's id, all with one `git
// fast-import` that updates no ref (its branch is reset before the end).
// The same files, parents, message and identity always give the same id.
// The index, the work tree, HEAD and the branches are never touched, and no
// hook runs.
func (l Layout) CommitSnapshot(ctx context.Context, files Snapshot, parents []string, message string, who Identity) (string, error) {
	if len(parents) > 1 {
		return "", fmt.Errorf("a sync commit has at most one parent")
	}
	const branch = "refs/orc/fast-import" // never written: reset before the end
	var in bytes.Buffer
	paths := sortedPaths(files)
	for i, p := range paths {
		fmt.Fprintf(&in, "blob\nmark :%d\ndata %d\n", i+1, len(files[p]))
		in.Write(files[p])
		in.WriteString("\n")
	}
	date := fmt.Sprintf("%d +0000", who.When.Unix())
	fmt.Fprintf(&in, "commit %s\nmark :%d\n", branch, len(paths)+1)
	fmt.Fprintf(&in, "author %s <%s> %s\ncommitter %s <%s> %s\n", who.Name, who.Email, date, who.Name, who.Email, date)
	fmt.Fprintf(&in, "data %d\n%s\n", len(message)+1, message)
	for _, p := range parents {
		fmt.Fprintf(&in, "from %s\n", p)
	}
	in.WriteString("deleteall\n")
	for i, p := range paths {
		fmt.Fprintf(&in, "M 100644 :%d %s\n", i+1, quotePath(p))
	}
	fmt.Fprintf(&in, "\nget-mark :%d\nreset %s\n\ndone\n", len(paths)+1, branch)
	out, err := l.RunWith(ctx, in.Bytes(), nil, "fast-import", "--quiet", "--done", "--date-format=raw")
	if err != nil {
		return "", err
	}
	return strings.TrimSpace(string(out)), nil
}

// quotePath writes a path as a C-style quoted string, as fast-import reads
// it: any byte may appear in a session file's name.
func quotePath(p string) string {
	var b strings.Builder
	b.WriteByte('"')
	for i := 0; i < len(p); i++ {
		switch c := p[i]; {
		case c == '"' || c == '\\':
			b.WriteByte('\\')
			b.WriteByte(c)
		case c < 0x20 || c == 0x7f:
			fmt.Fprintf(&b, "\\%03o", c)
		default:
			b.WriteByte(c)
		}
	}
	b.WriteByte('"')
	return b.String()
}

func sortedPaths[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for p := range m {
		out = append(out, p)
	}
	sort.Strings(out)
	return out
}

// ListRefs returns the refs under prefix (e.g. "refs/orc/sessions/") with
// the ids they point at: read from the ref files when they can give git's
// exact answer (refsFromFiles), else from `git for-each-ref`.
func (l Layout) ListRefs(ctx context.Context, prefix string) (map[string]string, error) {
	if refs, ok := l.refsFromFiles(prefix); ok {
		return refs, nil
	}
	out, err := l.RunWith(ctx, nil, nil, "for-each-ref", "--format=%(objectname) %(refname)", prefix)
	if err != nil {
		return nil, err
	}
	refs := map[string]string{}
	for _, line := range strings.Split(string(out), "\n") {
		if id, name, ok := strings.Cut(line, " "); ok {
			refs[name] = id
		}
	}
	return refs, nil
}

// RefUpdate is one change of a ref: New "" deletes it. With Check, the
// ref must be at Old ("" meaning absent) for the update to happen.
type RefUpdate struct {
	Name, New, Old string
	Check          bool
}

// UpdateRefs applies every update in one transaction: all of them or none.
func (l Layout) UpdateRefs(ctx context.Context, updates []RefUpdate) error {
	if len(updates) == 0 {
		return nil
	}
	var in strings.Builder
	for _, u := range updates {
		switch {
		case u.New == "" && u.Check && u.Old != "":
			fmt.Fprintf(&in, "delete %s %s\n", u.Name, u.Old)
		case u.New == "":
			fmt.Fprintf(&in, "delete %s\n", u.Name)
		case u.Check && u.Old == "":
			fmt.Fprintf(&in, "create %s %s\n", u.Name, u.New)
		case u.Check:
			fmt.Fprintf(&in, "update %s %s %s\n", u.Name, u.New, u.Old)
		default:
			fmt.Fprintf(&in, "update %s %s\n", u.Name, u.New)
		}
	}
	_, err := l.RunWith(ctx, []byte(in.String()), nil, "update-ref", "--stdin")
	return err
}

// IsAncestor reports whether commit a is an ancestor of (or equal to)
// commit b.
func (l Layout) IsAncestor(ctx context.Context, a, b string) (bool, error) {
	_, err := l.RunWith(ctx, nil, nil, "merge-base", "--is-ancestor", a, b)
	var exit *exec.ExitError
	switch {
	case err == nil:
		return true, nil
	case errors.As(err, &exit) && exit.ExitCode() == 1:
		return false, nil
	default:
		return false, err
	}
}

// Fetch runs `git fetch` of refspec from remote without tags, submodules or
// FETCH_HEAD, pruning the destination refs the remote no longer has.
func (l Layout) Fetch(ctx context.Context, remote, refspec string) error {
	_, err := l.RunWith(ctx, nil, nil, "fetch", "--quiet", "--no-tags", "--prune", "--no-write-fetch-head", "--no-auto-maintenance",
		"--recurse-submodules=no", remote, refspec)
	return err
}

// PushUpdate asks the remote to set Ref to Commit, only if it is at Expect
// now ("" meaning absent): a compare-and-swap, so a push that lost a race
// is rejected instead of overwriting the winner.
type PushUpdate struct {
	Ref, Commit, Expect string
}

// PushResult is the remote's answer for one ref.
type PushResult struct {
	Ref string
	OK  bool
	// Reason is git's summary for a rejected ref, such as "stale info",
	// "fetch first" or "pre-receive hook declined".
	Reason string
}

// Push sends every update in one `git push --porcelain`; each ref is
// accepted or rejected on its own. The error is for a push that failed as
// a whole (no connection, no such remote): then no ref was updated.
func (l Layout) Push(ctx context.Context, remote string, updates []PushUpdate) ([]PushResult, error) {
	args := []string{"push", "--porcelain", remote}
	for _, u := range updates {
		args = append(args, "--force-with-lease="+u.Ref+":"+u.Expect)
	}
	for _, u := range updates {
		args = append(args, u.Commit+":"+u.Ref)
	}
	cmd, err := l.command(ctx, nil, args...)
	if err != nil {
		return nil, err
	}
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	runErr := cmd.Run()
	results := parsePorcelain(stdout.String())
	if len(results) == 0 {
		if runErr == nil {
			runErr = errors.New("no answer for any ref")
		}
		return nil, pushFailure(runErr, stderr.Bytes())
	}
	said := remoteSaid(stderr.String())
	var out []PushResult
	for _, u := range updates {
		r, ok := results[u.Ref]
		if !ok {
			r = PushResult{Ref: u.Ref, Reason: "no answer from the remote: " + firstLine(stderr.String())}
		}
		if !r.OK && said != "" && strings.HasPrefix(r.Reason, "remote rejected") {
			r.Reason += " (remote: " + said + ")" // the hook's own words
		}
		out = append(out, r)
	}
	return out, nil
}

// remoteSaid is the first message line the remote sent ("remote: ..." on
// git's stderr: a hook's own words, such as why it refused), with control
// characters escaped; "" when it sent none.
func remoteSaid(stderr string) string {
	for _, line := range strings.Split(stderr, "\n") {
		msg, ok := strings.CutPrefix(strings.TrimRight(line, "\r"), "remote:")
		if msg = strings.TrimSpace(msg); ok && msg != "" {
			return escapeControls(msg)
		}
	}
	return ""
}

// escapeControls shows control characters (and line and bidi controls)
// as Go escapes, so text from another machine cannot drive a terminal.
func escapeControls(s string) string {
	var b strings.Builder
	for _, r := range s {
		if unicode.IsControl(r) || r == '\u2028' || r == '\u2029' || unicode.Is(unicode.Bidi_Control, r) {
			q := strconv.QuoteRune(r)
			b.WriteString(q[1 : len(q)-1])
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

// parsePorcelain reads the `<flag>\t<from>:<to>\t<summary>` lines of
// `git push --porcelain`.
func parsePorcelain(out string) map[string]PushResult {
	results := map[string]PushResult{}
	for _, line := range strings.Split(out, "\n") {
		parts := strings.SplitN(line, "\t", 3)
		if len(parts) != 3 || len(parts[0]) != 1 {
			continue
		}
		_, to, ok := strings.Cut(parts[1], ":")
		if !ok {
			continue
		}
		r := PushResult{Ref: to, OK: parts[0] != "!"}
		if !r.OK {
			r.Reason = rejection(parts[2])
		}
		results[to] = r
	}
	return results
}

// rejection turns "[rejected] (stale info)" into "stale info", and
// "[remote rejected] (hook declined)" into "remote rejected: hook declined".
func rejection(summary string) string {
	kind, reason, _ := strings.Cut(summary, " (")
	reason = strings.TrimSuffix(reason, ")")
	kind = strings.Trim(kind, "[]")
	switch {
	case reason == "":
		return kind
	case kind == "rejected":
		return reason
	default:
		return kind + ": " + reason
	}
}

// pushFailure tells a push that failed as a whole by the first line of its
// stderr: a pre-push hook's or the remote's own words come before git's
// "error: failed to push some refs".
func pushFailure(err error, stderr []byte) error {
	if line := firstLine(string(stderr)); line != "" {
		return &gitError{msg: "git push: " + line, err: err}
	}
	return fmt.Errorf("git push: %w", err)
}

func firstLine(s string) string {
	for _, line := range strings.Split(s, "\n") {
		if line = strings.TrimSpace(line); line != "" {
			return line
		}
	}
	return ""
}
