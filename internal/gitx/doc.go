// Package gitx is the single git layer of orc-state: every verb that needs to
// know about the repository goes through it.
//
// It owns three things:
//
//   - Cheap discovery (Discover, Layout.CurrentBranch): hand-rolled reads of
//     the .git file/dir, commondir and HEAD, with no go-git and no subprocess,
//     for hot paths such as the statusline.
//   - Object reads through go-git's storage packages (Open, Repo.Head,
//     Repo.Log, Repo.ResolveCommit, Repo.CommitsBetween, Repo.BranchExists).
//     Open builds a filesystem storage over the discovered git dir and
//     common dir and does its own format check: repositories carrying only
//     benign [extensions] (extensions.worktreeConfig and friends) open,
//     format-changing ones such as objectFormat=sha256 are refused. The
//     root go-git package is never imported: it links every transport
//     (ssh, http, ...) and costs milliseconds of start-up per process.
//   - The dirty-file list (Repo.Status), which shells out to
//     `git --no-optional-locks status --porcelain=v2 -z` with a sanitised
//     environment, and degrades to an approximate in-process status (index,
//     trees and merkletrie diffs) when no git binary exists.
//   - Sync's plumbing (plumbing.go): its commits and refs are read and
//     written through the git CLI (cat-file, fast-import, update-ref,
//     fetch, push), which works in every object format git does and lets a
//     partial clone fetch on demand.
//
// The only writes are sync's objects and the refs orc-state owns
// (refs/orc/); the config, the index and the working tree are never
// written.
package gitx
