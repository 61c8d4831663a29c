// Package redact owns what `repair --redact` does to one session (docs/protocol.md
// §4, the one exception to append-only): it finds the credentials an older
// orc-state let into the session's registry entry or into any regular file
// under its files/ folder (content and names: the checkpoint's
// frontmatter and body, progress.md, decisions.json, slices.json, the
// journal's lines, every artifact), and gives the redacted version of each
// ([Session]). verify names what it finds (secret.stored); the repair verb
// stages the plan in one state transaction, which re-chains nothing
// itself: [journal.Rewrite] carries the chain over the edited lines.
//
// A redaction keeps every byte that held no credential. Each
// credential-shaped run becomes "[redacted <kind>]" (JSON stays valid
// JSON: the string holding it is re-encoded), a line or string that still
// shows one once decoded becomes the marker as a whole, and a name holding
// one is renamed with "redacted" in its place. Nothing here returns or
// records the credential: a [Hit] names the file, the line and the kind.
package redact

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"path/filepath"
	"sort"
	"strings"

	"github.com/orc-state/orc-state/checkpoint"
	"github.com/orc-state/orc-state/internal/atomicfile"
	"github.com/orc-state/orc-state/internal/journal"
	"github.com/orc-state/orc-state/internal/secrets"
	"github.com/orc-state/orc-state/internal/state"
	"github.com/orc-state/orc-state/internal/strictjson"
	"github.com/orc-state/orc-state/registry"
)

// Hit is one place a credential was stored.
type Hit struct {
	// File is "entry" (the registry entry) or the file's path in the
	// session folder, "files/<name>" (for a renamed file, its new name).
	File string `json:"file"`
	Line int    `json:"line,omitempty"` // 1-based; none for the entry or a name
	Kind string `json:"kind"`
	Name bool   `json:"name,omitempty"` // the file's name held it
}

// String describes the hit for a message.
func (h Hit) String() string {
	switch {
	case h.Name:
		return fmt.Sprintf("a file name under files/ (%s)", h.Kind)
	case h.Line > 0:
		return fmt.Sprintf("%s line %d (%s)", h.File, h.Line, h.Kind)
	}
	return fmt.Sprintf("%s (%s)", h.File, h.Kind)
}

// Files are a session's files as read from its files/ folder.
type Files struct {
	Data  map[string][]byte // every regular file (temp files aside), by slash path under files/
	dirs  []string          // every folder under files/
	other []string          // everything else: links, temp files
}

// Read reads every regular file under filesDir, never following a link;
// a missing folder has no files.
func Read(filesDir string) (*Files, error) {
	f := &Files{Data: map[string][]byte{}}
	err := filepath.WalkDir(filesDir, func(p string, de fs.DirEntry, err error) error {
		if err != nil {
			if p == filesDir && errors.Is(err, fs.ErrNotExist) {
				return fs.SkipAll
			}
			return err
		}
		if p == filesDir {
			return nil
		}
		rel, err := filepath.Rel(filesDir, p)
		if err != nil {
			return err
		}
		rel = filepath.ToSlash(rel)
		switch {
		case de.IsDir():
			f.dirs = append(f.dirs, rel)
		case de.Type().IsRegular() && !atomicfile.IsTemp(de.Name()):
			data, err := atomicfile.ReadFile(p)
			if err != nil {
				return err
			}
			f.Data[rel] = data
		default:
			f.other = append(f.other, rel)
		}
		return nil
	})
	return f, err
}

// Plan is the redaction of one session.
type Plan struct {
	Entry   *registry.Session // the redacted entry; nil when it held nothing
	Writes  map[string][]byte // slash path under files/ → new content
	Journal []byte            // the rewritten journal; nil when it held nothing
	Removes []string          // paths under files/ to remove (renamed files, then emptied folders, deepest first)
	OldTip  string            // sha256 of the journal's last line before ("" without one)
	Hits    []Hit
}

// Session plans the redaction of session s with files f. A plan without
// hits changes nothing.
func Session(s registry.Session, f *Files) (*Plan, error) {
	p := &Plan{Writes: map[string][]byte{}}
	if tail := journal.TailOf(f.Data[journal.FileName]); tail.Raw != nil {
		p.OldTip = journal.Sum(tail.Raw)
	}
	entry := s
	if red, hits := secrets.RedactJSON(s.Canonical()); len(hits) > 0 {
		var ns registry.Session
		if err := strictjson.Decoded(red, &ns); err != nil {
			return nil, err
		}
		if err := ns.Validate(); err != nil {
			return nil, fmt.Errorf("the registry entry without its credential is not valid (%v); edit orc.json by hand", err)
		}
		entry, p.Entry = ns, &ns
		for _, h := range hits {
			p.Hits = append(p.Hits, Hit{File: "entry", Kind: h.Kind})
		}
	}
	names := make([]string, 0, len(f.Data))
	for name := range f.Data {
		names = append(names, name)
	}
	sort.Strings(names)
	taken := map[string]bool{}
	for _, name := range names {
		taken[name] = true
	}
	for _, name := range names {
		data := f.Data[name]
		red, hits, err := redactFile(name, data, &entry, p.Entry != nil)
		if err != nil {
			return nil, err
		}
		to := name
		if renamed := redactPath(name); renamed != name {
			to = unique(renamed, taken)
			taken[to] = true
			k, _, _ := secrets.FindDecoded([]byte(name))
			p.Hits = append(p.Hits, Hit{File: "files/" + to, Kind: k, Name: true})
			p.Removes = append(p.Removes, name)
		}
		for _, h := range hits {
			p.Hits = append(p.Hits, Hit{File: "files/" + to, Line: h.Line, Kind: h.Kind})
		}
		switch {
		case to != name:
			p.Writes[to] = red
		case len(hits) == 0:
		case name == journal.FileName:
			p.Journal = red
		default:
			p.Writes[name] = red
		}
	}
	p.Removes = append(p.Removes, emptied(f, p.Removes)...)
	return p, nil
}

