/* ws-occupancy.c: the CUDA occupancy rules over per-architecture limits, and chart curves.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "ws-config.h"

#include "ws-occupancy.h"

#include <glib/gi18n-lib.h>

#include <string.h>

/* The rules are those of NVIDIA's occupancy calculator as shipped in the CUDA toolkit
 * (include/cuda_occupancy.h, cudaOccMaxActiveBlocksPerMultiprocessor and the functions it
 * calls), which is also what the driver's cudaOccupancyMaxActiveBlocksPerMultiprocessor
 * answers; the recordings in resources/samples are checked against it in
 * tests/test-occupancy.c. The same header gives the allocation units: registers in 256s per
 * warp over 4 sub-partitions on every architecture here, shared memory in 256 bytes up to
 * compute capability 7.x and 128 bytes from 8.0 on. */

/* One architecture's limits read best as a compact table. */
/* clang-format off */

/* Limits every architecture from 7.5 to 12.1 shares: CUDA C++ Programming Guide, "Compute
 * Capabilities", table "Technical Specifications per Compute Capability" (threads per block,
 * 64 K registers per SM and per block, 255 registers per thread, 48 KB shared memory per block
 * without opting in), and cuda_occupancy.h for the allocation units. */
#define WS_COMMON_LIMITS                       \
  .warp_size = 32,                             \
  .max_threads_per_block = 1024,               \
  .regs_per_sm = 64 * 1024,                    \
  .regs_per_block = 64 * 1024,                 \
  .max_regs_per_thread = 255,                  \
  .reg_alloc_unit = 256,                       \
  .warp_alloc_granularity = 4,                 \
  .smem_per_block = 48 * 1024

/* Carve-out lists: Programming Guide, "Compute Capabilities", the "Shared Memory" sections of
 * 7.x, 8.x, 9.0, 10.0 and 12.0; the same lists are in cuda_occupancy.h
 * (cudaOccAlignUpShmemSizeVoltaPlus) up to 9.0. */
#define WS_CARVEOUTS_TURING { 32, 64 }, .n_carveouts = 2
#define WS_CARVEOUTS_100K   { 0, 8, 16, 32, 64, 100 }, .n_carveouts = 6
#define WS_CARVEOUTS_164K   { 0, 8, 16, 32, 64, 100, 132, 164 }, .n_carveouts = 8
#define WS_CARVEOUTS_228K   { 0, 8, 16, 32, 64, 100, 132, 164, 196, 228 }, .n_carveouts = 10

/* Turing Tuning Guide, "Occupancy" (32 warps, 16 blocks per SM) and "Unified Shared
 * Memory/L1/Texture Cache" (64 KB, a block may address all of it); the driver reserves
 * nothing per block before Ampere (cudaDevAttrReservedSharedMemoryPerBlock is 0). */
static const WsArchLimits sm_75 = {
  .arch = "sm_75", .family = "Turing", .products = "GeForce RTX 20 and GTX 16 series, T4",
  .cc_major = 7, .cc_minor = 5, WS_COMMON_LIMITS,
  .max_threads_per_sm = 1024, .max_warps_per_sm = 32, .max_blocks_per_sm = 16,
  .smem_per_sm = 64 * 1024, .smem_per_block_optin = 64 * 1024, .smem_alloc_unit = 256,
  .reserved_smem_per_block = 0, .carveouts_kib = WS_CARVEOUTS_TURING,
};

/* Ampere Tuning Guide, "Occupancy" and "Increased L1 Capacity" (A100: 164 KB per SM,
 * 163 KB per block); Programming Guide, "Compute Capability 8.x", "Shared Memory". */
static const WsArchLimits sm_80 = {
  .arch = "sm_80", .family = "Ampere", .products = "A100, A30",
  .cc_major = 8, .cc_minor = 0, WS_COMMON_LIMITS,
  .max_threads_per_sm = 2048, .max_warps_per_sm = 64, .max_blocks_per_sm = 32,
  .smem_per_sm = 164 * 1024, .smem_per_block_optin = 163 * 1024, .smem_alloc_unit = 128,
  .reserved_smem_per_block = 1024, .carveouts_kib = WS_CARVEOUTS_164K,
};

