/* ws-hostmem.h: how much host memory this process may still take, by every limit that can
 * stop it: the kernel's MemAvailable, the cgroup's memory.max, RLIMIT_AS and RLIMIT_DATA.
 * Plain C, no CUDA: the runner's tests read fixtures through the parsers below.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <stddef.h>
#include <stdint.h>

typedef enum
{
  WS_HOSTMEM_NONE,          /* nothing could be read: no limit known */
  WS_HOSTMEM_MEMINFO,       /* MemAvailable in /proc/meminfo */
  WS_HOSTMEM_CGROUP,        /* a cgroup v2 memory.max, less what the cgroup holds */
  WS_HOSTMEM_RLIMIT_AS,     /* ulimit -v, less the address space in use */
  WS_HOSTMEM_RLIMIT_DATA,   /* ulimit -d, less the data segment in use */
} WsHostmemLimit;

typedef struct
{
  uint64_t available;       /* bytes that may still be allocated; UINT64_MAX when unknown */
  WsHostmemLimit limit;     /* which limit is the smallest */
  uint64_t limit_bytes;     /* that limit's own size (memory.max, the rlimit, MemTotal) */
} WsHostmem;

/* Reads every limit now. */
void ws_hostmem_query (WsHostmem *mem);
/* "MemAvailable in /proc/meminfo", "the cgroup's memory.max of 6.00 GB less what it holds". */
void ws_hostmem_describe (const WsHostmem *mem, char *buf, size_t len);

/* What a run asks of the host: `arrays` bytes for its `n_arrays` buffers (`kind`: "pageable"
 * or "pinned") and `cpu_out` more for the CPU baselines' output. Returns 1 when that fits in
 * `mem` with 5% (at least 256 MiB) left for the rest of the process; otherwise 0 and a
 * message for people with both numbers and what to change. `n` is the vector length for a
 * 1D kernel (the message then says the largest n that fits), 0 for a matrix. */
int ws_hostmem_check (const WsHostmem *mem, const char *kernel, const char *size_text,
                      uint64_t n, int n_arrays, const char *kind, uint64_t arrays,
                      uint64_t cpu_out, char *message, size_t len);

/* The parsers, for the tests. Each returns 1 and the bytes, or 0 when the text says nothing
 * (a cgroup without a limit: "max"). */
int ws_hostmem_parse_meminfo (const char *meminfo, const char *field, uint64_t *bytes);
int ws_hostmem_parse_cgroup (const char *max, const char *current, const char *stat,
                             uint64_t *limit, uint64_t *available);
/* The v2 path from /proc/self/cgroup ("0::/user.slice/…"), or 0. */
int ws_hostmem_parse_cgroup_path (const char *proc_cgroup, char *path, size_t len);
