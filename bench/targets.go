package main

import (
	"fmt"
	"time"
)

// applyTargets fills in every row's ratios, target and verdict once every
// group has been measured (the targets of docs/performance.md):
//
//   - 1 session: a read ≤ 1.8× the floor, a mutation ≤ 3× the floor;
//   - the mid-size registry (1,000 sessions): every verb ≤ 1.3× its
//     1-session median;
//   - the large registry (10,000 sessions): reads ≤ 2×, mutations ≤ 3× their
//     1-session median, and peak RSS ≤ 4× orc.json's size + 16 MiB;
//   - verbs whose output grows with the sessions (sessions, cleanup, doctor,
//     sync status) have no ratio target beyond 1 session: they are reported
//     in ms per 1,000 sessions;
//   - git-bound verbs on the large work tree: ≤ 1.15× the git floor (a
//     static Go program that runs the same git status and reads it; git
//     status itself is shown as its ratio to it);
//   - the statusline's hot paths (warm cache, hook post-tool-use): ≤ 2×
//     line in the same rounds;
//   - line, statusline and slice claim in a bound worktree and beside it
//     in the main worktree: the 1-session targets, against the floor of
//     the same rounds.
func applyTargets(rs []result) {
	find := func(role groupRole, key string) *result {
		for i := range rs {
			if rs[i].group.role == role && rs[i].c.key == key && rs[i].note == "" {
				return &rs[i]
			}
		}
		return nil
	}
	for i := range rs {
		r := &rs[i]
		if r.note != "" {
			continue
		}
		g := r.group
		if f := find(g.role, floorKey); f != nil && r.c.key != floorKey && g.role != roleGit && g.role != roleHot {
			r.overFloor = ratio(r.median, f.median)
		}
		if one := find(roleOne, r.c.key); one != nil && g.role != roleOne && g.role != roleGit && g.role != roleHot && g.role != roleBound {
			r.overOne = ratio(r.median, one.median)
			if r.c.class == classSweep && g.sessions > 1 {
				r.perK = (r.median - one.median) * 1000 / time.Duration(g.sessions-1)
			}
		}
		var limit float64
		var over, what string
		switch {
		case g.role == roleHot && r.c.class == classGitRef:
			r.target = "reference"
			continue
		case g.role == roleHot && r.c.class == classRef:
			if ref := find(roleHot, r.c.ref); ref != nil {
				r.overFloor = ratio(r.median, ref.median)
				limit, what = refTimes, "× `"+r.c.ref+"`"
			}
		case g.role == roleHot:
		case r.c.class == classFloor:
			r.target = "reference"
			continue
		case g.role == roleGit && r.c.class == classGitRef:
			if ref := find(roleGit, gitFloorKey); ref != nil {
				r.overFloor = ratio(r.median, ref.median)
			}
			r.target = "git itself, for comparison"
			continue
		case g.role == roleGit && r.c.class == classGitFloor:
			r.target = "reference: the least any tool that runs git status costs"
			continue
		case g.role == roleGit:
			if ref := find(roleGit, gitFloorKey); ref != nil {
				r.overFloor = ratio(r.median, ref.median)
				limit, what = gitOverFloor, "× git floor"
			}
		case (g.role == roleOne || g.role == roleBound) && (r.c.class == classRead || r.c.read):
			limit, what = readOverFloor, "× floor"
		case (g.role == roleOne || g.role == roleBound) && r.c.class == classWrite:
			limit, what = writeOverFloor, "× floor"
		case g.role == roleOne || g.role == roleBound:
		case r.c.class == classSweep:
			r.target = "ms per 1,000 sessions"
		case g.role == roleMid:
			limit, what = midOverOne, "× 1 session"
		case g.role == roleLarge && r.c.class == classWrite:
			limit, what = largeWriteOver, "× 1 session"
		case g.role == roleLarge:
			limit, what = largeReadOver, "× 1 session"
		}
		verdict := ""
		if limit > 0 {
			got := r.overOne
			if what != "× 1 session" {
				got = r.overFloor
			}
			r.target = "≤ " + limitText(limit) + what
			verdict = "PASS"
			if got > limit {
				verdict, over = "OVER", "time"
			}
		}
		if g.role == roleLarge && r.c.exe == "" {
			budget := rssPerByte*g.registry + rssSlack
			if r.target != "" {
				r.target += "; "
			}
			r.target += "RSS ≤ " + mib(budget)
			if verdict == "" {
				verdict = "PASS"
			}
			if r.rss > budget {
				verdict = "OVER"
				if over != "" {
					over += ", "
				}
				over += "RSS"
			}
		}
		if r.c.class == classWrite && r.fsyncs[1] > maxFsyncs {
			if r.target != "" {
				r.target += "; "
			}
			r.target += fmt.Sprintf("≤ %d fsyncs", maxFsyncs)
			verdict = "OVER"
			if over != "" {
				over += ", "
			}
			over += "fsyncs"
		}
		r.verdict = verdict
		if over != "" {
			r.verdict = "OVER (" + over + ")"
		}
	}
}

func ratio(a, b time.Duration) float64 {
	if b <= 0 {
		return 0
	}
	return float64(a) / float64(b)
}

// limitText writes a target's limit with one decimal, or two when it has
// them (1.8, 3.0, 1.15).
func limitText(limit float64) string {
	if s := fmt.Sprintf("%.1f", limit); s+"0" == fmt.Sprintf("%.2f", limit) {
		return s
	}
	return fmt.Sprintf("%.2f", limit)
}
