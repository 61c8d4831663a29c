package app

import "github.com/orc-state/orc-state/registry"

// Current returns the registry entry of the session for branch (the
// current branch when ""), to print as JSON.
func Current(txn *Txn, branch string) (*registry.Session, error) {
	_, _, s, err := txn.Where().Session(branch)
	if err != nil {
		return nil, err
	}
	return s, nil
}
