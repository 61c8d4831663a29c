package registry

import (
	"slices"
	"strconv"
	"unicode/utf8"
)

// The registry's encoder, written by hand: encoding/json builds its encoder
// for Session by reflection once per process, and a 1-session mutation, a
// process of a few milliseconds, paid for that on every run. writer lays
// out exactly the bytes encoding/json's Encoder writes for these types with
// SetEscapeHTML(false) and SetIndent(prefix, indent) (encode_test.go and
// FuzzEncoderMatchesJSON compare the two); a string that is not valid UTF-8,
// which encoding/json replaces by U+FFFD, is left to encoding/json.

// writer appends JSON to b. With prefix and indent both empty it writes
// compact JSON; otherwise each member and element starts on a new line of
// prefix and depth × indent, and a name is followed by ": ", as json.Indent
// lays them out (an empty object or array stays "{}" or "[]").
type writer struct {
	b              []byte
	prefix, indent string
	depth          int
	ok             bool // false once a value needs encoding/json
}

func (w *writer) pretty() bool { return w.prefix != "" || w.indent != "" }

func (w *writer) newline() {
	if !w.pretty() {
		return
	}
	w.b = append(w.b, '\n')
	w.b = append(w.b, w.prefix...)
	for range w.depth {
		w.b = append(w.b, w.indent...)
	}
}

// open starts an object or array; *first tracks whether a member follows.
func (w *writer) open(c byte, first *bool) {
	w.b = append(w.b, c)
	w.depth++
	*first = true
}

// close ends what open started: on a line of its own unless it is empty.
func (w *writer) close(c byte, first bool) {
	w.depth--
	if !first {
		w.newline()
	}
	w.b = append(w.b, c)
}

// elem starts an element of an array.
func (w *writer) elem(first *bool) {
	if !*first {
		w.b = append(w.b, ',')
	}
	*first = false
	w.newline()
}

// name starts a member of an object: its name and the colon.
func (w *writer) name(first *bool, name string) {
	w.elem(first)
	w.str(name)
	w.b = append(w.b, ':')
	if w.pretty() {
		w.b = append(w.b, ' ')
	}
}

func (w *writer) int(n int) { w.b = strconv.AppendInt(w.b, int64(n), 10) }

func (w *writer) intPtr(p *int) {
	if p == nil {
		w.b = append(w.b, "null"...)
		return
	}
	w.int(*p)
}

func (w *writer) strPtr(p *string) {
	if p == nil {
		w.b = append(w.b, "null"...)
		return
	}
	w.str(*p)
}

const hexDigits = "0123456789abcdef"

// str writes s quoted as encoding/json does without HTML escaping: " and \
// escaped, \b \f \n \r \t by name, other control characters as \u00XX,
// U+2028 and U+2029 as \u2028 and \u2029, everything else as it is.
func (w *writer) str(s string) {
	w.b = append(w.b, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c >= 0x20 && c != '"' && c != '\\' && c < utf8.RuneSelf {
			i++
			continue
		}
		if c < utf8.RuneSelf {
			w.b = append(w.b, s[start:i]...)
			switch c {
			case '"', '\\':
				w.b = append(w.b, '\\', c)
			case '\b':
				w.b = append(w.b, '\\', 'b')
			case '\f':
				w.b = append(w.b, '\\', 'f')
			case '\n':
				w.b = append(w.b, '\\', 'n')
			case '\r':
				w.b = append(w.b, '\\', 'r')
			case '\t':
				w.b = append(w.b, '\\', 't')
			default:
				w.b = append(w.b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xF])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			w.ok = false // encoding/json's replacement is left to it
			return
		}
		if r == '\u2028' || r == '\u2029' {
			w.b = append(w.b, s[start:i]...)
			w.b = append(w.b, '\\', 'u', '2', '0', '2', hexDigits[r&0xF])
			start = i + size
		}
		i += size
	}
	w.b = append(w.b, s[start:]...)
	w.b = append(w.b, '"')
}

func (w *writer) registry(r *Registry) {
	var first bool
	w.open('{', &first)
	w.name(&first, "schema")
	w.int(r.Schema)
	w.name(&first, "sessions")
	if r.Sessions == nil {
		w.b = append(w.b, "null"...)
	} else {
		var f bool
		w.open('[', &f)
		for i := range r.Sessions {
			w.elem(&f)
			w.session(&r.Sessions[i])
		}
		w.close(']', f)
	}
	w.close('}', first)
}

