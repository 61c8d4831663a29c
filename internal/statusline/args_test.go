package statusline

import (
	"reflect"
	"testing"
)

// The statusline's arguments are read leniently over the plugin's
// userConfig variables: a flag wins over its variable, a reserve that is
// no whole percentage 0-99 is none, --refresh-place DIR KEY is the
// refresher's mode, and nothing is ever refused.
func TestArgsReadLenientlyOverTheUserConfig(t *testing.T) {
	for _, c := range []struct {
		env     map[string]string
		args    []string
		want    Options
		refresh []string
	}{
		{nil, nil, Options{}, nil},
		{map[string]string{"CLAUDE_PLUGIN_OPTION_STATUSLINE": "Off", "CLAUDE_PLUGIN_OPTION_STATUSLINE_STYLE": "compact", "CLAUDE_PLUGIN_OPTION_STATUSLINE_CONTEXT_RESERVE": " 20 "}, nil, Options{Off: true, Style: "compact", Reserve: 20}, nil},
		{map[string]string{"CLAUDE_PLUGIN_OPTION_STATUSLINE_STYLE": "compact"}, []string{"--style=full", "--context-reserve", "15"}, Options{Style: "full", Reserve: 15}, nil},
		{nil, []string{"--context-reserve=100"}, Options{}, nil},
		{nil, []string{"--context-reserve=-1", "--off"}, Options{Off: true}, nil},
		{nil, []string{"--style"}, Options{}, nil},
		{nil, []string{"--unknown", "--refresh-place", "/d", "k"}, Options{}, []string{"/d", "k"}},
		{nil, []string{"--refresh-place", "/d"}, Options{}, nil},
	} {
		got, refresh := Args(func(k string) string { return c.env[k] }, c.args)
		if got != c.want || !reflect.DeepEqual(refresh, c.refresh) {
			t.Errorf("Args(%v, %q) = %+v, %q; want %+v, %q", c.env, c.args, got, refresh, c.want, c.refresh)
		}
	}
}
