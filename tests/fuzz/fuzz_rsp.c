/*
 * fuzz_rsp.c - fuzz target: the answers of a debug server speaking the GDB
 * remote serial protocol (links/gdb_rsp.c): packets, acknowledgements,
 * checksums, escapes, run-length encoding, error replies, stop replies and
 * console output, as `pull` and `ctl` read them (fuzz_link.c, mem_net.c):
 * the first byte picks the scenario, the rest is what the server sends.
 */
#include "fuzz_common.h"
#include "fuzz_link.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    return fuzz_link_input("gdb", data, size);
}
