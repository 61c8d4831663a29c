package packet

import (
	"fmt"
	"unicode/utf8"

	"github.com/orc-state/orc-state/internal/safetext"
	"github.com/orc-state/orc-state/registry"
)

// MaxHostContext is the host's cap on injected context, in characters.
const MaxHostContext = 10000

// HostContext is the packet as the SessionStart hook injects it: a
// one-line intro, then the packet, whose glance ends within the first
// 2,000 characters. The host keeps whole only what is within
// MaxHostContext characters (past it, a file path and a preview), and it
// counts the hook's whole answer: answer(context) is that answer, printed
// as compact JSON with HTML characters unescaped, and the packet is
// bounded until it is within MaxHostContext characters. It is "" when even
// the smallest packet (512 bytes) cannot fit.
func (p Packet) HostContext(answer func(context string) any) string {
	s := p.Session
	intro := fmt.Sprintf("orc-state: the workflow session %s (%s) is %s on this branch. "+
		"The packet below was read from .orc/ and cross-checked against git just now; findings are listed, not repaired.\n\n",
		safetext.Clip(s.SessionID, 60), safetext.Clip(s.Command, 30), safetext.Clip(s.Status, 20))
	context := ""
	for budget := MaxHostContext - len(intro) - 100; budget >= 512; {
		context = intro + p.Markdown(budget)
		over := utf8.RuneCount(encodeJSON(answer(context), "")) - MaxHostContext
		if over <= 0 {
			break
		}
		budget -= over // JSON's escapes (\n, \") are longer than what they stand for
	}
	return context
}

// MaxSubagentBrief bounds the subagent brief, in characters: it reaches
// every subagent's first request, so it stays short.
const MaxSubagentBrief = 1000

// SubagentBrief is what a subagent of session s is told as it starts,
// within MaxSubagentBrief characters: the session, its agent id for slice
// claims, then the four commands of the claim protocol with the session
// and agent spelled out as --flag=VALUE, so they work from any directory
// (a worktree of its own included) and no value reads as a flag. Its
// placeholders are plain words (ID, STATUS, SHA) with the choices said in
// words: nothing in it is shell syntax.
func SubagentBrief(s *registry.Session, agent string) string {
	sel := "--session=" + safetext.Quote(s.SessionID) + " --agent=" + safetext.Quote(agent)
	return safetext.Clip(fmt.Sprintf("orc-state: this subagent works for the workflow session %s (%s, phase %s/%d, branch %s); its agent id for slice claims is %s. "+
		"Slices are claimed so that parallel agents never take the same one. "+
		"Claim: `orc-state slice claim %s` prints the id of the next ready slice, held 30 minutes (exit 1: none is ready). "+
		"Renew: `orc-state slice renew ID %s` before the 30 minutes end, while still on it; a lapsed claim can be taken by another agent. "+
		"Record: `orc-state slice set ID --status=STATUS %s`, STATUS one of red, green, committed (committed also needs --commit=SHA). "+
		"Release: `orc-state slice release ID %s` when stopping before it is done.",
		safetext.Escape(s.SessionID), safetext.Escape(s.Command), s.Phase, s.TotalPhases, safetext.Escape(s.GitBranch), safetext.Escape(agent), sel, sel, sel, sel), MaxSubagentBrief)
}
