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

#endif /* MCUPROF_INPUT_KIND_H */
