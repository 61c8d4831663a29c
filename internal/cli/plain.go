package cli

import (
	"reflect"
	"slices"
	"strings"
	"time"
)

// runner is a verb's flags struct: its Run does the work, taking the
// values bind makes that its parameters name.
type runner = any

// runBound calls cmd's Run with, for each of its parameters, the value of
// that type among values, as kong's Run does.
func runBound(cmd runner, values ...any) error {
	run := reflect.ValueOf(cmd).MethodByName("Run")
	in := make([]reflect.Value, run.Type().NumIn())
	for i := range in {
		for _, v := range values {
			if reflect.TypeOf(v) == run.Type().In(i) {
				in[i] = reflect.ValueOf(v)
			}
		}
	}
	err, _ := run.Call(in)[0].Interface().(error)
	return err
}

// plainRead is a read verb that agents and hooks call most (or, for
// board, that is held to the same read budget), in its plain form: its words and at most its one positional key, no flag. Called so,
// it runs without building kong's model of the command line, which is most
// of such a call's own work (about a third of `get`'s instructions). kong
// stays the parser of record: any flag, help, a second argument or an
// ORC_LOCK_TIMEOUT to parse go through it, and TestPlainReadsParseAsKong
// holds both to the same structs.
type plainRead struct {
	words string
	key   bool // takes one optional positional key
	cmd   func(key string) runner
}

var plainReads = []plainRead{
	{"get", true, func(k string) runner { return &GetCmd{Key: k} }},
	{"current", false, func(string) runner { return &CurrentCmd{} }},
	{"sessions", false, func(string) runner { return &SessionsCmd{} }},
	{"slice list", false, func(string) runner { return &SliceListCmd{} }},
	{"decision get", true, func(k string) runner { return &DecisionGetCmd{Key: k} }},
	{"board", false, func(string) runner { return &BoardCmd{} }},
}

// plainGlobals are the global flags when none is given and ORC_LOCK_TIMEOUT
// is unset: the defaults of Globals' tags.
func plainGlobals() *Globals { return &Globals{LockTimeout: 5 * time.Second} }

// plain returns the verb and its flags struct when args call a plain read
// plainly (see plainRead).
func plain(p *Process, args []string) (verb string, cmd runner, ok bool) {
	if _, set := p.Environ.Lookup("ORC_LOCK_TIMEOUT"); set {
		return "", nil, false
	}
	for _, p := range plainReads {
		words := strings.Fields(p.words)
		if len(args) < len(words) || !slices.Equal(args[:len(words)], words) {
			continue
		}
		rest := args[len(words):]
		switch {
		case len(rest) == 0:
			return p.words, p.cmd(""), true
		case len(rest) == 1 && p.key && rest[0] != "" && !strings.HasPrefix(rest[0], "-"):
			return p.words, p.cmd(rest[0]), true
		}
		return "", nil, false
	}
	return "", nil, false
}
