package cli

import (
	"reflect"
	"strings"

	"github.com/alecthomas/kong"

	"github.com/orc-state/orc-state/internal/app"
)

// verbs is orc-state's whole command line, in the order --help lists it:
// a verb's words, its one-line help, and its flags struct, whose Run (in
// the file named after the verb: phase_set.go for "phase set") does the
// work. An entry without a struct is a family, the heading under which
// the two-word verbs that follow it are listed. This list is the only
// place a verb is registered.
var verbs = []verb{
	{"init", "Register the branch's session (or update the flags passed); prints the sessionId.", InitCmd{}},
	{"current", "Print the current branch's session entry.", CurrentCmd{}},
	{"get", "Print a session entry, or one raw field of it.", GetCmd{}},
	{"sessions", "List sessions as TSV (sessionId command phase/total status gitBranch; --header names the columns).", SessionsCmd{}},
	{"board", "One screen for the person in charge: every live session's phase, slices, claims and leases, worktrees, decisions, events and findings (--watch: live).", BoardCmd{}},
	{"line", "One line of compact JSON for statuslines; silent and exit 0 on any problem.", LineCmd{}},
	{"phase", "Set the session's phase.", nil},
	{"phase set", "Set the phase: an integer 1..totalPhases, or done.", PhaseSetCmd{}},
	{"status", "Set the session's status.", nil},
	{"status set", "Set the status.", StatusSetCmd{}},
	{"link-pr", "Link a pull request to the session (the same URL is updated, not duplicated).", LinkPRCmd{}},
	{"jira", "Bind or unbind the session's Jira key.", nil},
	{"jira bind", "Bind a Jira key.", JiraBindCmd{}},
	{"jira unbind", "Unbind the Jira key.", JiraUnbindCmd{}},
	{"digest", "Write the Resume digest from stdin.", nil},
	{"digest write", "Replace the Resume digest with stdin (refused, not truncated, when over cap or malformed); the one replaced is archived.", DigestWriteCmd{}},
	{"digest restore", "Write back the digest a digest write replaced (from its archive; run again to go back).", DigestRestoreCmd{}},
	{"checkpoint", "Write the Auto-checkpoint section (phase, slices, HEAD, dirty files); never touches the digest.", CheckpointCmd{}},
	{"verify", "Check a session's files against the registry, the caps, the journal and git.", VerifyCmd{}},
	{"resume", "Print one bounded resume packet: entry, digest, git reality, cross-checks, re-entry slice, findings.", ResumeCmd{}},
	{"migrate", "Upgrade a legacy registry to schema 1, losing nothing silently.", MigrateCmd{}},
	{"session", "Remove a session, or bring a removed one back.", nil},
	{"session remove", "Remove a session: its entry and its folder, archived first (tombstone in removed.jsonl).", SessionRemoveCmd{}},
	{"session restore", "Bring a removed session back from its archive (ID[@TIME]): entry and files, byte for byte.", SessionRestoreCmd{}},
	{"log", "Print a session's journal.", LogCmd{}},
	{"slice", "The slice ledger (slices.json).", nil},
	{"slice init", "Install the ledger from FILE (validated; refuses to overwrite progress without --force); the one replaced is archived.", SliceInitCmd{}},
	{"slice restore", "Write back the ledger a slice init replaced (from its archive; run again to go back).", SliceRestoreCmd{}},
	{"slice set", "Move a slice through the status machine.", SliceSetCmd{}},
	{"slice list", "List slices; with --status, exit 1 while any matches (0 = none left).", SliceListCmd{}},
	{"slice next", "Print the re-entry slice; exit 1 when none is ready.", SliceNextCmd{}},
	{"slice verify", "Readiness checks on the plan; writes readiness.json; exit 1 on FAIL.", SliceVerifyCmd{}},
	{"slice claim", "Claim the first ready slice for this agent under a lease; prints its id; exit 1 when none is ready.", SliceClaimCmd{}},
	{"slice renew", "Extend your claim on a slice to --lease from now.", SliceRenewCmd{}},
	{"slice release", "Give up your claim on a slice (another agent's only with --force).", SliceReleaseCmd{}},
	{"worktree", "Bind linked worktrees to a session, so parallel agents work on its ledger (worktrees.json).", nil},
	{"worktree add", "git worktree add PATH, then bind the new worktree to the session (--session, else the one selected here).", WorktreeAddCmd{}},
	{"worktree join", "Bind the linked worktree this runs in to a session (--session, else $ORC_SESSION).", WorktreeJoinCmd{}},
	{"worktree leave", "Unbind a worktree (this one, or PATH, also a gone one); the worktree itself stays.", WorktreeLeaveCmd{}},
	{"worktree remove", "git worktree remove PATH, then unbind it; refused while its agent holds live claims unless --force.", WorktreeRemoveCmd{}},
	{"worktree list", "List the worktrees: path, branch, session, bound agent, live claims (TSV or --json).", WorktreeListCmd{}},
	{"decision", "Settled decisions (decisions.json), write-once.", nil},
	{"decision set", "Settle a key (exit 1 if settled to another value, unless --supersede).", DecisionSetCmd{}},
	{"decision get", "Print a settled value (or the whole file).", DecisionGetCmd{}},
	{"gate", "Verdict-gated phases with a retry budget.", nil},
	{"gate record", "Record a verdict on the current phase: approved advances it, changes_requested counts a retry.", GateRecordCmd{}},
	{"gate show", "Print the recorded verdicts and retry counts.", GateShowCmd{}},
	{"progress", "Append to progress.md.", nil},
	{"progress append", "Append stdin to progress.md as a dated section; earlier bytes are never rewritten.", ProgressAppendCmd{}},
	{"artifact", "Persisted gate inputs stamped with HEAD.", nil},
	{"artifact put", "Store a JSON object from stdin as files/NAME, stamped with headSha and generatedAt.", ArtifactPutCmd{}},
	{"artifact check", "Exit 0 when files/NAME was generated at HEAD, 1 when stale or missing.", ArtifactCheckCmd{}},
	{"hook", "Claude Code hook entry points (read the hook JSON on stdin; always exit 0).", nil},
	{"hook pre-compact", "PreCompact: write the Auto-checkpoint; prints nothing.", HookPreCompactCmd{}},
	{"hook session-start", "SessionStart: inject the resume packet (compact, resume) or a banner (startup, clear).", HookSessionStartCmd{}},
	{"hook subagent-start", "SubagentStart: tell a subagent its session, its agent id and the claim protocol (at most 1,000 characters).", HookSubagentStartCmd{}},
	{"hook subagent-stop", "SubagentStop: release the stopped subagent's claims on open slices; prints nothing.", HookSubagentStopCmd{}},
	{"hook session-end", "SessionEnd: write the Auto-checkpoint (best effort: not fired on every exit); prints nothing.", HookSessionEndCmd{}},
	{"hook stop-failure", "StopFailure: write the Auto-checkpoint when a turn ends on an API error; prints nothing.", HookStopFailureCmd{}},
	{"hook worktree-create", "WorktreeCreate: git worktree add, bind it to the session; prints the path.", HookWorktreeCreateCmd{}},
	{"hook worktree-remove", "WorktreeRemove: git worktree remove, then unbind it.", HookWorktreeRemoveCmd{}},
	{"hook stop", "Stop: refresh the Auto-checkpoint when HEAD or the dirty set changed.", HookStopCmd{}},
	{"hook post-tool-use", "PostToolUse: the context monitor; once per tier (red 80%, critical 90%), advice to write the digest.", HookPostToolUseCmd{}},
	{"statusline", "Render a Claude Code statusline from its stdin JSON (no lock, no git subprocess).", StatuslineCmd{}},
	{"install", "Write the statusLine entry into a Claude settings file, merging with what is there.", InstallCmd{}},
	{"repo", "Per-repository state of a workspace session.", nil},
	{"repo set", "Set a member repository's path, branch, worktree, current slice or PR.", RepoSetCmd{}},
	{"workspace", "Workspace scope: link member repositories back to the workspace session.", nil},
	{"workspace link", "Write .orc/<sessionId>/workspace-link.json into each member repository.", WorkspaceLinkCmd{}},
	{"sync", "Move session state between machines through git refs (refs/orc/sessions/*).", nil},
	{"sync push", "Publish each session's changes on refs/orc/sessions/<id>; one line per session.", SyncPushCmd{}},
	{"sync pull", "Import each remote session this machine is behind on; one line per session.", SyncPullCmd{}},
	{"sync status", "Per session: in sync, ahead, behind, diverged, not pushed, remote only; and the archives.", SyncStatusCmd{}},
	{"sync resolve", "End a divergence by keeping one side; the other is archived under refs/orc/archive/.", SyncResolveCmd{}},
	{"sync restore", "Take an archived side back as a local change that the next push publishes.", SyncRestoreCmd{}},
	{"cleanup", "Sweep finished sessions (archived first): prints the plan; live ones are protected unless --force. --archives sweeps archives.", CleanupCmd{}},
	{"archive", "What destructive verbs kept before they removed it.", nil},
	{"archive list", "List the archives: session, time, kind, verb, files, size, where.", ArchiveListCmd{}},
	{"doctor", "Check the whole state dir: registry, orphans, entries without folders, temp files, the lock, every session.", DoctorCmd{}},
	{"repair", "Apply a fix doctor names: regenerate a mirror (default), --temp, --adopt NAME, --remove-orphan NAME, --redact, --redact-removed.", RepairCmd{}},
	{"completion", "Print the shell completion script for bash, zsh or fish (eval \"$(orc-state completion bash)\").", CompletionCmd{}},
	{"version", "Print the version.", VersionCmd{}},
}

