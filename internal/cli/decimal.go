package cli

import (
	"fmt"
	"math"
	"reflect"

	"github.com/alecthomas/kong"

	"github.com/orc-state/orc-state/internal/textin"
)

// decimalIntegers makes every integer flag and argument of every verb
// (and a default or environment value kong fills one from) decimal only
// (docs/protocol.md §4): kong's own integer mapper reads base 0, so
// "--total-phases 010" would be 8 and "0x10" 16. Here they are refused,
// exit 2, like any other parse error. Registered by kind, it also covers
// *int fields (kong maps a pointer through its element's mapper).
func decimalIntegers() kong.Option {
	return kong.OptionFunc(func(k *kong.Kong) error {
		for kind, bounds := range map[reflect.Kind][2]int64{
			reflect.Int: {math.MinInt, math.MaxInt}, reflect.Int64: {math.MinInt64, math.MaxInt64},
			reflect.Int32: {math.MinInt32, math.MaxInt32}, reflect.Int16: {math.MinInt16, math.MaxInt16},
			reflect.Int8: {math.MinInt8, math.MaxInt8},
			reflect.Uint: {0, math.MaxInt}, reflect.Uint64: {0, math.MaxInt64},
			reflect.Uint32: {0, math.MaxUint32}, reflect.Uint16: {0, math.MaxUint16},
			reflect.Uint8: {0, math.MaxUint8},
		} {
			if err := kong.KindMapper(kind, decimalMapper(bounds[0], bounds[1])).Apply(k); err != nil {
				return err
			}
		}
		return nil
	})
}

// decimalMapper reads one value by textin.Decimal within min..max.
func decimalMapper(min, max int64) kong.MapperFunc {
	return func(ctx *kong.DecodeContext, target reflect.Value) error {
		t, err := ctx.Scan.PopValue("int")
		if err != nil {
			return err
		}
		s, ok := t.Value.(string)
		if !ok {
			s = fmt.Sprint(t.Value)
		}
		n, err := textin.Decimal(s, min, max)
		if err != nil {
			return err
		}
		if target.CanUint() {
			target.SetUint(uint64(n))
		} else {
			target.SetInt(n)
		}
		return nil
	}
}
