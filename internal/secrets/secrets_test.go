package secrets

import (
	"bytes"
	"fmt"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"
)

// Test credentials are assembled from pieces so that this file holds no
// literal token for secret scanners to trip on. None of them is real.
var (
	awsKeyID     = "AK" + "IA" + strings.Repeat("Z9", 8)
	awsTempID    = "AS" + "IA" + strings.Repeat("Q7", 8)
	awsSecret    = "wJalrXUtnFEMI/K7MDENG" + "/bPxRfiCYEXAMPLEKEY" // AWS's documented example
	ghClassic    = "gh" + "p_" + strings.Repeat("aB3", 12)
	ghServer     = "gh" + "s_" + strings.Repeat("Zz9", 13)
	ghFine       = "github" + "_pat_" + strings.Repeat("x1_Y", 8)
	glPAT        = "gl" + "pat-" + strings.Repeat("Ab1-", 5)
	slackBot     = "xo" + "xb-" + "1234567890-" + strings.Repeat("aBc", 6)
	slackApp     = "xa" + "pp-1-" + strings.Repeat("A1b", 6)
	slackHook    = "https://hooks.sl" + "ack.com/services/" + "T0123ABCD/B0123ABCD/" + strings.Repeat("aZ", 12)
	googleKey    = "AI" + "za" + strings.Repeat("Sy_", 11) + "ab"
	pemRSA       = "-----BEGIN " + "RSA PRIVATE" + " KEY-----"
	pemOpenSSH   = "-----BEGIN " + "OPENSSH PRIVATE" + " KEY-----"
	pemPKCS8     = "-----BEGIN " + "PRIVATE" + " KEY-----"
	pemEncrypted = "-----BEGIN " + "ENCRYPTED PRIVATE" + " KEY-----"
	pemEC        = "-----BEGIN " + "EC PRIVATE" + " KEY-----"
	pgpBlock     = "-----BEGIN " + "PGP PRIVATE KEY" + " BLOCK-----"
	jwt          = "eyJhbGciOiJIUzI1NiJ9" + ".eyJzdWIiOiIxIn0.c2lnbmF0dXJl"
	basicCreds   = "dXNlcjpw" + "YXNzd29yZA=="
)

func TestFindEachKind(t *testing.T) {
	tests := []struct {
		name, text, kind string
	}{
		{"rsa key", pemRSA + "\nMIIEow...\n", KindPrivateKey},
		{"openssh key", pemOpenSSH, KindPrivateKey},
		{"pkcs8 key", pemPKCS8, KindPrivateKey},
		{"encrypted key", pemEncrypted, KindPrivateKey},
		{"ec key", pemEC, KindPrivateKey},
		{"pgp key", pgpBlock, KindPrivateKey},
		{"aws key id", "export KEY=" + awsKeyID, KindAWSAccessKey},
		{"aws temp key id", "id: " + awsTempID + ".", KindAWSAccessKey},
		{"aws secret ini", "aws_secret_access_key = " + awsSecret, KindAWSSecretKey},
		{"aws secret env", "AWS_SECRET_ACCESS_KEY=" + awsSecret + "\n", KindAWSSecretKey},
		{"aws secret json", `{"aws_secret_access_key": "` + awsSecret + `"}`, KindAWSSecretKey},
		{"github classic", "token " + ghClassic, KindGitHub},
		{"github server", "(" + ghServer + ")", KindGitHub},
		{"github fine-grained", "pat=" + ghFine, KindGitHub},
		{"gitlab", "glab auth " + glPAT, KindGitLab},
		{"slack bot", "SLACK=" + slackBot, KindSlack},
		{"slack app", slackApp, KindSlack},
		{"slack webhook", "curl -X POST " + slackHook, KindSlackWebhook},
		{"google", "key=" + googleKey + "&q=x", KindGoogleAPIKey},
		{"bearer header", "Authorization: Bearer " + jwt, KindAuthHeader},
		{"curl header", `curl -H "authorization: token ` + ghClassic[4:] + `" https://api`, KindAuthHeader},
		{"basic header", "  AUTHORIZATION:basic " + basicCreds, KindAuthHeader},
		{"proxy header", "Proxy-Authorization: Basic " + basicCreds, KindAuthHeader},
		{"json header", `{"Authorization": "Bearer abc123def456"}`, KindAuthHeader},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			kind, line, ok := Find([]byte(tt.text))
			if !ok || kind != tt.kind || line != 1 {
				t.Fatalf("Find = %q, %d, %v; want %q, 1, true", kind, line, ok, tt.kind)
			}
		})
	}
}

