package textin

import (
	"fmt"
	"math"
	"reflect"
)

// integerBounds are the values each integer kind can hold, as Decimal's
// bounds; a uint64 (and a uint) is held to MaxInt64, the most Decimal
// reads.
var integerBounds = map[reflect.Kind][2]int64{
	reflect.Int: {math.MinInt, math.MaxInt}, reflect.Int64: {math.MinInt64, math.MaxInt64},
	reflect.Int32: {math.MinInt32, math.MaxInt32}, reflect.Int16: {math.MinInt16, math.MaxInt16},
	reflect.Int8: {math.MinInt8, math.MaxInt8},
	reflect.Uint: {0, math.MaxInt}, reflect.Uint64: {0, math.MaxInt64},
	reflect.Uint32: {0, math.MaxUint32}, reflect.Uint16: {0, math.MaxUint16},
	reflect.Uint8: {0, math.MaxUint8},
}

// IntegerKinds are the kinds SetDecimal fills, in no particular order.
func IntegerKinds() []reflect.Kind {
	kinds := make([]reflect.Kind, 0, len(integerBounds))
	for k := range integerBounds {
		kinds = append(kinds, k)
	}
	return kinds
}

// SetDecimal reads s by Decimal within what target's integer kind can
// hold, and sets target to it.
func SetDecimal(target reflect.Value, s string) error {
	bounds, ok := integerBounds[target.Kind()]
	if !ok {
		return fmt.Errorf("a %s is not an integer", target.Type())
	}
	n, err := Decimal(s, bounds[0], bounds[1])
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