/* Ampere Tuning Guide, "Occupancy" (compute capability 8.6: 48 warps, 16 blocks per SM) and
 * "Increased L1 Capacity" (100 KB per SM, 99 KB per block). */
static const WsArchLimits sm_86 = {
  .arch = "sm_86", .family = "Ampere", .products = "GeForce RTX 30 series, A10, A40",
  .cc_major = 8, .cc_minor = 6, WS_COMMON_LIMITS,
  .max_threads_per_sm = 1536, .max_warps_per_sm = 48, .max_blocks_per_sm = 16,
  .smem_per_sm = 100 * 1024, .smem_per_block_optin = 99 * 1024, .smem_alloc_unit = 128,
  .reserved_smem_per_block = 1024, .carveouts_kib = WS_CARVEOUTS_100K,
};

/* Programming Guide, "Technical Specifications per Compute Capability", column 8.7, and
 * "Compute Capability 8.x", "Shared Memory" (8.7 has the carve-outs of 8.0); the same numbers
 * are in NVIDIA CCCL, libcudacxx/include/cuda/__device/arch_traits.h. */
static const WsArchLimits sm_87 = {
  .arch = "sm_87", .family = "Ampere", .products = "Jetson AGX Orin, Orin NX, Orin Nano",
  .cc_major = 8, .cc_minor = 7, WS_COMMON_LIMITS,
  .max_threads_per_sm = 1536, .max_warps_per_sm = 48, .max_blocks_per_sm = 16,
  .smem_per_sm = 164 * 1024, .smem_per_block_optin = 163 * 1024, .smem_alloc_unit = 128,
  .reserved_smem_per_block = 1024, .carveouts_kib = WS_CARVEOUTS_164K,
};

/* Ada Tuning Guide, "Occupancy" (48 warps, 24 blocks per SM) and "Unified Shared
 * Memory/L1/Texture Cache" (100 KB per SM, 99 KB per block). */
static const WsArchLimits sm_89 = {
  .arch = "sm_89", .family = "Ada Lovelace", .products = "GeForce RTX 40 series, L4, L40",
  .cc_major = 8, .cc_minor = 9, WS_COMMON_LIMITS,
  .max_threads_per_sm = 1536, .max_warps_per_sm = 48, .max_blocks_per_sm = 24,
  .smem_per_sm = 100 * 1024, .smem_per_block_optin = 99 * 1024, .smem_alloc_unit = 128,
  .reserved_smem_per_block = 1024, .carveouts_kib = WS_CARVEOUTS_100K,
};

/* Hopper Tuning Guide, "Occupancy" (64 warps, 32 blocks per SM) and "Unified Shared
 * Memory/L1/Texture Cache" (228 KB per SM, 227 KB per block); every limit here matches the
 * device record of an H200 (resources/samples). */
static const WsArchLimits sm_90 = {
  .arch = "sm_90", .family = "Hopper", .products = "H100, H200, GH200",
  .cc_major = 9, .cc_minor = 0, WS_COMMON_LIMITS,
  .max_threads_per_sm = 2048, .max_warps_per_sm = 64, .max_blocks_per_sm = 32,
  .smem_per_sm = 228 * 1024, .smem_per_block_optin = 227 * 1024, .smem_alloc_unit = 128,
  .reserved_smem_per_block = 1024, .carveouts_kib = WS_CARVEOUTS_228K,
};

/* Blackwell Tuning Guide, "Occupancy" and "Unified Shared Memory/L1/Texture Cache"
 * (compute capability 10.0: 64 warps, 32 blocks, 228 KB per SM, 227 KB per block). */
