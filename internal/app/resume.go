package app

import (
	"github.com/orc-state/orc-state/internal/resume"
	"github.com/orc-state/orc-state/registry"
)

// ResumeParams are resume's parsed flags: the session's key (a branch or
// sessionId; "" for the run's own), the packet as JSON rather than
// Markdown, and the packet's upper bound in bytes.
type ResumeParams struct {
	Key      string
	JSON     bool
	MaxBytes int
}

// Resumed is what resume prints: the packet, rendered (nil when no
// session was found), or, when none was, the in-progress sessions a
// picker lists.
type Resumed struct {
	Packet []byte
	Live   []registry.Session
}

// Resume is `resume`: it finds the session p.Key names, else the run's
// own, and builds its resume packet (resume.Show; docs/protocol.md §11),
// rendered as JSON or Markdown within p.MaxBytes. When no session is
// found it returns the picker's list in Live with selection's refusal.
func Resume(w *World, sd *StateDir, txn *Txn, p ResumeParams) (Resumed, error) {
	shown, err := resume.Show(sd.Plain(txn.where.Flag), p.Key, w.Now())
	if err != nil {
		return Resumed{Live: shown.Live}, err
	}
	if p.JSON {
		return Resumed{Packet: shown.Packet.JSON(p.MaxBytes)}, nil
	}
	return Resumed{Packet: []byte(shown.Packet.Markdown(p.MaxBytes))}, nil
}
