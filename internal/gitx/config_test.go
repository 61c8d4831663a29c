package gitx

import (
	"bytes"
	"errors"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// configCases are config files with what parseConfig must read from them
// ("name=value" per entry, "name" for a key without "="; "ERR" for a
// refusal). Each is also checked against git itself.
var configCases = []struct {
	name, text string
	want       []string
}{
	{"empty", "", nil},
	{"comments only", "# a\n; b\n\n   \t\n", nil},
	{"section and keys", "[core]\n\tbare = false\n\tworktree = ../wt\n", []string{"core.bare=false", "core.worktree=../wt"}},
	{"case rules", "[CoRe]\n\tBaRe = TRUE\n[Remote \"OriGin\"]\n\tProMisor = yes\n", []string{"core.bare=TRUE", "remote.OriGin.promisor=yes"}},
	{"deprecated subsection lower-cased", "[Remote.OriGin]\nurl = x\n", []string{"remote.origin.url=x"}},
	{"key without =", "[core]\n\tbare\n\tbare   \n", []string{"core.bare", "core.bare"}},
	{"key at the end of the file", "[core]\nbare", []string{"core.bare"}},
	{"empty value", "[core]\nworktree =\n", []string{"core.worktree="}},
	{"spaces trimmed and kept", "[a]\nk =   x \t y  \n", []string{"a.k=x   y"}},
	{"quotes keep spaces", "[a]\nk = \"  x  \" y\n", []string{"a.k=  x   y"}},
	{"escapes", `[a]` + "\n" + `k = "q\"b\\s\tt\nn\bb"` + "\n", []string{"a.k=q\"b\\s\tt\nn\bb"}},
	{"escapes outside quotes", `[a]` + "\n" + `k = a\"b\\c` + "\n", []string{`a.k=a"b\c`}},
	{"comment after a value", "[a]\nk = v ; c\nl = v# c \"\nm = \"v ; #\" # c\n", []string{"a.k=v", "a.l=v", "a.m=v ; #"}},
	{"continuation", "[a]\nk = one \\\n  two\\\nthree\n", []string{"a.k=one   twothree"}},
	{"continuation at the end", "[a]\nk = v\\", []string{"a.k=v"}},
	{"CRLF", "[a]\r\nk = v\r\nl\r\n", []string{"a.k=v", "a.l"}},
	{"lone CR is space", "[a]\nk = x\ry\n", []string{"a.k=x y"}},
	{"header and key on one line", "[core] bare = true\n[a \"s\"]k=1\n", []string{"core.bare=true", "a.s.k=1"}},
	{"subsection escapes", "[a \"x\\\"y\\\\z\\q\"]\nk=1\n", []string{"a.x\"y\\zq.k=1"}},
	{"subsection with dots and spaces", "[a  \"b.c d\"]\nk=1\n", []string{"a.b.c d.k=1"}},
	{"key chars", "[a]\nk-1x = 2\n", []string{"a.k-1x=2"}},
	{"key before any section", "k = 1\n[a]\nk = 2\n", []string{"k=1", "a.k=2"}},
	{"byte order mark", "\xef\xbb\xbf[a]\nk=1\n", []string{"a.k=1"}},
	{"UTF-8 in values and subsections", "[a \"é\"]\nk = ü\n", []string{"a.é.k=ü"}},
	{"section with subsection only", "[ \"x\"]\nk=1\n", []string{".x.k=1"}},

	{"unclosed header", "[core\nbare\n", []string{"ERR"}},
	{"header at EOF", "[core", []string{"ERR"}},
	{"empty header", "[]\nk=1\n", []string{"ERR"}},
	{"bad header char", "[co_re]\n", []string{"ERR"}},
	{"unquoted subsection", "[a b]\n", []string{"ERR"}},
	{"text after subsection", "[a \"b\" ]\n", []string{"ERR"}},
	{"subsection over a line end", "[a \"b\nc\"]\n", []string{"ERR"}},
	{"unclosed quote", "[a]\nk = \"v\n", []string{"ERR"}},
	{"unknown escape", "[a]\nk = \\x\n", []string{"ERR"}},
	{"key with underscore", "[a]\nk_x = 1\n", []string{"ERR"}},
	{"key starting with a digit", "[a]\n1k = 1\n", []string{"ERR"}},
	{"comment after a key without =", "[a]\nk # c\n", []string{"ERR"}},
	{"partial byte order mark", "\xef\xbb[a]\n", []string{"ERR"}},
	{"stray byte", "[a]\n=1\n", []string{"ERR"}},
}

func TestParseConfig(t *testing.T) {
	t.Parallel()
	for _, tc := range configCases {
		got, err := configListing([]byte(tc.text))
		want := strings.Join(tc.want, "\x00")
		if err != nil {
			got = "ERR"
		}
		if got != want {
			t.Errorf("%s: parseConfig(%q) = %q (%v), want %q", tc.name, tc.text, got, err, want)
		}
		if gitBin != "" {
			compareWithGit(t, tc.name, []byte(tc.text))
		}
	}
}

// TestParseConfigAgainstGit writes config files made of pieces of git's
// syntax, valid and not, and compares what parseConfig reads with what
// `git config --list` reads from the same file.
func TestParseConfigAgainstGit(t *testing.T) {
	needGit(t)
	t.Parallel()
	pieces := []string{
		"[core]", "[Core]", "[core \"Sub\"]", "[remote.Origin]", "[a \"x\\\"y\"]", "[ \"s\"]", "[]", "[a b]", "[a", "[a \"b\" ]",
		"bare", "Bare", "worktree", "k-1", "k_1", "1k", "refStorage",
		" ", "\t", "  ", "=", " = ", "\n", "\r\n", "\r", "\\\n", "\\",
		"\"", "\"a b\"", "\\\"", "\\\\", "\\t", "\\n", "\\b", "\\x",
		";", "#", " ; c", " # c", "true", "false", "yes", "0", "1k", "x y", "é", "\xef\xbb\xbf", "]", "[",
	}
	rng := rand.New(rand.NewPCG(19, 15))
	n := 300
	if testing.Short() {
		n = 60
	}
	for i := 0; i < n; i++ {
		var b strings.Builder
		if rng.IntN(3) > 0 {
			b.WriteString("[core]\n")
		}
		for j := rng.IntN(12); j >= 0; j-- {
			b.WriteString(pieces[rng.IntN(len(pieces))])
		}
		compareWithGit(t, "generated", []byte(b.String()))
	}
}

// FuzzParseConfig compares parseConfig with git on arbitrary files (go
// test -fuzz FuzzParseConfig ./internal/gitx/).
func FuzzParseConfig(f *testing.F) {
	for _, tc := range configCases {
		f.Add([]byte(tc.text))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if bytes.IndexByte(data, 0) >= 0 || len(data) > 4096 {
			return // git's C strings end at NUL; orc-state never reads such a value
		}
		if gitBin == "" {
			configListing(data)
			return
		}
		compareWithGit(t, "fuzz", data)
	})
}