func TestFindIgnoresOrdinaryText(t *testing.T) {
	tests := []string{
		"",
		"Suite: green @ 4b825dc642cb6eb9a060e54bf8d69288fbee4904",
		"HEAD is 4B825DC642CB6EB9A060E54BF8D69288FBEE4904",
		"authorization is required before merging",
		"Authorization: the reviewer must approve",
		"Authorization: Bearer <token>",
		"Authorization: Bearer $GITHUB_TOKEN",
		"Authorization: Bearer ${TOKEN}",
		"Authorization: Bearer YOUR-ACCESS-TOKEN",
		"Authorization: Basic authentication is used",
		"Authorization: token based auth",
		"digest sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
		"see https://github.com/orc-state/orc-state/pull/12 and https://hooks.slack.com/services/",
		"-----BEGIN PUBLIC KEY-----",
		"-----BEGIN CERTIFICATE-----",
		"AKIA is the prefix of AWS key ids; " + "AK" + "IA" + strings.Repeat("Z", 15) + " is too short",
		"X" + awsKeyID,  // not a whole word
		awsKeyID + "ZZ", // too long to be one
		"gh" + "p_" + "tooShort",
		"the ghp_ prefix and xoxb-",
		"aws_secret_access_key = YOUR_SECRET_KEY",
		"aws_secret_access_key = " + awsSecret + "EXTRA",
		"gl" + "pat-short",
		"The AIza prefix marks Google keys",
		"phase 3: done; 12 slices committed; PR https://example.com/a/b/c",
	}
	for _, text := range tests {
		if kind, line, ok := Find([]byte(text)); ok {
			t.Errorf("Find(%q) = %q, %d; want nothing", text, kind, line)
		}
	}
}

func TestFindLineNumbers(t *testing.T) {
	tests := []struct {
		text string
		kind string
		line int
	}{
		{"a\nb\n" + ghClassic + "\n", KindGitHub, 3},
		{"a\r\nb\r\nc\r\n" + awsKeyID + "\r\n", KindAWSAccessKey, 4},
		// The first match in the text wins, whatever its kind.
		{"x\n" + googleKey + "\n" + pemRSA + "\n", KindGoogleAPIKey, 2},
		{"x\n\n\n" + pemRSA + "\n" + googleKey + "\n", KindPrivateKey, 4},
		// A rejected Authorization candidate does not hide a later one.
		{"Authorization: Bearer <token>\nok\nAuthorization: Bearer " + jwt, KindAuthHeader, 3},
		{"\n\n\n\n" + slackHook, KindSlackWebhook, 5},
		{"no newline before " + glPAT, KindGitLab, 1},
	}
	for _, tt := range tests {
		kind, line, ok := Find([]byte(tt.text))
		if !ok || kind != tt.kind || line != tt.line {
			t.Errorf("Find(%q) = %q, %d, %v; want %q, %d", tt.text, kind, line, ok, tt.kind, tt.line)
		}
	}
}

func TestFindLongLines(t *testing.T) {
	long := strings.Repeat("word ", 4000)
	tests := []struct {
		text string
		kind string
		line int
	}{
		{"a\n" + long + ghClassic + " " + long + "\nb", KindGitHub, 2},
		{long + "\n" + long + "Authorization: Bearer " + jwt, KindAuthHeader, 2},
		{strings.Repeat("AKIA ", 5000) + "\n" + awsKeyID, KindAWSAccessKey, 2},
		// A value longer than the window is judged on its start.
		{"Authorization: Bearer " + strings.Repeat("aB1", 200), KindAuthHeader, 1},
	}
	for _, tt := range tests {
		kind, line, ok := Find([]byte(tt.text))
		if !ok || kind != tt.kind || line != tt.line {
			t.Errorf("Find(len %d) = %q, %d, %v; want %q, %d", len(tt.text), kind, line, ok, tt.kind, tt.line)
		}
	}
	if kind, line, ok := Find([]byte(long + strings.Repeat("AKIA ", 5000))); ok {
		t.Errorf("Find(long prose) = %q, %d", kind, line)
	}
}

