/* input_kind.c - an input file's kind from its first bytes (input_kind.h). */
#include "input_kind.h"

#include <stddef.h>
#include <string.h>

#include <mcuprof/image.h>

#include "bytes.h"

/* gmon.out as binutils gprof reads it (gmon_read.c reads it whole; this
 * only follows the record sizes): the GNU header, a histogram record's
 * fixed part after its tag (lowpc, highpc, bin count, rate, dimension,
 * abbreviation), the BSD 4.4 version word. */
#define GNU_HEADER_SIZE 20u
#define GNU_HIST_FIXED(ps) (2u * (ps) + 4u + 4u + 16u)
#define BSD_VERSION 0x00051879u

enum { SCAN_OTHER, SCAN_IMAGE, SCAN_GNU, SCAN_BSD, SCAN_JSON };

unsigned mp_image_magic_order(const uint8_t *d, size_t len)
{
    if (len < 4)
        return 0;
    if (memcmp(d, MCUPROF_IMAGE_MAGIC_LE, 4) == 0)
        return MCUPROF_ORDER_LITTLE;
    if (memcmp(d, MCUPROF_IMAGE_MAGIC_BE, 4) == 0)
        return MCUPROF_ORDER_BIG;
    return 0;
}

enum mp_input_kind mp_input_kind(const uint8_t *d, size_t len)
{
    size_t i;

    if (len == 0 || mp_image_magic_order(d, len))
        return MP_INPUT_IMAGE;
    for (i = 0; i < len && (d[i] == ' ' || d[i] == '\t' || d[i] == '\n' || d[i] == '\r'); i++)
        ;
    return i < len && d[i] == '{' ? MP_INPUT_JSON : MP_INPUT_GMON;
}

const char *mp_input_kind_name(enum mp_input_kind k)
{
    return k == MP_INPUT_IMAGE ? "image" : k == MP_INPUT_GMON ? "gmon.out" : "JSON";
}

static size_t min_size(uint64_t a, size_t b)
{
    return a < b ? (size_t)a : b;
}

/* Follow reading R of a GNU gmon.out (bit 0: big-endian, bit 1: 8-byte
 * addresses) through the N bytes read; 0 when a record it reaches
 * cannot be one (gmon_read.c refuses the same), or ends past BOUND. */
static int gnu_follow(struct mp_input_scan *s, unsigned r, const uint8_t *d, size_t n)
{
    int big = (int)(r & 1u);
    unsigned ps = r & 2u ? 8u : 4u;

    while (s->next[r] < n) {
        uint64_t pos = s->next[r];
        uint8_t tag = d[pos];

        if (tag == 0) {
            uint64_t low, high;
            uint32_t nbins;

            if (pos + 1 + GNU_HIST_FIXED(ps) > n)
                return 1; /* its fixed part is still to come */
            low = mp_getptr(d + pos + 1, ps, big);
            high = mp_getptr(d + pos + 1 + ps, ps, big);
            nbins = mp_get32(d + pos + 1 + 2 * ps, big);
            if (low > high || nbins == 0)
                return 0;
            s->next[r] = pos + 1 + GNU_HIST_FIXED(ps) + 2 * (uint64_t)nbins;
        } else if (tag == 1) {
            s->next[r] = pos + 1 + 2 * ps + 4;
        } else if (tag == 2) {
            if (pos + 5 > n)
                return 1;
            s->next[r] = pos + 5 + (uint64_t)mp_get32(d + pos + 1, big) * 2 * ps;
        } else {
            return 0;
        }
        if (s->next[r] > s->bound)
            return 0;
    }
    return 1;
}

/* A BSD 4.4 header of reading R that gmon_read.c could take. */
static int bsd_header(unsigned r, const uint8_t *d, size_t n, size_t bound)
{
    int big = (int)(r & 1u);
    unsigned ps = r & 2u ? 8u : 4u;
    uint32_t hdr = 2 * ps + 4 + 4 + 4 + 12, ncnt;

    if (n < hdr || mp_get32(d + 2 * ps + 4, big) != BSD_VERSION)
        return 0;
    ncnt = mp_get32(d + 2 * ps, big);
    return ncnt >= hdr && ncnt <= bound && (ncnt - hdr) % 2 == 0 &&
           mp_getptr(d, ps, big) <= mp_getptr(d + ps, ps, big);
}

static void scan_start(struct mp_input_scan *s, const uint8_t *d, size_t n, size_t max)
{
    unsigned order = mp_image_magic_order(d, n), r;

    s->started = 1;
    s->bound = n;
    s->what = SCAN_OTHER;
    s->alive = 0;
    if (order) {
        s->what = SCAN_IMAGE;
        if (n >= offsetof(struct mcuprof_header, image_size) + 4) {
            uint32_t size = mp_get32(d + offsetof(struct mcuprof_header, image_size), order == MCUPROF_ORDER_BIG);

            s->bound = min_size(size > n ? size : n, max);
        }
    } else if (mp_input_kind(d, n) == MP_INPUT_JSON) {
        s->what = SCAN_JSON;
        s->bound = s->limit = min_size(MP_JSON_INPUT_MAX, max);
    } else if (n >= GNU_HEADER_SIZE && memcmp(d, "gmon", 4) == 0) {
        s->what = SCAN_GNU;
        s->bound = s->limit = min_size(MP_GMON_INPUT_MAX, max);
        for (r = 0; r < 4; r++) {
            /* gprof reads versions 0 and 1 */
            if (mp_get32(d + 4, (int)(r & 1u)) <= 1) {
                s->alive |= 1u << r;
                s->next[r] = GNU_HEADER_SIZE;
            }
        }
    } else {
        for (r = 0; r < 4; r++) {
            if (bsd_header(r, d, n, min_size(MP_GMON_INPUT_MAX, max))) {
                /* its arcs go on to the end: any length may be one */
                s->what = SCAN_BSD;
                s->bound = s->limit = min_size(MP_GMON_INPUT_MAX, max);
            }
        }
    }
}

size_t mp_input_bound(struct mp_input_scan *s, const uint8_t *d, size_t n, size_t max)
{
    unsigned r;

    if (!s->started)
        scan_start(s, d, n, max);
    if (s->what == SCAN_GNU) {
        for (r = 0; r < 4; r++)
            if ((s->alive & 1u << r) && !gnu_follow(s, r, d, n))
                s->alive &= ~(1u << r);
        if (!s->alive)
            s->bound = n;
    } else if (s->what == SCAN_JSON) {
        /* RFC 8259: below 0x20 only the white space, outside strings */
        for (; s->seen < n; s->seen++) {
            if (d[s->seen] < 0x20 && d[s->seen] != ' ' && d[s->seen] != '\t' && d[s->seen] != '\n' &&
                d[s->seen] != '\r') {
                s->bound = n;
                break;
            }
        }
    }
    return s->bound < n ? n : s->bound;
}
