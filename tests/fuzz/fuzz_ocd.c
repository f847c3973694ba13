/*
 * fuzz_ocd.c - fuzz target: the answers of a debug server speaking
 * OpenOCD's Tcl RPC (links/ocd_rpc.c): results ended by 0x1a, the words of
 * read_memory, the core's state, as `pull` and `ctl` read them
 * (fuzz_link.c, mem_net.c): the first byte picks the scenario, the rest is
 * what the server sends.
 */
#include "fuzz_common.h"
#include "fuzz_link.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    return fuzz_link_input("openocd", data, size);
}
