package repair

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/orc-state/orc-state/checkpoint"
	"github.com/orc-state/orc-state/internal/archive"
	"github.com/orc-state/orc-state/internal/fault"
	"github.com/orc-state/orc-state/internal/journal"
	"github.com/orc-state/orc-state/internal/safetext"
	"github.com/orc-state/orc-state/internal/selection"
	"github.com/orc-state/orc-state/internal/state"
	"github.com/orc-state/orc-state/internal/verify"
	"github.com/orc-state/orc-state/registry"
)

// damagedPrefix names the copy of an unreadable orc.json that repair
// --rebuild-registry keeps aside in the state dir: .orc.json.damaged-TIME.
const damagedPrefix = ".orc.json.damaged-"

// Rebuild is `repair --rebuild-registry`: when orc.json cannot be
// read, it writes a new one from the sessions' folders, each entry from
// its checkpoint.md frontmatter (which mirrors it) and its journal (the
// start, and what the frontmatter does not mirror: the description, the
// plan file, the linked PRs), the damaged file kept aside as
// .orc.json.damaged-TIME. Each entry's source is printed and journaled. A
// readable orc.json is never replaced (exit 2). It returns a line per
// folder (rebuilt from what, or skipped why) and the name the damaged
// file is kept under ("" when there was none). tx must be opened raw: the
// registry unread.
func Rebuild(tx *state.Tx) (out []string, kept string, err error) {
	if tx.Raw != nil {
		if _, err := registry.Parse(tx.Raw); err == nil {
			return nil, "", fault.Usagef("orc.json is readable; repair --rebuild-registry replaces only one that is not, so nothing was written").
				WithHint("orc-state doctor says what else is wrong")
		}
	}
	d := tx.Dir()
	entries, err := os.ReadDir(d.Path)
	if err != nil {
		return nil, "", fault.Wrap(fault.Invalid, err, "cannot list %s", d.Path)
	}
	reg := &registry.Registry{Schema: registry.Schema, Sessions: []registry.Session{}}
	branches := map[string]string{}
	for _, en := range entries {
		name := en.Name()
		if !en.IsDir() || archive.OrphanNameProblem(name) != "" || verify.PerRepo[name] || selection.IsLinkFolder(d, name) || !verify.SessionShaped(d, name) {
			continue
		}
		s, source, err := entryFromFolder(tx, name)
		if err != nil {
			out = append(out, fmt.Sprintf("skipped %s: %v", safetext.Escape(name), err))
			continue
		}
		if other, ok := branches[s.GitBranch]; ok {
			out = append(out, fmt.Sprintf("skipped %s: branch %s is session %s's already", safetext.Escape(name), safetext.Escape(s.GitBranch), safetext.Escape(other)))
			continue
		}
		branches[s.GitBranch] = name
		reg.Sessions = append(reg.Sessions, s)
		out = append(out, fmt.Sprintf("rebuilt %s from %s", safetext.Escape(name), source))
	}
	if tx.Raw == nil && len(reg.Sessions) == 0 {
		return nil, "", fault.NotFoundf("no orc.json and no session folder in %s; there is nothing to rebuild", d.Path).
			WithHint("orc-state init starts a session")
	}
	sort.Slice(reg.Sessions, func(i, j int) bool { return reg.Sessions[i].SessionID < reg.Sessions[j].SessionID })
	if err := reg.Validate(); err != nil {
		return nil, "", fault.Invalidf("the rebuilt registry is invalid: %v; nothing was written", err).WithHint("fix orc.json by hand")
	}
	if tx.Raw != nil {
		base := damagedPrefix + strings.ReplaceAll(strings.ReplaceAll(d.Now(), ":", ""), "-", "")
		kept = base
		for n := 2; ; n++ { // never over a copy kept before
			if _, err := os.Lstat(filepath.Join(d.Path, kept)); os.IsNotExist(err) {
				break
			}
			kept = fmt.Sprintf("%s-%d", base, n)
		}
		tx.WriteState(kept, tx.Raw)
	}
	tx.Reg = reg
	tx.RegistryChanged()
	for i := range tx.Reg.Sessions {
		s := &tx.Reg.Sessions[i]
		tx.Replace(s.SessionID) // the entry is new; there is no readable one to compare
		if err := tx.Mirror(s); err != nil {
			return nil, "", err
		}
		args := map[string]string{"fix": "rebuild-registry", "from": "checkpoint frontmatter and journal"}
		if kept != "" {
			args["damaged"] = kept
		}
		tx.Touch(s.SessionID, args)
	}
	return out, kept, nil
}

// entryFromFolder rebuilds the registry entry of session folder name from
// its checkpoint's frontmatter and its journal, and says from what.
func entryFromFolder(tx *state.Tx, name string) (registry.Session, string, error) {
	var s registry.Session
	if err := registry.CheckKey(name); err != nil {
		return s, "", err
	}
	data, err := tx.Read(name, state.CheckpointFile)
	if err != nil {
		return s, "", err
	}
	doc := checkpoint.Parse(data)
	if data == nil || doc.Front == nil {
		return s, "", fmt.Errorf("no checkpoint with valid frontmatter (orc-state repair --remove-orphan=%s removes it, archived first: orc-state session restore %s brings it back)", safetext.Quote(name), safetext.Operand(name))
	}
	fm := doc.Front
	if fm.Branch != name {
		return s, "", fmt.Errorf("its checkpoint names branch %s", safetext.Escape(fm.Branch))
	}
	phase, err := registry.ParsePhase(fm.Phase)
	if err != nil {
		return s, "", err
	}
	s = registry.Session{SessionID: name, Branch: name, GitBranch: fm.GitBranch, Command: fm.Command,
		Status: fm.Status, Phase: phase, PhaseLabel: registry.Str(fm.PhaseLabel), TotalPhases: fm.TotalPhases,
		JiraTicket: registry.Str(fm.JiraTicket), LinkedPRs: []registry.PR{}, StartedAt: fm.UpdatedAt, UpdatedAt: fm.UpdatedAt}
	source := "files/checkpoint.md frontmatter"
	lines, _, _ := journal.Read(tx.Dir().File(name, journal.FileName))
	if len(lines) > 0 {
		s.StartedAt = lines[0].At
		for _, l := range lines {
			switch l.Verb {
			case "init":
				var a struct {
					Description *string `json:"description"`
					PlanFile    *string `json:"planFile"`
				}
				if json.Unmarshal(l.Args, &a) == nil {
					if a.Description != nil {
						s.Description = *a.Description
					}
					if a.PlanFile != nil {
						s.PlanFile = a.PlanFile
					}
				}
			case "link-pr":
				var pr registry.PR
				if json.Unmarshal(l.Args, &pr) == nil && pr.URL != "" {
					s.LinkedPRs = linkPR(s.LinkedPRs, pr)
				}
			}
		}
		source += fmt.Sprintf(", start, description, plan file and %d linked PR(s) from files/journal.jsonl (%d lines)", len(s.LinkedPRs), len(lines))
	}
	if err := s.Validate(); err != nil {
		return s, "", err
	}
	return s, source, nil
}

// linkPR is prs with pr linked: its entry replaced when its URL is there.
func linkPR(prs []registry.PR, pr registry.PR) []registry.PR {
	for i := range prs {
		if prs[i].URL == pr.URL {
			prs[i] = pr
			return prs
		}
	}
	return append(prs, pr)
}
