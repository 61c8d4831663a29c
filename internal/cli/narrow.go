package cli

import (
	"reflect"
	"strings"
)

// Building kong's model of the whole Grammar costs milliseconds (it parses
// every tag of every verb), which every hook, statusline and agent call
// would pay. grammarFor gives kong a struct holding only the global flags
// and the one verb the arguments name, made from Grammar's own fields, so
// the grammar still lives in one place. Top-level help and unknown verbs
// get the whole Grammar.

// globalFields are the Grammar fields that are global flags.
var globalFields = []string{"Dir", "LockTimeout"}

// grammarFor returns a pointer to the struct kong should parse args with.
func grammarFor(args []string) any {
	verb := firstWord(args)
	t := reflect.TypeFor[Grammar]()
	var fields []reflect.StructField
	for _, name := range globalFields {
		f, _ := t.FieldByName(name)
		fields = append(fields, f)
	}
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		if _, isCmd := f.Tag.Lookup("cmd"); isCmd && verb != "" && cmdName(f) == verb {
			fields = append(fields, f)
			return reflect.New(reflect.StructOf(fields)).Interface()
		}
	}
	return &Grammar{}
}

// globals copies the parsed global flags out of the model into a Grammar.
func globals(model any) *Grammar {
	if g, ok := model.(*Grammar); ok {
		return g
	}
	var g Grammar
	src := reflect.ValueOf(model).Elem()
	dst := reflect.ValueOf(&g).Elem()
	for _, name := range globalFields {
		dst.FieldByName(name).Set(src.FieldByName(name))
	}
	return &g
}

// cmdName is the verb kong derives for a command field: its name tag, else
// the field name in lower case (every multi-word verb has a name tag).
func cmdName(f reflect.StructField) string {
	if n := f.Tag.Get("name"); n != "" {
		return n
	}
	return strings.ToLower(f.Name)
}

// firstWord is the first argument that is not a global flag or its value.
func firstWord(args []string) string {
	for i := 0; i < len(args); i++ {
		switch a := args[i]; {
		case a == "--dir" || a == "--lock-timeout":
			i++
		case strings.HasPrefix(a, "-"):
		default:
			return a
		}
	}
	return ""
}