// redactFile redacts one file as its row in state.SessionFiles says
// (Redact). entry is the session's entry (redacted when entryChanged),
// which a checkpoint's frontmatter mirrors.
func redactFile(name string, data []byte, entry *registry.Session, entryChanged bool) ([]byte, []secrets.Hit, error) {
	how := state.SessionFileOf(name).Redact
	if how == state.RedactByName {
		how = state.RedactLines
		if strings.HasSuffix(name, ".json") || strings.HasSuffix(name, ".jsonl") {
			how = state.RedactJSON
		}
	}
	switch how {
	case state.RedactJournal:
		if len(secrets.All(data)) == 0 {
			return data, nil, nil // the common case, without a pass per line
		}
		var hits []secrets.Hit
		n := 0
		red := journal.Rewrite(data, func(line []byte) []byte {
			n++
			out, h := secrets.RedactJSON(line)
			for _, x := range h {
				hits = append(hits, secrets.Hit{Line: n, Kind: x.Kind})
			}
			return out
		})
		return red, hits, nil
	case state.RedactCheckpoint:
		return redactCheckpoint(data, entry, entryChanged)
	case state.RedactJSON:
		red, hits := secrets.RedactJSON(data)
		return red, hits, nil
	}
	red, hits := secrets.RedactLines(data)
	return red, hits, nil
}

// redactCheckpoint redacts checkpoint.md: its body line by line, and its
// frontmatter, when that holds a credential or mirrors an entry that did,
// regenerated from the redacted entry (a YAML value is not redacted by
// hand: the marker would change its type).
func redactCheckpoint(data []byte, entry *registry.Session, entryChanged bool) ([]byte, []secrets.Hit, error) {
	doc := checkpoint.Parse(data)
	if doc.Front == nil || !bytes.HasSuffix(data, doc.Body) {
		red, hits := secrets.RedactLines(data)
		return red, hits, nil
	}
	head := data[:len(data)-len(doc.Body)]
	offset := bytes.Count(head, []byte{'\n'})
	body, hits := secrets.RedactLines(doc.Body)
	for i := range hits {
		hits[i].Line += offset
	}
	_, fm := secrets.RedactLines(head)
	if len(fm) == 0 && !(entryChanged && mirrors(*doc.Front, *entry)) {
		if len(hits) == 0 {
			return data, nil, nil
		}
		return append(head[:len(head):len(head)], body...), hits, nil
	}
	out, err := checkpoint.Render(state.Frontmatter(entry), body)
	if err != nil {
		return nil, nil, fmt.Errorf("checkpoint.md's frontmatter cannot be regenerated from the entry: %v", err)
	}
	return out, append(fm, hits...), nil
}

// mirrors reports whether a frontmatter shows one of the entry's
// free-text fields that a redaction of the entry can change.
func mirrors(fm checkpoint.Frontmatter, s registry.Session) bool {
	want := state.Frontmatter(&s)
	return fm.PhaseLabel != want.PhaseLabel || fm.Command != want.Command || fm.GitBranch != want.GitBranch
}

// redactPath redacts each component of a slash path.
func redactPath(name string) string {
	parts := strings.Split(name, "/")
	for i, part := range parts {
		parts[i] = secrets.RedactName(part)
	}
	return strings.Join(parts, "/")
}

// unique returns name, or name with -2, -3... before its extension, so it
// is none of the taken ones.
func unique(name string, taken map[string]bool) string {
	if !taken[name] {
		return name
	}
	ext := path.Ext(name)
	stem := strings.TrimSuffix(name, ext)
	for i := 2; ; i++ {
		if c := fmt.Sprintf("%s-%d%s", stem, i, ext); !taken[c] {
			return c
		}
	}
}

// emptied returns the folders whose name holds a credential and that hold
// nothing once the moved files are gone, deepest first. A folder that
// still holds something else (a link, a temp file) stays.
func emptied(f *Files, moved []string) []string {
	gone := map[string]bool{}
	for _, m := range moved {
		gone[m] = true
	}
	var out []string
	dirs := append([]string(nil), f.dirs...)
	sort.Slice(dirs, func(i, j int) bool { return strings.Count(dirs[i], "/") > strings.Count(dirs[j], "/") })
	for _, dir := range dirs {
		if redactPath(dir) == dir {
			continue
		}
		empty := true
		for name := range f.Data {
			if strings.HasPrefix(name, dir+"/") && !gone[name] {
				empty = false
			}
		}
		for _, o := range f.other {
			if strings.HasPrefix(o, dir+"/") {
				empty = false
			}
		}
		for _, d := range f.dirs {
			if strings.HasPrefix(d, dir+"/") && !gone[d] {
				empty = false
			}
		}
		if empty {
			gone[dir] = true
			out = append(out, dir)
		}
	}
	return out
}

// Args are the journal arguments of a redaction: the old tip and what was
// redacted, never the credential.
func (p *Plan) Args() map[string]any {
	return map[string]any{"fix": "redact", "oldTip": p.OldTip, "redacted": p.Hits}
}
