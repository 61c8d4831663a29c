package cli

// BranchFlag selects the session a verb acts on (docs/protocol.md §3): --branch B
// (a branch, or the sessionId of a branch that is gone) or --session S (a
// sessionId, matched exactly); neither means the current branch. Every verb
// that acts on a session embeds it. A verb passes its --branch (or its
// positional key) to its app function; --session reaches the session's
// selection through the *app.Txn bound to its Run (parseAndRun reads it
// once, after parsing: sessionFlag).
type BranchFlag struct {
	Branch  string `help:"Branch whose session to use (or a sessionId when no git branch has that name); default: the current branch." placeholder:"B" predictor:"branch"`
	Session string `help:"The session to use, by sessionId (exactly)." placeholder:"S" predictor:"session"`
}

// keyOr is the session key a verb with a positional key was given: the
// key, else its --branch ("" for the current branch).
func (b BranchFlag) keyOr(key string) string {
	if key != "" {
		return key
	}
	return b.Branch
}
