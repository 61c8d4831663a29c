/*
 * A stand-in bcryptprimitives.dll for wine 8, which lacks ProcessPrng: Go's
 * runtime (1.24 and later) loads bcryptprimitives.dll from system32 at start
 * and fills its random state through ProcessPrng. This one exports only that
 * function, filled from RtlGenRandom (advapi32's SystemFunction036), which
 * wine has. CI only: .ci/wine builds it with mingw-w64 into the wine
 * prefix's system32 to run the windows/amd64 release binary.
 */
#include <windows.h>

BOOLEAN WINAPI SystemFunction036(PVOID buffer, ULONG length);

__declspec(dllexport) BOOL WINAPI ProcessPrng(PBYTE data, SIZE_T length)
{
	while (length > 0) {
		ULONG chunk = length > 0x40000000 ? 0x40000000 : (ULONG)length;
		if (!SystemFunction036(data, chunk))
			return FALSE;
		data += chunk;
		length -= chunk;
	}
	return TRUE;
}

BOOL WINAPI DllMain(HINSTANCE instance, DWORD reason, LPVOID reserved)
{
	(void)instance;
	(void)reason;
	(void)reserved;
	return TRUE;
}
