package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"

	"github.com/orc-state/orc-state/internal/journal"
	"github.com/orc-state/orc-state/registry"
)

// templateBranch is the filler session registered for real; every other
// filler is generated from it. Filler names all have its length, so
// replacing the name keeps every other byte of its files in place.
const templateBranch = "b00000"

func fillerBranch(i int) string { return fmt.Sprintf("b%05d", i) }

// generateFillers adds count-1 sessions to repo's registry without running
// orc-state once per session: each is a copy of the template filler (already
// registered by a real `init --branch b00000`) under another branch, with
// its own checkpoint and a journal whose digests match its files, so that
// verify, doctor and cleanup see a healthy session. Half of them go before
// the measured session (main) in orc.json and half after it.
func generateFillers(repo string, count int) error {
	if count <= 1 {
		return nil
	}
	state := filepath.Join(repo, ".orc")
	data, err := os.ReadFile(filepath.Join(state, "orc.json"))
	if err != nil {
		return err
	}
	reg, err := registry.Parse(data)
	if err != nil {
		return fmt.Errorf("the fixture's orc.json: %v", err)
	}
	var tmpl, main *registry.Session
	for i := range reg.Sessions {
		switch reg.Sessions[i].SessionID {
		case templateBranch:
			tmpl = &reg.Sessions[i]
		case sessionBranch:
			main = &reg.Sessions[i]
		}
	}
	if tmpl == nil || main == nil || len(reg.Sessions) != 2 {
		return fmt.Errorf("the fixture's orc.json should hold %s and %s only", templateBranch, sessionBranch)
	}
	files := filepath.Join(state, templateBranch, "files")
	checkpointText, err := os.ReadFile(filepath.Join(files, "checkpoint.md"))
	if err != nil {
		return err
	}
	entries, problems, err := journal.Read(filepath.Join(files, journal.FileName))
	if err != nil || len(problems) > 0 || len(entries) != 1 {
		return fmt.Errorf("the template journal: %d entries, %v, %v", len(entries), problems, err)
	}
	line := entries[0]

	sessions := make([]registry.Session, 0, count)
	sessions = append(sessions, *tmpl)
	half := count / 2
	for i := 1; i < count; i++ {
		if i == half {
			sessions = append(sessions, *main)
		}
		name := fillerBranch(i)
		s := *tmpl
		s.SessionID, s.Branch, s.GitBranch = name, name, name
		s.Description = bytesReplace(tmpl.Description, name)
		s.LinkedPRs = []registry.PR{}
		cp := []byte(bytesReplace(string(checkpointText), name))
		e := line
		e.Args = json.RawMessage(bytesReplace(string(line.Args), name))
		e.Digests.Entry = journal.Sum(s.Canonical())
		e.Digests.Checkpoint = journal.Sum(cp)
		jl, err := json.Marshal(e)
		if err != nil {
			return err
		}
		dir := filepath.Join(state, name, "files")
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(dir, "checkpoint.md"), cp, 0o644); err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(dir, journal.FileName), append(jl, '\n'), 0o644); err != nil {
			return err
		}
		sessions = append(sessions, s)
	}
	reg.Sessions = sessions
	out, err := reg.Marshal()
	if err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(state, "orc.json"), out, 0o644)
}

// bytesReplace replaces the template's branch name with name.
func bytesReplace(s, name string) string {
	return string(bytes.ReplaceAll([]byte(s), []byte(templateBranch), []byte(name)))
}
