/* sha256.h -- SHA-256 (FIPS 180-4), fed in pieces: the trace hashes a
 * long repr as it is written instead of holding it. */
#ifndef ARC_SHA256_H
#define ARC_SHA256_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct {
    uint32_t h[8];
    uint64_t bytes;          /* fed so far */
    uint8_t block[64];       /* the block being filled: bytes % 64 of it */
} Sha256;

void sha256_init(Sha256 *s);
void sha256_update(Sha256 *s, const void *data, size_t n);
/* The digest as 64 lowercase hex digits and a NUL; s is used up. */
void sha256_hex(Sha256 *s, char hex[65]);
/* Whether the CPU's SHA extensions do the work. */
bool sha256_hw(void);
/* Portable C from now on, whatever the CPU has (the tests compare both). */
void sha256_portable(void);

#endif