static const WsArchLimits sm_100 = {
  .arch = "sm_100", .family = "Blackwell", .products = "B200, GB200",
  .cc_major = 10, .cc_minor = 0, WS_COMMON_LIMITS,
  .max_threads_per_sm = 2048, .max_warps_per_sm = 64, .max_blocks_per_sm = 32,
  .smem_per_sm = 228 * 1024, .smem_per_block_optin = 227 * 1024, .smem_alloc_unit = 128,
  .reserved_smem_per_block = 1024, .carveouts_kib = WS_CARVEOUTS_228K,
};

/* Programming Guide, "Technical Specifications per Compute Capability", column 10.3, and
 * NVIDIA CCCL arch_traits.h, which defines sm_103 as sm_100 with another name. */
static const WsArchLimits sm_103 = {
  .arch = "sm_103", .family = "Blackwell", .products = "B300, GB300",
  .cc_major = 10, .cc_minor = 3, WS_COMMON_LIMITS,
  .max_threads_per_sm = 2048, .max_warps_per_sm = 64, .max_blocks_per_sm = 32,
  .smem_per_sm = 228 * 1024, .smem_per_block_optin = 227 * 1024, .smem_alloc_unit = 128,
  .reserved_smem_per_block = 1024, .carveouts_kib = WS_CARVEOUTS_228K,
};

/* Blackwell Tuning Guide, "Occupancy" (compute capability 12.0: 48 warps, 24 blocks per SM)
 * and Programming Guide, column 12.0 (100 KB per SM, 99 KB per block); the block cap of 24 is
 * also in NVIDIA CCCL arch_traits.h. */
static const WsArchLimits sm_120 = {
  .arch = "sm_120", .family = "Blackwell", .products = "GeForce RTX 50 series, RTX PRO 6000",
  .cc_major = 12, .cc_minor = 0, WS_COMMON_LIMITS,
  .max_threads_per_sm = 1536, .max_warps_per_sm = 48, .max_blocks_per_sm = 24,
  .smem_per_sm = 100 * 1024, .smem_per_block_optin = 99 * 1024, .smem_alloc_unit = 128,
  .reserved_smem_per_block = 1024, .carveouts_kib = WS_CARVEOUTS_100K,
};

/* NVIDIA CCCL arch_traits.h defines sm_121 as sm_120 with another name; Programming Guide,
 * "Technical Specifications per Compute Capability", column 12.1. */
static const WsArchLimits sm_121 = {
  .arch = "sm_121", .family = "Blackwell", .products = "DGX Spark (GB10)",
  .cc_major = 12, .cc_minor = 1, WS_COMMON_LIMITS,
  .max_threads_per_sm = 1536, .max_warps_per_sm = 48, .max_blocks_per_sm = 24,
  .smem_per_sm = 100 * 1024, .smem_per_block_optin = 99 * 1024, .smem_alloc_unit = 128,
  .reserved_smem_per_block = 1024, .carveouts_kib = WS_CARVEOUTS_100K,
};

static const WsArchLimits *const all_archs[] = {
  &sm_75, &sm_80, &sm_86, &sm_87, &sm_89, &sm_90, &sm_100, &sm_103, &sm_120, &sm_121,
};

G_DEFINE_QUARK (ws-occupancy-error-quark, ws_occupancy_error)

/* clang-format on */

const WsArchLimits *const *
ws_arch_limits_all (guint *n_archs)
{
  if (n_archs != NULL)
    *n_archs = G_N_ELEMENTS (all_archs);
  return all_archs;
}