// configListing renders parseConfig's entries as `git config -z --list`
// prints them: name, "\n" and the value when there is one, then NUL.
func configListing(data []byte) (string, error) {
	entries, err := parseConfig(data)
	var b strings.Builder
	for i, e := range entries {
		if i > 0 {
			b.WriteByte(0)
		}
		b.WriteString(e.name)
		if e.hasValue {
			b.WriteString("=" + e.value)
		}
	}
	return b.String(), err
}

// compareWithGit checks that parseConfig and git agree on data: the same
// entries, or both refuse it.
func compareWithGit(t *testing.T, name string, data []byte) {
	t.Helper()
	file := filepath.Join(t.TempDir(), "config")
	if err := os.WriteFile(file, data, 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(gitBin, "config", "-z", "--file", file, "--list")
	cmd.Env = gitEnv()
	out, gitErr := cmd.Output()
	var exit *exec.ExitError
	if gitErr != nil && !errors.As(gitErr, &exit) {
		t.Fatal(gitErr)
	}
	var want []string
	for _, rec := range strings.Split(strings.TrimSuffix(string(out), "\x00"), "\x00") {
		if rec != "" {
			want = append(want, strings.Replace(rec, "\n", "=", 1))
		}
	}
	got, err := configListing(data)
	switch {
	case gitErr != nil && err == nil:
		t.Errorf("%s: git refuses %q (%v), parseConfig reads %q", name, data, gitErr, got)
	case gitErr == nil && err != nil:
		t.Errorf("%s: parseConfig refuses %q (%v), git reads %q", name, data, err, want)
	case gitErr == nil && got != strings.Join(want, "\x00"):
		t.Errorf("%s: parseConfig(%q) = %q, git reads %q", name, data, got, strings.Join(want, "\x00"))
	}
}

// TestConfigBool compares configBool with `git config --type=bool`.
func TestConfigBool(t *testing.T) {
	t.Parallel()
	values := []struct {
		text string
		want string // "true", "false" or "ERR"
	}{
		{"bare", "true"}, {"bare =", "false"}, {"bare = true", "true"}, {"bare = YES", "true"},
		{"bare = On", "true"}, {"bare = off", "false"}, {"bare = No", "false"}, {"bare = FALSE", "false"},
		{"bare = 0", "false"}, {"bare = 1", "true"}, {"bare = -1", "true"}, {"bare = 007", "true"},
		{"bare = 0x0", "false"}, {"bare = 0x10", "true"}, {"bare = 1k", "true"}, {"bare = 0K", "false"},
		{"bare = 2g", "ERR"}, {"bare = 1g", "true"}, {"bare = 2147483647", "true"}, {"bare = 2147483648", "ERR"},
		{"bare = -2147483647", "true"}, {"bare = -2147483648", "ERR"}, {"bare = 08", "ERR"}, {"bare = 1_0", "ERR"},
		{"bare = 0b1", "ERR"}, {"bare = 0o1", "ERR"}, {"bare = 0B1", "ERR"}, {"bare = +1", "true"},
		{"bare = maybe", "ERR"}, {"bare = truee", "ERR"}, {"bare = \" 1\"", "true"}, {"bare = \"1 \"", "ERR"},
		{"bare = 1kb", "ERR"}, {"bare = k", "ERR"}, {"bare = 0x", "ERR"}, {"bare = \" true\"", "ERR"},
	}
	for _, v := range values {
		data := []byte("[core]\n" + v.text + "\n")
		entries, err := parseConfig(data)
		if err != nil || len(entries) != 1 {
			t.Fatalf("%q: %v, %v", v.text, entries, err)
		}
		got := "ERR"
		if b, err := configBool(entries[0]); err == nil {
			got = map[bool]string{true: "true", false: "false"}[b]
		}
		if got != v.want {
			t.Errorf("configBool(%q) = %s, want %s", v.text, got, v.want)
		}
		if gitBin == "" {
			continue
		}
		file := filepath.Join(t.TempDir(), "config")
		if err := os.WriteFile(file, data, 0o644); err != nil {
			t.Fatal(err)
		}
		out, err := runGit(t, t.TempDir(), nil, "config", "--file", file, "--type=bool", "--get", "core.bare")
		if err != nil {
			out = "ERR"
		}
		if out != got {
			t.Errorf("configBool(%q) = %s, git says %s", v.text, got, out)
		}
	}
}

// TestReadRepoConfig: the keys discovery uses, the last one winning, and
// a refusal for what git refuses.
func TestReadRepoConfig(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	write := func(text string) string {
		p := filepath.Join(dir, "config")
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	c, err := readRepoConfig(write("[core]\n\tbare = true\n[core \"x\"]\n\tworktree = no\n[CORE]\n\tBare = no\n\tworktree = \"../w t\"\n[extensions]\n\trefStorage = Files\n"))
	if err != nil || c.bare == nil || *c.bare || c.worktree != "../w t" || c.refStorage != "Files" {
		t.Errorf("readRepoConfig = %+v, %v", c, err)
	}
	if c, err := readRepoConfig(filepath.Join(dir, "missing")); err != nil || c.bare != nil || c.worktree != "" {
		t.Errorf("missing file: %+v, %v", c, err)
	}
	for _, text := range []string{"[core]\n\tbare = maybe\n", "[core\n", "[core]\n\tworktree = \"x\n"} {
		if _, err := readRepoConfig(write(text)); err == nil {
			t.Errorf("readRepoConfig(%q) succeeded; git refuses it", text)
		}
	}
}

// TestPlainFormat: the formats in which the ref files may be read in git's
// place are ones git reads (this git, for each row plainFormat accepts);
// everything else is left to git, including what this git happens to know.
func TestPlainFormat(t *testing.T) {
	t.Parallel()
	repo := initRepo(t)
	commit(t, repo, "one")
	cfg := filepath.Join(repo, ".git", "config")
	for _, tc := range []struct {
		config string
		want   bool
	}{
		{"", true},
		{"[core]\n\trepositoryformatversion = 0\n", true},
		{"[core]\n\trepositoryformatversion = 1\n", true},
		{"[core]\n\trepositoryformatversion = 0\n[extensions]\n\tworktreeConfig = true\n\tpreciousObjects\n\tpartialClone = origin\n\tnoop = x\n", true},
		{"[core]\n\trepositoryformatversion = 1\n[extensions]\n\tobjectFormat = sha1\n\tworktreeConfig = false\n", true},
		{"[core]\n\trepositoryformatversion = 2\n", false},
		{"[core]\n\trepositoryformatversion = 01\n", false},
		{"[core]\n\trepositoryformatversion\n", false},
		{"[core]\n\trepositoryformatversion = 0\n[extensions]\n\tobjectFormat = sha1\n", false},
		{"[core]\n\trepositoryformatversion = 1\n[extensions]\n\tobjectFormat = sha512\n", false},
		{"[core]\n\trepositoryformatversion = 1\n[extensions]\n\tworktreeConfig = maybe\n", false},
		{"[core]\n\trepositoryformatversion = 1\n[extensions]\n\tpartialClone\n", false},
		{"[core]\n\trepositoryformatversion = 1\n[extensions]\n\trefStorage = files\n", false},
		{"[core]\n\trepositoryformatversion = 1\n[extensions]\n\tsomethingNew = true\n", false},
		{"[core]\n\trepositoryformatversion = 0\n[extensions]\n\tsomethingNew = true\n", false},
	} {
		if err := os.WriteFile(cfg, []byte(tc.config), 0o644); err != nil {
			t.Fatal(err)
		}
		c, err := readRepoConfig(cfg)
		if err != nil || c.plainFormat != tc.want {
			t.Errorf("plainFormat(%q) = %v, %v; want %v", tc.config, c.plainFormat, err, tc.want)
		}
		if _, gitErr := runGit(t, repo, nil, "for-each-ref", "refs/heads/"); c.plainFormat && gitErr != nil {
			t.Errorf("plainFormat(%q) is true, but git refuses the repository: %v", tc.config, gitErr)
		}
	}
}
