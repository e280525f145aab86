/* ws-hostbuf.h: host arrays as numpy makes them (large ones on huge pages), waiting for the
 * process's other threads to go idle before a CPU baseline is timed, and moving the calling
 * thread over the CPUs it may use (the pageable copy ceilings sample them all).
 * Plain C, no CUDA, no GLib: the runner's tests call them.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <stddef.h>
#include <stdint.h>

/* numpy asks for transparent huge pages (madvise MADV_HUGEPAGE) for arrays of 4 MiB or more;
 * so does the runner, so that its CPU baselines and pageable copies read memory as a numpy
 * program's do. */
#define WS_HOST_HUGE_THRESHOLD ((size_t) 4 << 20)
#define WS_HOST_HUGE_ALIGN ((size_t) 2 << 20)

/* `bytes` of host memory, not touched: from WS_HOST_HUGE_THRESHOLD on, mapped on its own,
 * 2 MiB aligned and advised for huge pages; below it, 64-byte aligned from the heap. NULL
 * when there is no memory. Free with ws_host_free and the same size. */
void *ws_host_alloc (size_t bytes);
void ws_host_free (void *p, size_t bytes);

/* The bytes of [p, p + bytes) that the kernel backs with huge pages now (AnonHugePages of
 * the mappings it overlaps, from /proc/self/smaps); -1 when that cannot be read. */
int64_t ws_host_huge_bytes (const void *p, size_t bytes);

/* Waits, up to `max_seconds`, until no other thread of this process is running (OpenMP's
 * threads spin for a while after a parallel region, a BLAS's after a call: timed work on every
 * core would share the cores with them). Returns the seconds waited (0 at once when
 * /proc/self/task cannot be read), or -1 when some were still running at the end. */
double ws_host_wait_quiet (double max_seconds);

/* The CPUs the calling thread may run on, in increasing order: up to `max` of them in
 * `cpus`; returns how many there are (0 when that cannot be read). */
int ws_host_allowed_cpus (int *cpus, int max);
/* Up to `max` of the `n` CPUs in `allowed`: all of them, or `max` spread evenly, odd and
 * even ones by turns, so that whether a machine numbers its sockets' CPUs in halves or
 * alternately, both are among them. Returns how many. */
int ws_host_spread_cpus (const int *allowed, int n, int *out, int max);
/* Pins the calling thread to `cpu`; -1 gives it back the CPUs it had before the first pin.
 * Returns 1 on success. */
int ws_host_pin_cpu (int cpu);