const WsArchLimits *
ws_arch_limits_lookup (const char *arch)
{
  const char *p = arch;
  char *end = NULL;
  guint64 major, minor;

  g_return_val_if_fail (arch != NULL, NULL);

  if (g_ascii_strncasecmp (p, "sm_", 3) == 0)
    p += 3;
  else if (g_ascii_strncasecmp (p, "compute_", 8) == 0)
    p += 8;
  if (!g_ascii_isdigit (*p))
    return NULL;

  major = g_ascii_strtoull (p, &end, 10);
  if (*end == '.')
    {
      if (!g_ascii_isdigit (end[1]))
        return NULL;
      minor = g_ascii_strtoull (end + 1, &end, 10);
    }
  else
    {
      if (major < 10)
        return NULL;
      minor = major % 10;
      major /= 10;
    }
  /* "a" and "f" name feature sets of the same hardware (sm_90a, sm_100f): same limits. */
  if (*end == 'a' || *end == 'A' || *end == 'f' || *end == 'F')
    end++;
  if (*end != '\0')
    return NULL;

  for (guint i = 0; i < G_N_ELEMENTS (all_archs); i++)
    if ((guint64) all_archs[i]->cc_major == major && (guint64) all_archs[i]->cc_minor == minor)
      return all_archs[i];
  return NULL;
}

static const char *const limiter_names[] = {
  [WS_LIMITER_WARPS] = "warps",
  [WS_LIMITER_BLOCKS] = "blocks_per_sm",
  [WS_LIMITER_REGISTERS] = "registers",
  [WS_LIMITER_SHARED_MEMORY] = "shared_memory",
};

const char *
ws_limiter_name (WsLimiter limiter)
{
  g_return_val_if_fail ((guint) limiter < G_N_ELEMENTS (limiter_names), NULL);

  return limiter_names[limiter];
}

gboolean
ws_limiter_from_name (const char *name, WsLimiter *limiter)
{
  g_return_val_if_fail (name != NULL, FALSE);

  for (guint i = 0; i < G_N_ELEMENTS (limiter_names); i++)
    if (strcmp (name, limiter_names[i]) == 0)
      {
        if (limiter != NULL)
          *limiter = (WsLimiter) i;
        return TRUE;
      }
  return FALSE;
}

const char *
ws_limiter_describe (WsLimiter limiter)
{
  switch (limiter)
    {
    case WS_LIMITER_WARPS:
      return _("the number of warps an SM can hold");
    case WS_LIMITER_BLOCKS:
      return _("the number of blocks an SM can hold");
    case WS_LIMITER_REGISTERS:
      return _("the registers of an SM");
    case WS_LIMITER_SHARED_MEMORY:
      return _("the shared memory of an SM");
    default:
      g_return_val_if_reached (NULL);
    }
}

static int
round_up (int value, int unit)
{
  return (value + unit - 1) / unit * unit;
}

static gboolean
check_input (const WsArchLimits *arch, const WsOccupancyInput *in, GError **error)
{
  if (in->threads_per_block <= 0)
    {
      g_set_error (error, WS_OCCUPANCY_ERROR, WS_OCCUPANCY_ERROR_THREADS,
                   _("A block needs at least one thread, but this one has %d."),
                   in->threads_per_block);
      return FALSE;
    }
  if (in->threads_per_block > arch->max_threads_per_block)
    {
      g_set_error (error, WS_OCCUPANCY_ERROR, WS_OCCUPANCY_ERROR_THREADS,
                   _("A block can have at most %d threads on %s (%s), but this one has %d: "
                     "choose a smaller block."),
                   arch->max_threads_per_block, arch->arch, arch->family, in->threads_per_block);
      return FALSE;
    }
  if (in->registers_per_thread < 0)
    {
      g_set_error (error, WS_OCCUPANCY_ERROR, WS_OCCUPANCY_ERROR_REGISTERS,
                   _("The registers per thread cannot be a negative number (%d)."),
                   in->registers_per_thread);
      return FALSE;
    }
  if (in->registers_per_thread > arch->max_regs_per_thread)
    {
      g_set_error (error, WS_OCCUPANCY_ERROR, WS_OCCUPANCY_ERROR_REGISTERS,
                   _("A thread can use at most %d registers on %s (%s), but this kernel would "
                     "need %d. The compiler never goes past the limit: it moves the rest to "
                     "slower local memory."),
                   arch->max_regs_per_thread, arch->arch, arch->family, in->registers_per_thread);
      return FALSE;
    }
  if (in->smem_per_block < 0)
    {
      g_set_error (error, WS_OCCUPANCY_ERROR, WS_OCCUPANCY_ERROR_SHARED_MEMORY,
                   _("The shared memory of a block cannot be a negative number of bytes (%d)."),
                   in->smem_per_block);
      return FALSE;
    }
  if (in->smem_per_block > arch->smem_per_block_optin)
    {
      g_set_error (error, WS_OCCUPANCY_ERROR, WS_OCCUPANCY_ERROR_SHARED_MEMORY,
                   _("A block can use at most %d bytes (%d KiB) of shared memory on %s (%s), "
                     "but this one asks for %d bytes: use smaller tiles."),
                   arch->smem_per_block_optin, arch->smem_per_block_optin / 1024, arch->arch,
                   arch->family, in->smem_per_block);
      return FALSE;
    }
  return TRUE;
}

