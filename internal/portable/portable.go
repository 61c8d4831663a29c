// Package portable knows which file and folder names every platform
// orc-state runs on can store (Linux, macOS, Windows), and which names
// macOS and Windows treat as the same. Sessions move between machines
// through sync, so the rules are applied on every platform alike: a name
// that Windows cannot store is refused or mapped on Linux too, and two
// names that differ only in case collide everywhere.
//
// What Windows refuses in a name (one path component): the device names
// CON, PRN, AUX, NUL, COM1-COM9, LPT1-LPT9 (also with a superscript ¹²³
// for the digit) and CONIN$, CONOUT$, case-insensitively, alone or with any
// extension ("nul.txt", "aux.a.b"); a trailing dot or space, which it
// silently drops ("trail." is stored as "trail"); and the characters
// < > : " / \ | ? * and control characters (":" would name an NTFS
// stream). What macOS (APFS, HFS+) and Windows (NTFS) share: names are
// compared ignoring case, so "feat-x" and "Feat-X" are one folder.
//
// Not covered: Unicode normalization (APFS treats the NFC and NFD spelling
// of "é" as one name; NTFS and Linux do not). Session keys are ASCII, so
// it can only concern artifact names.
package portable

import (
	"fmt"
	"strings"
	"unicode"
)

// devices are the Windows device names, upper case, that are not of the
// COMn or LPTn form.
var devices = map[string]bool{"CON": true, "PRN": true, "AUX": true, "NUL": true, "CONIN$": true, "CONOUT$": true}

// DeviceStem returns the length of the device-name part of name, or 0 when
// name is no Windows device name. The device-name part is what precedes
// the first dot (Windows ignores any extension) without trailing spaces:
// "nul.txt" and "CON .md" are devices, "console", "com10" and "nul-x" are
// not.
func DeviceStem(name string) int {
	stem, _, _ := strings.Cut(name, ".")
	stem = strings.TrimRight(stem, " ")
	if isDevice(stem) {
		return len(stem)
	}
	return 0
}

func isDevice(stem string) bool {
	up := strings.ToUpper(stem)
	if devices[up] {
		return true
	}
	if len(up) < 4 || up[:3] != "COM" && up[:3] != "LPT" {
		return false
	}
	switch digit := up[3:]; digit {
	case "1", "2", "3", "4", "5", "6", "7", "8", "9", "¹", "²", "³":
		return true
	}
	return false
}

// Problem says why name cannot be one file or folder name on every
// platform, or returns "" when it can. It judges one path component.
func Problem(name string) string {
	for _, r := range name {
		switch {
		case r < 0x20:
			return fmt.Sprintf("%q has a control character", name)
		case strings.ContainsRune(`<>:"/\|?*`, r):
			return fmt.Sprintf("%q has %q, which Windows does not allow in a name", name, r)
		}
	}
	switch {
	case DeviceStem(name) > 0:
		return fmt.Sprintf("%q is a Windows device name (con, prn, aux, nul, com1-com9, lpt1-lpt9, with or without an extension)", name)
	case strings.HasSuffix(name, ".") && strings.Trim(name, ".") != "":
		return fmt.Sprintf("%q ends with a dot, which Windows drops", name)
	case strings.HasSuffix(name, " "):
		return fmt.Sprintf("%q ends with a space, which Windows drops", name)
	}
	return ""
}

// Fold is the name macOS and Windows store name under: two names with the
// same Fold are one file or folder there. It folds case (Unicode simple
// folding, so "ſ" is "s" and the Kelvin sign "K" is "k", as NTFS and APFS
// treat them) and drops trailing dots and spaces, as Windows does.
func Fold(name string) string {
	name = strings.TrimRight(name, ". ")
	return strings.Map(foldRune, name)
}

// foldRune maps r to the smallest rune of its case-folding orbit, so every
// spelling of a letter has one representative.
func foldRune(r rune) rune {
	least := r
	for f := unicode.SimpleFold(r); f != r; f = unicode.SimpleFold(f) {
		if f < least {
			least = f
		}
	}
	return least
}

// Same reports whether a and b are different names that macOS or Windows
// store as one.
func Same(a, b string) bool { return a != b && Fold(a) == Fold(b) }

// CaseOnly reports whether a and b, for which Same holds, differ only in
// case (one name on macOS and Windows), not also in trailing dots or
// spaces (one name on Windows alone).
func CaseOnly(a, b string) bool {
	return strings.Map(foldRune, a) == strings.Map(foldRune, b)
}
