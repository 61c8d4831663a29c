package main

import (
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// module is the product's module path: an import under it is an arrow
// between two of its packages.
const module = "github.com/orc-state/orc-state/"

// TestLayers holds the product to the layer table of docs/architecture.md:
// every package that has non-test Go files is on exactly one layer, and
// each of its imports is from its own layer or one below. An arrow that
// runs back up (an application package importing the CLI, the writer
// importing an application package, a format importing the writer) fails
// here, naming the file.
func TestLayers(t *testing.T) {
	layer := readLayers(t)
	imports := productImports(t)
	var pkgs []string
	for p := range imports {
		pkgs = append(pkgs, p)
	}
	sort.Strings(pkgs)
	for _, p := range pkgs {
		if _, ok := layer[p]; !ok {
			t.Errorf("package %s is on no layer of docs/architecture.md's Layers table: add it to the layer it belongs to", p)
		}
	}
	for p := range layer {
		if _, ok := imports[p]; !ok {
			t.Errorf("docs/architecture.md's Layers table lists %s, which holds no non-test Go file", p)
		}
	}
	for _, p := range pkgs {
		from, ok := layer[p]
		if !ok {
			continue
		}
		for _, imp := range imports[p] {
			to, ok := layer[imp.pkg]
			if ok && to > from {
				t.Errorf("%s (layer %d) imports %s (layer %d): an arrow that runs back up", imp.file, from, imp.pkg, to)
			}
		}
	}
}

// readLayers reads the Layers table: package → layer.
func readLayers(t *testing.T) map[string]int {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(repoRoot, "docs", "architecture.md"))
	if err != nil {
		t.Fatal(err)
	}
	row := regexp.MustCompile("^\\| ([0-9]+) \\| [^|]+ \\| (.+) \\|$")
	name := regexp.MustCompile("`([^`]+)`")
	out := map[string]int{}
	for _, line := range strings.Split(string(data), "\n") {
		m := row.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		n, _ := strconv.Atoi(m[1])
		for _, pm := range name.FindAllStringSubmatch(m[2], -1) {
			if prev, dup := out[pm[1]]; dup {
				t.Errorf("docs/architecture.md's Layers table lists %s twice (layers %d and %d)", pm[1], prev, n)
			}
			out[pm[1]] = n
		}
	}
	if len(out) == 0 {
		t.Fatal("docs/architecture.md has no Layers table rows (| N | what | `pkg`, ... |)")
	}
	return out
}

type arrow struct{ pkg, file string }

// productImports lists, per package directory of the module (one with
// non-test Go files outside testdata), the module's packages its non-test
// files import.
func productImports(t *testing.T) map[string][]arrow {
	t.Helper()
	out := map[string][]arrow{}
	fset := token.NewFileSet()
	err := filepath.WalkDir(repoRoot, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			switch d.Name() {
			case ".git", "testdata", "node_modules", "dist":
				return filepath.SkipDir
			}
			if path != repoRoot {
				if _, err := os.Stat(filepath.Join(path, "go.mod")); err == nil {
					return filepath.SkipDir // a module of its own (tools/release)
				}
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		rel, _ := filepath.Rel(repoRoot, filepath.Dir(path))
		pkg := filepath.ToSlash(rel)
		f, err := parser.ParseFile(fset, path, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		if _, seen := out[pkg]; !seen {
			out[pkg] = nil // a package, whether or not it imports the module's
		}
		for _, spec := range f.Imports {
			imp, _ := strconv.Unquote(spec.Path.Value)
			if strings.HasPrefix(imp, module) {
				file, _ := filepath.Rel(repoRoot, path)
				out[pkg] = append(out[pkg], arrow{strings.TrimPrefix(imp, module), filepath.ToSlash(file)})
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestCLIReachesTheStateOnlyThroughTheApplication holds internal/cli to
// the packages docs/architecture.md's sentence under the Layers table
// names: internal/app, and those that parse or print and own no state. A
// verb that called a capability or a format itself fails here, naming
// the file.
func TestCLIReachesTheStateOnlyThroughTheApplication(t *testing.T) {
	data, err := os.ReadFile(filepath.Join(repoRoot, "docs", "architecture.md"))
	if err != nil {
		t.Fatal(err)
	}
	text := strings.Join(strings.Fields(string(data)), " ")
	sentence := regexp.MustCompile("The CLI reaches the state only through the application: [^.]*\\.").FindString(text)
	if sentence == "" {
		t.Fatal(`docs/architecture.md has no sentence "The CLI reaches the state only through the application: ..."`)
	}
	allowed := map[string]bool{}
	for _, m := range regexp.MustCompile("`([^`]+)`").FindAllStringSubmatch(sentence, -1) {
		allowed[m[1]] = true
	}
	delete(allowed, "internal/cli")
	if !allowed["internal/app"] || len(allowed) > 8 {
		t.Fatalf("docs/architecture.md allows internal/cli %d packages (%v); the budget is internal/app and at most 7 more", len(allowed), allowed)
	}
	for _, imp := range productImports(t)["internal/cli"] {
		if !allowed[imp.pkg] {
			t.Errorf("%s imports %s: a verb calls internal/app, which owns the work, or docs/architecture.md says why the CLI may import it", imp.file, imp.pkg)
		}
	}
}
