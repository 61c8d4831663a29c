package gitx

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"sort"
	"strconv"
	"strings"

	"github.com/go-git/gcfg"
)

// repoConfig is what orc-state reads from a repository's own config file:
// the keys that decide where the work tree is and whether the repository
// format is one the built-in reader understands. Like git while it sets up
// a repository, it reads only that one file (no includes, no global or
// system config).
type repoConfig struct {
	bare          *bool             // core.bare; nil when unset
	worktree      string            // core.worktree as written; "" when unset
	formatVersion string            // core.repositoryformatversion as written
	extensions    map[string]string // extensions.<name> (lower-case) = value
	promisor      bool              // a promisor remote: extensions.partialClone or remote.<r>.promisor
}

// readRepoConfig reads path; a missing file is an empty config.
func readRepoConfig(path string) (repoConfig, error) {
	c := repoConfig{extensions: map[string]string{}}
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return c, nil
	}
	if err != nil {
		return c, fmt.Errorf("read %s: %w", path, err)
	}
	err = gcfg.ReadWithCallback(strings.NewReader(string(data)), func(section, sub, key, value string, blank bool) error {
		if key == "" {
			return nil
		}
		if blank {
			value = "true" // a key without "=" is a true boolean
		}
		section, key = strings.ToLower(section), strings.ToLower(key)
		switch {
		case section == "core" && sub == "" && key == "bare":
			b := parseBool(value)
			c.bare = &b
		case section == "core" && sub == "" && key == "worktree":
			c.worktree = value
		case section == "core" && sub == "" && key == "repositoryformatversion":
			c.formatVersion = strings.TrimSpace(value)
		case section == "extensions" && sub == "":
			c.extensions[key] = value
			if key == "partialclone" && value != "" {
				c.promisor = true
			}
		case section == "remote" && sub != "" && key == "promisor":
			if parseBool(value) {
				c.promisor = true
			}
		}
		return nil
	})
	if err != nil {
		return c, fmt.Errorf("parse %s: %w", path, err)
	}
	return c, nil
}

// parseBool reads a git boolean: true/yes/on or a non-zero number.
func parseBool(v string) bool {
	switch strings.ToLower(strings.TrimSpace(v)) {
	case "true", "yes", "on":
		return true
	case "", "false", "no", "off":
		return false
	}
	n, err := strconv.Atoi(strings.TrimSpace(v))
	return err == nil && n != 0
}

// benignExtensions are the extensions.* keys (lower-case) that do not change
// how objects, refs or the index are stored, so the built-in reader may
// ignore them.
var benignExtensions = map[string]bool{
	"worktreeconfig":  true, // per-worktree config.worktree files
	"preciousobjects": true, // forbids pruning; reads are unaffected
	"noop":            true,
	"noop-v1":         true,
}

// Errors of the built-in reader for repositories whose format it cannot read.
var (
	// errUnknownExtension is returned (wrapped, with the extension's name)
	// for an [extensions] key that changes the repository format.
	errUnknownExtension = errors.New("unknown extension")
	// errFormatVersion is returned for core.repositoryformatversion > 1.
	errFormatVersion = errors.New("unsupported core.repositoryformatversion")
)

// builtinReadable says whether the built-in (go-git) reader can read the
// repository: format version 0 or 1 and only benign extensions. The error
// names what it cannot read (objectformat=sha256, refstorage=reftable, an
// extension newer than this program, a partial clone's promisor objects).
func (c repoConfig) builtinReadable() error {
	if v := c.formatVersion; v != "" {
		if n, err := strconv.Atoi(v); err != nil || n < 0 || n > 1 {
			return fmt.Errorf("%w: %q", errFormatVersion, v)
		}
	}
	var bad []string
	for k, v := range c.extensions {
		if !benignExtensions[k] {
			bad = append(bad, k+"="+v)
		}
	}
	if len(bad) == 0 {
		return nil
	}
	sort.Strings(bad)
	return fmt.Errorf("%w: %s", errUnknownExtension, strings.Join(bad, ", "))
}
