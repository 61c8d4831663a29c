//go:build !linux

package atomicfile

// openDir opens the folder rel beneath root by checking each component
// with lstat: no openat2 here.
func openDir(root, rel string) (handle, error) { return openWalked(root, rel) }
