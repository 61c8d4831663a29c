package cli

import "time"

// Grammar is the whole command line of orc-state, in one place. Each verb
// is a struct with a Run(*Env) error method in its own file.
type Grammar struct {
	Dir         string        `help:"State dir (default: the main worktree root's .orc)." env:"ORC_STATE_DIR" placeholder:"DIR"`
	LockTimeout time.Duration `help:"How long a writer waits for the state lock." env:"ORC_LOCK_TIMEOUT" default:"5s"`

	Init       InitCmd       `cmd:"" help:"Register the branch's session (or update the flags passed); prints the sessionId."`
	Current    CurrentCmd    `cmd:"" help:"Print the current branch's session entry."`
	Get        GetCmd        `cmd:"" help:"Print a session entry, or one raw field of it."`
	Sessions   SessionsCmd   `cmd:"" help:"List sessions as TSV (sessionId command phase/total status gitBranch)."`
	Line       LineCmd       `cmd:"" help:"One line of compact JSON for statuslines; silent and exit 0 on any problem."`
	Phase      PhaseCmd      `cmd:"" help:"Set the session's phase."`
	Status     StatusCmd     `cmd:"" help:"Set the session's status."`
	LinkPR     LinkPRCmd     `cmd:"" name:"link-pr" help:"Link a pull request to the session (the same URL is updated, not duplicated)."`
	Jira       JiraCmd       `cmd:"" help:"Bind or unbind the session's Jira key."`
	Digest     DigestCmd     `cmd:"" help:"Write the Resume digest from stdin."`
	Checkpoint CheckpointCmd `cmd:"" help:"Write the Auto-checkpoint section (phase, slices, HEAD, dirty files); never touches the digest."`
	Verify     VerifyCmd     `cmd:"" help:"Check a session's files against the registry, the caps, the journal and git."`
	Resume     ResumeCmd     `cmd:"" help:"Print one bounded resume packet: entry, digest, git reality, cross-checks, re-entry slice, findings."`
	Migrate    MigrateCmd    `cmd:"" help:"Upgrade a legacy registry to schema 1, losing nothing silently."`
	Session    SessionCmd    `cmd:"" help:"Remove a session."`
	Log        LogCmd        `cmd:"" help:"Print a session's journal."`
	Slice      SliceCmd      `cmd:"" help:"The slice ledger (slices.json)."`
	Decision   DecisionCmd   `cmd:"" help:"Settled decisions (decisions.json), write-once."`
	Gate       GateCmd       `cmd:"" help:"Verdict-gated phases with a retry budget."`
	Progress   ProgressCmd   `cmd:"" help:"Append to progress.md."`
	Artifact   ArtifactCmd   `cmd:"" help:"Persisted gate inputs stamped with HEAD."`
	Hook       HookCmd       `cmd:"" help:"Claude Code hook entry points (read the hook JSON on stdin; always exit 0)."`
	Statusline StatuslineCmd `cmd:"" help:"Render a Claude Code statusline from its stdin JSON (no lock, no git subprocess)."`
	Install    InstallCmd    `cmd:"" help:"Write the statusLine entry into a Claude settings file, merging with what is there."`
	Repo       RepoCmd       `cmd:"" help:"Per-repository state of a workspace session."`
	Workspace  WorkspaceCmd  `cmd:"" help:"Workspace scope: link member repositories back to the workspace session."`
	Sync       SyncCmd       `cmd:"" help:"Move session state between machines through git refs (refs/orc/sessions/*)."`
	Cleanup    CleanupCmd    `cmd:"" help:"Sweep finished sessions: prints the plan; live ones are protected unless --force."`
	Doctor     DoctorCmd     `cmd:"" help:"Check the whole state dir: registry, orphans, entries without folders, temp files, the lock, every session."`
	Repair     RepairCmd     `cmd:"" help:"Apply a fix doctor names: regenerate a mirror (default), --temp, --adopt NAME, --remove-orphan NAME."`
	Completion CompletionCmd `cmd:"" help:"Print a bash completion script (eval \"$(orc-state completion)\")."`
	Version    VersionCmd    `cmd:"" help:"Print the version."`
}

// BranchFlag selects the session a verb acts on.
type BranchFlag struct {
	Branch string `help:"Branch (raw or sanitized) whose session to use; default: the current branch." placeholder:"B"`
}

