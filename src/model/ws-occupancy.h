/* ws-occupancy.h: theoretical occupancy from per-architecture limits, with no GPU needed.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

#define WS_ARCH_MAX_CARVEOUTS 10

/* WS_OCCUPANCY_NO_LIMIT: a resource the block does not use (no registers, no shared memory)
 * does not bound the blocks per SM; its limit_* field then holds this value. */
#define WS_OCCUPANCY_NO_LIMIT G_MAXINT

/**
 * WsArchLimits:
 *
 * The limits of one compute capability that decide occupancy. All sizes are in bytes except
 * @carveouts_kib; registers are 32-bit registers. The tables are static: never free them.
 */
typedef struct
{
  const char *arch;     /* "sm_90" */
  const char *family;   /* "Hopper" */
  const char *products; /* a few GPUs of this capability, for people: "H100, H200" */
  int cc_major;
  int cc_minor;

  int warp_size;
  int max_threads_per_block;
  int max_threads_per_sm;
  int max_warps_per_sm;
  int max_blocks_per_sm;

  int regs_per_sm;
  int regs_per_block;
  int max_regs_per_thread;
  int reg_alloc_unit;         /* registers, allocated per warp */
  int warp_alloc_granularity; /* warps: registers are split over this many sub-partitions */

  int smem_per_sm;          /* the largest carve-out */
  int smem_per_block;       /* what a kernel gets without opting in: 48 KiB */
  int smem_per_block_optin; /* the most after cudaFuncSetAttribute (MaxDynamicSharedMemorySize) */
  int smem_alloc_unit;
  int reserved_smem_per_block; /* taken by the driver from every block's allocation */

  /* The shared-memory sizes, ascending, that the split of the L1 cache allows. */
  int carveouts_kib[WS_ARCH_MAX_CARVEOUTS];
  guint n_carveouts;
} WsArchLimits;

/* Accepts "sm_90", "sm_90a", "compute_90", "90" and "9.0" (any case); NULL if unknown. */
const WsArchLimits *ws_arch_limits_lookup (const char *arch);

/* Every known architecture, oldest first; @n_archs (may be NULL) receives the count. */
const WsArchLimits *const *ws_arch_limits_all (guint *n_archs);

/* Ties between limiters go to the first in this order. */
typedef enum
{
  WS_LIMITER_WARPS,
  WS_LIMITER_BLOCKS,
  WS_LIMITER_REGISTERS,
  WS_LIMITER_SHARED_MEMORY,
} WsLimiter;

/* "warps", "blocks_per_sm", "registers", "shared_memory": the strings the runner writes. */
const char *ws_limiter_name (WsLimiter limiter);
/* FALSE for a name that is none of those. */
gboolean ws_limiter_from_name (const char *name, WsLimiter *limiter);
/* A phrase for "Occupancy is limited by %s.": "the number of warps an SM can hold". */
const char *ws_limiter_describe (WsLimiter limiter);

#define WS_OCCUPANCY_ERROR (ws_occupancy_error_quark ())

typedef enum
{
  WS_OCCUPANCY_ERROR_THREADS,
  WS_OCCUPANCY_ERROR_REGISTERS,
  WS_OCCUPANCY_ERROR_SHARED_MEMORY,
} WsOccupancyError;

GQuark ws_occupancy_error_quark (void);

typedef struct
{
  int threads_per_block;
  int registers_per_thread; /* as cudaFuncAttributes.numRegs reports it */
  int smem_per_block;       /* static + dynamic, without the driver's reservation */
} WsOccupancyInput;

typedef struct
{
  int warps_per_block;
  int active_blocks; /* per SM: what cudaOccupancyMaxActiveBlocksPerMultiprocessor gives */
  int active_warps;
  int active_threads; /* below active_warps * warp_size when the last warp is partial */
  int max_warps;
  double occupancy; /* active_warps / max_warps */
  WsLimiter limiter;

  /* Blocks per SM that each resource alone would allow (WS_OCCUPANCY_NO_LIMIT: unbounded). */
  int limit_warps;
  int limit_blocks;
  int limit_registers;
  int limit_smem;

  int regs_per_block;       /* allocated, after rounding to the allocation unit */
  int smem_alloc_per_block; /* allocated: input + reservation, rounded to the allocation unit */
  int carveout_bytes;       /* the smallest carve-out that still holds active_blocks */
  gboolean needs_opt_in;    /* more than 48 KiB: the kernel must raise its limit first */
} WsOccupancy;

/* FALSE and @error (a sentence for people) when the input cannot be launched on any GPU of
 * @arch; a block that is legal but whose registers exceed the per-block file gives TRUE with
 * active_blocks 0 and the registers as limiter, as the driver's calculator does. */
gboolean ws_occupancy_compute (const WsArchLimits *arch, const WsOccupancyInput *input,
                               WsOccupancy *out, GError **error);

/* One point of a chart; the caller marks the point whose x is the current configuration. */
typedef struct
{
  double x;
  double occupancy;
  int active_blocks;
} WsOccupancyPoint;

/* Each returns a GArray of WsOccupancyPoint (free with g_array_unref) that varies one field of
 * @input and keeps the others; NULL and @error if @input itself is impossible. The x values
 * ascend and always include the current value.
 *   block size: every multiple of the warp size up to the maximum threads per block;
 *   registers:  1 .. max_regs_per_thread;
 *   shared memory: 0 .. smem_per_block_optin in steps of the allocation unit. */
GArray *ws_occupancy_curve_block_size (const WsArchLimits *arch, const WsOccupancyInput *input,
                                       GError **error);
GArray *ws_occupancy_curve_registers (const WsArchLimits *arch, const WsOccupancyInput *input,
                                      GError **error);
GArray *ws_occupancy_curve_smem (const WsArchLimits *arch, const WsOccupancyInput *input,
                                 GError **error);

G_END_DECLS
