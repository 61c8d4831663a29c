package cli

import (
	"io"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/alecthomas/kong"
)

// integerInput is one integer flag or positional argument of a verb, as
// kong's model has it.
type integerInput struct {
	verb, name string
	flag       bool
	value      *kong.Value
	args       []string // the verb's words and, for a positional, "--" and the arguments before it
}

// with is the command line that gives the input the value v.
func (in integerInput) with(v string) []string {
	args := append([]string(nil), in.args...)
	if in.flag {
		return append(args, in.name+"="+v)
	}
	return append(args, v)
}

// integerInputs walks every verb's flags and arguments and returns those
// kong decodes as an integer (int, *int or any other integer kind).
func integerInputs(t *testing.T) []integerInput {
	t.Helper()
	isInt := func(typ reflect.Type) bool {
		for typ.Kind() == reflect.Pointer {
			typ = typ.Elem()
		}
		if typ == reflect.TypeFor[time.Duration]() {
			return false // kong's duration mapper, not an integer
		}
		switch typ.Kind() {
		case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
			reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
			return true
		}
		return false
	}
	var out []integerInput
	for _, v := range verbs {
		if v.flags == nil || v.words == "line" {
			continue
		}
		words := strings.Fields(v.words)
		leaf := ""
		if len(words) == 2 {
			leaf = words[1]
		}
		k, err := newParser(Process{}.settled(), grammar(words[0], leaf), io.Discard, io.Discard)
		if err != nil {
			t.Fatal(err)
		}
		node := k.Model.Node
		for _, w := range words {
			for _, c := range node.Children {
				if c.Name == w {
					node = c
				}
			}
		}
		if node.Name != words[len(words)-1] {
			t.Fatalf("%s: no node in kong's model", v.words)
		}
		for _, f := range node.Flags {
			if isInt(f.Target.Type()) {
				out = append(out, integerInput{verb: v.words, name: "--" + f.Name, flag: true, value: f.Value, args: words})
			}
		}
		before := append(append([]string(nil), words...), "--")
		for _, p := range node.Positional {
			if isInt(p.Target.Type()) {
				out = append(out, integerInput{verb: v.words, name: "<" + p.Name + ">", value: p, args: append([]string(nil), before...)})
			}
			before = append(before, "x")
		}
	}
	return out
}

// TestIntegerInputsAreDecimal holds every integer flag and argument of
// every verb to docs/protocol.md §4: decimal only. kong's own mapper reads
// base 0 ("010" is 8, "0x10" 16); the parser's must refuse those and every
// other spelling that is not plain decimal, and read plain decimal as is.
func TestIntegerInputsAreDecimal(t *testing.T) {
	inputs := integerInputs(t)
	// The integer inputs known today; a new one is found by the walk and
	// checked the same way, this list only guards the walk itself.
	for _, want := range []string{"init --total-phases", "link-pr --number", "link-pr --stack-position",
		"slice set --actual-loc", "gate record <phase>", "resume --max-bytes", "repo set --slice",
		"slice verify --budget", "install --context-reserve"} {
		found := false
		for _, in := range inputs {
			found = found || in.verb+" "+in.name == want
		}
		if !found {
			t.Errorf("the walk missed %s", want)
		}
	}
	refused := []string{"010", "0x10", "0X1f", "0o7", "0b1", "+3", " 3", "3 ", "1_000", "1e3", "2.0", "00",
		"-0", "٣", "99999999999999999999", "seven"}
	for _, in := range inputs {
		for _, v := range refused {
			args := in.with(v)
			k, err := newParser(Process{}.settled(), grammarFor(args), io.Discard, io.Discard)
			if err != nil {
				t.Fatal(err)
			}
			_, err = k.Parse(args)
			if err == nil || !strings.Contains(err.Error(), "decimal integer") && !strings.Contains(err.Error(), "out of range") {
				t.Errorf("%s %s %q: got %v, want a refusal as not decimal", in.verb, in.name, v, err)
			}
		}
		args := in.with("12")
		k, err := newParser(Process{}.settled(), grammarFor(args), io.Discard, io.Discard)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := k.Parse(args); err != nil && strings.Contains(err.Error(), in.name) {
			t.Errorf("%s %s 12: %v", in.verb, in.name, err)
		}
	}
}

// TestDecimalMapperValues checks what a decimal value becomes in each
// kind of field, and the bounds of the narrow kinds.
func TestDecimalMapperValues(t *testing.T) {
	var cli struct {
		I   int    `name:"i"`
		P   *int   `name:"p"`
		I8  int8   `name:"i8"`
		U16 uint16 `name:"u16"`
	}
	k, err := kong.New(&cli, decimalIntegers(), kong.Exit(func(int) {}))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := k.Parse([]string{"--i=-42", "--p", "10", "--i8", "127", "--u16", "65535"}); err != nil {
		t.Fatal(err)
	}
	if cli.I != -42 || cli.P == nil || *cli.P != 10 || cli.I8 != 127 || cli.U16 != 65535 {
		t.Errorf("got %+v (p=%v)", cli, cli.P)
	}
	for _, args := range [][]string{{"--i8", "128"}, {"--u16", "65536"}, {"--u16=-1"}, {"--p", "010"}} {
		if _, err := k.Parse(args); err == nil {
			t.Errorf("%q: accepted", args)
		}
	}
}