static int
blocks_by_registers (const WsArchLimits *arch, int registers_per_thread, int warps_per_block,
                     int *regs_per_block)
{
  int regs_per_warp = round_up (registers_per_thread * arch->warp_size, arch->reg_alloc_unit);
  int warps_per_partition;

  *regs_per_block = regs_per_warp * warps_per_block;
  if (regs_per_warp == 0)
    return WS_OCCUPANCY_NO_LIMIT;

  /* The launch check assumes a block's warps are spread over all sub-partitions at once, so
   * the per-block limit is tested with the warp count rounded up to the granularity. */
  if (*regs_per_block > arch->regs_per_block
      || regs_per_warp * round_up (warps_per_block, arch->warp_alloc_granularity)
             > arch->regs_per_block)
    return 0;

  /* Each warp takes its registers from one sub-partition's file, so what is left over in
   * one sub-partition cannot hold part of another warp. */
  warps_per_partition = arch->regs_per_sm / arch->warp_alloc_granularity / regs_per_warp;
  return warps_per_partition * arch->warp_alloc_granularity / warps_per_block;
}

/* The input has been checked. */
static void
compute (const WsArchLimits *arch, const WsOccupancyInput *in, WsOccupancy *out)
{
  int limits[WS_LIMITER_SHARED_MEMORY + 1];
  int least;

  memset (out, 0, sizeof *out);
  out->warps_per_block = (in->threads_per_block + arch->warp_size - 1) / arch->warp_size;
  out->max_warps = arch->max_warps_per_sm;

  out->limit_warps = arch->max_warps_per_sm / out->warps_per_block;
  out->limit_blocks = arch->max_blocks_per_sm;
  out->limit_registers = blocks_by_registers (arch, in->registers_per_thread, out->warps_per_block,
                                              &out->regs_per_block);
  out->smem_alloc_per_block
      = round_up (in->smem_per_block + arch->reserved_smem_per_block, arch->smem_alloc_unit);
  /* With no preference set (cudaFuncAttributePreferredSharedMemoryCarveout), the occupancy
   * calculator and the driver count the largest carve-out: the recorded H200 launches hold
   * 32 blocks of 1.5 KiB each, which the smallest carve-out that fits one block would not. */
  out->limit_smem = out->smem_alloc_per_block > 0 ? arch->smem_per_sm / out->smem_alloc_per_block
                                                  : WS_OCCUPANCY_NO_LIMIT;

  limits[WS_LIMITER_WARPS] = out->limit_warps;
  limits[WS_LIMITER_BLOCKS] = out->limit_blocks;
  limits[WS_LIMITER_REGISTERS] = out->limit_registers;
  limits[WS_LIMITER_SHARED_MEMORY] = out->limit_smem;
  out->limiter = WS_LIMITER_WARPS;
  for (guint i = 1; i < G_N_ELEMENTS (limits); i++)
    if (limits[i] < limits[out->limiter]) /* strictly: a tie keeps the earlier limiter */
      out->limiter = (WsLimiter) i;
  least = limits[out->limiter];

  out->active_blocks = least;
  out->active_warps = least * out->warps_per_block;
  out->active_threads = least * in->threads_per_block;
  out->occupancy = (double) out->active_warps / out->max_warps;
  out->needs_opt_in = in->smem_per_block > arch->smem_per_block;

  /* The smallest split that costs no occupancy: what a kernel could ask for to leave the
   * rest of the unified memory to the L1 cache. */
  out->carveout_bytes = arch->smem_per_sm;
  for (guint i = 0; i < arch->n_carveouts; i++)
    {
      int bytes = arch->carveouts_kib[i] * 1024;

      if (out->smem_alloc_per_block == 0 || bytes / out->smem_alloc_per_block >= least)
        {
          out->carveout_bytes = bytes;
          break;
        }
    }
}

