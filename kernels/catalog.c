/* catalog.c: the kernels warpscope-runner knows, in the order --list shows them.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "ws-kernel.h"

#include <string.h>

extern const WsKernelDesc ws_vector_add_desc;
extern const WsKernelDesc ws_matmul_naive_desc;
extern const WsKernelDesc ws_matmul_tiled_desc;
extern const WsKernelDesc ws_vector_add_vec4_desc;
extern const WsKernelDesc ws_matmul_regtile_desc;
extern const WsKernelDesc ws_matmul_cublas_desc;
extern const WsKernelDesc ws_reduce_atomic_desc;
extern const WsKernelDesc ws_reduce_shared_desc;
extern const WsKernelDesc ws_reduce_warp_desc;
extern const WsKernelDesc ws_reduce_warp_multi_desc;
extern const WsKernelDesc ws_transpose_naive_desc;
extern const WsKernelDesc ws_transpose_shared_desc;
extern const WsKernelDesc ws_transpose_padded_desc;
extern const WsKernelDesc ws_divergence_lane_desc;
extern const WsKernelDesc ws_divergence_warp_desc;
extern const WsKernelDesc ws_debug_fault_desc;
extern const WsKernelDesc ws_stencil2d_desc;

/* The tutorial's kernels first, in the order they have always been listed; then the rungs
 * of each ladder, slowest first. */
static const WsKernelDesc *const catalog[] = {
  &ws_vector_add_desc,
  &ws_matmul_naive_desc,
  &ws_matmul_tiled_desc,
  &ws_vector_add_vec4_desc,
  &ws_matmul_regtile_desc,
  &ws_matmul_cublas_desc,
  &ws_reduce_atomic_desc,
  &ws_reduce_shared_desc,
  &ws_reduce_warp_desc,
  &ws_reduce_warp_multi_desc,
  &ws_transpose_naive_desc,
  &ws_transpose_shared_desc,
  &ws_transpose_padded_desc,
  &ws_divergence_lane_desc,
  &ws_divergence_warp_desc,
  &ws_debug_fault_desc,
  &ws_stencil2d_desc,
};

size_t
ws_catalog_size (void)
{
  return sizeof catalog / sizeof catalog[0];
}

const WsKernelDesc *
ws_catalog_get (size_t index)
{
  return index < ws_catalog_size () ? catalog[index] : NULL;
}

const WsKernelDesc *
ws_catalog_find (const char *name)
{
  for (size_t i = 0; i < ws_catalog_size (); i++)
    if (strcmp (catalog[i]->name, name) == 0)
      return catalog[i];
  return NULL;
}
