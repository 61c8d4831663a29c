package schema

import (
	"bytes"
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"gopkg.in/yaml.v3"

	"github.com/orc-state/orc-state/internal/cli"
)

// root is the repository root, which is also the plugin root.
const root = ".."

// maxDescription is where Claude Code truncates a skill's description
// (together with when_to_use).
const maxDescription = 1536

var kebab = regexp.MustCompile(`^[a-z0-9]+(-[a-z0-9]+)*$`)

// pluginFields are the plugin.json fields the plugins reference documents.
var pluginFields = []string{
	"$schema", "name", "displayName", "version", "description", "author", "homepage", "repository",
	"license", "keywords", "metadata", "defaultEnabled", "skills", "commands", "agents", "outputStyles",
	"hooks", "mcpServers", "lspServers", "workflows", "experimental", "userConfig", "channels", "dependencies",
}

func TestPluginManifest(t *testing.T) {
	data, err := os.ReadFile(filepath.Join(root, ".claude-plugin", "plugin.json"))
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(data, &m); err != nil {
		t.Fatalf("plugin.json: %v", err)
	}
	for k := range m {
		if !slices.Contains(pluginFields, k) {
			t.Errorf("plugin.json: %q is not a documented field", k)
		}
	}
	var p struct {
		Name        string   `json:"name"`
		Version     string   `json:"version"`
		Description string   `json:"description"`
		Keywords    []string `json:"keywords"`
	}
	if err := json.Unmarshal(data, &p); err != nil {
		t.Fatalf("plugin.json: %v", err)
	}
	if !kebab.MatchString(p.Name) {
		t.Errorf("plugin.json: name %q is not kebab-case", p.Name)
	}
	if !regexp.MustCompile(`^[0-9]+\.[0-9]+\.[0-9]+(-[0-9A-Za-z.-]+)?$`).MatchString(p.Version) {
		t.Errorf("plugin.json: version %q is not semver", p.Version)
	}
	if strings.TrimSpace(p.Description) == "" {
		t.Error("plugin.json: description is empty")
	}
}

// frontmatter is the SKILL.md frontmatter this plugin allows: the portable
// Agent Skills fields plus the Claude Code ones it uses.
type frontmatter struct {
	Name                   string         `yaml:"name"`
	Description            string         `yaml:"description"`
	AllowedTools           yaml.Node      `yaml:"allowed-tools"`
	ArgumentHint           string         `yaml:"argument-hint"`
	DisableModelInvocation *bool          `yaml:"disable-model-invocation"`
	UserInvocable          *bool          `yaml:"user-invocable"`
	WhenToUse              string         `yaml:"when_to_use"`
	License                string         `yaml:"license"`
	Metadata               map[string]any `yaml:"metadata"`
}

// splitSkill returns the YAML between the opening and closing "---" lines
// and the body after them.
func splitSkill(data []byte) (front, body []byte, err error) {
	const delim = "---\n"
	if !bytes.HasPrefix(data, []byte(delim)) {
		return nil, nil, errors.New(`does not begin with a "---" line`)
	}
	rest := data[len(delim):]
	end := bytes.Index(rest, []byte("\n"+delim))
	if end < 0 {
		return nil, nil, errors.New(`has no closing "---" line`)
	}
	return rest[:end+1], rest[end+1+len(delim):], nil
}

func skillDirs(t *testing.T) []string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(root, "skills", "*", "SKILL.md"))
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 {
		t.Fatal("no skills/*/SKILL.md")
	}
	var dirs []string
	for _, f := range files {
		dirs = append(dirs, filepath.Dir(f))
	}
	return dirs
}

