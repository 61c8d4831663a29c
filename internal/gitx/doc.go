// Package gitx is the single git layer of orc-state: every verb that needs to
// know about the repository goes through it.
//
// It owns three things:
//
//   - Cheap discovery (Discover, Layout.CurrentBranch): hand-rolled reads of
//     the .git file/dir, commondir and HEAD, with no go-git and no subprocess,
//     for hot paths such as the statusline.
//   - Object reads through go-git (Open, Repo.Head, Repo.Log,
//     Repo.ResolveCommit, Repo.CommitsBetween, Repo.BranchExists), including
//     the lenient fallback that lets go-git v5 open repositories carrying only
//     benign [extensions] (extensions.worktreeConfig and friends) while still
//     refusing format-changing ones such as objectFormat=sha256.
//   - The dirty-file list (Repo.Status), which shells out to
//     `git --no-optional-locks status --porcelain=v2 -z` with a sanitised
//     environment, and degrades to an approximate go-git status when no git
//     binary exists.
//
// Nothing in this package writes to the repository.
package gitx
