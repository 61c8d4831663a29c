package checkpoint

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/adrg/frontmatter"
	"gopkg.in/yaml.v3"
)

// frontOut is the rendered shape; field order is the file's key order.
type frontOut struct {
	Schema      int    `yaml:"schema"`
	Command     string `yaml:"command"`
	Branch      string `yaml:"branch"`
	GitBranch   string `yaml:"gitBranch"`
	Phase       any    `yaml:"phase"` // int, or the string "done"
	PhaseLabel  string `yaml:"phaseLabel,omitempty"`
	TotalPhases int    `yaml:"totalPhases"`
	Status      string `yaml:"status"`
	JiraTicket  string `yaml:"jiraTicket,omitempty"`
	UpdatedAt   string `yaml:"updatedAt"`
}

// frontIn is the decoded shape: pointers tell a missing or null key from an
// empty string, and phase is kept as a node so its tag can be checked.
type frontIn struct {
	Schema      *int      `yaml:"schema"`
	Command     *string   `yaml:"command"`
	Branch      *string   `yaml:"branch"`
	GitBranch   *string   `yaml:"gitBranch"`
	Phase       yaml.Node `yaml:"phase"`
	PhaseLabel  *string   `yaml:"phaseLabel"`
	TotalPhases *int      `yaml:"totalPhases"`
	Status      *string   `yaml:"status"`
	JiraTicket  *string   `yaml:"jiraTicket"`
	UpdatedAt   *string   `yaml:"updatedAt"`
}

// yamlFormat is the only frontmatter format we accept: "---" lines around
// YAML decoded strictly by yaml.v3 (the library's defaults use yaml.v2 and
// also sniff TOML and JSON).
var yamlFormat = frontmatter.NewFormat(delim, delim, decodeYAML)

// skipFormat finds the block like yamlFormat and decodes nothing.
var skipFormat = frontmatter.NewFormat(delim, delim, func([]byte, any) error { return nil })

func decodeYAML(data []byte, v any) error {
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	if err := dec.Decode(v); err != nil {
		if errors.Is(err, io.EOF) {
			return nil // empty frontmatter; required keys are checked later
		}
		return err
	}
	var extra yaml.Node
	if err := dec.Decode(&extra); !errors.Is(err, io.EOF) {
		if err != nil {
			return err
		}
		return errors.New("frontmatter holds more than one yaml document")
	}
	return nil
}

func (in frontIn) toFrontmatter() (Frontmatter, error) {
	required := []struct {
		name    string
		missing bool
	}{
		{"schema", in.Schema == nil},
		{"command", in.Command == nil},
		{"branch", in.Branch == nil},
		{"gitBranch", in.GitBranch == nil},
		{"totalPhases", in.TotalPhases == nil},
		{"status", in.Status == nil},
		{"updatedAt", in.UpdatedAt == nil},
	}
	for _, r := range required {
		if r.missing {
			return Frontmatter{}, fmt.Errorf("frontmatter key %s is missing or null", r.name)
		}
	}
	phase, err := decodePhase(&in.Phase)
	if err != nil {
		return Frontmatter{}, err
	}
	fm := Frontmatter{
		Schema:      *in.Schema,
		Command:     *in.Command,
		Branch:      *in.Branch,
		GitBranch:   *in.GitBranch,
		Phase:       phase,
		PhaseLabel:  deref(in.PhaseLabel),
		TotalPhases: *in.TotalPhases,
		Status:      *in.Status,
		JiraTicket:  deref(in.JiraTicket),
		UpdatedAt:   *in.UpdatedAt,
	}
	if err := fm.Validate(); err != nil {
		return Frontmatter{}, err
	}
	return fm, nil
}

// decodePhase accepts a YAML int in canonical decimal form ≥ 1 or the
// string "done".
func decodePhase(n *yaml.Node) (string, error) {
	if n.Kind == yaml.AliasNode && n.Alias != nil {
		n = n.Alias
	}
	if n.Kind == 0 || n.ShortTag() == "!!null" {
		return "", errors.New("frontmatter key phase is missing or null")
	}
	if n.Kind == yaml.ScalarNode {
		switch n.ShortTag() {
		case "!!int":
			if n.Value != "done" && validPhase(n.Value) {
				return n.Value, nil
			}
		case "!!str":
			if n.Value == "done" {
				return n.Value, nil
			}
		}
	}
	return "", fmt.Errorf("frontmatter phase %s is neither done nor an integer ≥ 1", strconv.Quote(clip(n.Value, 40)))
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

// yamlError flattens a yaml.v3 error into one line without Go type names.
func yamlError(err error) error {
	var te *yaml.TypeError
	if errors.As(err, &te) {
		msgs := make([]string, len(te.Errors))
		for i, m := range te.Errors {
			m = strings.ReplaceAll(m, " in type checkpoint.frontIn", "")
			m = strings.ReplaceAll(m, " into checkpoint.frontIn", " into the frontmatter mapping")
			msgs[i] = strings.Join(strings.Fields(m), " ")
		}
		return fmt.Errorf("invalid frontmatter yaml: %s", strings.Join(msgs, "; "))
	}
	msg := strings.TrimPrefix(err.Error(), "yaml: ")
	return fmt.Errorf("invalid frontmatter yaml: %s", strings.Join(strings.Fields(msg), " "))
}

// encodeFront renders the YAML lines between the delimiters.
func encodeFront(fm Frontmatter) ([]byte, error) {
	if b, ok := quickRender(fm); ok {
		return b, nil
	}
	return encodeYAML(fm)
}

// encodeYAML is encodeFront through yaml.v3's encoder.
func encodeYAML(fm Frontmatter) ([]byte, error) {
	out := frontOut{
		Schema:      fm.Schema,
		Command:     fm.Command,
		Branch:      fm.Branch,
		GitBranch:   fm.GitBranch,
		Phase:       fm.Phase,
		PhaseLabel:  fm.PhaseLabel,
		TotalPhases: fm.TotalPhases,
		Status:      fm.Status,
		JiraTicket:  fm.JiraTicket,
		UpdatedAt:   fm.UpdatedAt,
	}
	if n, err := strconv.Atoi(fm.Phase); err == nil {
		out.Phase = n
	}
	var buf bytes.Buffer
	enc := yaml.NewEncoder(&buf)
	enc.SetIndent(2)
	if err := enc.Encode(out); err != nil {
		return nil, fmt.Errorf("encoding frontmatter: %w", err)
	}
	if err := enc.Close(); err != nil {
		return nil, fmt.Errorf("encoding frontmatter: %w", err)
	}
	return buf.Bytes(), nil
}