func TestSkillFrontmatter(t *testing.T) {
	for _, dir := range skillDirs(t) {
		folder := filepath.Base(dir)
		t.Run(folder, func(t *testing.T) {
			data, err := os.ReadFile(filepath.Join(dir, "SKILL.md"))
			if err != nil {
				t.Fatal(err)
			}
			front, body, err := splitSkill(data)
			if err != nil {
				t.Fatalf("SKILL.md %v", err)
			}
			var fm frontmatter
			dec := yaml.NewDecoder(bytes.NewReader(front))
			dec.KnownFields(true)
			if err := dec.Decode(&fm); err != nil {
				t.Fatalf("frontmatter: %v", err)
			}
			if fm.Name != folder {
				t.Errorf("name %q differs from the folder %q", fm.Name, folder)
			}
			if !kebab.MatchString(fm.Name) {
				t.Errorf("name %q is not kebab-case", fm.Name)
			}
			if strings.TrimSpace(fm.Description) == "" {
				t.Error("description is empty")
			}
			if n := utf8.RuneCountInString(fm.Description + fm.WhenToUse); n > maxDescription {
				t.Errorf("description and when_to_use are %d characters; Claude Code keeps %d", n, maxDescription)
			}
			for _, rule := range allowedTools(t, fm.AllowedTools) {
				if !regexp.MustCompile(`^[A-Za-z]+(\(.+\))?$`).MatchString(rule) {
					t.Errorf("allowed-tools rule %q is not Tool or Tool(pattern)", rule)
				}
			}
			if len(bytes.TrimSpace(body)) == 0 {
				t.Error("the body is empty")
			}
		})
	}
}

// allowedTools reads allowed-tools: a space-separated string or a list.
func allowedTools(t *testing.T, n yaml.Node) []string {
	t.Helper()
	switch n.Kind {
	case 0:
		return nil
	case yaml.ScalarNode:
		// Rules hold spaces inside parentheses ("Bash(orc-state *)").
		var out []string
		depth, start := 0, 0
		s := n.Value + " "
		for i, r := range s {
			switch {
			case r == '(':
				depth++
			case r == ')':
				depth--
			case (r == ' ' || r == ',') && depth == 0:
				if w := strings.TrimSpace(s[start:i]); w != "" {
					out = append(out, w)
				}
				start = i + 1
			}
		}
		return out
	case yaml.SequenceNode:
		var out []string
		if err := n.Decode(&out); err != nil {
			t.Errorf("allowed-tools: %v", err)
		}
		return out
	}
	t.Errorf("allowed-tools must be a string or a list")
	return nil
}

// docs returns every SKILL.md and references/*.md of the plugin.
func docs(t *testing.T) []string {
	t.Helper()
	var out []string
	for _, dir := range skillDirs(t) {
		out = append(out, filepath.Join(dir, "SKILL.md"))
		refs, err := filepath.Glob(filepath.Join(dir, "references", "*.md"))
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, refs...)
	}
	return out
}

var inlineCode = regexp.MustCompile("`([^`\n]+)`")

// codeLines returns the code of a Markdown file, one command per entry:
// the lines of fenced blocks (a trailing backslash joins the next line) and
// each inline code span. The frontmatter of a SKILL.md is skipped.
func codeLines(data []byte) []string {
	if _, body, err := splitSkill(data); err == nil {
		data = body
	}
	var out []string
	fenced := false
	pending := ""
	for _, line := range strings.Split(string(data), "\n") {
		if strings.HasPrefix(strings.TrimSpace(line), "```") {
			fenced = !fenced
			continue
		}
		if fenced {
			if strings.HasSuffix(line, "\\") {
				pending += strings.TrimSuffix(line, "\\") + " "
				continue
			}
			out = append(out, pending+line)
			pending = ""
			continue
		}
		for _, m := range inlineCode.FindAllStringSubmatch(line, -1) {
			out = append(out, m[1])
		}
	}
	return out
}

var (
	verbWord  = regexp.MustCompile(`^[a-z][a-z0-9-]*$`)
	flagToken = regexp.MustCompile(`--[a-z][a-z0-9-]*`)
)

// mention is one "orc-state <verb> [flags]" found in the docs.
type mention struct {
	verb  []string // one or two words, e.g. ["digest", "write"]
	flags []string // the --flags written after it
	where string
}

