package fault

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/orc-state/orc-state/internal/doctest"
)

// exitCode is one constant of the exit-code table in fault.go.
type exitCode struct {
	name  string
	value int
}

// exitCodes reads the exit codes from fault.go's source: every constant
// of the const block that declares OK, with its name and literal value.
func exitCodes(t *testing.T) []exitCode {
	t.Helper()
	f, err := parser.ParseFile(token.NewFileSet(), "fault.go", nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	for _, decl := range f.Decls {
		gen, ok := decl.(*ast.GenDecl)
		if !ok || gen.Tok != token.CONST {
			continue
		}
		var codes []exitCode
		for _, spec := range gen.Specs {
			vs := spec.(*ast.ValueSpec)
			for i, name := range vs.Names {
				lit, ok := vs.Values[i].(*ast.BasicLit)
				if !ok || lit.Kind != token.INT {
					t.Fatalf("fault.go: exit code %s is not an integer literal", name.Name)
				}
				v, err := strconv.Atoi(lit.Value)
				if err != nil {
					t.Fatal(err)
				}
				codes = append(codes, exitCode{name.Name, v})
			}
		}
		if len(codes) > 0 && codes[0].name == "OK" {
			return codes
		}
	}
	t.Fatal("fault.go: no const block starting with OK")
	return nil
}

var leadingCode = regexp.MustCompile(`^([0-9]+)\b`)

// checkTable says how an exit-code table disagrees with codes. A table
// with a "meaning" column is an exit-code table. One whose first column
// is "code" is the whole table: one row per constant, in order, and where
// it has a "name" column, each row names its constant. One whose first
// column is "exit" is one verb's: each row starts with a code (perhaps
// followed by a condition, "1, nothing listed") that is one of them.
// Other tables are not exit-code tables.
func checkTable(tab doctest.Table, codes []exitCode) (whole, named bool, faults []string) {
	if len(tab.Header) < 2 || !slices.Contains(tab.Header, "meaning") {
		return false, false, nil
	}
	switch strings.ToLower(tab.Header[0]) {
	case "code":
		nameCol := slices.Index(tab.Header, "name")
		if len(tab.Rows) != len(codes) {
			faults = append(faults, fmt.Sprintf("the table has %d rows; internal/fault has %d codes (%s)", len(tab.Rows), len(codes), values(codes)))
		}
		for i, row := range tab.Rows {
			if i >= len(codes) {
				break
			}
			if row[0] != strconv.Itoa(codes[i].value) {
				faults = append(faults, fmt.Sprintf("row %d is code %q; want %d (%s)", i+1, row[0], codes[i].value, codes[i].name))
			}
			if nameCol > 0 && nameCol < len(row) && row[nameCol] != codes[i].name {
				faults = append(faults, fmt.Sprintf("code %d is named %q; internal/fault names it %s", codes[i].value, row[nameCol], codes[i].name))
			}
		}
		return true, nameCol > 0, faults
	case "exit":
		for _, row := range tab.Rows {
			m := leadingCode.FindStringSubmatch(row[0])
			if m == nil {
				faults = append(faults, fmt.Sprintf("row %q does not start with an exit code", row[0]))
				continue
			}
			n, _ := strconv.Atoi(m[1])
			if !slices.ContainsFunc(codes, func(c exitCode) bool { return c.value == n }) {
				faults = append(faults, fmt.Sprintf("exit %d is no code of internal/fault (%s)", n, values(codes)))
			}
		}
	}
	return false, false, faults
}

// values lists the codes' numbers, "0, 1, 2".
func values(codes []exitCode) string {
	var out []string
	for _, c := range codes {
		out = append(out, strconv.Itoa(c.value))
	}
	return strings.Join(out, ", ")
}

// TestExitCodeTables checks every exit-code table of the repository's
// documents (checkTable says which they are) against the constants of
// fault.go, which are the codes the binary exits with.
func TestExitCodeTables(t *testing.T) {
	codes := exitCodes(t)
	for i := 1; i < len(codes); i++ {
		if codes[i].value <= codes[i-1].value {
			t.Fatalf("fault.go: the exit codes are not in increasing order: %v", codes)
		}
	}
	root := filepath.Join("..", "..")
	docs, err := doctest.Markdown(root)
	if err != nil {
		t.Fatal(err)
	}
	wholeTables := 0
	for _, doc := range docs {
		src, err := os.ReadFile(filepath.Join(root, doc))
		if err != nil {
			t.Fatal(err)
		}
		for _, tab := range doctest.Tables(src) {
			whole, _, faults := checkTable(tab, codes)
			if whole {
				wholeTables++
			}
			for _, f := range faults {
				t.Errorf("%s:%d: %s", doc, tab.Line, f)
			}
		}
	}
	if wholeTables < 2 {
		t.Errorf("%d whole exit-code tables (first column \"code\"); the README and the state-protocol skill each have one", wholeTables)
	}
}

// TestCheckTableFails shows that a table drifting from fault.go is caught.
func TestCheckTableFails(t *testing.T) {
	codes := []exitCode{{"OK", 0}, {"NotFound", 1}, {"Usage", 2}}
	doc := func(md string) doctest.Table { return doctest.Tables([]byte(md))[0] }
	for _, tc := range []struct {
		md   string
		want string
	}{
		{"| code | name | meaning |\n|---|---|---|\n| 0 | `OK` | fine |\n| 1 | `NotFound` | no |\n| 2 | `Usage` | bad |\n", ""},
		{"| code | meaning |\n|---|---|\n| 0 | fine |\n| 1 | no |\n", "the table has 2 rows; internal/fault has 3 codes"},
		{"| code | meaning |\n|---|---|\n| 0 | fine |\n| 2 | bad |\n| 1 | no |\n", `row 2 is code "2"; want 1 (NotFound)`},
		{"| code | name | meaning |\n|---|---|---|\n| 0 | OK | fine |\n| 1 | Missing | no |\n| 2 | Usage | bad |\n", `code 1 is named "Missing"; internal/fault names it NotFound`},
		{"| exit | meaning |\n|---|---|\n| 1, none listed | stop |\n| 3 | invalid |\n", "exit 3 is no code of internal/fault"},
		{"| exit | meaning |\n|---|---|\n| one | stop |\n", `row "one" does not start with an exit code`},
		{"| code | what |\n|---|---|\n| temp.stale | not an exit-code table |\n", ""},
	} {
		_, _, faults := checkTable(doc(tc.md), codes)
		got := strings.Join(faults, "; ")
		if (tc.want == "") != (got == "") || !strings.Contains(got, tc.want) {
			t.Errorf("%q:\n got %q\nwant %q", tc.md, got, tc.want)
		}
	}
}
