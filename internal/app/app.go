// Package app is orc-state's application layer: what each verb does,
// between the command line (internal/cli), which parses arguments and
// prints, and the packages that own the state's files and rules.
//
// A run is three values the command line makes once and hands each verb:
// its World (the environment, the working directory and the two clocks),
// its StateDir (the state dir and the worktree's binding, each found on
// first use) and its Txn (the session's selection and the transaction
// entry points, with the verb's journal options). A verb's work takes
// them and its parsed values, and returns what the verb prints.
package app