// InitCmd is `init`.
type InitCmd struct {
	BranchFlag  `json:"-"`
	Command     string   `required:"" help:"The owning slash command (flow, plan, debug, ...)." json:"command"`
	TotalPhases int      `required:"" name:"total-phases" help:"Number of phases (≥ 1)." json:"totalPhases"`
	Description *string  `help:"Description, at most 120 characters." json:"description,omitempty"`
	Jira        *string  `help:"Jira key (e.g. ABC-123)." placeholder:"KEY" json:"jira,omitempty"`
	Scope       *string  `enum:"workspace," default:"" help:"Scope: workspace for a session spanning repositories." json:"scope,omitempty"`
	Repos       []string `sep:"," help:"Member repositories (with --scope workspace)." json:"repos,omitempty"`
	PlanFile    *string  `name:"plan-file" help:"Plan file the session follows." placeholder:"P" json:"planFile,omitempty"`
}

// CurrentCmd is `current`.
type CurrentCmd struct {
	BranchFlag
}

// GetCmd is `get`.
type GetCmd struct {
	BranchFlag
	Key   string `arg:"" optional:"" help:"Branch or sessionId (default: --branch, else the current branch)."`
	Field string `help:"Print only this top-level field, raw." placeholder:"F"`
}

// SessionsCmd is `sessions`.
type SessionsCmd struct {
	Status string `enum:"in_progress,paused,completed,abandoned," default:"" help:"Only sessions with this status."`
	JSON   bool   `name:"json" help:"JSON for pickers: newest first, with branchExists and worktree."`
}

// LineCmd is `line` (dispatched by runLine with a lenient parser; declared
// here for --help).
type LineCmd struct {
	BranchFlag
}

// PhaseCmd is `phase`.
type PhaseCmd struct {
	Set PhaseSetCmd `cmd:"" help:"Set the phase: an integer 1..totalPhases, or done."`
}

// PhaseSetCmd is `phase set`.
type PhaseSetCmd struct {
	BranchFlag
	Phase string `arg:"" help:"Phase number or done."`
	Label string `help:"Phase label (one line)." placeholder:"L"`
}

// StatusCmd is `status`.
type StatusCmd struct {
	Set StatusSetCmd `cmd:"" help:"Set the status."`
}

// StatusSetCmd is `status set`.
type StatusSetCmd struct {
	BranchFlag
	Status string `arg:"" enum:"in_progress,paused,completed,abandoned" help:"One of in_progress, paused, completed, abandoned."`
}

// LinkPRCmd is `link-pr`.
type LinkPRCmd struct {
	BranchFlag
	Repo          string `required:"" help:"Repository the PR belongs to."`
	URL           string `required:"" name:"url" help:"PR URL (its identity)."`
	Number        *int   `help:"PR number."`
	StackID       string `name:"stack-id" help:"Stack the PR belongs to."`
	StackPosition *int   `name:"stack-position" help:"Position in the stack."`
	StackedOn     string `name:"stacked-on" help:"URL of the PR below it."`
}

// JiraCmd is `jira`.
type JiraCmd struct {
	Bind   JiraBindCmd   `cmd:"" help:"Bind a Jira key."`
	Unbind JiraUnbindCmd `cmd:"" help:"Unbind the Jira key."`
}

// JiraBindCmd is `jira bind`.
type JiraBindCmd struct {
	BranchFlag
	Key string `arg:"" help:"Jira key, like ABC-123."`
}

// JiraUnbindCmd is `jira unbind`.
type JiraUnbindCmd struct {
	BranchFlag
}

// DigestCmd is `digest`.
type DigestCmd struct {
	Write DigestWriteCmd `cmd:"" help:"Replace the Resume digest with stdin (refused, not truncated, when over cap or malformed)."`
}

// DigestWriteCmd is `digest write -`.
type DigestWriteCmd struct {
	BranchFlag
	Source string `arg:"" optional:"" help:"Must be - (stdin)."`
}

// CheckpointCmd is `checkpoint --auto`.
type CheckpointCmd struct {
	BranchFlag
	Auto    bool   `help:"Required: write the mechanical Auto-checkpoint section."`
	Trigger string `default:"auto" help:"What triggered it (auto, manual, stop, ...)." placeholder:"T"`
}

