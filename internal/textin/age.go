package textin

import (
	"fmt"
	"math"
	"strings"
	"time"
)

// Age reads an age as a flag gives it: a Go duration ("720h") or a number
// of days ("30d"); a negative one, or more days than a Duration holds, is
// refused.
func Age(s string) (time.Duration, error) {
	if n, ok := strings.CutSuffix(s, "d"); ok {
		days, err := Decimal(n, 0, math.MaxInt64/int64(24*time.Hour))
		if err != nil {
			return 0, fmt.Errorf("not a number of days: %w", err)
		}
		return time.Duration(days) * 24 * time.Hour, nil
	}
	d, err := time.ParseDuration(s)
	if err == nil && d < 0 {
		err = fmt.Errorf("negative")
	}
	return d, err
}
