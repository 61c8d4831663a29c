//go:build !unix

package board

import "errors"

func mkfifo(string) error { return errors.New("no FIFO on this system") }
