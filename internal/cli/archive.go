package cli

import (
	"github.com/orc-state/orc-state/internal/removal"
)

// removal is what the verbs that remove, replace or restore a session's
// content hand internal/removal of this run: who and when, the
// environment, the selection and the transaction with the verb's options
// (Env.update, whose function prints through the transaction).
func (e *Env) removal() removal.Run {
	return removal.Run{Verb: e.Verb, Actor: e.Actor(), Stamp: e.stamp, Now: e.now, Environ: e.proc.Environ,
		Where: e.where(), CheckActor: e.checkActor, Update: e.update}
}

// replaceLedger installs data as the session's ledger, keeping the ledger
// it replaces in an archive first (removal.Run.ReplaceLedger).
func (e *Env) replaceLedger(explicit string, data []byte, refuse func(old []byte) error, args map[string]any) error {
	ch, err := e.choose(explicit)
	if err != nil {
		return err
	}
	return e.removal().ReplaceLedger(ch, data, refuse, args)
}
