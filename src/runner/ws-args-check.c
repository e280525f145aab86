/* ws-args-check.c: the runner's options checked together once all are read: an own kernel's
 * options with the rest, and the sizes, blocks and transfer modes against every kernel named;
 * and the shapes a size gives each kernel.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "ws-args-private.h"

#include <stdio.h>
#include <string.h>

/* The options of own kernels with one another and with the rest. */
int
_ws_args_check_own (WsOptions *opts, WsArgError *err)
{
  if (opts->source == NULL)
    {
      if (opts->n_params > 0 || opts->memcheck != NULL)
        return fail (err, WS_ERROR_BAD_ARGUMENT, "%s belongs to an own kernel: add --source FILE",
                     opts->n_params > 0 ? "--param" : "--memcheck");
      if (opts->arch_major > 0)
        return fail (err, WS_ERROR_BAD_ARGUMENT,
                     "--arch goes with --check-source FILE: check a kernel file with it, or "
                     "leave --arch out");
      return 1;
    }
  if (opts->n_kernels > 0)
    return fail (err, WS_ERROR_BAD_ARGUMENT,
                 "--kernel and --source cannot be combined: run the built-in kernel in a "
                 "session of its own");
  if (opts->arch_major > 0 && opts->mode != WS_MODE_CHECK_SOURCE)
    return fail (err, WS_ERROR_BAD_ARGUMENT,
                 "--arch goes with --check-source; a run compiles for the GPU it runs on, "
                 "so leave --arch out");
  if (opts->memcheck != NULL && opts->mode != WS_MODE_RUN)
    return fail (err, WS_ERROR_BAD_ARGUMENT,
                 "--memcheck goes with --source FILE, a run; --check-source only compiles, so "
                 "leave --memcheck out or give --source");
  if (opts->cpu_given && opts->cpu != 0)
    return fail (err, WS_ERROR_BAD_ARGUMENT,
                 "--cpu: an own kernel has no CPU version to compare with; leave --cpu out "
                 "(or give --cpu none)");
  opts->cpu = 0;
  return 1;
}

int
ws_args_check_runs (WsOptions *opts, WsArgError *err)
{
  char why[400];
  long long configs = 0;

  for (int k = 0; k < opts->n_kernels; k++)
    {
      const WsKernelDesc *kernel = opts->kernels[k];

      for (int s = 0; s < opts->n_sizes; s++)
        {
          const WsSize *size = &opts->sizes[s];

          if (size->rank > 1 && kernel->shape_rank == 1)
            return fail (err, WS_ERROR_INVALID_SIZE,
                         "--sizes: %s takes one size, the number of elements n, not the matrix "
                         "size '%s'",
                         kernel->name, size->text);
          if (size->rank == 3 && kernel->shape_rank == 2)
            return fail (err, WS_ERROR_INVALID_SIZE,
                         "--sizes: %s takes a matrix as ROWSxCOLS, such as 4096x1024, or one "
                         "number for a square matrix; not '%s'",
                         kernel->name, size->text);
          if (size->rank == 2 && kernel->shape_rank == 3)
            return fail (err, WS_ERROR_INVALID_SIZE,
                         "--sizes: '%s' gives 2 numbers; a matrix size for %s is MxNxK, such "
                         "as 512x256x1024 (C is M×N, the shared dimension K), or one number for "
                         "a square matrix",
                         size->text, kernel->name);
        }
      /* A kernel built around one block, or whose library picks its own, takes none. */
      if (!kernel->block_fixed)
        for (int b = 0; b < opts->n_blocks; b++)
          {
            unsigned dims[3] = { opts->blocks[b].dims[0], opts->blocks[b].dims[1],
                                 opts->blocks[b].dims[2] };

            why[0] = '\0';
            /* One number for a 2D kernel would be a block one row high, which is seldom
             * meant; 1024x1 says that it is. */
            if (kernel->block_rank == 2 && opts->blocks[b].rank == 1 && dims[0] > 1)
              return fail (err, WS_ERROR_INVALID_BLOCK,
                           "--blocks: %s is a 2D kernel: give the block as WxH, such as 16x16 "
                           "(%u alone would be a block one row high; write %ux1 if that is "
                           "what you mean)",
                           kernel->name, dims[0], dims[0]);
            if (!kernel->check_block (dims, why, sizeof why))
              return fail (err, WS_ERROR_INVALID_BLOCK, "--blocks: %s", why);
          }
      for (int t = 0; t < opts->n_transfers; t++)
        if (opts->transfers[t].kind == WS_TRANSFER_STREAMS && strcmp (kernel->family, "own") == 0)
          return fail (err, WS_ERROR_UNKNOWN_TRANSFER,
                       "--transfer streams:%d: an own kernel is not cut into pieces, so it "
                       "runs with pageable or pinned host memory only",
                       opts->transfers[t].streams);
        else if (opts->transfers[t].kind == WS_TRANSFER_STREAMS && kernel->piece == NULL)
          return fail (err, WS_ERROR_UNKNOWN_TRANSFER,
                       "--transfer streams:%d: %s cannot be cut into pieces (its result is one "
                       "value that every element feeds), so it runs with pageable or pinned "
                       "host memory only",
                       opts->transfers[t].streams, kernel->name);
      configs += (long long) (opts->n_sizes ? opts->n_sizes : 1)
                 * (kernel->block_fixed || !opts->n_blocks ? 1 : opts->n_blocks)
                 * opts->n_transfers;
    }
  if (configs > WS_MAX_CONFIGS)
    return fail (err, WS_ERROR_BAD_ARGUMENT,
                 "this sweep has %lld configurations, more than %d: use fewer sizes or blocks",
                 configs, WS_MAX_CONFIGS);
  return 1;
}


void
ws_size_shape (const WsSize *size, const WsKernelDesc *kernel, uint64_t shape[3])
{
  shape[0] = size->dims[0];
  shape[1] = kernel->shape_rank == 1 ? 1 : size->dims[1];
  shape[2] = kernel->shape_rank == 3 ? size->dims[2] : 1;
}

void
ws_shape_text (const WsKernelDesc *kernel, const uint64_t shape[3], char *buf, size_t len)
{
  if (kernel->shape_rank == 1)
    snprintf (buf, len, "%llu", (unsigned long long) shape[0]);
  else if (kernel->shape_rank == 2)
    snprintf (buf, len, "%llux%llu", (unsigned long long) shape[0],
              (unsigned long long) shape[1]);
  else
    snprintf (buf, len, "%llux%llux%llu", (unsigned long long) shape[0],
              (unsigned long long) shape[1], (unsigned long long) shape[2]);
}
