// Package gitx is the single git layer of orc-state: every verb that needs
// to know about the repository goes through it, and git is its oracle:
// every answer (HEAD, the dirty list, "is this a commit", "does this branch
// exist", ancestry) is what git says in the same place and environment, or
// an explicit unknown with git's reason.
//
// It owns five things:
//
//   - Discovery (Discover, Layout), without running git: git's own set-up
//     rules (GIT_DIR, GIT_WORK_TREE, GIT_COMMON_DIR, a .git dir or gitfile,
//     a bare repository, core.bare and core.worktree, ceilings and
//     file-system boundaries), the main work tree (Layout.StateParent, where
//     the shared state dir goes), and cheap hand reads for hot paths
//     (Layout.CurrentBranch, Layout.BranchSHA, Layout.Worktrees).
//   - Ref questions read from the ref files where they give git's exact
//     answer, and asked of git otherwise (reffiles.go): the refs under
//     refs/orc/ or refs/heads/ (Layout.ListRefs, Repo.Branches, "none"
//     for Layout.ListRefMessages) and one branch (Repo.BranchHead).
//   - Commits read from the object files where they give git's exact
//     answer (objfiles.go): loose objects and packs, each object checked
//     to hash to its id, only where the ref files answer for git and no
//     replace ref exists; git cat-file otherwise.
//   - Questions answered by git itself (Open, Repo): HEAD and the dirty
//     list from one `git status --porcelain=v2 --branch -z` (Repo.Status,
//     Repo.ObserveBranch, which reads HEAD's commit and log beside it;
//     Repo.ObserveBranchLast stops the object reader then), objects the
//     files cannot give through one `git cat-file --batch`
//     process (Repo.Head, Repo.CheckClaim, Repo.Log, Repo.CommitsBetween),
//     refs through `git for-each-ref` (Repo.Merged; Repo.Branches when
//     the files cannot answer). Every such command runs with every
//     transport forbidden, so a partial clone never fetches from a read;
//     only sync's Layout.Run may reach a remote.
//     Object ids are read in the repository's own format (SHA-1 or
//     SHA-256); claims are 7 to 64 hex digits.
//   - Sync's plumbing (plumbing.go): its commits and refs are read and
//     written through the git CLI (cat-file, fast-import, update-ref,
//     fetch, push) in the same place, with the environment SyncEnv makes
//     (the variables that chose the repository kept, every other
//     repository-local one cleared), which works in every object format
//     git does and lets a partial clone fetch on demand.
//
// Without a git program on PATH every question fails with "no git
// program on PATH" (callers show it as unknown); nothing is computed in
// git's place. Of go-git only the plumbing package is linked (ref-name
// rules): its storage, object and config packages would add their
// initialisers to every process.
//
// The only writes are sync's objects and the refs orc-state owns
// (refs/orc/), and the new worktree (and branch) that `orc-state worktree
// add` asks git for by name (AddWorktree); the config, the index and the
// working tree are never written.
package gitx
