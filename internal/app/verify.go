package app

import "github.com/orc-state/orc-state/internal/verify"

// VerifyReport is what `verify` found in one session: its sessionId and
// each problem with its next command, never nil (JSON's [] when all is
// well).
type VerifyReport struct {
	SessionID string
	Findings  []verify.Finding
}

// Verify checks the session for key (a branch or sessionId; "" for the
// run's --session or the current branch) with verify.Full, and returns
// what it found. A read: no lock, nothing written.
func Verify(txn *Txn, w *World, key string) (VerifyReport, error) {
	d, reg, s, err := txn.Where().Session(key)
	if err != nil {
		return VerifyReport{}, err
	}
	findings, err := verify.Full(d, reg, s, w.Now(), w.Environ())
	if err != nil {
		return VerifyReport{}, err
	}
	if findings == nil {
		findings = []verify.Finding{}
	}
	return VerifyReport{SessionID: s.SessionID, Findings: findings}, nil
}
