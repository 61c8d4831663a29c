// Command npmpack writes the npm packages of a release from its archives:
// one package per platform (@orc-state/linux-x64, ..., each with os and cpu
// fields and the binary taken from the release archive after its SHA-256
// was checked against SHA256SUMS), and the small orc-state package whose
// optionalDependencies name them all and whose bin is a JavaScript shim
// that runs the installed platform's binary (npm/orc-state, copied as it is
// once it names this release). No install script: npm picks
// the platform package by its os and cpu fields, nothing is downloaded.
//
//	go run ./tools/npmpack -dist dist -out dist/npm
//
// docs/release.md says how they are published; .ci/npm installs them from
// a registry on 127.0.0.1.
package main

import (
	"archive/tar"
	"archive/zip"
	"bufio"
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"strings"
)

// npm's names for Go's operating systems and architectures.
var (
	npmOS   = map[string]string{"linux": "linux", "darwin": "darwin", "windows": "win32"}
	npmArch = map[string]string{"amd64": "x64", "arm64": "arm64"}
)

const scope = "@orc-state"

func main() {
	dist := flag.String("dist", "dist", "the release's dist dir: its archives and SHA256SUMS")
	out := flag.String("out", "dist/npm", "where to write the packages (replaced)")
	npmDir := flag.String("npm", "npm", "the source of the orc-state package (npm/orc-state)")
	flag.Parse()
	if err := run(*npmDir, *dist, *out); err != nil {
		fmt.Fprintln(os.Stderr, "npmpack:", err)
		os.Exit(1)
	}
}

type archive struct {
	name, sum, goos, goarch, version string
}

func run(npmDir, dist, out string) error {
	archives, err := readSums(filepath.Join(dist, "SHA256SUMS"))
	if err != nil {
		return err
	}
	version := archives[0].version
	if err := os.RemoveAll(out); err != nil {
		return err
	}
	optional := map[string]string{}
	for _, a := range archives {
		if a.version != version {
			return fmt.Errorf("SHA256SUMS mixes versions %s and %s", version, a.version)
		}
		data, err := os.ReadFile(filepath.Join(dist, a.name))
		if err != nil {
			return err
		}
		if got := hex.EncodeToString(sha256Sum(data)); got != a.sum {
			return fmt.Errorf("%s has SHA-256 %s, SHA256SUMS says %s", a.name, got, a.sum)
		}
		exe := "orc-state"
		if a.goos == "windows" {
			exe += ".exe"
		}
		bin, err := extract(a.name, data, exe)
		if err != nil {
			return err
		}
		os_, cpu := npmOS[a.goos], npmArch[a.goarch]
		pkg := scope + "/" + os_ + "-" + cpu
		dir := filepath.Join(out, os_+"-"+cpu)
		if err := writeFile(filepath.Join(dir, "bin", exe), bin, 0o755); err != nil {
			return err
		}
		if err := writeJSON(filepath.Join(dir, "package.json"), map[string]any{
			"name":            pkg,
			"version":         version,
			"description":     "The orc-state " + version + " binary for " + os_ + " " + cpu + " (from " + a.name + ")",
			"license":         "MIT",
			"repository":      map[string]string{"type": "git", "url": "git+https://github.com/orc-state/orc-state.git"},
			"os":              []string{os_},
			"cpu":             []string{cpu},
			"files":           []string{"bin/" + exe},
			"preferUnplugged": true,
		}); err != nil {
			return err
		}
		optional[pkg] = version
	}
	// The orc-state package: npm/orc-state as it is, once it names this
	// release and exactly these platform packages.
	src := filepath.Join(npmDir, "orc-state")
	raw, err := os.ReadFile(filepath.Join(src, "package.json"))
	if err != nil {
		return err
	}
	var meta struct {
		Version              string            `json:"version"`
		OptionalDependencies map[string]string `json:"optionalDependencies"`
	}
	if err := json.Unmarshal(raw, &meta); err != nil {
		return fmt.Errorf("%s/package.json: %w", src, err)
	}
	if meta.Version != version || !maps.Equal(meta.OptionalDependencies, optional) {
		return fmt.Errorf("%s/package.json names version %s and %v; the release in %s is %s with %v: update it", src, meta.Version, meta.OptionalDependencies, dist, version, optional)
	}
	for _, f := range []string{"package.json", "bin/orc-state.js"} {
		b, err := os.ReadFile(filepath.Join(src, f))
		if err != nil {
			return err
		}
		mode := os.FileMode(0o644)
		if strings.HasPrefix(f, "bin/") {
			mode = 0o755
		}
		if err := writeFile(filepath.Join(out, "orc-state", f), b, mode); err != nil {
			return err
		}
	}
	fmt.Printf("npmpack: orc-state %s and %d platform packages in %s\n", version, len(archives), out)
	return nil
}

// readSums reads SHA256SUMS: "SUM  orc-state_VERSION_OS_ARCH.EXT" lines.
func readSums(path string) ([]archive, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var list []archive
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		if len(fields) != 2 {
			return nil, fmt.Errorf("%s: not a SUM NAME line: %q", path, sc.Text())
		}
		name := strings.TrimPrefix(fields[1], "*")
		base := strings.TrimSuffix(strings.TrimSuffix(name, ".tar.gz"), ".zip")
		parts := strings.Split(base, "_")
		if len(parts) != 4 || parts[0] != "orc-state" || npmOS[parts[2]] == "" || npmArch[parts[3]] == "" {
			return nil, fmt.Errorf("%s: %q is not an archive orc-state_VERSION_OS_ARCH of a known platform", path, name)
		}
		list = append(list, archive{name: name, sum: fields[0], version: parts[1], goos: parts[2], goarch: parts[3]})
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	if len(list) == 0 {
		return nil, fmt.Errorf("%s lists no archive", path)
	}
	return list, nil
}

// extract returns the file named exe at the top of a .tar.gz or .zip.
func extract(name string, data []byte, exe string) ([]byte, error) {
	if strings.HasSuffix(name, ".zip") {
		zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
		if err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		for _, f := range zr.File {
			if f.Name == exe {
				rc, err := f.Open()
				if err != nil {
					return nil, err
				}
				defer rc.Close()
				return io.ReadAll(rc)
			}
		}
		return nil, fmt.Errorf("%s holds no %s", name, exe)
	}
	gz, err := gzip.NewReader(bytes.NewReader(data))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	tr := tar.NewReader(gz)
	for {
		h, err := tr.Next()
		if errors.Is(err, io.EOF) {
			return nil, fmt.Errorf("%s holds no %s", name, exe)
		}
		if err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		if h.Name == exe && h.Typeflag == tar.TypeReg {
			return io.ReadAll(tr)
		}
	}
}

func sha256Sum(b []byte) []byte {
	s := sha256.Sum256(b)
	return s[:]
}

func writeFile(path string, data []byte, mode os.FileMode) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	return os.WriteFile(path, data, mode)
}

func writeJSON(path string, v any) error {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		return err
	}
	return writeFile(path, b.Bytes(), 0o644)
}