// mentions finds the orc-state commands in one line of code.
func mentions(code, where string) []mention {
	var out []mention
	fields := strings.Fields(code)
	for i, f := range fields {
		if f != "orc-state" && !strings.HasSuffix(f, "/orc-state") {
			continue
		}
		rest := fields[i+1:]
		// The command ends at a shell separator.
		for j, r := range rest {
			if r == "|" || r == "&&" || r == ";" || r == "||" || strings.HasPrefix(r, "#") {
				rest = rest[:j]
				break
			}
		}
		var m mention
		m.where = where
		for len(rest) > 0 {
			w := rest[0]
			if w == "--dir" || w == "--lock-timeout" {
				rest = rest[min(2, len(rest)):]
				continue
			}
			if len(m.verb) == 2 || !verbWord.MatchString(w) {
				break
			}
			m.verb = append(m.verb, w)
			rest = rest[1:]
		}
		if len(m.verb) == 0 {
			continue // the program's name in prose, or "orc-state *"
		}
		for _, r := range rest {
			m.flags = append(m.flags, flagToken.FindAllString(r, -1)...)
		}
		out = append(out, m)
	}
	return out
}

// help runs "orc-state <args> --help" in process.
func help(args []string) (int, string) {
	var stdout, stderr bytes.Buffer
	code := cli.Main(append(slices.Clone(args), "--help"), strings.NewReader(""), &stdout, &stderr)
	return code, stdout.String() + stderr.String()
}

// TestSkillCommandsExist runs "<verb> --help" for every orc-state command
// the skills and their references mention, and checks that each flag
// written after it appears in that help.
func TestSkillCommandsExist(t *testing.T) {
	byVerb := map[string][]mention{}
	for _, file := range docs(t) {
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		rel, _ := filepath.Rel(root, file)
		for _, code := range codeLines(data) {
			for _, m := range mentions(code, rel) {
				key := strings.Join(m.verb, " ")
				byVerb[key] = append(byVerb[key], m)
			}
		}
	}
	if len(byVerb) == 0 {
		t.Fatal("found no orc-state command in the skills")
	}
	verbs := make([]string, 0, len(byVerb))
	for v := range byVerb {
		verbs = append(verbs, v)
	}
	sort.Strings(verbs)
	for _, v := range verbs {
		ms := byVerb[v]
		code, out := help(ms[0].verb)
		if code != 0 {
			t.Errorf("orc-state %s (in %s): not a command of this orc-state (--help exits %d)", v, ms[0].where, code)
			continue
		}
		if v == "line" {
			continue // line takes any argument and prints no help
		}
		for _, m := range ms {
			for _, f := range m.flags {
				if f == "--help" {
					continue
				}
				if !regexp.MustCompile(regexp.QuoteMeta(f) + `\b`).MatchString(out) {
					t.Errorf("orc-state %s %s (in %s): the flag is not in the verb's help", v, f, m.where)
				}
			}
		}
	}
}

var mdLink = regexp.MustCompile(`\]\(([^)\s]+)\)`)

// TestSkillLinks checks that relative links in the skills resolve inside
// the plugin.
func TestSkillLinks(t *testing.T) {
	for _, file := range docs(t) {
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range mdLink.FindAllStringSubmatch(string(data), -1) {
			target, _, _ := strings.Cut(m[1], "#")
			if target == "" || strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
				continue
			}
			p := filepath.Join(filepath.Dir(file), filepath.FromSlash(target))
			rel, err := filepath.Rel(root, p)
			if err != nil || strings.HasPrefix(rel, "..") {
				t.Errorf("%s: link %s leaves the plugin", file, m[1])
				continue
			}
			if _, err := os.Stat(p); err != nil {
				t.Errorf("%s: link %s: %v", file, m[1], err)
			}
		}
	}
}

// hookMatchers are the matcher values each event documents; an event
// absent here takes no matcher.
var hookMatchers = map[string][]string{
	"PreCompact":   {"manual", "auto"},
	"SessionStart": {"startup", "resume", "clear", "compact", "fork"},
	"PostCompact":  {"manual", "auto"},
	"SessionEnd":   {"clear", "resume", "logout", "prompt_input_exit", "other"},
}

// maxHookTimeout bounds a hook's timeout, in seconds.
const maxHookTimeout = 60

