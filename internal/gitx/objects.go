package gitx

import (
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
)

// Refs lists the refs under prefix (e.g. "refs/remotes/") with their shas.
func (r *Repo) Refs(prefix string) (map[string]string, error) {
	it, err := r.st.IterReferences()
	if err != nil {
		return nil, err
	}
	out := map[string]string{}
	err = it.ForEach(func(ref *plumbing.Reference) error {
		if n := ref.Name().String(); strings.HasPrefix(n, prefix) && ref.Type() == plumbing.HashReference {
			out[n] = ref.Hash().String()
		}
		return nil
	})
	return out, err
}
