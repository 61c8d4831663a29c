package gitx

import (
	"encoding/hex"
	"errors"
	"fmt"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/object"
	"github.com/go-git/go-git/v5/plumbing/storer"
	"github.com/go-git/go-git/v5/storage/filesystem"
)

// builtinObjects is the object reader used when there is no git program:
// go-git's storage over the repository's files (SHA-1 repositories with
// the files ref backend only; OpenLayout refuses the rest).
type builtinObjects struct {
	st      *filesystem.Storage
	shallow map[string]bool
}

func (b *builtinObjects) close() {}

func (b *builtinObjects) claim(claim string) (string, error) {
	claim = strings.ToLower(claim)
	if len(claim) > 40 {
		return "", errMissing // the built-in reader reads SHA-1 repositories only
	}
	if len(claim) == 40 {
		if _, err := object.GetCommit(b.st, plumbing.NewHash(claim)); err != nil {
			return "", notFound(err)
		}
		return claim, nil
	}
	raw, err := hex.DecodeString(claim[:len(claim)&^1]) // whole bytes only
	if err != nil {
		return "", errMissing
	}
	hashes, err := b.st.HashesWithPrefix(raw)
	if err != nil {
		return "", err
	}
	full := ""
	for _, h := range hashes {
		s := h.String()
		if s == full || !strings.HasPrefix(s, claim) {
			continue
		}
		if _, err := object.GetCommit(b.st, h); err != nil {
			continue
		}
		if full != "" {
			return "", errAmbiguous
		}
		full = s
	}
	if full == "" {
		return "", errMissing
	}
	return full, nil
}

func (b *builtinObjects) commit(id string) (commitInfo, error) {
	if len(id) != 40 {
		return commitInfo{}, errMissing
	}
	c, err := object.GetCommit(b.st, plumbing.NewHash(id))
	if err != nil {
		return commitInfo{}, notFound(err)
	}
	ci := commitInfo{ID: c.Hash.String(), When: c.Committer.When, Subject: subject(c.Message)}
	for _, p := range c.ParentHashes {
		ci.Parents = append(ci.Parents, p.String())
	}
	if b.shallow[ci.ID] && len(ci.Parents) > 0 {
		ci.Parents, ci.Cut = nil, true
	}
	return ci, nil
}

func (b *builtinObjects) ref(name string) (string, error) {
	ref, err := storer.ResolveReference(b.st, plumbing.ReferenceName(name))
	if err != nil {
		return "", notFound(err)
	}
	return ref.Hash().String(), nil
}

func (b *builtinObjects) peel(id string) (string, error) {
	h := plumbing.NewHash(id)
	for depth := 0; depth < 10; depth++ {
		obj, err := b.st.EncodedObject(plumbing.AnyObject, h)
		if err != nil {
			return "", notFound(err)
		}
		switch obj.Type() {
		case plumbing.CommitObject:
			return h.String(), nil
		case plumbing.TagObject:
			tag, err := object.DecodeTag(b.st, obj)
			if err != nil {
				return "", err
			}
			h = tag.Target
		default:
			return "", errNotCommit
		}
	}
	return "", fmt.Errorf("%s: tag chain too deep", id)
}

// notFound maps go-git's not-found errors to errMissing.
func notFound(err error) error {
	if errors.Is(err, plumbing.ErrObjectNotFound) || errors.Is(err, plumbing.ErrReferenceNotFound) {
		return errMissing
	}
	return err
}