// VerifyCmd is `verify`.
type VerifyCmd struct {
	BranchFlag
	Key  string `arg:"" optional:"" help:"Branch or sessionId."`
	JSON bool   `name:"json" help:"Findings as JSON."`
}

// ResumeCmd is `resume`.
type ResumeCmd struct {
	BranchFlag
	Key      string `arg:"" optional:"" help:"Branch or sessionId (default: the current branch's session)."`
	JSON     bool   `name:"json" help:"The packet as JSON."`
	MaxBytes int    `name:"max-bytes" default:"4096" help:"Upper bound of the packet, in bytes."`
}

// MigrateCmd is `migrate`.
type MigrateCmd struct{}

// SessionCmd is `session`.
type SessionCmd struct {
	Remove SessionRemoveCmd `cmd:"" help:"Remove a session: its entry and its folder (tombstone in removed.jsonl)."`
}

// SessionRemoveCmd is `session remove`.
type SessionRemoveCmd struct {
	Key   string `arg:"" help:"Branch or sessionId."`
	Force bool   `help:"Also remove an in_progress or paused session."`
}

// LogCmd is `log`.
type LogCmd struct {
	BranchFlag
	Key  string `arg:"" optional:"" help:"Branch or sessionId."`
	JSON bool   `name:"json" help:"Print the journal lines as JSON."`
}

// SliceCmd is `slice`.
type SliceCmd struct {
	Init    SliceInitCmd    `cmd:"" help:"Install the ledger from FILE (validated; refuses to overwrite progress without --force)."`
	Set     SliceSetCmd     `cmd:"" help:"Move a slice through the status machine."`
	List    SliceListCmd    `cmd:"" help:"List slices; with --status, exit 1 while any matches (0 = none left)."`
	Next    SliceNextCmd    `cmd:"" help:"Print the re-entry slice; exit 1 when none is ready."`
	Verify  SliceVerifyCmd  `cmd:"" help:"Readiness checks on the plan; writes readiness.json; exit 1 on FAIL."`
	Claim   SliceClaimCmd   `cmd:"" help:"Claim the first ready slice for this agent under a lease; prints its id; exit 1 when none is ready."`
	Renew   SliceRenewCmd   `cmd:"" help:"Extend your claim on a slice to --lease from now."`
	Release SliceReleaseCmd `cmd:"" help:"Give up your claim on a slice (another agent's only with --force)."`
}

// SliceInitCmd is `slice init FILE`.
type SliceInitCmd struct {
	BranchFlag
	File  string `arg:"" help:"A JSON file with a .slices array." type:"path"`
	Force bool   `help:"Replace a ledger that has progress (journaled)."`
}

// SliceSetCmd is `slice set ID --status S`.
type SliceSetCmd struct {
	BranchFlag
	AgentFlag
	ID        string `arg:"" help:"Slice id."`
	Status    string `required:"" enum:"pending,red,green,committed,escalated,skipped" help:"Target status."`
	Commit    string `help:"Commit sha (required for committed)." placeholder:"SHA"`
	ActualLoc *int   `name:"actual-loc" help:"Lines of code actually changed." placeholder:"N"`
	Note      string `help:"Note (required for skipped and escalated)." placeholder:"S"`
	Force     bool   `help:"Leave a terminal status (committed, skipped), or act on a slice another agent claims; journaled."`
}

// SliceListCmd is `slice list`.
type SliceListCmd struct {
	BranchFlag
	Status []string `sep:"," enum:"pending,red,green,committed,escalated,skipped" help:"Only these statuses (comma-separated)."`
	JSON   bool     `name:"json" help:"JSON rows."`
}

// SliceNextCmd is `slice next`.
type SliceNextCmd struct {
	BranchFlag
}

// SliceVerifyCmd is `slice verify`.
type SliceVerifyCmd struct {
	BranchFlag
	Budget int  `help:"LOC budget per slice (default $ORC_PR_LOC_BUDGET, else 300)." placeholder:"N"`
	Quiet  bool `help:"Print nothing; the exit code says FAIL."`
}

// DecisionCmd is `decision`.
type DecisionCmd struct {
	Set DecisionSetCmd `cmd:"" help:"Settle a key (exit 1 if settled to another value, unless --supersede)."`
	Get DecisionGetCmd `cmd:"" help:"Print a settled value (or the whole file)."`
}

