package cli

// CurrentCmd is `current`.
type CurrentCmd struct {
	BranchFlag
}

// Run prints the current branch's entry.
func (c *CurrentCmd) Run(e *Env) error {
	_, _, s, err := e.Session(c.Branch)
	if err != nil {
		return err
	}
	return printJSON(e.Stdout, s, "  ")
}