func (w *writer) session(s *Session) {
	var first bool
	w.open('{', &first)
	w.name(&first, "sessionId")
	w.str(s.SessionID)
	w.name(&first, "command")
	w.str(s.Command)
	w.name(&first, "branch")
	w.str(s.Branch)
	w.name(&first, "gitBranch")
	w.str(s.GitBranch)
	w.name(&first, "description")
	w.str(s.Description)
	w.name(&first, "status")
	w.str(s.Status)
	w.name(&first, "phase")
	if s.Phase.Done {
		w.b = append(w.b, `"done"`...)
	} else {
		w.int(s.Phase.N)
	}
	w.name(&first, "phaseLabel")
	w.strPtr(s.PhaseLabel)
	w.name(&first, "totalPhases")
	w.int(s.TotalPhases)
	w.name(&first, "jiraTicket")
	w.strPtr(s.JiraTicket)
	w.name(&first, "planFile")
	w.strPtr(s.PlanFile)
	w.name(&first, "linkedPRs")
	if s.LinkedPRs == nil {
		w.b = append(w.b, "null"...)
	} else {
		var f bool
		w.open('[', &f)
		for i := range s.LinkedPRs {
			w.elem(&f)
			w.pr(&s.LinkedPRs[i])
		}
		w.close(']', f)
	}
	w.name(&first, "startedAt")
	w.str(s.StartedAt)
	w.name(&first, "updatedAt")
	w.str(s.UpdatedAt)
	if s.Scope != "" {
		w.name(&first, "scope")
		w.str(s.Scope)
	}
	if len(s.Repos) > 0 {
		w.name(&first, "repos")
		var f bool
		w.open('[', &f)
		for _, r := range s.Repos {
			w.elem(&f)
			w.str(r)
		}
		w.close(']', f)
	}
	if len(s.PerRepoState) > 0 {
		w.name(&first, "perRepoState")
		var f bool
		w.open('{', &f)
		for _, k := range sortedKeys(s.PerRepoState) {
			w.name(&f, k)
			w.repoState(s.PerRepoState[k])
		}
		w.close('}', f)
	}
	if s.Gate != nil {
		w.name(&first, "gate")
		w.gate(s.Gate)
	}
	w.close('}', first)
}

func (w *writer) pr(p *PR) {
	var first bool
	w.open('{', &first)
	w.name(&first, "repo")
	w.str(p.Repo)
	w.name(&first, "url")
	w.str(p.URL)
	w.name(&first, "number")
	w.intPtr(p.Number)
	w.name(&first, "stackId")
	w.strPtr(p.StackID)
	w.name(&first, "stackPosition")
	w.intPtr(p.StackPosition)
	w.name(&first, "stackedOn")
	w.strPtr(p.StackedOn)
	w.close('}', first)
}

func (w *writer) repoState(r RepoState) {
	var first bool
	w.open('{', &first)
	w.name(&first, "repoPath")
	w.str(r.RepoPath)
	w.name(&first, "branch")
	w.str(r.Branch)
	if r.Worktree != "" {
		w.name(&first, "worktree")
		w.str(r.Worktree)
	}
	w.name(&first, "currentSlice")
	w.intPtr(r.CurrentSlice)
	w.name(&first, "prUrl")
	w.strPtr(r.PRURL)
	w.close('}', first)
}

func (w *writer) gate(g *Gate) {
	var first bool
	w.open('{', &first)
	w.name(&first, "verdicts")
	if g.Verdicts == nil {
		w.b = append(w.b, "null"...)
	} else {
		var f bool
		w.open('[', &f)
		for i := range g.Verdicts {
			w.elem(&f)
			w.verdict(&g.Verdicts[i])
		}
		w.close(']', f)
	}
	w.name(&first, "retries")
	if g.Retries == nil {
		w.b = append(w.b, "null"...)
	} else {
		var f bool
		w.open('{', &f)
		for _, k := range sortedKeys(g.Retries) {
			w.name(&f, k)
			w.int(g.Retries[k])
		}
		w.close('}', f)
	}
	w.close('}', first)
}

func (w *writer) verdict(v *Verdict) {
	var first bool
	w.open('{', &first)
	w.name(&first, "phase")
	w.int(v.Phase)
	w.name(&first, "verdict")
	w.str(v.Verdict)
	if v.Reviewer != "" {
		w.name(&first, "reviewer")
		w.str(v.Reviewer)
	}
	if v.Note != "" {
		w.name(&first, "note")
		w.str(v.Note)
	}
	w.name(&first, "at")
	w.str(v.At)
	w.close('}', first)
}

// sortedKeys is a map's names in the order encoding/json writes them: by
// byte value.
func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// encode writes v (a *Registry, *Session or string) as encoding/json's
// Encoder does with that prefix and indent, trailing newline included; ok
// is false when v holds something writer leaves to encoding/json.
func encode(v any, prefix, indent string, size int) (b []byte, ok bool) {
	w := writer{b: make([]byte, 0, size), prefix: prefix, indent: indent, ok: true}
	switch v := v.(type) {
	case *Registry:
		w.registry(v)
	case *Session:
		w.session(v)
	case string:
		w.str(v)
	default:
		return nil, false
	}
	if !w.ok {
		return nil, false
	}
	return append(w.b, '\n'), true
}
