package cli

import (
	"io"
	"strconv"
	"strings"

	"github.com/orc-state/orc-state/internal/statusline"
)

// StatuslineCmd is `statusline`. Main dispatches it before the parser and
// reads these flags leniently (statuslineArgs); they are here for --help.
type StatuslineCmd struct {
	Style          string `help:"full (the default; narrows with the terminal) or compact (always one line)." placeholder:"STYLE"`
	ContextReserve int    `name:"context-reserve" help:"Percent of the context window kept back (e.g. the auto-compact buffer); the figure shown is the share of the rest." placeholder:"N"`
	Off            bool   `help:"Print nothing (the context level is still recorded for hook post-tool-use)."`
}

// Help is the detail of statusline --help: the payload fields read.
func (c *StatuslineCmd) Help() string {
	return `Claude Code runs it for every render with its statusline JSON on stdin (an
example is in hooks/README.md). Of that JSON it reads: session_id, cwd,
workspace.current_dir, workspace.repo.name, workspace.git_worktree,
worktree.name, model.display_name, effort.level, thinking.enabled, fast_mode,
context_window.used_percentage, exceeds_200k_tokens, cost.total_cost_usd,
cost.total_lines_added, cost.total_lines_removed, pr.number,
pr.review_state, rate_limits.five_hour.used_percentage,
rate_limits.five_hour.resets_at, rate_limits.seven_day.used_percentage,
rate_limits.seven_day.resets_at; every other field is ignored, and a
missing, null or mistyped one reads as absent (garbage on stdin still
renders). It prints at most two rows, takes no lock, runs no git on the
render path, and exits 0.`
}

// Run renders the statusline (see runStatusline); kong reaches it only for
// --help, which Main does not dispatch early.
func (c *StatuslineCmd) Run(e *Env) error {
	runStatusline(e.proc, nil)
	return nil
}

// statuslineArgs reads the statusline's arguments leniently (it never
// fails): --style, --context-reserve and --off, over the original's
// userConfig variables CLAUDE_PLUGIN_OPTION_STATUSLINE{,_STYLE,_CONTEXT_RESERVE}.
// --refresh-place DIR KEY is the detached refresher's internal mode.
func statuslineArgs(proc *Process, args []string) (opts statusline.Options, refresh []string) {
	if v := strings.ToLower(proc.getenv("CLAUDE_PLUGIN_OPTION_STATUSLINE")); v == "false" || v == "off" || v == "0" {
		opts.Off = true
	}
	opts.Style = proc.getenv("CLAUDE_PLUGIN_OPTION_STATUSLINE_STYLE")
	opts.Reserve = reserveOption(proc.getenv("CLAUDE_PLUGIN_OPTION_STATUSLINE_CONTEXT_RESERVE"))
	for i := 0; i < len(args); i++ {
		name, value, inline := strings.Cut(args[i], "=")
		next := func() string {
			if inline {
				return value
			}
			if i+1 < len(args) {
				i++
				return args[i]
			}
			return ""
		}
		switch name {
		case "--style":
			opts.Style = next()
		case "--context-reserve":
			opts.Reserve = reserveOption(next())
		case "--off":
			opts.Off = true
		case "--refresh-place":
			if i+2 < len(args) {
				return opts, args[i+1 : i+3]
			}
		}
	}
	return opts, nil
}

// reserveOption reads a context reserve: a whole percentage 0–99; anything
// else is no reserve.
func reserveOption(s string) int {
	n, err := strconv.Atoi(strings.TrimSpace(s))
	if err != nil || n < 0 || n > statusline.MaxReserve {
		return 0
	}
	return n
}

// runStatusline is the statusline path, dispatched before the parser is
// built (like line): statusline.Show renders it from stdin (no lock, no
// git on the render path), or statusline.Refresh is the detached
// refresher. It prints at most two rows and always exits 0.
func runStatusline(proc *Process, args []string) {
	stdout := proc.Stdout
	defer func() {
		if recover() != nil {
			io.WriteString(stdout, "orc\n")
		}
	}()
	opts, refresh := statuslineArgs(proc, args)
	w := statusline.World{
		Dir: proc.Dir, Environ: proc.Environ, TempDir: proc.tempDir(), Home: proc.homeDir(),
		ClaimsAt: proc.Now(), PlaceWait: proc.PlaceWait, Executable: proc.executable,
	}
	if refresh != nil {
		statusline.Refresh(w, refresh[0], refresh[1])
		return
	}
	io.WriteString(stdout, statusline.Show(w, proc.Stdin, opts))
}
