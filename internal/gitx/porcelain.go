package gitx

import (
	"bytes"
	"fmt"
	"strings"
)

// StatusEntry is one changed, unmerged or untracked path.
type StatusEntry struct {
	Path     string // path relative to the worktree root, '/'-separated; the new path for renames and copies
	OrigPath string // original path of a rename or copy ("" otherwise)
	Code     string // porcelain v2 XY: "M.", ".M", "A.", "R.", "UU", "??", ...
}

// BranchHeader is what the "# branch.oid" and "# branch.head" headers of
// `git status --porcelain=v2 --branch` say about HEAD.
type BranchHeader struct {
	OID    string // the HEAD commit; "" when unborn ("(initial)") or absent
	Head   string // the branch; "" when detached ("(detached)") or absent
	Seen   bool   // both headers were present
	Detach bool   // "# branch.head (detached)"
}

// ParsePorcelainV2 parses the output of `git status --porcelain=v2 -z`.
// Header lines ("# ...") and ignored entries ("!") are skipped. Every
// returned entry has a non-empty Path and a two-letter Code. It is exported
// for fuzzing.
func ParsePorcelainV2(out []byte) ([]StatusEntry, error) {
	_, entries, err := ParseStatus(out)
	return entries, err
}

// ParseStatus is ParsePorcelainV2 that also reads the branch headers.
// The output is copied once; every path is a part of that copy.
func ParseStatus(out []byte) (BranchHeader, []StatusEntry, error) {
	var h BranchHeader
	var oidSeen, headSeen bool
	rest := string(out)
	entries := make([]StatusEntry, 0, bytes.Count(out, []byte{0})) // records, headers included
	next := func() (string, bool) {
		if rest == "" {
			return "", false
		}
		rec := rest
		if i := strings.IndexByte(rest, 0); i >= 0 {
			rec, rest = rest[:i], rest[i+1:]
		} else {
			rest = ""
		}
		return rec, true
	}
	for {
		rec, ok := next()
		if !ok {
			h.Seen = oidSeen && headSeen
			if len(entries) == 0 {
				entries = nil
			}
			return h, entries, nil
		}
		if len(rec) < 2 || rec[1] != ' ' {
			if rec == "" {
				return h, nil, fmt.Errorf("porcelain v2: empty record")
			}
			return h, nil, fmt.Errorf("porcelain v2: malformed record %q", truncate(rec, 80))
		}
		var e StatusEntry
		switch rec[0] {
		case '#':
			if v, ok := strings.CutPrefix(rec, "# branch.oid "); ok {
				oidSeen = true
				if v != "(initial)" {
					if !isObjectID(v) {
						return h, nil, fmt.Errorf("porcelain v2: bad branch.oid %q", truncate(v, 80))
					}
					h.OID = strings.ToLower(v)
				}
			} else if v, ok := strings.CutPrefix(rec, "# branch.head "); ok {
				headSeen = true
				if v == "(detached)" {
					h.Detach = true
				} else {
					h.Head = v
				}
			}
			continue
		case '!':
			continue
		case '?':
			e = StatusEntry{Path: rec[2:], Code: "??"}
		case '1': // 1 XY sub mH mI mW hH hI path
			xy, path, ok := cutFields(rec, 8)
			if !ok {
				return h, nil, fmt.Errorf("porcelain v2: short changed record %q", truncate(rec, 80))
			}
			e = StatusEntry{Path: path, Code: xy}
		case '2': // 2 XY sub mH mI mW hH hI Xscore path NUL origPath
			xy, path, ok := cutFields(rec, 9)
			if !ok {
				return h, nil, fmt.Errorf("porcelain v2: short rename record %q", truncate(rec, 80))
			}
			orig, ok := next()
			if !ok || orig == "" {
				return h, nil, fmt.Errorf("porcelain v2: rename of %q has no original path", truncate(path, 80))
			}
			e = StatusEntry{Path: path, OrigPath: orig, Code: xy}
		case 'u': // u XY sub m1 m2 m3 mW h1 h2 h3 path
			xy, path, ok := cutFields(rec, 10)
			if !ok {
				return h, nil, fmt.Errorf("porcelain v2: short unmerged record %q", truncate(rec, 80))
			}
			e = StatusEntry{Path: path, Code: xy}
		default:
			return h, nil, fmt.Errorf("porcelain v2: unknown record type %q", rec[:1])
		}
		if e.Path == "" {
			return h, nil, fmt.Errorf("porcelain v2: empty path in %q", truncate(rec, 80))
		}
		if !validXY(e.Code) {
			return h, nil, fmt.Errorf("porcelain v2: bad XY %q", truncate(e.Code, 10))
		}
		entries = append(entries, e)
	}
}

// cutFields splits a record at its first n spaces: its second field (XY)
// and what follows the n-th space (the path, which may hold spaces); ok
// false when the record has fewer.
func cutFields(rec string, n int) (xy, rest string, ok bool) {
	at := 0
	for i := 0; i < n; i++ {
		j := strings.IndexByte(rec[at:], ' ')
		if j < 0 {
			return "", "", false
		}
		if i == 1 {
			xy = rec[at : at+j]
		}
		at += j + 1
	}
	return xy, rec[at:], true
}

// validXY accepts the two status letters of porcelain v2 ('.' = unchanged).
func validXY(xy string) bool {
	if len(xy) != 2 {
		return false
	}
	for i := 0; i < 2; i++ {
		if !strings.ContainsRune(".MTADRCU?", rune(xy[i])) {
			return false
		}
	}
	return true
}
