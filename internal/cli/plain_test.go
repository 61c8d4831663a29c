package cli

import (
	"io"
	"reflect"
	"testing"

	"github.com/orc-state/orc-state/internal/environ"
)

// A plain read builds the same flags struct and globals kong would, and
// anything else goes to kong.
func TestPlainReadsParseAsKong(t *testing.T) {
	proc := Process{Environ: environ.List{"ORC_LOCK_TIMEOUT="}}.settled() // empty counts as unset
	for _, args := range [][]string{
		{"get"}, {"get", "feat/x"}, {"get", "main"}, {"current"}, {"sessions"},
		{"slice", "list"}, {"decision", "get"}, {"decision", "get", "maxRetriesPerSlice"}, {"board"},
	} {
		verb, cmd, ok := plain(proc, args)
		if !ok {
			t.Errorf("%q is not taken as plain", args)
			continue
		}
		model := grammarFor(args)
		p, err := newParser(proc, model, io.Discard, io.Discard)
		if err != nil {
			t.Fatal(err)
		}
		kctx, err := p.Parse(args)
		if err != nil {
			t.Fatalf("kong refuses %q: %v", args, err)
		}
		if want := verbName(kctx.Command()); verb != want {
			t.Errorf("%q: verb %q, kong's %q", args, verb, want)
		}
		if got, want := reflect.ValueOf(cmd).Elem().Interface(), kctx.Selected().Target.Interface(); !reflect.DeepEqual(got, want) {
			t.Errorf("%q: flags %#v, kong's %#v", args, got, want)
		}
		if got, want := plainGlobals(), globalsOf(model); !reflect.DeepEqual(got, want) {
			t.Errorf("%q: globals %+v, kong's %+v", args, got, want)
		}
	}
	for _, args := range [][]string{
		nil, {"get", "--json"}, {"get", "-h"}, {"get", "a", "b"}, {"get", ""}, {"get", "--branch", "x"},
		{"--dir", "d", "get"}, {"current", "x"}, {"sessions", "--status", "paused"}, {"slice", "list", "--json"},
		{"slice"}, {"slice", "set"}, {"decision", "get", "a", "b"}, {"decision", "get", "--echo", "k"},
		{"getx"}, {"phase", "set", "2"}, {"line"}, {"board", "--json"}, {"board", "main"}, {"board", "--watch"},
	} {
		if verb, _, ok := plain(proc, args); ok {
			t.Errorf("%q taken as plain %q; it must go through kong", args, verb)
		}
	}
	proc = Process{Environ: environ.List{"ORC_LOCK_TIMEOUT=1s"}}.settled()
	if _, _, ok := plain(proc, []string{"get"}); ok {
		t.Error("with ORC_LOCK_TIMEOUT set, get is taken as plain; kong must parse the variable")
	}
}

// Every plain read is a registered verb whose flags struct is the one the
// table builds.
func TestPlainReadsAreVerbs(t *testing.T) {
	for _, p := range plainReads {
		found := false
		for _, v := range verbs {
			if v.words == p.words {
				found = true
				if got, want := reflect.TypeOf(p.cmd("")).Elem(), reflect.TypeOf(v.flags); got != want {
					t.Errorf("%s: builds %v, the verb's struct is %v", p.words, got, want)
				}
			}
		}
		if !found {
			t.Errorf("%s is no verb", p.words)
		}
	}
}
