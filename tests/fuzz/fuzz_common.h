/*
 * fuzz_common.h - what the fuzz targets (fuzz_*.c, one a kind of input)
 * share: a sink for the outputs, a file holding the input for the readers
 * that take a path (the ELF), a small valid image, and the writers every
 * accepted model goes through.
 */
#ifndef TESTS_FUZZ_COMMON_H
#define TESTS_FUZZ_COMMON_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "image_read.h"
#include "model.h"

/* Larger outputs are sized, not written: writing a gigabyte per input
 * would make every such input a hang. */
#define FUZZ_MAX_WRITTEN (1u << 20)

/* The entry point of every target (libFuzzer's name, fuzz_driver.c). */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Set up once (diagnostics quiet, the sink, the temporary file, the valid
 * image), then hold the diagnostics of one input: call at the start of
 * every input, fuzz_end at its end. */
void fuzz_begin(void);
void fuzz_end(void);

/* /dev/null, opened for writing. */
FILE *fuzz_sink(void);

/* DATA written to temporary file SLOT (0 or 1, removed at exit); its
 * path. */
const char *fuzz_file(unsigned slot, const uint8_t *data, size_t size);

/* The JSON document of M (malloc'd), or NULL when the writer refuses. */
char *fuzz_json_of(const struct mp_model *m, size_t *len);

/* An image into BUF (CAP bytes) of the machine and address width of the
 * ELF whose functions are TAB, one range covering them (16 KiB at most),
 * a sample in every bin; its size, 0 if none. */
struct mp_functab;
size_t fuzz_image_for_elf(const struct mp_functab *tab, uint8_t *buf, size_t cap);

/* A path for an output file of the tool (removed at exit). */
const char *fuzz_out_path(void);

/* Run the tool's command line ARGV (argv[0] "mcuprof", NULL-terminated)
 * as main() would, its standard output thrown away; its exit status. */
int fuzz_tool(const char *const *argv);

/* A small valid image (tb_small: little-endian ARM at 0x20000010). */
const struct mp_image *fuzz_valid_image(void);

/* M as both gmon.out formats, each sized first. */
void fuzz_write_gmons(const struct mp_model *m);

/* M in every output format that accepts it (gmon.out sized first), and the
 * JSON document, which read back must write the same bytes again. */
void fuzz_write_all(const struct mp_model *m);

#endif /* TESTS_FUZZ_COMMON_H */
