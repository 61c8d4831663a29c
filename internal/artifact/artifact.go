// Package artifact owns the artifacts of a session's files/ that
// `artifact put` stores and `artifact check` judges (docs/protocol.md §12):
// the NAME rules (a safe, portable relative path, never a file another verb
// owns, never through a symlink or beside a case variant), the stamp (HEAD
// and generatedAt in a JSON object; the journal line of the put for text),
// storing one inside the caller's transaction, and judging one against
// HEAD (Judge: fresh, stale or missing). The verbs read stdin, find HEAD
// before the lock and print.
package artifact

import (
	"bytes"
	"encoding/json"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/orc-state/orc-state/internal/fault"
	"github.com/orc-state/orc-state/internal/gitx"
	"github.com/orc-state/orc-state/internal/hexid"
	"github.com/orc-state/orc-state/internal/input"
	"github.com/orc-state/orc-state/internal/journal"
	"github.com/orc-state/orc-state/internal/portable"
	"github.com/orc-state/orc-state/internal/safetext"
	"github.com/orc-state/orc-state/internal/state"
	"github.com/orc-state/orc-state/internal/strictjson"
	"github.com/orc-state/orc-state/internal/textin"
)

// maxName bounds an artifact path, in bytes.
const maxName = 240

// CheckName refuses a NAME that is not a safe relative path inside
// files/: absolute, with "..", too long, hidden, or a file another verb owns
// (for writing, any; for artifact check, one that is not stamped). Store
// checks the rest under the lock.
func CheckName(name string, write bool) error {
	if o, ok := ownedFile(name); ok && (write || !o.Stamped) {
		return fault.Usagef("%s is written by %s, not by artifact put", o.Name, o.Writer).
			WithHint("store the artifact under another name")
	}
	switch {
	case name == "" || len(name) > maxName:
		return fault.Usagef("artifact name must be 1..%d bytes", maxName)
	case strings.Contains(name, "\\") || textin.SingleLine("", name) != nil:
		return fault.Usagef("artifact name %q has characters that are not allowed", name)
	case path.IsAbs(name) || path.Clean(name) != name:
		return fault.Usagef("artifact name %q must be a clean relative path (no leading /, no .., no //)", name)
	case strings.HasPrefix(name, "../") || name == "..":
		return fault.Usagef("artifact name %q leaves files/", name)
	case !strings.HasSuffix(name, ".json") && !IsText(name):
		return fault.Usagef("artifact name %q must end in .json (a JSON object) or .md or .txt (text)", name)
	}
	for _, part := range strings.Split(name, "/") {
		if part == ".." || strings.HasPrefix(part, ".") {
			return fault.Usagef("artifact name %q has a hidden or parent component", name)
		}
		if p := portable.Problem(part); p != "" {
			return fault.Usagef("artifact name %q: %s", name, p).
				WithHint("artifacts move between machines; use a name Linux, macOS and Windows can all store")
		}
		if p := state.NameProblem(part); p != "" { // the rule every import and restore applies too
			return fault.Usagef("artifact name %q: %s", name, p)
		}
	}
	return nil
}

// checkNewName refuses a name for a new artifact that is not in the
// safe alphabet: each part between slashes is a name safetext.NameProblem
// accepts (docs/protocol.md §4, "Names"). An artifact already stored keeps
// its name.
func checkNewName(name string) error {
	for _, part := range strings.Split(name, "/") {
		if p := safetext.NameProblem(part, maxName); p != "" {
			return fault.Usagef("artifact name %q: %q %s; each part of a new artifact name uses only %s", name, part, p, safetext.Alphabet)
		}
	}
	return nil
}

// ownedFile returns the session file that name is, also on macOS and
// Windows, which ignore case ("Slices.json" is slices.json there), when
// a verb other than artifact put writes it (state.SessionFiles, whose
// Writer artifact_put_owned_files.txtar holds to what the verbs write).
func ownedFile(name string) (state.SessionFile, bool) {
	for _, f := range state.SessionFiles {
		if f.Writer != "" && (f.Name == name || portable.Same(f.Name, name)) {
			return f, true
		}
	}
	return state.SessionFile{}, false
}

// CaseVariant refuses NAME when files/ holds a file or folder on its path
// whose name differs only in case: macOS and Windows would read or replace
// that one, Linux another, and a session must mean the same everywhere.
func CaseVariant(filesDir, name string) error {
	var walked []string
	for _, part := range strings.Split(name, "/") {
		entries, err := os.ReadDir(filepath.Join(append([]string{filesDir}, walked...)...))
		if err != nil {
			return nil // the rest does not exist yet
		}
		for _, en := range entries {
			if portable.Same(en.Name(), part) {
				return fault.Usagef("artifact name %q differs only in case from the stored %s; macOS and Windows treat them as one", name, path.Join(append(walked, en.Name())...)).
					WithHint("use the stored name's spelling")
			}
		}
		walked = append(walked, part)
	}
	return nil
}

