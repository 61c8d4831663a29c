package doctest

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// Runner runs documents' commands.
type Runner struct {
	Bash    string        // the bash program
	Dir     string        // where each document's first command starts
	Env     []string      // the commands' whole environment
	Timeout time.Duration // for one document; 0 means 5 minutes
}

// Result is what one command did.
type Result struct {
	Command *Command
	Ran     bool // false for a skipped command, or one the shell never finished
	// EndedIn is, for a command that did not run, the command the shell
	// ended in (an exit, or a crash of bash itself).
	EndedIn *Command
	Code    int
	Stdout  string
	Stderr  string
}

// Run runs a document's commands, skipped ones excepted, in order in one
// bash process, and returns one result per command. An error means the
// document could not be run at all.
func (r *Runner) Run(ctx context.Context, doc *Doc) ([]Result, error) {
	out, err := os.MkdirTemp("", "doctest-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(out)

	var script strings.Builder
	for i, c := range doc.Commands {
		if c.Want.Skip != "" {
			continue
		}
		// A brace group runs in the shell itself, so assignments and cd
		// carry over to the next command, as they do for a reader.
		base := quote(filepath.Join(out, strconv.Itoa(i)))
		fmt.Fprintf(&script, "{\n%s\n} >%s.out 2>%s.err </dev/null\nprintf '%%s\\n' \"$?\" >%s.rc\n", c.Text, base, base, base)
	}
	file := filepath.Join(out, "script.bash")
	if err := os.WriteFile(file, []byte(script.String()), 0o600); err != nil {
		return nil, err
	}

	timeout := r.Timeout
	if timeout == 0 {
		timeout = 5 * time.Minute
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, r.Bash, "--noprofile", "--norc", file)
	cmd.Dir, cmd.Env = r.Dir, r.Env
	killGroup(cmd)
	cmd.WaitDelay = 5 * time.Second
	shellOut, runErr := cmd.CombinedOutput()
	if ctx.Err() != nil {
		return nil, fmt.Errorf("%s: still running after %v; killed", doc.Path, timeout)
	}

	results := make([]Result, len(doc.Commands))
	for i, c := range doc.Commands {
		results[i].Command = c
		base := filepath.Join(out, strconv.Itoa(i))
		rc, err := os.ReadFile(base + ".rc")
		if err != nil {
			continue // skipped, or the shell stopped before it
		}
		results[i].Ran = true
		results[i].Code, _ = strconv.Atoi(strings.TrimSpace(string(rc)))
		stdout, _ := os.ReadFile(base + ".out")
		stderr, _ := os.ReadFile(base + ".err")
		results[i].Stdout, results[i].Stderr = string(stdout), string(stderr)
	}
	var ended *Command
	for i, c := range doc.Commands {
		if !results[i].Ran && c.Want.Skip == "" && ended == nil {
			ended = c
		}
		if ended != nil && !results[i].Ran {
			results[i].EndedIn = ended
		}
	}
	var exit *exec.ExitError
	if runErr != nil && !errors.As(runErr, &exit) {
		return results, fmt.Errorf("%s: bash: %v", doc.Path, runErr)
	}
	if len(shellOut) > 0 {
		// Output outside any command's redirection: the shell itself
		// complained (a syntax error at run time, a failed redirection).
		return results, fmt.Errorf("%s: bash said: %s", doc.Path, strings.TrimSpace(string(shellOut)))
	}
	return results, nil
}

// Check says how a result breaks its command's annotations, or nil.
func Check(res Result) error {
	c, w := res.Command, res.Command.Want
	if w.Skip != "" {
		return nil
	}
	switch {
	case !res.Ran && res.EndedIn == c:
		return fmt.Errorf("%s: %s\n\tthe shell ended in this command (an exit?), so the commands after it did not run", c.Where(), c)
	case !res.Ran:
		return fmt.Errorf("%s: %s\n\tdid not run: the shell ended earlier, in %s", c.Where(), c, res.EndedIn.Where())
	}
	var faults []string
	if res.Code != w.Exit {
		hint := ""
		if w.Exit == 0 {
			hint = fmt.Sprintf(` (if the document means it, annotate "# exit %d")`, res.Code)
		}
		faults = append(faults, fmt.Sprintf("exit %d, want %d%s", res.Code, w.Exit, hint))
	}
	for _, re := range w.Stdout {
		if !re.MatchString(res.Stdout) {
			faults = append(faults, fmt.Sprintf("stdout does not match %q", strings.TrimPrefix(re.String(), "(?m)")))
		}
	}
	for _, re := range w.Stderr {
		if !re.MatchString(res.Stderr) {
			faults = append(faults, fmt.Sprintf("stderr does not match %q", strings.TrimPrefix(re.String(), "(?m)")))
		}
	}
	if w.NoStdout && res.Stdout != "" {
		faults = append(faults, "stdout is not empty")
	}
	switch {
	case w.NoStderr && res.Stderr != "":
		faults = append(faults, "stderr is not empty")
	case !w.StderrSaid && w.Exit == 0 && res.Stderr != "":
		faults = append(faults, `it wrote to stderr (if the document means it, annotate "# stderr: REGEXP")`)
	}
	if len(faults) == 0 {
		return nil
	}
	return fmt.Errorf("%s: %s\n\t%s\n\tstdout: %s\n\tstderr: %s", c.Where(), c,
		strings.Join(faults, "\n\t"), excerpt(res.Stdout), excerpt(res.Stderr))
}

// excerpt shortens output for a message.
func excerpt(s string) string {
	const max = 1500
	if s == "" {
		return "(empty)"
	}
	if len(s) > max {
		s = s[:max] + "…"
	}
	return "\n\t\t" + strings.ReplaceAll(strings.TrimRight(s, "\n"), "\n", "\n\t\t")
}

// quote makes s one shell word.
func quote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
