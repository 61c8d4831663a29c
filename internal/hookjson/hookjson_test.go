package hookjson

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestReadDecodesThePayloadAndEntersItsCwd(t *testing.T) {
	wd := t.TempDir()
	if err := os.Mkdir(filepath.Join(wd, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(wd, "file"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name, stdin, wantWd, wantErr, wantSession string
	}{
		{name: "no cwd: the run stays where it is", stdin: `{"session_id":"s1"}`, wantWd: wd, wantSession: "s1"},
		{name: "a relative cwd is taken from the run's", stdin: `{"cwd":"sub"}`, wantWd: filepath.Join(wd, "sub")},
		{name: "an absolute cwd, cleaned", stdin: `{"cwd":"` + wd + `/sub/../sub/"}`, wantWd: filepath.Join(wd, "sub")},
		{name: "unknown fields are ignored", stdin: `{"session_id":"s2","new_field":[1,2]}`, wantWd: wd, wantSession: "s2"},
		{name: "empty stdin is refused", stdin: " \n", wantWd: wd, wantErr: "empty stdin"},
		{name: "not JSON is refused", stdin: "{", wantWd: wd, wantErr: "stdin is not the hook's JSON"},
		{name: "a cwd that is a file is refused, the run not moved", stdin: `{"cwd":"file"}`, wantWd: wd, wantErr: "not a directory"},
		{name: "a cwd that does not exist is refused", stdin: `{"cwd":"gone"}`, wantWd: wd, wantErr: "cannot enter cwd"},
	} {
		t.Run(c.name, func(t *testing.T) {
			p, got, err := Read(strings.NewReader(c.stdin), wd)
			if c.wantErr == "" && err != nil || c.wantErr != "" && (err == nil || !strings.Contains(err.Error(), c.wantErr)) {
				t.Fatalf("Read: err %v, want %q", err, c.wantErr)
			}
			if got != c.wantWd {
				t.Errorf("wd %q, want %q", got, c.wantWd)
			}
			if p.SessionID != c.wantSession {
				t.Errorf("session_id %q, want %q", p.SessionID, c.wantSession)
			}
		})
	}
}