// DecisionSetCmd is `decision set K V`.
type DecisionSetCmd struct {
	BranchFlag
	Key        string `arg:"" help:"Key."`
	Value      string `arg:"" help:"Value (one line)."`
	Provenance string `required:"" help:"flag, asked, policy or inferred."`
	Supersede  bool   `help:"Replace a settled value (the old one is kept in history)."`
}

// DecisionGetCmd is `decision get [K]`.
type DecisionGetCmd struct {
	BranchFlag
	Key  string `arg:"" optional:"" help:"Key (default: print the whole file)."`
	Echo bool   `help:"Print 'using settled decision: K=V (provenance)'."`
}

// GateCmd is `gate`.
type GateCmd struct {
	Record GateRecordCmd `cmd:"" help:"Record a verdict on the current phase: approved advances it, changes_requested counts a retry."`
	Show   GateShowCmd   `cmd:"" help:"Print the recorded verdicts and retry counts."`
}

// GateRecordCmd is `gate record PHASE --verdict V`.
type GateRecordCmd struct {
	BranchFlag
	Phase    int    `arg:"" help:"The phase the verdict is about (the current one)."`
	Verdict  string `required:"" enum:"approved,changes_requested" help:"approved or changes_requested."`
	Reviewer string `help:"Who gave the verdict." placeholder:"R"`
	Note     string `help:"One-line note." placeholder:"N"`
}

// GateShowCmd is `gate show`.
type GateShowCmd struct {
	BranchFlag
	JSON bool `name:"json" help:"JSON."`
}

// ProgressCmd is `progress`.
type ProgressCmd struct {
	Append ProgressAppendCmd `cmd:"" help:"Append stdin to progress.md as a dated section; earlier bytes are never rewritten."`
}

// ProgressAppendCmd is `progress append -`.
type ProgressAppendCmd struct {
	BranchFlag
	Source string `arg:"" optional:"" help:"Must be - (stdin)."`
	Title  string `help:"Section title (one line); default Progress." placeholder:"T"`
}

// ArtifactCmd is `artifact`.
type ArtifactCmd struct {
	Put   ArtifactPutCmd   `cmd:"" help:"Store a JSON object from stdin as files/NAME, stamped with headSha and generatedAt."`
	Check ArtifactCheckCmd `cmd:"" help:"Exit 0 when files/NAME was generated at HEAD, 1 when stale or missing."`
}

// ArtifactPutCmd is `artifact put NAME -`.
type ArtifactPutCmd struct {
	BranchFlag
	Name   string `arg:"" help:"Relative path inside files/, ending in .json."`
	Source string `arg:"" optional:"" help:"Must be - (stdin)."`
}

// ArtifactCheckCmd is `artifact check NAME`.
type ArtifactCheckCmd struct {
	BranchFlag
	Name string `arg:"" help:"Relative path inside files/."`
}

// HookCmd is `hook`.
type HookCmd struct {
	PreCompact   HookPreCompactCmd   `cmd:"" name:"pre-compact" help:"PreCompact: write the Auto-checkpoint; prints nothing."`
	SessionStart HookSessionStartCmd `cmd:"" name:"session-start" help:"SessionStart: inject the resume packet (compact, resume) or a banner (startup, clear)."`
	Stop         HookStopCmd         `cmd:"" help:"Stop: refresh the Auto-checkpoint when HEAD or the dirty set changed."`
	PostToolUse  HookPostToolUseCmd  `cmd:"" name:"post-tool-use" help:"PostToolUse: the context monitor; once per tier (red 80%, critical 90%), advice to write the digest."`
}

// HookPreCompactCmd is `hook pre-compact`.
type HookPreCompactCmd struct{}

// HookSessionStartCmd is `hook session-start`.
type HookSessionStartCmd struct{}

// HookStopCmd is `hook stop`.
type HookStopCmd struct{}

// HookPostToolUseCmd is `hook post-tool-use` (dispatched before the parser).
type HookPostToolUseCmd struct{}