gboolean
ws_occupancy_compute (const WsArchLimits *arch, const WsOccupancyInput *input, WsOccupancy *out,
                      GError **error)
{
  g_return_val_if_fail (arch != NULL, FALSE);
  g_return_val_if_fail (input != NULL, FALSE);
  g_return_val_if_fail (out != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (!check_input (arch, input, error))
    return FALSE;
  compute (arch, input, out);
  return TRUE;
}

typedef enum
{
  VARY_THREADS,
  VARY_REGISTERS,
  VARY_SMEM,
} Vary;

static int *
varied_field (WsOccupancyInput *in, Vary vary)
{
  switch (vary)
    {
    case VARY_THREADS:
      return &in->threads_per_block;
    case VARY_REGISTERS:
      return &in->registers_per_thread;
    case VARY_SMEM:
    default:
      return &in->smem_per_block;
    }
}

static void
append_point (GArray *curve, const WsArchLimits *arch, WsOccupancyInput *in, Vary vary, int x)
{
  WsOccupancyPoint point;
  WsOccupancy occ;

  *varied_field (in, vary) = x;
  compute (arch, in, &occ);
  point.x = x;
  point.occupancy = occ.occupancy;
  point.active_blocks = occ.active_blocks;
  g_array_append_val (curve, point);
}

static GArray *
build_curve (const WsArchLimits *arch, const WsOccupancyInput *input, Vary vary, int first,
             int last, int step, GError **error)
{
  WsOccupancyInput in;
  int current;
  gboolean current_done = FALSE;
  GArray *curve;

  g_return_val_if_fail (arch != NULL, NULL);
  g_return_val_if_fail (input != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (!check_input (arch, input, error))
    return NULL;

  in = *input;
  current = *varied_field (&in, vary);
  curve = g_array_sized_new (FALSE, FALSE, sizeof (WsOccupancyPoint), (last - first) / step + 2);
  for (int x = first; x <= last; x += step)
    {
      if (!current_done && current < x)
        append_point (curve, arch, &in, vary, current);
      current_done = current_done || current <= x;
      append_point (curve, arch, &in, vary, x);
    }
  if (!current_done)
    append_point (curve, arch, &in, vary, current);
  return curve;
}

GArray *
ws_occupancy_curve_block_size (const WsArchLimits *arch, const WsOccupancyInput *input,
                               GError **error)
{
  g_return_val_if_fail (arch != NULL, NULL);

  return build_curve (arch, input, VARY_THREADS, arch->warp_size, arch->max_threads_per_block,
                      arch->warp_size, error);
}

GArray *
ws_occupancy_curve_registers (const WsArchLimits *arch, const WsOccupancyInput *input,
                              GError **error)
{
  g_return_val_if_fail (arch != NULL, NULL);

  return build_curve (arch, input, VARY_REGISTERS, 1, arch->max_regs_per_thread, 1, error);
}

GArray *
ws_occupancy_curve_smem (const WsArchLimits *arch, const WsOccupancyInput *input, GError **error)
{
  g_return_val_if_fail (arch != NULL, NULL);

  return build_curve (arch, input, VARY_SMEM, 0, arch->smem_per_block_optin, arch->smem_alloc_unit,
                      error);
}