// TestHooksJSON checks hooks/hooks.json when the plugin has one: every
// handler runs the plugin's launcher with "hook <event>" (a real
// subcommand) as a command with an explicit timeout in seconds.
func TestHooksJSON(t *testing.T) {
	data, err := os.ReadFile(filepath.Join(root, "hooks", "hooks.json"))
	if errors.Is(err, fs.ErrNotExist) {
		t.Skip("no hooks/hooks.json")
	}
	if err != nil {
		t.Fatal(err)
	}
	var file struct {
		Description string `json:"description"`
		Hooks       map[string][]struct {
			Matcher *string `json:"matcher"`
			Hooks   []struct {
				Type    string   `json:"type"`
				Command string   `json:"command"`
				Args    []string `json:"args"`
				Timeout *float64 `json:"timeout"`
			} `json:"hooks"`
		} `json:"hooks"`
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&file); err != nil {
		t.Fatalf("hooks.json: %v", err)
	}
	if len(file.Hooks) == 0 {
		t.Fatal("hooks.json has no hooks")
	}
	// The plugin must wire the hooks docs/protocol.md §16 needs, for every source
	// and trigger orc-state serves (PostToolUse: every tool, no matcher).
	for event, sources := range map[string][]string{
		"PreCompact":   {"manual", "auto"},
		"SessionStart": {"startup", "resume", "clear", "compact"},
		"PostToolUse":  {"*"},
	} {
		covered := map[string]bool{}
		for _, g := range file.Hooks[event] {
			if g.Matcher == nil || *g.Matcher == "" || *g.Matcher == "*" {
				for _, src := range sources {
					covered[src] = true
				}
				continue
			}
			for _, v := range strings.Split(*g.Matcher, "|") {
				covered[v] = true
			}
		}
		for _, src := range sources {
			if !covered[src] {
				t.Errorf("hooks.json: %s does not cover %q", event, src)
			}
		}
	}
	for event, groups := range file.Hooks {
		for gi, g := range groups {
			where := event + "[" + strconv.Itoa(gi) + "]"
			if g.Matcher != nil && *g.Matcher != "" && *g.Matcher != "*" {
				allowed, ok := hookMatchers[event]
				if !ok {
					t.Errorf("%s: %s takes no matcher (it would be ignored)", where, event)
				}
				for _, v := range strings.Split(*g.Matcher, "|") {
					if ok && !slices.Contains(allowed, v) {
						t.Errorf("%s: matcher value %q is not one of %v", where, v, allowed)
					}
				}
			}
			if len(g.Hooks) == 0 {
				t.Errorf("%s: no handlers", where)
			}
			for _, h := range g.Hooks {
				if h.Type != "command" {
					t.Errorf("%s: type %q; want command", where, h.Type)
				}
				switch {
				case h.Timeout == nil:
					t.Errorf("%s: no timeout (the default is 600 s)", where)
				case *h.Timeout <= 0 || *h.Timeout > maxHookTimeout:
					t.Errorf("%s: timeout %v is not 1..%d seconds", where, *h.Timeout, maxHookTimeout)
				}
				// The plugin's launcher, through sh so that a lost execute
				// bit cannot break it; it finds or builds the binary.
				if h.Command != "sh" || len(h.Args) != 3 || h.Args[0] != "${CLAUDE_PLUGIN_ROOT}/bin/orc-state" || h.Args[1] != "hook" {
					t.Errorf("%s: runs %q %q; want sh ${CLAUDE_PLUGIN_ROOT}/bin/orc-state hook <event>", where, h.Command, h.Args)
					continue
				}
				argv := h.Args[1:]
				if code, _ := help(argv); code != 0 {
					t.Errorf("%s: orc-state %s is not a command of this orc-state", where, strings.Join(argv, " "))
				}
			}
		}
	}
}

// TestCommandCheck makes sure the checks above can fail: the parser finds
// verbs and flags, and a verb this orc-state lacks does not pass.
func TestCommandCheck(t *testing.T) {
	got := mentions("ORC_ACTOR=x orc-state --dir .orc slice set 2 --status red | tee out # then --force", "x")
	if len(got) != 1 || strings.Join(got[0].verb, " ") != "slice set" || strings.Join(got[0].flags, " ") != "--status" {
		t.Errorf("mentions = %+v", got)
	}
	if got := mentions("every mutation goes through `orc-state *`", "x"); len(got) != 0 {
		t.Errorf("mentions of the bare program name = %+v", got)
	}
	if code, _ := help([]string{"no-such-verb"}); code == 0 {
		t.Error("an unknown verb passes --help")
	}
	if code, out := help([]string{"decision", "get"}); code != 0 || !strings.Contains(out, "--echo") {
		t.Errorf("decision get --help: exit %d, output %q", code, out)
	}
}
