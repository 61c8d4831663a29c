package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// boardSessions and boardSlices are the board's large case: every session
// live, each with a ledger of boardSlices/boardSessions slices, chained by
// dependencies, a claim on the first of every other session's.
const (
	boardSessions = 100
	boardSlices   = 500
)

// boardRepo is a repository of boardSessions live sessions (sessionRepo)
// whose fillers get a ledger each, installed and claimed by real orc-state
// processes, so the board reads what agents would have written.
func (h *harness) boardRepo(name string) (string, error) {
	repo, err := h.sessionRepo(name, boardSessions)
	if err != nil {
		return "", err
	}
	per := boardSlices / boardSessions
	var b strings.Builder
	b.WriteString(`{"slices": [`)
	for i := 1; i <= per; i++ {
		if i > 1 {
			b.WriteString(", ")
		}
		dep := ""
		if i > 1 {
			dep = fmt.Sprintf(`, "dependsOn": ["s%d"]`, i-1)
		}
		fmt.Fprintf(&b, `{"id": "s%d", "title": "board slice %d"%s}`, i, i, dep)
	}
	b.WriteString("]}\n")
	plan := filepath.Join(h.tmp, name+"-plan.json")
	if err := os.WriteFile(plan, []byte(b.String()), 0o644); err != nil {
		return "", err
	}
	for i := 0; i < boardSessions-1; i++ {
		branch := fillerBranch(i)
		if _, err := h.orc(repo, "", "slice", "init", plan, "--branch", branch); err != nil {
			return "", err
		}
		if i%2 == 0 {
			if _, err := h.orc(repo, "", "slice", "claim", "--branch", branch, "--agent", "bench-"+branch); err != nil {
				return "", err
			}
		}
	}
	return repo, nil
}

// boardGroup times board on the 1-session repository and on the board
// fixture, against the floor on the 1-session repository in the same
// rounds: the board of 100 live sessions and 500 slices is held to the
// 1-session read target (≤ 1.8× that floor), which the bound-worktree
// role applies.
func boardGroup(one, many string, h *harness) group {
	cases := []benchCase{
		{key: floorKey, label: "floor, 1 session (read orc.json, write it to /dev/null)", exe: h.floor, args: static(), class: classFloor, dir: one},
		{key: "get", label: "`get`, 1 session (for comparison)", args: static("get"), class: classRead, dir: one},
		{key: "board one", label: "`board`, 1 session", args: static("board"), class: classRead, dir: one, want: "main  flow"},
		{key: "board", label: fmt.Sprintf("`board`, %d live sessions, %d slices", boardSessions, boardSlices), args: static("board"), class: classRead, dir: many, want: "held by bench-b00000"},
		{key: "board json", label: fmt.Sprintf("`board --json`, %d live sessions, %d slices", boardSessions, boardSlices), args: static("board", "--json"), class: classRead, dir: many, want: `"leaseLeftSeconds"`},
	}
	return group{name: fmt.Sprintf("board (%d sessions, %d slices)", boardSessions, boardSlices), role: roleBound, sessions: boardSessions,
		registry: fileSize(many, ".orc/orc.json"), repo: many, cases: cases}
}
