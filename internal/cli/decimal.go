package cli

import (
	"fmt"
	"reflect"

	"github.com/alecthomas/kong"

	"github.com/orc-state/orc-state/internal/textin"
)

// decimalIntegers makes every integer flag and argument of every verb
// (and a default or environment value kong fills one from) decimal only
// (docs/protocol.md §4, textin.SetDecimal): kong's own integer mapper
// reads base 0, so "--total-phases 010" would be 8 and "0x10" 16. Here
// they are refused, exit 2, like any other parse error. Registered by
// kind, it also covers *int fields (kong maps a pointer through its
// element's mapper).
func decimalIntegers() kong.Option {
	return kong.OptionFunc(func(k *kong.Kong) error {
		for _, kind := range textin.IntegerKinds() {
			if err := kong.KindMapper(kind, kong.MapperFunc(decimalValue)).Apply(k); err != nil {
				return err
			}
		}
		return nil
	})
}

// decimalValue reads one value into target by textin.SetDecimal.
func decimalValue(ctx *kong.DecodeContext, target reflect.Value) error {
	t, err := ctx.Scan.PopValue("int")
	if err != nil {
		return err
	}
	s, ok := t.Value.(string)
	if !ok {
		s = fmt.Sprint(t.Value)
	}
	return textin.SetDecimal(target, s)
}
