package app

import "github.com/orc-state/orc-state/internal/verify"

// DoctorReport is what `doctor` found: the state dir it checked and each
// problem with its next command, never nil (JSON's [] when all is well).
type DoctorReport struct {
	StateDir string
	Findings []verify.DirFinding
}

// Doctor checks the whole state dir (verify.StateDir, then its archives'
// sizes against $ORC_ARCHIVE_WARN_BYTES, verify.Archives) and returns
// what it found. A read: no lock, nothing written.
func Doctor(w *World, sd *StateDir) (DoctorReport, error) {
	d, err := sd.Dir()
	if err != nil {
		return DoctorReport{}, err
	}
	findings := verify.StateDir(d, w.Now(), w.Environ())
	findings = append(findings, verify.Archives(d, w.Getenv("ORC_ARCHIVE_WARN_BYTES"))...)
	if findings == nil {
		findings = []verify.DirFinding{}
	}
	return DoctorReport{StateDir: d.Path, Findings: findings}, nil
}
