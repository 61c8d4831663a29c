package verify

import (
	"fmt"
	"io/fs"
	"path/filepath"
	"strings"

	"github.com/orc-state/orc-state/internal/atomicfile"
	"github.com/orc-state/orc-state/internal/gitx"
	"github.com/orc-state/orc-state/internal/safetext"
	"github.com/orc-state/orc-state/internal/state"
)

// StrayFiles names a file of the session's folder that no verb writes (a
// link, a hidden or .git-like name, a name Windows cannot store, a file
// outside files/, one over its size cap): the first one, as file.stray,
// by the rules every import and restore applies (state.CheckStrays), so
// that what sync push refuses is named here too, with the way out. Temp
// files are doctor's temp.stale. It lists the folder; it reads no file.
func StrayFiles(d *state.Dir, id string) []Finding {
	root := filepath.Join(d.Path, id)
	tree := gitx.Tree{}
	var big []Finding
	_ = filepath.WalkDir(root, func(p string, de fs.DirEntry, err error) error {
		if err != nil || p == root {
			return nil
		}
		rel, _ := filepath.Rel(root, p)
		rel = filepath.ToSlash(rel)
		switch {
		case de.Type()&fs.ModeSymlink != 0:
			tree[rel] = gitx.Blob{Mode: "symlink"}
		case de.IsDir():
			if st := state.NameProblem(de.Name()); st != "" {
				tree[rel] = gitx.Blob{} // named as the folder: nothing under it is listed
				return fs.SkipDir
			}
		case atomicfile.IsTemp(de.Name()):
		case !de.Type().IsRegular():
			tree[rel] = gitx.Blob{Mode: "special file"}
		default:
			tree[rel] = gitx.Blob{}
			if name, ok := strings.CutPrefix(rel, "files/"); ok {
				if info, err := de.Info(); err == nil && info.Size() > int64(state.MaxBytes(name)) {
					big = append(big, Finding{Code: "file.stray",
						Message: fmt.Sprintf("%s is %d bytes, over its cap of %d", safetext.Escape(rel), info.Size(), state.MaxBytes(name)),
						Next:    fmt.Sprintf("sync push refuses the session and a restore of it is refused while it is over: make %s smaller by hand", safetext.Escape(filepath.ToSlash(filepath.Join(id, rel))))})
				}
			}
		}
		return nil
	})
	err := state.CheckStrays(state.Incoming{ID: id, Side: "local", Orphan: true}, tree)
	if st, ok := err.(*state.StrayError); ok {
		return append([]Finding{strayFinding(id, st.Path, err.Error())}, big...)
	}
	return big
}

func strayFinding(id, rel, msg string) Finding {
	path := filepath.ToSlash(filepath.Join(id, rel))
	return Finding{Code: "file.stray", Message: msg,
		Next: fmt.Sprintf("no verb writes it and sync push refuses the session while it is there: remove %s from the state dir by hand", safetext.Escape(path))}
}
