/* ws-sha256.h: SHA-256 (FIPS 180-4), for the hash of a kernel's source that every run records
 * and for the keys of the NVRTC cache; plain C, neither GLib nor CUDA.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct
{
  uint32_t h[8];
  uint64_t bytes;
  unsigned char block[64];
  size_t used;
} WsSha256;

void ws_sha256_init (WsSha256 *s);
void ws_sha256_update (WsSha256 *s, const void *data, size_t len);
/* 64 lowercase hex digits and a NUL. */
void ws_sha256_hex (WsSha256 *s, char out[65]);
/* The hash of one buffer, in hex. */
void ws_sha256_of (const void *data, size_t len, char out[65]);

#ifdef __cplusplus
}
#endif
