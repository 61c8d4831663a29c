package textin

import (
	"testing"
	"time"
)

func TestAgeTakesADurationOrDaysAndRefusesWhatIsNoAge(t *testing.T) {
	for _, c := range []struct {
		in   string
		want time.Duration
		ok   bool
	}{
		{"30d", 30 * 24 * time.Hour, true},
		{"0d", 0, true},
		{"720h", 720 * time.Hour, true},
		{"90m", 90 * time.Minute, true},
		{"-1h", 0, false},
		{"-1d", 0, false},
		{"1.5d", 0, false},
		{"d", 0, false},
		{"106752d", 0, false}, // more days than a Duration holds
		{"forever", 0, false},
	} {
		got, err := Age(c.in)
		if (err == nil) != c.ok || c.ok && got != c.want {
			t.Errorf("Age(%q) = %v, %v; want %v, ok %v", c.in, got, err, c.want, c.ok)
		}
	}
}
