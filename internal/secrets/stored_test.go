package secrets

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestRedactLines(t *testing.T) {
	tests := []struct {
		name, in, want string
		hits           []Hit
	}{
		{"clean text keeps every byte", "a\r\nb\n\nc", "a\r\nb\n\nc", nil},
		{"a token in a line", "x\nthe token is " + ghClassic + " here\ny\n",
			"x\nthe token is [redacted GitHub token] here\ny\n", []Hit{{2, KindGitHub}}},
		{"two kinds on one line, CRLF kept", "k " + awsKeyID + " " + ghClassic + "\r\nz",
			"k [redacted AWS access key] [redacted GitHub token]\r\nz", []Hit{{1, KindAWSAccessKey}, {1, KindGitHub}}},
		{"an escaped token: its word goes", `note \u0067hp_` + ghClassic[4:] + " end\n",
			"note [redacted GitHub token] end\n", []Hit{{1, KindGitHub}}},
		{"a private key line, no newline at the end", "a\n" + pemRSA, "a\n[redacted private key block]", []Hit{{2, KindPrivateKey}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, hits := RedactLines([]byte(tt.in))
			if string(got) != tt.want {
				t.Errorf("RedactLines = %q; want %q", got, tt.want)
			}
			if !equalHits(hits, tt.hits) {
				t.Errorf("hits = %v; want %v", hits, tt.hits)
			}
			if len(All(got)) > 0 {
				t.Errorf("a credential is left in %q", got)
			}
		})
	}
}

func TestRedactJSON(t *testing.T) {
	tests := []struct {
		name, in, want string
		line           int
	}{
		{"a value", `{"a": 1, "t": "x ` + ghClassic + `"}`, `{"a": 1, "t": "x [redacted GitHub token]"}`, 1},
		{"a member name", "{\n  \"" + ghClassic + "\": true\n}\n", "{\n  \"[redacted GitHub token]\": true\n}\n", 2},
		{"an escaped value is decoded, redacted, re-encoded", `{"t":"\u0067hp_` + ghClassic[4:] + `\n<b>"}`, `{"t":"[redacted GitHub token]\n<b>"}`, 1},
		{"escaped slashes", `{"` + "aws_secret_access_key" + `": "` + strings.ReplaceAll(awsSecret, "/", `\/`) + `"}`, `{"aws_secret_access_key": "[redacted AWS secret key]"}`, 1},
		{"a header in a JSON map", `{"Authorization": "Bearer ` + jwt + `", "n": 1}`, `{"Authorization": "[redacted Authorization header]", "n": 1}`, 1},
		{"a string with a quote keeps it escaped", `["say \"hi\" ` + ghClassic + `"]`, `["say \"hi\" [redacted GitHub token]"]`, 1},
		{"JSON lines, one per line", "{\"n\":1}\n{\"n\":2,\"t\":\"" + awsKeyID + "\"}\n", "{\"n\":1}\n{\"n\":2,\"t\":\"[redacted AWS access key]\"}\n", 2},
		{"not JSON: the line is redacted as text", "torn {\"t\": \"" + ghClassic, "torn {\"t\": \"[redacted GitHub token]", 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, hits := RedactJSON([]byte(tt.in))
			if string(got) != tt.want {
				t.Errorf("RedactJSON = %s; want %s", got, tt.want)
			}
			if len(hits) != 1 || hits[0].Line != tt.line {
				t.Errorf("hits = %v; want one on line %d", hits, tt.line)
			}
			if json.Valid([]byte(tt.in)) && !json.Valid(got) {
				t.Errorf("valid JSON became invalid: %s", got)
			}
			if len(All(got)) > 0 {
				t.Errorf("a credential is left in %s", got)
			}
		})
	}
	clean := []byte(`{"t": "4b825dc642cb6eb9a060e54bf8d69288fbee4904"}`)
	if got, hits := RedactJSON(clean); &got[0] != &clean[0] || hits != nil {
		t.Errorf("clean JSON changed: %s %v", got, hits)
	}
}

func TestRedactName(t *testing.T) {
	tests := []struct{ in, want string }{
		{"review.json", "review.json"},
		{ghClassic + ".json", "redacted.json"},
		{"pre-" + ghClassic + ".json", "pre-redacted.json"},
		{ghClassic, "redacted"},
		{`x-\u0067hp_` + ghClassic[4:] + ".json", "redacted.json"},
	}
	for _, tt := range tests {
		if got := RedactName(tt.in); got != tt.want {
			t.Errorf("RedactName(%q) = %q; want %q", tt.in, got, tt.want)
		}
	}
}

func FuzzRedactJSON(f *testing.F) {
	for _, s := range []string{`{"t": "` + ghClassic + `"}`, `["\u0067hp_` + ghClassic[4:] + `"]`, "x " + awsKeyID, `{"a":"b"}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		got, hits := RedactJSON(in)
		if m := All(got); len(m) > 0 {
			t.Fatalf("a %s is left", m[0].Kind)
		}
		if (len(All(in)) > 0) != (len(hits) > 0) {
			t.Fatalf("hits %v do not say whether there was a credential", hits)
		}
		if json.Valid(in) && !json.Valid(got) {
			t.Fatalf("valid JSON became invalid: %q", got)
		}
	})
}

func equalHits(a, b []Hit) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
