package state

import "os"

// systemBootID is the kernel's id of this boot.
func systemBootID() string {
	data, err := os.ReadFile("/proc/sys/kernel/random/boot_id")
	if err != nil {
		return ""
	}
	return string(data)
}