// verb is one entry of verbs.
type verb struct {
	words string // "phase set"
	help  string
	flags any // a zero flags struct; nil for a family heading
}

// enums are the value lists flag tags take from the formats
// (app.TheChoices), as ${name} (kong interpolates them in enum and help
// tags).
var enums = func() kong.Vars {
	c := app.TheChoices()
	last := len(c.Provenances) - 1
	return kong.Vars{
		"session_statuses":      strings.Join(c.SessionStatuses, ","),
		"session_statuses_help": strings.Join(c.SessionStatuses, ", "),
		"slice_statuses":        strings.Join(c.SliceStatuses, ","),
		"verdicts":              strings.Join(c.Verdicts, ","),
		"verdicts_help":         strings.Join(c.Verdicts, " or "),
		"scope_workspace":       c.ScopeWorkspace,
		"provenances":           strings.Join(c.Provenances, "|"), // checked in Run, whose refusal names them
		"provenances_help":      strings.Join(c.Provenances[:last], ", ") + " or " + c.Provenances[last],
	}
}()

// enumsFor is the part of enums the tags of model use. kong interpolates
// every variable it is given once for every flag, with a regexp, whether
// the flag uses it or not: with all of enums that was a sixth of a verb's
// instructions.
func enumsFor(model any) kong.Vars {
	used := kong.Vars{}
	var walk func(t reflect.Type)
	walk = func(t reflect.Type) {
		for i := 0; i < t.NumField(); i++ {
			f := t.Field(i)
			for name, value := range enums {
				if !strings.Contains(string(f.Tag), "${") {
					break // most tags use none
				}
				if strings.Contains(string(f.Tag), "${"+name+"}") {
					used[name] = value
				}
			}
			if f.Type.Kind() == reflect.Struct {
				walk(f.Type)
			}
		}
	}
	walk(reflect.TypeFor[Globals]())
	for _, c := range model.(*cmdLine).cmds {
		walk(reflect.TypeOf(c.flags).Elem())
	}
	return used
}