// NoSymlinks refuses a path under files/ that passes through a symlink.
func NoSymlinks(filesDir, name string) error {
	p := filesDir
	for _, part := range strings.Split(name, "/") {
		p = filepath.Join(p, part)
		st, err := os.Lstat(p)
		if err != nil {
			return nil // the rest does not exist yet
		}
		if st.Mode()&os.ModeSymlink != 0 {
			return fault.Usagef("%s is a symlink; artifacts are never written through one", p)
		}
	}
	return nil
}

// Head returns HEAD's full sha in the repository of d, which artifacts
// are stamped with; git work happens before the lock.
func Head(d *state.Dir) (string, error) {
	if d.Git == nil {
		return "", fault.Usagef("not inside a git repository; artifacts are stamped with HEAD")
	}
	r, err := gitx.OpenLayout(*d.Git)
	if err != nil {
		return "", fault.Wrap(fault.Invalid, err, "cannot open the repository")
	}
	defer r.Close()
	h, err := r.Head()
	if err != nil {
		return "", fault.Wrap(fault.Invalid, err, "cannot read HEAD")
	}
	if h.Unborn {
		return "", fault.Usagef("HEAD has no commits yet; commit first, artifacts are stamped with HEAD")
	}
	return h.SHA, nil
}

// textExts are the endings of text artifacts: stored as given, stamped
// in the journal (docs/protocol.md §12).
var textExts = []string{".md", ".txt"}

// IsText reports whether name is a text artifact's.
func IsText(name string) bool {
	for _, ext := range textExts {
		if strings.HasSuffix(name, ext) {
			return true
		}
	}
	return false
}

// Stamp is the stamp of a text artifact: the arguments of the journal
// line of the artifact put that stored it.
type Stamp struct {
	Name        string `json:"name"`
	HeadSha     string `json:"headSha"`
	Sha256      string `json:"sha256"`
	GeneratedAt string `json:"generatedAt"`
}

// LastStamp returns the stamp of the last artifact put of name in the
// session's journal; ok is false when no line stored it.
func LastStamp(d *state.Dir, id, name string) (st Stamp, ok bool, err error) {
	entries, _, err := journal.Read(d.File(id, journal.FileName))
	if err != nil {
		return st, false, fault.Wrap(fault.Invalid, err, "cannot read the journal of session %s", id)
	}
	for i := len(entries) - 1; i >= 0; i-- {
		if entries[i].Verb != "artifact put" {
			continue
		}
		var s Stamp
		if json.Unmarshal(entries[i].Args, &s) == nil && s.Name == name {
			return s, s.HeadSha != "" && s.Sha256 != "", nil
		}
	}
	return st, false, nil
}

// Parse checks what stdin holds for artifact name: text (not empty) or a
// JSON object (returned), UTF-8, no NUL, nothing credential-shaped.
func Parse(name string, data []byte) (map[string]json.RawMessage, error) {
	if IsText(name) {
		if len(data) == 0 {
			return nil, fault.Usagef("stdin is empty; a text artifact holds its text").
				WithHint("orc-state artifact put %s - reads the artifact from stdin: redirect the file into it", safetext.Operand(name))
		}
		return nil, input.CheckText("the artifact", data)
	}
	var obj map[string]json.RawMessage
	if err := strictjson.Check(data); err != nil {
		return nil, fault.Usagef("stdin is not valid JSON: %v", err)
	}
	if err := json.Unmarshal(data, &obj); err != nil || obj == nil {
		return nil, fault.Usagef("stdin must be a JSON object")
	}
	if err := input.CheckText("the artifact", data); err != nil {
		return nil, err
	}
	return obj, nil
}

// Stamped is artifact name as stored and its stamp, the journal line's
// arguments, at HEAD head and time at: text as given (the stamp carries
// generatedAt), a JSON object (obj, from Parse) with headSha and
// generatedAt added.
func Stamped(name string, text []byte, obj map[string]json.RawMessage, head, at string) ([]byte, map[string]string, error) {
	if IsText(name) {
		return text, map[string]string{"name": name, "headSha": head, "sha256": journal.Sum(text), "generatedAt": at}, nil
	}
	obj["headSha"], _ = json.Marshal(head)
	obj["generatedAt"], _ = json.Marshal(at)
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(obj); err != nil {
		return nil, nil, err
	}
	return buf.Bytes(), map[string]string{"name": name, "headSha": head, "sha256": journal.Sum(buf.Bytes())}, nil
}