// findNaive is a reference Find without needles or window: it tries every
// pattern at every offset on the whole rest of the line.
func findNaive(text []byte) (string, int, bool) {
	for at := range len(text) + 1 {
		end := bytes.IndexByte(text[at:], '\n')
		if end < 0 {
			end = len(text)
		} else {
			end += at
		}
		for _, p := range patterns() {
			if p.matchAt(text, at, end) > 0 {
				return p.kind, 1 + bytes.Count(text[:at], []byte{'\n'}), true
			}
		}
	}
	return "", 0, false
}

func maxLineLen(text []byte) int {
	n := 0
	for _, l := range bytes.Split(text, []byte{'\n'}) {
		n = max(n, len(l))
	}
	return n
}

// allKinds is every kind Find may return.
func allKinds() []string {
	var ks []string
	for _, p := range patterns() {
		if !slices.Contains(ks, p.kind) {
			ks = append(ks, p.kind)
		}
	}
	return ks
}

func TestFindNeverReturnsTheSecret(t *testing.T) {
	secrets := []string{awsKeyID, awsSecret, ghClassic, ghFine, glPAT, slackBot, slackHook, googleKey, jwt, basicCreds}
	for _, s := range secrets {
		for _, text := range []string{s, "Authorization: Bearer " + s, "aws_secret_access_key=" + s} {
			kind, _, ok := Find([]byte(text))
			if !ok {
				continue
			}
			if !slices.Contains(allKinds(), kind) {
				t.Errorf("kind %q is not a fixed kind name", kind)
			}
			if strings.Contains(kind, s) || strings.Contains(s, kind) {
				t.Errorf("kind %q overlaps the secret", kind)
			}
		}
	}
	if got := len(allKinds()); got != 9 {
		t.Errorf("%d kinds, want 9", got)
	}
}

func FuzzFind(f *testing.F) {
	for _, s := range []string{
		"", "plain text\n", pemRSA, awsKeyID, "aws_secret_access_key=" + awsSecret,
		ghClassic, ghFine, glPAT, slackBot, slackApp, slackHook, googleKey,
		"Authorization: Bearer " + jwt, "Authorization: Bearer <token>",
		"4b825dc642cb6eb9a060e54bf8d69288fbee4904\n",
	} {
		f.Add([]byte(s))
	}
	kinds := allKinds()
	planted := "\n" + ghClassic + "\n"
	f.Fuzz(func(t *testing.T, text []byte) {
		kind, line, ok := Find(text)
		if !ok {
			if kind != "" || line != 0 {
				t.Fatalf("not found but returned %q, %d", kind, line)
			}
		} else {
			if !slices.Contains(kinds, kind) {
				t.Fatalf("kind %q is not a fixed kind name", kind)
			}
			if line < 1 || line > bytes.Count(text, []byte{'\n'})+1 {
				t.Fatalf("line %d out of range", line)
			}
		}
		// Same answer as the naive search while lines fit in the window (and
		// the input is small enough for the naive search to stay quick).
		if len(text) <= 4096 && maxLineLen(text) <= window {
			nk, nl, nok := findNaive(text)
			if nk != kind || nl != line || nok != ok {
				t.Fatalf("Find = %q, %d, %v; naive = %q, %d, %v", kind, line, ok, nk, nl, nok)
			}
		}
		// A token on its own line is always found, after any text.
		withToken := append(slices.Clip(text), planted...)
		if _, _, ok := Find(withToken); !ok {
			t.Fatalf("planted token not found after %q", text)
		}
		// All agrees with Find on the first raw run, and a redacted text
		// shows no credential, raw or decoded.
		if all := All(text); ok != (len(all) > 0 && all[0].Line > 0) || ok && (all[0].Kind != kind || all[0].Line != line) {
			t.Fatalf("All disagrees with Find (%q, %d, %v)", kind, line, ok)
		}
		if len(text) <= 4096 && utf8.Valid(text) {
			if k, _, found := FindDecoded([]byte(Redact(string(text)))); found {
				t.Fatalf("Redact left a %s", k)
			}
		}
	})
}

// BenchmarkFind measures a 64 KiB text of prose, shas and near-misses.
func BenchmarkFind(b *testing.B) {
	words := []string{
		"phase", "slice", "commit", "4b825dc642cb6eb9a060e54bf8d69288fbee4904", "Resume",
		"authorization", "AKIA", "secret", "aws", "ghp_", "xox", "-----BEGIN ", "\n",
	}
	var sb strings.Builder
	for i := 0; sb.Len() < 64<<10; i++ {
		sb.WriteString(words[(i*7)%len(words)])
		sb.WriteByte(' ')
	}
	text := []byte(sb.String())
	b.SetBytes(int64(len(text)))
	for b.Loop() {
		if _, _, ok := Find(text); ok {
			b.Fatal("unexpected match")
		}
	}
}