// StatuslineCmd is `statusline`. Main dispatches it before the parser and
// reads these flags leniently (statuslineArgs); they are here for --help.
type StatuslineCmd struct {
	Style          string `help:"full (the default; narrows with the terminal) or compact (always one line)." placeholder:"STYLE"`
	ContextReserve int    `name:"context-reserve" help:"Percent of the context window kept back (e.g. the auto-compact buffer); the figure shown is the share of the rest." placeholder:"N"`
	Off            bool   `help:"Print nothing (the context level is still recorded for hook post-tool-use)."`
}

// InstallCmd is `install`.
type InstallCmd struct {
	Project bool `xor:"scope" help:"Write .claude/settings.json of this repository."`
	User    bool `xor:"scope" help:"Write ~/.claude/settings.json (the default)."`
	DryRun  bool `name:"dry-run" help:"Show the change; write nothing."`
	Force   bool `help:"Replace a statusLine that is not orc-state's."`
	// The statusline's options, written into its command (a statusline in
	// settings gets no plugin userConfig).
	Style          string `help:"Statusline style: full (narrows with the terminal) or compact (always one line)." enum:"full,compact" default:"full"`
	ContextReserve int    `name:"context-reserve" help:"Percent of the context window the statusline keeps back (0-99)." default:"0" placeholder:"N"`
	Off            bool   `help:"Statusline prints nothing (it still records the context level for hook post-tool-use)."`
}

// RepairCmd is `repair`.
type RepairCmd struct {
	BranchFlag
	Temp         bool   `help:"Remove temp files left by interrupted writes." xor:"fix"`
	Adopt        string `help:"Register an orphan folder from its checkpoint frontmatter." placeholder:"NAME" xor:"fix"`
	RemoveOrphan string `name:"remove-orphan" help:"Remove an orphan folder (tombstone in removed.jsonl)." placeholder:"NAME" xor:"fix"`
}

// RepoCmd is `repo`.
type RepoCmd struct {
	Set RepoSetCmd `cmd:"" help:"Set a member repository's path, branch, worktree, current slice or PR."`
}

// RepoSetCmd is `repo set NAME`.
type RepoSetCmd struct {
	Session    string `help:"Workspace session (branch or sessionId); default: the current branch's." placeholder:"S" json:"-"`
	Name       string `arg:"" help:"Member repository name (one of the session's repos)." json:"name"`
	Path       string `help:"The member repository's path." placeholder:"P" json:"path,omitempty"`
	RepoBranch string `name:"branch" help:"The member's branch." placeholder:"B" json:"branch,omitempty"`
	Worktree   string `help:"The member's worktree." placeholder:"W" json:"worktree,omitempty"`
	Slice      *int   `help:"The slice the member is on." placeholder:"N" json:"slice,omitempty"`
	PR         string `name:"pr" help:"The member's PR URL." placeholder:"URL" json:"pr,omitempty"`
}

// WorkspaceCmd is `workspace`.
type WorkspaceCmd struct {
	Link WorkspaceLinkCmd `cmd:"" help:"Write .orc/<sessionId>/workspace-link.json into each member repository."`
}

// WorkspaceLinkCmd is `workspace link`.
type WorkspaceLinkCmd struct {
	Session string `help:"Workspace session (branch or sessionId); default: the current branch's." placeholder:"S"`
}

// CleanupCmd is `cleanup`.
type CleanupCmd struct {
	Keys         []string `arg:"" optional:"" name:"session" help:"Sessions to remove (branch or sessionId)."`
	DryRun       bool     `name:"dry-run" help:"Print the plan; change nothing."`
	AllCompleted bool     `name:"all-completed" help:"Select completed and abandoned sessions."`
	Gone         bool     `help:"Select sessions whose branch no longer exists."`
	Merged       bool     `help:"Select sessions whose branch is merged into --into (default: origin's HEAD, else main, else master)."`
	Into         string   `help:"The branch --merged compares with." placeholder:"BRANCH"`
	OlderThan    string   `name:"older-than" help:"Only sessions not updated for this long (720h, 30d)." placeholder:"DUR"`
	Force        bool     `help:"Also remove in_progress and paused sessions."`
	JSON         bool     `name:"json" help:"The plan as JSON."`
}

// DoctorCmd is `doctor`.
type DoctorCmd struct {
	JSON bool `name:"json" help:"Findings as JSON."`
}

// CompletionCmd is `completion`.
type CompletionCmd struct{}

// VersionCmd is `version`.
type VersionCmd struct{}
