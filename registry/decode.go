package registry

import (
	"bytes"
	"strconv"
	"unicode/utf16"
	"unicode/utf8"
)

// The decoder of proven bytes, written by hand for the reason the encoder
// is (encode.go): json v2 builds its decoder for Session by reflection once
// per process. It reads the JSON the hand encoder writes and nothing else,
// and it proves each result the same way: the value it decoded, encoded
// again in the layout the bytes were read in, must give back those bytes
// exactly. Two different values never encode to the same bytes (a nil and
// an empty list or map are told apart as the strict decode tells them), so
// that value is the one the strict decode would have found. Anything else
// (a member it does not know, an escape the encoder never writes, a byte
// out of place) makes it give up, and the caller decodes by json v2.

// reader consumes JSON from b; ok turns false at the first thing it does
// not read, and every later call then does nothing.
type reader struct {
	b  []byte
	i  int
	ok bool
}

func (r *reader) fail() { r.ok = false }

func (r *reader) space() {
	for r.i < len(r.b) && (r.b[r.i] == ' ' || r.b[r.i] == '\n') {
		r.i++
	}
}

// peek returns the next byte after white space, or 0.
func (r *reader) peek() byte {
	r.space()
	if !r.ok || r.i >= len(r.b) {
		return 0
	}
	return r.b[r.i]
}

func (r *reader) expect(c byte) {
	if r.peek() != c {
		r.fail()
		return
	}
	r.i++
}

// null consumes a null and reports whether there was one.
func (r *reader) null() bool {
	if r.peek() == 'n' && bytes.HasPrefix(r.b[r.i:], []byte("null")) {
		r.i += 4
		return true
	}
	return false
}

func (r *reader) str() string {
	if r.expect('"'); !r.ok {
		return ""
	}
	start := r.i
	for r.i < len(r.b) && r.b[r.i] != '"' && r.b[r.i] != '\\' {
		r.i++
	}
	if r.i < len(r.b) && r.b[r.i] == '"' {
		r.i++
		return string(r.b[start : r.i-1])
	}
	out := append([]byte(nil), r.b[start:r.i]...)
	for r.ok {
		if r.i >= len(r.b) {
			r.fail()
			break
		}
		c := r.b[r.i]
		r.i++
		switch {
		case c == '"':
			return string(out)
		case c != '\\':
			out = append(out, c)
		case r.i >= len(r.b):
			r.fail()
		default:
			e := r.b[r.i]
			r.i++
			switch e {
			case '"', '\\', '/':
				out = append(out, e)
			case 'b':
				out = append(out, '\b')
			case 'f':
				out = append(out, '\f')
			case 'n':
				out = append(out, '\n')
			case 'r':
				out = append(out, '\r')
			case 't':
				out = append(out, '\t')
			case 'u':
				if r.i+4 > len(r.b) {
					r.fail()
					break
				}
				n, err := strconv.ParseUint(string(r.b[r.i:r.i+4]), 16, 16)
				if err != nil || utf16.IsSurrogate(rune(n)) {
					r.fail() // the encoder writes no surrogate
					break
				}
				r.i += 4
				out = utf8.AppendRune(out, rune(n))
			default:
				r.fail()
			}
		}
	}
	return ""
}

func (r *reader) strPtr() *string {
	if r.null() {
		return nil
	}
	s := r.str()
	return &s
}

func (r *reader) int() int {
	r.space()
	start := r.i
	if r.i < len(r.b) && r.b[r.i] == '-' {
		r.i++
	}
	for r.i < len(r.b) && r.b[r.i] >= '0' && r.b[r.i] <= '9' {
		r.i++
	}
	n, err := strconv.Atoi(string(r.b[start:r.i]))
	if err != nil {
		r.fail()
	}
	return n
}

func (r *reader) intPtr() *int {
	if r.null() {
		return nil
	}
	n := r.int()
	return &n
}

// object reads an object, calling member after each name and its colon.
func (r *reader) object(member func(name string)) {
	if r.expect('{'); r.peek() == '}' {
		r.i++
		return
	}
	for r.ok {
		name := r.str()
		r.expect(':')
		if !r.ok {
			return
		}
		member(name)
		if r.peek() == ',' {
			r.i++
			continue
		}
		r.expect('}')
		return
	}
}

// array reads an array, calling elem before each element.
func (r *reader) array(elem func()) {
	if r.expect('['); r.peek() == ']' {
		r.i++
		return
	}
	for r.ok {
		elem()
		if r.peek() == ',' {
			r.i++
			continue
		}
		r.expect(']')
		return
	}
}

func (r *reader) registry(reg *Registry) {
	r.object(func(name string) {
		switch name {
		case "schema":
			reg.Schema = r.int()
		case "sessions":
			reg.Sessions = []Session{}
			r.array(func() {
				reg.Sessions = append(reg.Sessions, Session{})
				r.session(&reg.Sessions[len(reg.Sessions)-1])
			})
		default:
			r.fail()
		}
	})
}

