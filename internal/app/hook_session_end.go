package app

// HookSessionEnd is `hook session-end`: the Auto-checkpoint of the live
// session of the payload's cwd, trigger session-end (see
// hookAutoCheckpoint). It returns the problem the hook reports (nil:
// none).
func HookSessionEnd(o *Streams, w *World, txn *Txn) error {
	return hookAutoCheckpoint(o, w, txn, "SessionEnd", "session-end", false)
}
