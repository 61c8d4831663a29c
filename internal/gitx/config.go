package gitx

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strconv"
	"strings"

	"github.com/go-git/gcfg"
)

// repoConfig is what discovery reads from a repository's own config file:
// the keys that decide where the work tree is, and whether refs are files
// it may read by hand. Like git while it sets up a repository, it reads
// only that one file (no includes, no global or system config).
type repoConfig struct {
	bare       *bool  // core.bare; nil when unset
	worktree   string // core.worktree as written; "" when unset
	refStorage string // extensions.refStorage as written; "" when unset
}

// readRepoConfig reads path; a missing file is an empty config.
func readRepoConfig(path string) (repoConfig, error) {
	var c repoConfig
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
		case section == "extensions" && sub == "" && key == "refstorage":
			c.refStorage = value
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