func (r *reader) session(s *Session) {
	r.object(func(name string) {
		switch name {
		case "sessionId":
			s.SessionID = r.str()
		case "command":
			s.Command = r.str()
		case "branch":
			s.Branch = r.str()
		case "gitBranch":
			s.GitBranch = r.str()
		case "description":
			s.Description = r.str()
		case "status":
			s.Status = r.str()
		case "phase":
			var err error
			if r.peek() == '"' {
				s.Phase, err = ParsePhase(r.str())
				if s.Phase.N != 0 { // a quoted number is no phase
					r.fail()
				}
			} else {
				s.Phase, err = ParsePhase(strconv.Itoa(r.int()))
			}
			if err != nil {
				r.fail()
			}
		case "phaseLabel":
			s.PhaseLabel = r.strPtr()
		case "totalPhases":
			s.TotalPhases = r.int()
		case "jiraTicket":
			s.JiraTicket = r.strPtr()
		case "planFile":
			s.PlanFile = r.strPtr()
		case "linkedPRs":
			if r.null() {
				return
			}
			s.LinkedPRs = []PR{}
			r.array(func() {
				s.LinkedPRs = append(s.LinkedPRs, PR{})
				r.pr(&s.LinkedPRs[len(s.LinkedPRs)-1])
			})
		case "startedAt":
			s.StartedAt = r.str()
		case "updatedAt":
			s.UpdatedAt = r.str()
		case "scope":
			s.Scope = r.str()
		case "repos":
			s.Repos = []string{}
			r.array(func() { s.Repos = append(s.Repos, r.str()) })
		case "perRepoState":
			s.PerRepoState = map[string]RepoState{}
			r.object(func(name string) {
				var rs RepoState
				r.repoState(&rs)
				s.PerRepoState[name] = rs
			})
		case "gate":
			s.Gate = &Gate{}
			r.gate(s.Gate)
		default:
			r.fail()
		}
	})
}

func (r *reader) pr(p *PR) {
	r.object(func(name string) {
		switch name {
		case "repo":
			p.Repo = r.str()
		case "url":
			p.URL = r.str()
		case "number":
			p.Number = r.intPtr()
		case "stackId":
			p.StackID = r.strPtr()
		case "stackPosition":
			p.StackPosition = r.intPtr()
		case "stackedOn":
			p.StackedOn = r.strPtr()
		default:
			r.fail()
		}
	})
}

func (r *reader) repoState(s *RepoState) {
	r.object(func(name string) {
		switch name {
		case "repoPath":
			s.RepoPath = r.str()
		case "branch":
			s.Branch = r.str()
		case "worktree":
			s.Worktree = r.str()
		case "currentSlice":
			s.CurrentSlice = r.intPtr()
		case "prUrl":
			s.PRURL = r.strPtr()
		default:
			r.fail()
		}
	})
}

func (r *reader) gate(g *Gate) {
	r.object(func(name string) {
		switch name {
		case "verdicts":
			if r.null() {
				return
			}
			g.Verdicts = []Verdict{}
			r.array(func() {
				g.Verdicts = append(g.Verdicts, Verdict{})
				r.verdict(&g.Verdicts[len(g.Verdicts)-1])
			})
		case "retries":
			if r.null() {
				return
			}
			g.Retries = map[string]int{}
			r.object(func(name string) { g.Retries[name] = r.int() })
		default:
			r.fail()
		}
	})
}

func (r *reader) verdict(v *Verdict) {
	r.object(func(name string) {
		switch name {
		case "phase":
			v.Phase = r.int()
		case "verdict":
			v.Verdict = r.str()
		case "reviewer":
			v.Reviewer = r.str()
		case "note":
			v.Note = r.str()
		case "at":
			v.At = r.str()
		default:
			r.fail()
		}
	})
}

// decodeEntry decodes one entry of proven bytes (a span from locate,
// "{" to its closing "}" in Marshal's layout); ok is false when it must be
// left to json v2.
func decodeEntry(data []byte) (s Session, ok bool) {
	r := reader{b: data, ok: true}
	r.session(&s)
	if !r.ok || r.i != len(data) {
		return Session{}, false
	}
	again, ok := encode(&s, entryIndent, "  ", len(data)+1)
	if !ok || !bytes.Equal(again[:len(again)-1], data) {
		return Session{}, false
	}
	return s, true
}

// decodeRegistry decodes a whole proven orc.json, as Marshal wrote it.
func decodeRegistry(data []byte) (reg Registry, ok bool) {
	r := reader{b: data, ok: true}
	r.registry(&reg)
	if r.space(); !r.ok || r.i != len(data) {
		return Registry{}, false
	}
	again, ok := encode(&reg, "", "  ", len(data))
	if !ok || !bytes.Equal(again, data) {
		return Registry{}, false
	}
	return reg, true
}
