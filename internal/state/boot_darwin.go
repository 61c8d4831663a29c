package state

import "golang.org/x/sys/unix"

// systemBootID is the kernel's id of this boot (a UUID made at boot).
func systemBootID() string {
	id, err := unix.Sysctl("kern.bootsessionuuid")
	if err != nil {
		return ""
	}
	return id
}
