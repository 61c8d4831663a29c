package checkpoint

import "fmt"

// DigestText is the digest digest write reads, as plain text for --help:
// its bullets, caps and Suite forms, from the rules ParseDigest enforces,
// with an example it accepts.
func DigestText() string {
	b := digestBullets
	return fmt.Sprintf(`The digest is the handoff to whoever continues the session: a fresh session,
or the same one after compaction. stdin replaces the "## Resume digest"
section of checkpoint.md. It begins with five bullets, in this order (other
lines may sit between them and follow them):

    %s what is finished
    %s what comes next, naming the file the next phase reads
    %s questions still open, or none
    %s the files the work produced, or none
    %s unknown, or <verdict> @ <sha>

At most %d lines and %d bytes (blank lines at the start and the end are
dropped first), and no line opens a heading ("# ", "## "). Suite is one of:

    unknown
    unknown (why)
    <verdict> @ <sha>           a one-word verdict, and the 7-64 hex digits of
    <verdict> @ <sha> (note)    a commit of this repository the suite ran at

Anything else is refused (exit 2) with the reason, and nothing is written;
history belongs in progress.md (progress append -). Example:

    orc-state digest write - <<'EOF'
    - Done: phase 2, the plan (files/plan.md)
    - Next: phase 3 implements slice 1; read files/plan.md
    - Open decisions: none
    - Artifacts: files/plan.md
    - Suite: pass @ 3f2c1ab (go test ./...)
    EOF`, b[0], b[1], b[2], b[3], b[4], MaxDigestLines, MaxDigestBytes)
}
