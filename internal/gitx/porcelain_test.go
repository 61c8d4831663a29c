package gitx

import (
	"reflect"
	"strings"
	"testing"
)

const (
	zeroOID = "0000000000000000000000000000000000000000"
	someOID = "e69de29bb2d1d6434b8b29ae775ad8c2e48c5391"
)

// z joins records with the NUL terminator git uses under -z.
func z(records ...string) []byte { return []byte(strings.Join(records, "\x00") + "\x00") }

func TestParsePorcelainV2(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		in      []byte
		want    []StatusEntry
		wantErr bool
	}{
		{"empty", nil, nil, false},
		{"headers only", z("# branch.oid (initial)", "# branch.head main"), nil, false},
		{"changed", z("1 .M N... 100644 100644 100644 " + someOID + " " + someOID + " a b.txt"),
			[]StatusEntry{{Path: "a b.txt", Code: ".M"}}, false},
		{"rename", z("2 R. N... 100644 100644 100644 "+someOID+" "+someOID+" R100 new name.txt", "old name.txt"),
			[]StatusEntry{{Path: "new name.txt", OrigPath: "old name.txt", Code: "R."}}, false},
		{"copy", z("2 C. N... 100644 100644 100644 "+someOID+" "+someOID+" C75 to", "from"),
			[]StatusEntry{{Path: "to", OrigPath: "from", Code: "C."}}, false},
		{"unmerged", z("u UU N... 100644 100644 100644 100644 " + someOID + " " + someOID + " " + someOID + " 日本/c.txt"),
			[]StatusEntry{{Path: "日本/c.txt", Code: "UU"}}, false},
		{"untracked and ignored", z("? é.txt", "! build/"), []StatusEntry{{Path: "é.txt", Code: "??"}}, false},
		{"added", z("1 A. N... 000000 100644 100644 " + zeroOID + " " + someOID + " new"),
			[]StatusEntry{{Path: "new", Code: "A."}}, false},
		{"no final NUL", []byte("? a"), []StatusEntry{{Path: "a", Code: "??"}}, false},
		{"newline in path", z("? a\nb"), []StatusEntry{{Path: "a\nb", Code: "??"}}, false},
		{"mixed", z("1 M. N... 100644 100644 100644 "+someOID+" "+someOID+" x", "2 R. N... 100644 100644 100644 "+someOID+" "+someOID+" R100 y", "x0", "? z"),
			[]StatusEntry{{Path: "x", Code: "M."}, {Path: "y", OrigPath: "x0", Code: "R."}, {Path: "z", Code: "??"}}, false},
		{"rename without orig", z("2 R. N... 100644 100644 100644 " + someOID + " " + someOID + " R100 y"), nil, true},
		{"rename with empty orig", []byte("2 R. N... 100644 100644 100644 " + someOID + " " + someOID + " R100 y\x00\x00"), nil, true},
		{"short changed", z("1 .M N... 100644"), nil, true},
		{"empty path", z("? "), nil, true},
		{"empty changed path", z("1 .M N... 100644 100644 100644 " + someOID + " " + someOID + " "), nil, true},
		{"unknown type", z("x foo"), nil, true},
		{"bad XY", z("1 ZZ N... 100644 100644 100644 " + someOID + " " + someOID + " p"), nil, true},
		{"empty record", []byte("? a\x00\x00? b\x00"), nil, true},
		{"no space", z("?a"), nil, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := ParsePorcelainV2(tc.in)
			if (err != nil) != tc.wantErr {
				t.Fatalf("err = %v, wantErr %v", err, tc.wantErr)
			}
			if !tc.wantErr && !reflect.DeepEqual(got, tc.want) {
				t.Errorf("got %+v, want %+v", got, tc.want)
			}
		})
	}
}

func FuzzParsePorcelainV2(f *testing.F) {
	f.Add([]byte(nil))
	f.Add(z("# branch.oid (initial)", "# branch.head main"))
	f.Add(z("1 .M N... 100644 100644 100644 " + someOID + " " + someOID + " a b.txt"))
	f.Add(z("2 R. N... 100644 100644 100644 "+someOID+" "+someOID+" R100 new", "old"))
	f.Add(z("u UU N... 100644 100644 100644 100644 " + someOID + " " + someOID + " " + someOID + " c"))
	f.Add(z("? é.txt", "! ignored", "? 日本/x"))
	f.Add([]byte("2 R. N... 1 2 3 4 5 R100 y"))
	f.Add([]byte("? \x00\x00"))
	f.Fuzz(func(t *testing.T, in []byte) {
		entries, err := ParsePorcelainV2(in)
		if err != nil {
			return
		}
		for _, e := range entries {
			if e.Path == "" {
				t.Fatalf("empty path in %+v", e)
			}
			if !validXY(e.Code) {
				t.Fatalf("bad code in %+v", e)
			}
			if strings.ContainsRune(e.Path, 0) || strings.ContainsRune(e.OrigPath, 0) {
				t.Fatalf("NUL in path %+v", e)
			}
		}
	})
}