func TestFindDecodedSeesThroughEscapes(t *testing.T) {
	esc := func(s string) string { // every byte as \u00XX, as a JSON encoder may write it
		var b strings.Builder
		for _, c := range []byte(s) {
			fmt.Fprintf(&b, `\u%04x`, c)
		}
		return b.String()
	}
	pct := func(s string) string {
		var b strings.Builder
		for _, c := range []byte(s) {
			fmt.Fprintf(&b, "%%%02X", c)
		}
		return b.String()
	}
	tests := []struct {
		name, text, kind string
	}{
		{"json unicode escape", `{"t": "\u0067hp_` + ghClassic[4:] + `"}`, KindGitHub},
		{"json every byte escaped", `{"t": "` + esc(awsKeyID) + `"}`, KindAWSAccessKey},
		{"json escaped slashes", `{"aws_secret_access_key": "` + strings.ReplaceAll(awsSecret, "/", `\/`) + `"}`, KindAWSSecretKey},
		{"json newline escape glued to a word", `{"t": "x\n` + ghClassic + `"}`, KindGitHub},
		{"json surrogate pair before", `{"t": "\ud83d\ude00 ` + "\\u0041KIA" + awsKeyID[4:] + `"}`, KindAWSAccessKey},
		{"yaml hex escape", `t: "\x67hp_` + ghClassic[4:] + `"`, KindGitHub},
		{"percent escapes", "https://x.example/?t=" + pct(ghClassic), KindGitHub},
		{"percent inside json escape", `"https://x.example/?t=\u0025` + "67hp_" + ghClassic[4:] + `"`, KindGitHub},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			kind, _, ok := FindDecoded([]byte(tt.text))
			if !ok || kind != tt.kind {
				t.Fatalf("FindDecoded = %q, %v; want %q", kind, ok, tt.kind)
			}
		})
	}
}

func TestFindDecodedIgnoresOrdinaryEscapes(t *testing.T) {
	for _, text := range []string{
		`{"path": "C:\\Users\\me", "msg": "line\nnext", "pct": "100%", "u": "caf\u00e9"}`,
		"https://example.com/a%20b?q=%2Fx",
		`a lone \ and a bad \u12 escape and \x`,
		`\ud800 unpaired`,
	} {
		if kind, _, ok := FindDecoded([]byte(text)); ok {
			t.Errorf("FindDecoded(%q) = %q; want nothing", text, kind)
		}
	}
}

func TestAllFindsEveryRun(t *testing.T) {
	text := "a " + ghClassic + "\nb " + awsKeyID + " c " + ghClassic + "\n" + `"\u0067hp_` + ghServer[4:] + `"`
	got := All([]byte(text))
	var kinds []string
	var lines []int
	for _, m := range got {
		kinds = append(kinds, m.Kind)
		lines = append(lines, m.Line)
	}
	if !slices.Equal(kinds[:3], []string{KindGitHub, KindAWSAccessKey, KindGitHub}) || !slices.Equal(lines[:3], []int{1, 2, 2}) {
		t.Fatalf("All raw = %v %v", kinds, lines)
	}
	if got[0].Sum != got[2].Sum || got[0].Sum == got[1].Sum {
		t.Fatalf("fingerprints: the same token twice must agree, two tokens must differ")
	}
	var decodedOnly bool
	for _, m := range got[3:] {
		if m.Line == 0 && m.Kind == KindGitHub {
			decodedOnly = true
		}
	}
	if !decodedOnly {
		t.Fatalf("All missed the escaped token: %v", kinds)
	}
}

func TestRedact(t *testing.T) {
	tests := []struct{ in, want string }{
		{"--url " + awsKeyID + " is not a URL", "--url [redacted AWS access key] is not a URL"},
		{`no session for "` + ghClassic + `"`, `no session for "[redacted GitHub token]"`},
		{`artifact name "\u0067hp_` + ghClassic[4:] + `.json" is bad`, `artifact name [redacted GitHub token] is bad`},
		{"plain message, 100% ordinary", "plain message, 100% ordinary"},
	}
	for _, tt := range tests {
		if got := Redact(tt.in); got != tt.want {
			t.Errorf("Redact(%q) = %q; want %q", tt.in, got, tt.want)
		}
	}
}
