/* Test-only stand-in for Windows' bcryptprimitives.dll under Wine 8.0, which lacks it.
 * Rust's standard library (1.78 and later) takes its random bytes from ProcessPrng; this
 * forwards them to RtlGenRandom (advapi32's SystemFunction036), which Wine has. It is built
 * and installed only into the Wine prefix of scripts/test-windows.sh, never shipped. */
#include <windows.h>

BOOLEAN WINAPI SystemFunction036(PVOID buffer, ULONG length);

BOOL WINAPI ProcessPrng(PBYTE data, SIZE_T length) {
    while (length > 0) {
        ULONG chunk = length > 0x7fffffff ? 0x7fffffff : (ULONG)length;
        if (!SystemFunction036(data, chunk)) {
            return FALSE;
        }
        data += chunk;
        length -= chunk;
    }
    return TRUE;
}
