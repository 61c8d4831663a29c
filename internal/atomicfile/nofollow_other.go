//go:build !unix

package atomicfile

// oNoFollow is not available here; the Lstat check in Append is the only
// guard against symlinks.
const oNoFollow = 0
