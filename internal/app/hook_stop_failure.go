package app

// HookStopFailure is `hook stop-failure`: the Auto-checkpoint of the live
// session of the payload's cwd after a failed turn, trigger stop-failure
// (see hookAutoCheckpoint). It returns the problem the hook reports (nil:
// none).
func HookStopFailure(o *Streams, w *World, txn *Txn) error {
	return hookAutoCheckpoint(o, w, txn, "StopFailure", "stop-failure", false)
}
