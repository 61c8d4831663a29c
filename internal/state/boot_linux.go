package state

import "golang.org/x/sys/unix"

// systemBootID is the kernel's id of this boot. It is read with plain
// system calls: through os, the file would be registered with the
// runtime's poller (a /proc file can be polled), twice the calls for 37
// bytes.
func systemBootID() string {
	fd, err := unix.Open("/proc/sys/kernel/random/boot_id", unix.O_RDONLY|unix.O_CLOEXEC, 0)
	if err != nil {
		return ""
	}
	defer unix.Close(fd)
	buf := make([]byte, 128)
	n, err := unix.Read(fd, buf)
	if err != nil || n <= 0 {
		return ""
	}
	return string(buf[:n])
}
