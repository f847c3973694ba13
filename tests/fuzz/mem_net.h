/*
 * mem_net.h - net.h (links/net.h) over a buffer, for the fuzz targets of
 * the links: the server's answers are the fuzzer's input (mem_net.c).
 */
#ifndef TESTS_FUZZ_MEM_NET_H
#define TESTS_FUZZ_MEM_NET_H

#include <stddef.h>
#include <stdint.h>

#include "net.h"

/* The server's bytes from now on: LEN bytes at DATA, then it closes. */
void fuzz_net_feed(const uint8_t *data, size_t len);

/* Bytes of the feed read so far. */
size_t fuzz_net_consumed(void);

/* A simulated server: gets every byte the tool sends, answers through
 * fuzz_net_answer. */
typedef void fuzz_net_server(void *ctx, const void *data, size_t len);

/* Serve with FN from now on, its answers recorded into BUF (CAP bytes),
 * which is the feed. */
void fuzz_net_serve(fuzz_net_server *fn, void *ctx, uint8_t *buf, size_t cap);

/* Append LEN bytes to the recorded answers; -1 when BUF is full. */
int fuzz_net_answer(const void *data, size_t len);

#endif /* TESTS_FUZZ_MEM_NET_H */
