#ifndef CALLS_H
#define CALLS_H
#include <stdint.h>
void plain_leaf(void);
void plain_loop(uint32_t n);
void pg_leaf(void);
void pg_loop(uint32_t n);
#endif
