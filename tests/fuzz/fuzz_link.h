/*
 * fuzz_link.h - what the fuzz targets of the links share (fuzz_link.c):
 * an input is a scenario byte, then everything the debug server answers.
 */
#ifndef TESTS_FUZZ_LINK_H
#define TESTS_FUZZ_LINK_H

#include <stddef.h>
#include <stdint.h>

/* The scenarios: the command lines of `pull` and `ctl` run over the link;
 * SCENARIO (any byte) picks one, modulo their number. */
unsigned fuzz_link_scenarios(void);

/* Run scenario SCENARIO over transport TRANSPORT ("gdb", "openocd"), the
 * server answering the bytes of the feed (mem_net.h), already set. The
 * tool's exit status. */
int fuzz_link_run(const char *transport, unsigned scenario);

/* One input of a link's fuzz target: the scenario byte, then the feed. */
int fuzz_link_input(const char *transport, const uint8_t *data, size_t size);

/* The image every scenario finds (and the simulated servers serve) is at
 * this address. */
#define FUZZ_LINK_IMAGE_ADDR 0x20000000u

#endif /* TESTS_FUZZ_LINK_H */
