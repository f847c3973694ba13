/*
 * input_kind.h - what an input file holds, told from its first bytes: a
 * profile image, a gmon.out or a JSON document of `convert --format json`.
 * The one place the tool tells them apart; each reader then says what is
 * wrong with a file it was handed.
 */
#ifndef MCUPROF_INPUT_KIND_H
#define MCUPROF_INPUT_KIND_H

#include <stddef.h>
#include <stdint.h>

enum mp_input_kind { MP_INPUT_IMAGE, MP_INPUT_GMON, MP_INPUT_JSON };

/* The byte order the image magic at the start of the LEN bytes at D
 * states (MCUPROF_ORDER_LITTLE or MCUPROF_ORDER_BIG), or 0 when they do
 * not start with it. */
unsigned mp_image_magic_order(const uint8_t *d, size_t len);

/* An image by its magic, and an empty file too (the image reader names
 * what is wrong with it); JSON when the first byte other than white
 * space is '{'; anything else is read as a gmon.out. */
enum mp_input_kind mp_input_kind(const uint8_t *d, size_t len);

/* K as a command names it to the user: "image", "gmon.out" or "JSON". */
const char *mp_input_kind_name(enum mp_input_kind k);

/* The most bytes an input of each kind can hold, so that a stream (a
 * pipe, a FIFO) is read no further than a valid input could go, and the
 * memory a read takes is bounded by what the input has shown:
 *  - an image: its header's image_size (at most 4 GiB, the field's width);
 *  - a gmon.out: MP_GMON_INPUT_MAX, 1 GiB, the most `convert` writes
 *    (formats/profile.h MP_OUTPUT_MAX); its records state their sizes,
 *    and the stream stops at the first record no reading can take;
 *  - a JSON document: MP_JSON_INPUT_MAX, 256 MiB, a profile of some 100
 *    million bins, far beyond any firmware's; it stops at the first byte
 *    JSON allows nowhere (a control character other than white space);
 *  - anything else: its first block, which no reader accepts. */
#define MP_GMON_INPUT_MAX ((size_t)1 << 30)
#define MP_JSON_INPUT_MAX ((size_t)1 << 28)

/* What mp_input_bound learnt of a stream so far; zero it before the first
 * call. */
struct mp_input_scan {
    int started;
    int what;            /* what the first bytes said (input_kind.c) */
    size_t bound;        /* the most bytes the input can hold */
    size_t limit;        /* a gmon.out's or a JSON document's (above), 0
                          * for an image or an input of no kind */
    uint64_t next[4];    /* GNU gmon.out: where each reading's next record
                          * starts (byte order x address width) */
    unsigned alive;      /* the readings still possible, one bit each */
    size_t seen;         /* JSON: bytes checked */
};

/* How many bytes, at most MAX, the input whose first N bytes are at D
 * can hold: N when what it holds already cannot be an input of its kind
 * (the reader then says why), more while it still can. Called again as
 * N grows (the bytes before stay the same); each byte is looked at once,
 * so a whole read costs time in proportion to its length. */
size_t mp_input_bound(struct mp_input_scan *s, const uint8_t *d, size_t n, size_t max);

#endif /* MCUPROF_INPUT_KIND_H */