// Store writes data as files/NAME of session id inside tx, with stamp as
// the journal line's arguments. The same text at the same HEAD again
// writes nothing: its stamp stands.
func Store(tx *state.Tx, id, name string, data []byte, stamp map[string]string) error {
	if err := NoSymlinks(tx.Dir().FilesDir(id), name); err != nil {
		return err
	}
	if err := CaseVariant(tx.Dir().FilesDir(id), name); err != nil {
		return err
	}
	old, err := tx.Read(id, name)
	if err != nil {
		return err
	}
	if old == nil {
		if err := checkNewName(name); err != nil {
			return err
		}
	}
	if IsText(name) && string(old) == string(data) {
		if st, ok, err := LastStamp(tx.Dir(), id, name); err != nil {
			return err
		} else if ok && st.HeadSha == stamp["headSha"] && st.Sha256 == stamp["sha256"] {
			return nil
		}
	}
	tx.Write(id, name, data)
	tx.Touch(id, stamp)
	return nil
}

// Verdict is what artifact check says of a stored artifact: its State
// (fresh, stale or missing), the HEAD its stamp names as printed ("-" when
// it has none), and, unless fresh, the exit-1 error saying why and what to
// do.
type Verdict struct {
	State, Stamp string
	Err          error
}

// Judge judges artifact name of session id in d against HEAD head: a JSON
// object by its headSha, text by its stamp, the journal line of the put
// that stored it (fresh when that was at HEAD and the file still holds
// those bytes). err is a refusal (a symlink, a case variant, a file it
// cannot read), with no verdict.
func Judge(d *state.Dir, id, name, head string) (Verdict, error) {
	if err := NoSymlinks(d.FilesDir(id), name); err != nil {
		return Verdict{}, err
	}
	if err := CaseVariant(d.FilesDir(id), name); err != nil {
		return Verdict{}, err
	}
	data, err := d.ReadFile(id, name)
	if err != nil {
		return Verdict{}, err
	}
	if data == nil {
		return Verdict{"missing", "-", fault.NotFoundf("artifact %s does not exist", name).WithHint("produce it, then orc-state artifact put --session=%s %s -", safetext.Quote(id), safetext.Operand(name))}, nil
	}
	if IsText(name) {
		return judgeText(d, id, name, data, head)
	}
	var stamp struct {
		HeadSha string `json:"headSha"`
	}
	if json.Unmarshal(data, &stamp) != nil || stamp.HeadSha == "" {
		return Verdict{"stale", "-", fault.NotFoundf("artifact %s carries no headSha stamp", name).WithHint("regenerate it, then orc-state artifact put --session=%s %s -", safetext.Quote(id), safetext.Operand(name))}, nil
	}
	if stamp.HeadSha != head {
		return Verdict{"stale", safetext.Escape(stamp.HeadSha), fault.NotFoundf("artifact %s was generated at %s; HEAD is %s", name, hexid.Short(stamp.HeadSha), hexid.Short(head)).
			WithHint("regenerate it at HEAD, then orc-state artifact put --session=%s %s -", safetext.Quote(id), safetext.Operand(name))}, nil
	}
	return Verdict{"fresh", stamp.HeadSha, nil}, nil
}

// judgeText judges a text artifact by its stamp.
func judgeText(d *state.Dir, id, name string, data []byte, head string) (Verdict, error) {
	st, ok, err := LastStamp(d, id, name)
	if err != nil {
		return Verdict{}, err
	}
	switch {
	case !ok:
		return Verdict{"stale", "-", fault.NotFoundf("artifact %s was not stored by artifact put; it carries no stamp", name).
			WithHint("store it with orc-state artifact put --session=%s %s -", safetext.Quote(id), safetext.Operand(name))}, nil
	case journal.Sum(data) != st.Sha256:
		return Verdict{"stale", safetext.Escape(st.HeadSha), fault.NotFoundf("artifact %s changed since artifact put stored it at %s", name, st.GeneratedAt).
			WithHint("store it again with orc-state artifact put --session=%s %s -", safetext.Quote(id), safetext.Operand(name))}, nil
	case st.HeadSha != head:
		return Verdict{"stale", safetext.Escape(st.HeadSha), fault.NotFoundf("artifact %s was generated at %s; HEAD is %s", name, hexid.Short(st.HeadSha), hexid.Short(head)).
			WithHint("regenerate it at HEAD, then orc-state artifact put --session=%s %s -", safetext.Quote(id), safetext.Operand(name))}, nil
	}
	return Verdict{"fresh", st.HeadSha, nil}, nil
}
