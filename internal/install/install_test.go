package install

import (
	"os"
	"path/filepath"
	"testing"
)

// TestKeepCopy: the copy never replaces a file; a taken name gets a
// number, and the content is the old file's.
func TestKeepCopy(t *testing.T) {
	dir := t.TempDir()
	want := filepath.Join(dir, "settings.json.20260101T000000Z.bak")
	for i, name := range []string{want, filepath.Join(dir, "settings.json.20260101T000000Z-2.bak"), filepath.Join(dir, "settings.json.20260101T000000Z-3.bak")} {
		got, err := keepCopy(want, []byte{byte('a' + i)})
		if err != nil || got != name {
			t.Fatalf("copy %d: %q, %v; want %q", i+1, got, err, name)
		}
	}
	for i, name := range []string{"", "-2", "-3"} {
		data, err := os.ReadFile(filepath.Join(dir, "settings.json.20260101T000000Z"+name+".bak"))
		if err != nil || string(data) != string(rune('a'+i)) {
			t.Errorf("copy %d holds %q, %v", i+1, data, err)
		}
	}
}
