package cli

// What artifact put and artifact check share: the NAME rules, HEAD, and
// the stamp of a text artifact.

import (
	"encoding/json"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/orc-state/orc-state/internal/fault"
	"github.com/orc-state/orc-state/internal/gitx"
	"github.com/orc-state/orc-state/internal/journal"
	"github.com/orc-state/orc-state/internal/portable"
	"github.com/orc-state/orc-state/internal/safetext"
	"github.com/orc-state/orc-state/internal/state"
	"github.com/orc-state/orc-state/internal/textin"
)

// maxArtifactName bounds an artifact path, in bytes.
const maxArtifactName = 240

// checkArtifactName refuses a NAME that is not a safe relative path inside
// files/: absolute, with "..", too long, hidden, or a file another verb owns
// (for writing, any; for artifact check, one that is not stamped).
func checkArtifactName(name string, write bool) error {
	if o, ok := ownedFile(name); ok && (write || !o.Stamped) {
		return fault.Usagef("%s is written by %s, not by artifact put", o.Name, o.Writer).
			WithHint("store the artifact under another name")
	}
	switch {
	case name == "" || len(name) > maxArtifactName:
		return fault.Usagef("artifact name must be 1..%d bytes", maxArtifactName)
	case strings.Contains(name, "\\") || textin.SingleLine("", name) != nil:
		return fault.Usagef("artifact name %q has characters that are not allowed", name)
	case path.IsAbs(name) || path.Clean(name) != name:
		return fault.Usagef("artifact name %q must be a clean relative path (no leading /, no .., no //)", name)
	case strings.HasPrefix(name, "../") || name == "..":
		return fault.Usagef("artifact name %q leaves files/", name)
	case !strings.HasSuffix(name, ".json") && !isTextArtifact(name):
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

// newArtifactName refuses a name for a new artifact that is not in the
// safe alphabet: each part between slashes is a name safetext.NameProblem
// accepts (docs/protocol.md §4, "Names"). An artifact already stored keeps
// its name.
func newArtifactName(name string) error {
	for _, part := range strings.Split(name, "/") {
		if p := safetext.NameProblem(part, maxArtifactName); p != "" {
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

// caseVariant refuses NAME when files/ holds a file or folder on its path
// whose name differs only in case: macOS and Windows would read or replace
// that one, Linux another, and a session must mean the same everywhere.
func caseVariant(filesDir, name string) error {
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

// noSymlinks refuses a path under files/ that passes through a symlink.
func noSymlinks(filesDir, name string) error {
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

// headSHA returns HEAD's full sha in the current repository; git work
// happens before the lock.
func (e *Env) headSHA() (string, error) {
	d, err := e.Dir()
	if err != nil {
		return "", err
	}
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

// isTextArtifact reports whether name is a text artifact's.
func isTextArtifact(name string) bool {
	for _, ext := range textExts {
		if strings.HasSuffix(name, ext) {
			return true
		}
	}
	return false
}

// textStamp is the stamp of a text artifact: the arguments of the journal
// line of the artifact put that stored it.
type textStamp struct {
	Name        string `json:"name"`
	HeadSha     string `json:"headSha"`
	Sha256      string `json:"sha256"`
	GeneratedAt string `json:"generatedAt"`
}

// lastStamp returns the stamp of the last artifact put of name in the
// session's journal; ok is false when no line stored it.
func lastStamp(d *state.Dir, id, name string) (st textStamp, ok bool, err error) {
	entries, _, err := journal.Read(d.File(id, journal.FileName))
	if err != nil {
		return st, false, fault.Wrap(fault.Invalid, err, "cannot read the journal of session %s", id)
	}
	for i := len(entries) - 1; i >= 0; i-- {
		if entries[i].Verb != "artifact put" {
			continue
		}
		var s textStamp
		if json.Unmarshal(entries[i].Args, &s) == nil && s.Name == name {
			return s, s.HeadSha != "" && s.Sha256 != "", nil
		}
	}
	return st, false, nil
}

func short(sha string) string {
	if len(sha) > 12 {
		return sha[:12]
	}
	return sha
}
