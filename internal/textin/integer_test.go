package textin

import (
	"errors"
	"reflect"
	"testing"
)

// SetDecimal fills each integer kind with what Decimal reads, refusing a
// value the kind cannot hold and leaving the target as it was.
func TestSetDecimalHoldsEachKindToItsBounds(t *testing.T) {
	var (
		i   int
		i8  int8
		u16 uint16
		u64 uint64
	)
	for _, c := range []struct {
		target any
		in     string
		want   any
		err    error
	}{
		{&i, "-42", -42, nil},
		{&i8, "127", int8(127), nil},
		{&i8, "128", int8(127), ErrRange},
		{&u16, "65535", uint16(65535), nil},
		{&u16, "65536", uint16(65535), ErrRange},
		{&u16, "-1", uint16(65535), ErrRange},
		{&u64, "9223372036854775808", uint64(0), ErrRange},
		{&i, "010", -42, ErrNotDecimal},
		{&i, "0x10", -42, ErrNotDecimal},
	} {
		v := reflect.ValueOf(c.target).Elem()
		err := SetDecimal(v, c.in)
		if !errors.Is(err, c.err) || (c.err == nil) != (err == nil) {
			t.Errorf("%s %q: err %v, want %v", v.Type(), c.in, err, c.err)
		}
		if got := v.Interface(); got != c.want {
			t.Errorf("%s %q: %v, want %v", v.Type(), c.in, got, c.want)
		}
	}
	var s string
	if err := SetDecimal(reflect.ValueOf(&s).Elem(), "1"); err == nil {
		t.Error("a string is filled as an integer")
	}
	if len(IntegerKinds()) != 10 {
		t.Errorf("IntegerKinds = %v", IntegerKinds())
	}
}
