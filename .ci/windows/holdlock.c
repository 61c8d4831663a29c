/*
 * holdlock FILE SECONDS: takes the lock orc-state's writers take on Windows
 * (LockFileEx, exclusive, on the first byte of FILE, as gofrs/flock does),
 * prints "locked", and holds it for SECONDS. CI only (.ci/wine): a writer
 * started meanwhile must give up after --lock-timeout with exit 4.
 */
#include <windows.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
	HANDLE h;
	OVERLAPPED ov;

	if (argc != 3) {
		fprintf(stderr, "usage: holdlock FILE SECONDS\n");
		return 2;
	}
	h = CreateFileA(argv[1], GENERIC_READ | GENERIC_WRITE, FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE,
			NULL, OPEN_ALWAYS, FILE_ATTRIBUTE_NORMAL, NULL);
	if (h == INVALID_HANDLE_VALUE) {
		fprintf(stderr, "holdlock: cannot open %s: error %lu\n", argv[1], GetLastError());
		return 1;
	}
	ZeroMemory(&ov, sizeof ov);
	if (!LockFileEx(h, LOCKFILE_EXCLUSIVE_LOCK, 0, 1, 0, &ov)) {
		fprintf(stderr, "holdlock: cannot lock %s: error %lu\n", argv[1], GetLastError());
		return 1;
	}
	printf("locked\n");
	fflush(stdout);
	Sleep((DWORD)atoi(argv[2]) * 1000);
	return 0;
}
