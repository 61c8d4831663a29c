package clitest

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/orc-state/orc-state/internal/journal"
	"github.com/orc-state/orc-state/internal/state"
	"github.com/orc-state/orc-state/registry"
)

// plant DIR SESSION OLD NEW plays an older orc-state that let NEW (a
// credential) in wherever OLD stands: in the session's registry entry
// (orc.json, with its proof), in every file under its files/ folder,
// content and names, and in the journal's lines; then it does what that
// release's writes did, so the chain is valid: the journal is chained
// again over the changed lines, one line with the files' digests is
// appended, and the anchor pins the new tip. verify then finds nothing
// but the stored credential. The binary refuses to write one, so a
// scenario of repair --redact builds its old state with this.
func plant(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 4 {
		ts.Fatalf("usage: plant DIR SESSION OLD NEW")
	}
	ts.Check(PlantSecret(ts.MkAbs(args[0]), args[1], args[2], args[3]))
}

// PlantSecret is plant's work on the state dir dir.
func PlantSecret(dir, id, oldText, newText string) error {
	d := &state.Dir{Path: dir}
	old, repl := []byte(oldText), []byte(newText)

	regData, err := os.ReadFile(d.RegistryPath())
	if err != nil {
		return err
	}
	regData = bytes.ReplaceAll(regData, old, repl)
	if err := os.WriteFile(d.RegistryPath(), regData, 0o644); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(d.Path, state.ProofFile), registry.Proof(regData), 0o644); err != nil {
		return err
	}

	filesDir := d.FilesDir(id)
	var paths []string
	err = filepath.WalkDir(filesDir, func(p string, de fs.DirEntry, err error) error {
		if err == nil && de.Type().IsRegular() {
			paths = append(paths, p)
		}
		return err
	})
	if err != nil {
		return err
	}
	for _, p := range paths {
		if name := filepath.Base(p); name == journal.FileName || name == journal.AnchorName {
			continue
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(filesDir, p)
		to := filepath.Join(filesDir, strings.ReplaceAll(rel, oldText, newText))
		if err := os.MkdirAll(filepath.Dir(to), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(to, bytes.ReplaceAll(data, old, repl), 0o644); err != nil {
			return err
		}
		if to != p {
			if err := os.Remove(p); err != nil {
				return err
			}
		}
	}

	// The journal: each line as that release would have written it, each
	// prev naming the line before as it is now.
	jpath := filepath.Join(filesDir, journal.FileName)
	data, err := os.ReadFile(jpath)
	if err != nil {
		return err
	}
	var out []byte
	prevOld, prevNew := "", ""
	for _, line := range bytes.SplitAfter(data, []byte("\n")) {
		if len(line) == 0 {
			continue
		}
		body := bytes.TrimSuffix(line, []byte("\n"))
		sumOld := journal.Sum(body)
		body = bytes.ReplaceAll(body, old, repl)
		if prevOld != "" {
			body = bytes.Replace(body, []byte(`"prev":"`+prevOld+`"`), []byte(`"prev":"`+prevNew+`"`), 1)
		}
		prevOld, prevNew = sumOld, journal.Sum(body)
		out = append(append(out, body...), '\n')
	}
	reg, err := registry.Parse(regData)
	if err != nil {
		return err
	}
	digests, err := d.Digests(reg, id)
	if err != nil {
		return err
	}
	line, _, err := journal.TailOf(out).Next(journal.Entry{At: registry.Stamp(time.Now()), Actor: "cli", Verb: "digest write", Digests: digests})
	if err != nil {
		return err
	}
	out = append(out, line...)
	if err := os.WriteFile(jpath, out, 0o644); err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(filesDir, journal.AnchorName), journal.AnchorOf(journal.TailOf(out)).Marshal(), 0o644)
}
