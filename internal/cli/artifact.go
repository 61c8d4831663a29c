package cli

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"strings"
	"unicode/utf8"

	"github.com/orc-state/orc-state/internal/fault"
	"github.com/orc-state/orc-state/internal/gitx"
	"github.com/orc-state/orc-state/internal/journal"
	"github.com/orc-state/orc-state/internal/portable"
	"github.com/orc-state/orc-state/internal/state"
	"github.com/orc-state/orc-state/internal/strictjson"
	"github.com/orc-state/orc-state/registry"
)

// maxArtifactName bounds an artifact path, in bytes.
const maxArtifactName = 240

// owned are the files/ names that only their own verbs write.
var owned = map[string]bool{
	state.CheckpointFile: true, state.LedgerFile: true, state.DecisionsFile: true,
	state.ProgressFile: true, journal.FileName: true,
}

// checkArtifactName refuses a NAME that is not a safe relative path inside
// files/: absolute, with "..", too long, hidden, or a file another verb owns.
func checkArtifactName(name string) error {
	switch {
	case name == "" || len(name) > maxArtifactName:
		return fault.Usagef("artifact name must be 1..%d bytes", maxArtifactName)
	case !utf8.ValidString(name) || strings.ContainsAny(name, "\\\x00\n\r"):
		return fault.Usagef("artifact name %q has characters that are not allowed", name)
	case path.IsAbs(name) || path.Clean(name) != name:
		return fault.Usagef("artifact name %q must be a clean relative path (no leading /, no .., no //)", name)
	case strings.HasPrefix(name, "../") || name == "..":
		return fault.Usagef("artifact name %q leaves files/", name)
	case ownedName(name) != "":
		return fault.Usagef("%s is written by its own verb, not by artifact put", ownedName(name))
	case !strings.HasSuffix(name, ".json"):
		return fault.Usagef("artifact name %q must end in .json", name)
	}
	for _, part := range strings.Split(name, "/") {
		if part == ".." || strings.HasPrefix(part, ".") {
			return fault.Usagef("artifact name %q has a hidden or parent component", name)
		}
		if p := portable.Problem(part); p != "" {
			return fault.Usagef("artifact name %q: %s", name, p).
				WithHint("artifacts move between machines; use a name Linux, macOS and Windows can all store")
		}
	}
	return nil
}

// ownedName returns the owned file that name is, also on macOS and
// Windows, which ignore case ("Slices.json" is slices.json there), or "".
func ownedName(name string) string {
	for o := range owned {
		if o == name || portable.Same(o, name) {
			return o
		}
	}
	return ""
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
	r, err := gitx.Open(d.Git.WorktreeRoot)
	if err != nil {
		return "", fault.Wrap(fault.Invalid, err, "cannot open the repository")
	}
	h, err := r.Head()
	if err != nil {
		return "", fault.Wrap(fault.Invalid, err, "cannot read HEAD")
	}
	if h.Unborn {
		return "", fault.Usagef("HEAD has no commits yet; commit first, artifacts are stamped with HEAD")
	}
	return h.SHA, nil
}

// Run stores a JSON object from stdin as files/NAME, stamped with HEAD.
func (c *ArtifactPutCmd) Run(e *Env) error {
	if c.Source != "-" {
		return fault.Usagef("the artifact is read from stdin only").WithHint("orc-state artifact put %s - < file.json", c.Name)
	}
	if err := checkArtifactName(c.Name); err != nil {
		return err
	}
	data, err := e.readStdin()
	if err != nil {
		return err
	}
	var obj map[string]json.RawMessage
	if err := strictjson.Check(data); err != nil {
		return fault.Usagef("stdin is not valid JSON: %v", err)
	}
	if err := json.Unmarshal(data, &obj); err != nil || obj == nil {
		return fault.Usagef("stdin must be a JSON object")
	}
	if err := checkText("the artifact", data); err != nil {
		return err
	}
	head, err := e.headSHA()
	if err != nil {
		return err
	}
	obj["headSha"], _ = json.Marshal(head)
	obj["generatedAt"], _ = json.Marshal(registry.Now())
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(obj); err != nil {
		return err
	}
	return e.onSession(c.Branch, func(tx *state.Tx, s *registry.Session) error {
		if err := noSymlinks(tx.Dir().FilesDir(s.SessionID), c.Name); err != nil {
			return err
		}
		if err := caseVariant(tx.Dir().FilesDir(s.SessionID), c.Name); err != nil {
			return err
		}
		tx.Write(s.SessionID, c.Name, buf.Bytes())
		tx.Touch(s.SessionID, map[string]string{"name": c.Name, "headSha": head, "sha256": journal.Sum(buf.Bytes())})
		return nil
	})
}

// Run exits 0 when the artifact's stamp equals HEAD, 1 when stale or missing.
func (c *ArtifactCheckCmd) Run(e *Env) error {
	if err := checkArtifactName(c.Name); err != nil {
		return err
	}
	d, _, s, err := e.Session(c.Branch)
	if err != nil {
		return err
	}
	head, err := e.headSHA()
	if err != nil {
		return err
	}
	if err := noSymlinks(d.FilesDir(s.SessionID), c.Name); err != nil {
		return err
	}
	if err := caseVariant(d.FilesDir(s.SessionID), c.Name); err != nil {
		return err
	}
	data, err := d.ReadFile(s.SessionID, c.Name)
	if err != nil {
		return err
	}
	if data == nil {
		fmt.Fprintf(e.Stdout, "missing\t-\t%s\n", head)
		return fault.NotFoundf("artifact %s does not exist", c.Name).WithHint("produce it, then orc-state artifact put %s -", c.Name)
	}
	var stamp struct {
		HeadSha string `json:"headSha"`
	}
	if json.Unmarshal(data, &stamp) != nil || stamp.HeadSha == "" {
		fmt.Fprintf(e.Stdout, "stale\t-\t%s\n", head)
		return fault.NotFoundf("artifact %s carries no headSha stamp", c.Name).WithHint("regenerate it, then orc-state artifact put %s -", c.Name)
	}
	if stamp.HeadSha != head {
		fmt.Fprintf(e.Stdout, "stale\t%s\t%s\n", stamp.HeadSha, head)
		return fault.NotFoundf("artifact %s was generated at %s; HEAD is %s", c.Name, short(stamp.HeadSha), short(head)).
			WithHint("regenerate it at HEAD, then orc-state artifact put %s -", c.Name)
	}
	fmt.Fprintf(e.Stdout, "fresh\t%s\t%s\n", stamp.HeadSha, head)
	return nil
}

func short(sha string) string {
	if len(sha) > 12 {
		return sha[:12]
	}
	return sha
}

func validUTF8(b []byte) bool { return utf8.Valid(b) }
