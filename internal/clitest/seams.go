package clitest

import (
	"fmt"
	"os"
	"strconv"
	"strings"
	"syscall"

	"github.com/orc-state/orc-state/internal/atomicfile"
)

// The fault seams of the real processes the tests start (this test binary
// run as orc-state; the run's clocks are Clock's). They exist only in test
// binaries (only tests import this package), set from the environment:
//
//	ORC_TEST_FAULT=N:ERRNO       the N-th file-system step fails with ERRNO
//	                             (EIO, ENOSPC, EACCES, EROFS)
//	ORC_TEST_FAULT=OP:SUFFIX:ERRNO  the first step OP (rename, append, ...)
//	                             on a path ending in SUFFIX fails
//	ORC_TEST_FAULT_LOG=FILE      each step is appended to FILE as "op path"
func installSeams() {
	spec, logPath := os.Getenv("ORC_TEST_FAULT"), os.Getenv("ORC_TEST_FAULT_LOG")
	if spec == "" && logPath == "" && os.Getenv("ORC_TEST_BOOT_ID") == "" {
		return // (ORC_TEST_BOOT_ID, read by internal/state, plays a restart)
	}
	failAt, errno := -1, syscall.EIO
	var failOp, failSuffix string
	if spec != "" {
		parts := strings.Split(spec, ":")
		name := parts[len(parts)-1]
		var err error
		switch len(parts) {
		case 2:
			if failAt, err = strconv.Atoi(parts[0]); err != nil {
				panic("ORC_TEST_FAULT: " + spec)
			}
		case 3:
			failOp, failSuffix = parts[0], parts[1]
		default:
			panic("ORC_TEST_FAULT: " + spec)
		}
		errno = map[string]syscall.Errno{"EIO": syscall.EIO, "ENOSPC": syscall.ENOSPC, "EACCES": syscall.EACCES, "EROFS": syscall.EROFS}[name]
		if errno == 0 {
			panic("ORC_TEST_FAULT: unknown errno " + name)
		}
	}
	var log *os.File
	if logPath != "" {
		var err error
		if log, err = os.OpenFile(logPath, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o644); err != nil {
			panic(err)
		}
	}
	count := 0
	atomicfile.Fault = func(op atomicfile.Op, path string) error {
		count++
		if log != nil {
			fmt.Fprintf(log, "%s %s\n", op, path)
		}
		if count == failAt || failOp == string(op) && strings.HasSuffix(path, failSuffix) {
			failOp = ""
			return errno
		}
		return nil
	}
}
