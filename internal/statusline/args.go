package statusline

import (
	"strconv"
	"strings"
)

// PayloadText is the detail of statusline --help: the payload fields
// Show reads, and what it promises.
func PayloadText() string {
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

// Args reads the statusline's arguments leniently (it never
// fails): --style, --context-reserve and --off, over the original's
// userConfig variables CLAUDE_PLUGIN_OPTION_STATUSLINE{,_STYLE,_CONTEXT_RESERVE}.
// --refresh-place DIR KEY is the detached refresher's internal mode.
func Args(getenv func(string) string, args []string) (opts Options, refresh []string) {
	if v := strings.ToLower(getenv("CLAUDE_PLUGIN_OPTION_STATUSLINE")); v == "false" || v == "off" || v == "0" {
		opts.Off = true
	}
	opts.Style = getenv("CLAUDE_PLUGIN_OPTION_STATUSLINE_STYLE")
	opts.Reserve = reserveOption(getenv("CLAUDE_PLUGIN_OPTION_STATUSLINE_CONTEXT_RESERVE"))
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
	if err != nil || n < 0 || n > MaxReserve {
		return 0
	}
	return n
}
