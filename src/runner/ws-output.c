/* ws-output.c: printing the runner's records. Each record is built whole and written with
 * one call, so a reader never sees half a line.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "ws-output.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "ws-clock.h"
#include "ws-config.h"
#include "ws-json.h"

static struct
{
  WsJson json;
  int summary;
  uint64_t origin;
  uint64_t start_ns;
} out;

void
ws_output_init (int summary)
{
  ws_json_init (&out.json);
  out.summary = summary;
  out.start_ns = ws_clock_ns ();
}

void
ws_output_set_origin (uint64_t origin)
{
  out.origin = origin;
}

static void
begin (const char *type)
{
  ws_json_begin_record (&out.json, type);
  /* Milliseconds since the runner started: replays use it to keep the original pacing. */
  ws_json_double (&out.json, WS_KEY_T,
                  round ((double) (ws_clock_ns () - out.start_ns) / 1e3) / 1e3);
}

static void
end (int flush)
{
  if (out.summary)
    return;
  if (!ws_json_end_record (&out.json, stdout))
    fprintf (stderr, "warpscope-runner: could not write a record (out of memory?)\n");
  if (flush)
    fflush (stdout);
}

static void
uint_triple (const char *key, const unsigned v[3])
{
  ws_json_begin_array (&out.json, key);
  for (int i = 0; i < 3; i++)
    ws_json_uint (&out.json, NULL, v[i]);
  ws_json_end_array (&out.json);
}

static void
int_triple (const char *key, const int v[3])
{
  ws_json_begin_array (&out.json, key);
  for (int i = 0; i < 3; i++)
    ws_json_int (&out.json, NULL, v[i]);
  ws_json_end_array (&out.json);
}

void
ws_output_hello_members (WsJson *json, const WsDriverInfo *driver)
{
  char host[256] = "", when[32], version[16];
  time_t now = time (NULL);
  struct tm tm;

  gethostname (host, sizeof host - 1);
  gmtime_r (&now, &tm);
  strftime (when, sizeof when, "%Y-%m-%dT%H:%M:%SZ", &tm);
  ws_json_string (json, WS_KEY_RUNNER, WS_VERSION);
  ws_json_string (json, WS_KEY_BUILD, WS_BUILDTYPE);
  ws_json_string (json, WS_KEY_GPU_ARCHS, WS_CUDA_ARCHS);
  ws_json_string (json, WS_KEY_TIME, when);
  ws_json_string (json, WS_KEY_HOST, host);
  ws_json_bool (json, WS_KEY_DRIVER_FOUND, driver->libcuda_found);
  if (driver->driver_version > 0)
    {
      ws_cuda_version_string (driver->driver_version, version, sizeof version);
      ws_json_int (json, WS_KEY_DRIVER_VERSION, driver->driver_version);
      ws_json_string (json, WS_KEY_DRIVER_CUDA, version);
    }
  else
    {
      ws_json_null (json, WS_KEY_DRIVER_VERSION);
      ws_json_null (json, WS_KEY_DRIVER_CUDA);
    }
  ws_cuda_version_string (driver->runtime_version, version, sizeof version);
  ws_json_int (json, WS_KEY_RUNTIME_VERSION, driver->runtime_version);
  ws_json_string (json, WS_KEY_RUNTIME_CUDA, version);
}

void
ws_output_hello_argv (WsJson *json, int argc, char **argv)
{
  ws_json_begin_array (json, WS_KEY_ARGV);
  for (int i = 1; i < argc; i++)
    ws_json_string (json, NULL, argv[i]);
  ws_json_end_array (json);
}

void
ws_output_hello (const WsDriverInfo *driver, uint32_t cupti_version, int argc, char **argv)
{
  begin (WS_RECORD_TYPE_HELLO);
  ws_json_int (&out.json, WS_KEY_PROTOCOL, WS_PROTOCOL_RUNNER);
  ws_output_hello_members (&out.json, driver);
  if (cupti_version > 0)
    ws_json_uint (&out.json, WS_KEY_CUPTI_VERSION, cupti_version);
  else
    ws_json_null (&out.json, WS_KEY_CUPTI_VERSION);
  ws_output_hello_argv (&out.json, argc, argv);
  end (1);
}

void
ws_output_kernel (const WsKernelDesc *k)
{
  begin (WS_RECORD_TYPE_KERNEL);
  ws_json_string (&out.json, WS_KEY_NAME, k->name);
  ws_json_string (&out.json, WS_KEY_FAMILY, k->family);
  ws_json_string (&out.json, WS_KEY_TITLE, k->title);
  ws_json_string (&out.json, WS_KEY_DESCRIPTION, k->description);
  ws_json_string (&out.json, WS_KEY_SOURCE, k->source);
  ws_json_int (&out.json, WS_KEY_BLOCK_DIMS, k->block_rank);
  ws_json_begin_array (&out.json, WS_KEY_SHAPE_PARAMS);
  if (k->shape_rank == 1)
    ws_json_string (&out.json, NULL, "n");
  else if (k->shape_rank == 2)
    {
      ws_json_string (&out.json, NULL, "rows");
      ws_json_string (&out.json, NULL, "cols");
    }
  else
    {
      ws_json_string (&out.json, NULL, "m");
      ws_json_string (&out.json, NULL, "n");
      ws_json_string (&out.json, NULL, "k");
    }
  ws_json_end_array (&out.json);
  ws_json_begin_array (&out.json, WS_KEY_DEFAULT_SHAPE);
  for (int i = 0; i < k->shape_rank; i++)
    ws_json_uint (&out.json, NULL, k->default_shape[i]);
  ws_json_end_array (&out.json);
  if (k->library != NULL)
    ws_json_null (&out.json, WS_KEY_DEFAULT_BLOCK);
  else
    uint_triple (WS_KEY_DEFAULT_BLOCK, k->default_block);
  ws_json_bool (&out.json, WS_KEY_BLOCK_FIXED, k->block_fixed);
  ws_json_string (&out.json, WS_KEY_LIBRARY, k->library);
  ws_json_bool (&out.json, WS_KEY_STREAMABLE, k->piece != NULL);
  ws_json_string (&out.json, WS_KEY_FLOPS, k->flops_formula);
  ws_json_string (&out.json, WS_KEY_BYTES, k->bytes_formula);
  ws_json_string (&out.json, WS_KEY_TOLERANCE, k->tolerance);
  end (0);
}

/* {"min", "median", "max"} in GB/s, "n" samples of "bytes" each; null when not measured. */
static void
spread (const char *key, const WsRunnerRateSpread *r)
{
  if (r->n == 0)
    {
      ws_json_null (&out.json, key);
      return;
    }
  ws_json_begin_object (&out.json, key);
  ws_json_double (&out.json, WS_KEY_MIN, r->min);
  ws_json_double (&out.json, WS_KEY_MEDIAN, r->median);
  ws_json_double (&out.json, WS_KEY_MAX, r->max);
  ws_json_int (&out.json, WS_KEY_N, r->n);
  ws_json_uint (&out.json, WS_KEY_BYTES, r->bytes);
  if (r->mean > 0)
    {
      ws_json_double (&out.json, WS_KEY_MEAN, r->mean);
      ws_json_int (&out.json, WS_KEY_CPUS, r->cpus);
      ws_json_int (&out.json, WS_KEY_BUFFERS, r->buffers);
    }
  ws_json_end_object (&out.json);
}

void
ws_output_device (const WsRunnerDevice *d)
{
  char cc[16], sm[16];

  snprintf (cc, sizeof cc, "%d.%d", d->cc_major, d->cc_minor);
  snprintf (sm, sizeof sm, "sm_%d%d", d->cc_major, d->cc_minor);
  begin (WS_RECORD_TYPE_DEVICE);
  ws_json_int (&out.json, WS_KEY_INDEX, d->index);
  ws_json_string (&out.json, WS_KEY_NAME, d->name);
  ws_json_string (&out.json, WS_KEY_UUID, d->uuid);
  ws_json_string (&out.json, WS_KEY_PCI_BUS_ID, d->pci_bus_id);
  ws_json_string (&out.json, WS_KEY_COMPUTE_CAPABILITY, cc);
  ws_json_string (&out.json, WS_KEY_SM, sm);
  ws_json_int (&out.json, WS_KEY_SM_COUNT, d->sm_count);
  ws_json_int (&out.json, WS_KEY_WARP_SIZE, d->warp_size);
  ws_json_int (&out.json, WS_KEY_MAX_THREADS_PER_BLOCK, d->max_threads_per_block);
  int_triple (WS_KEY_MAX_BLOCK_DIM, d->max_block_dim);
  int_triple (WS_KEY_MAX_GRID_DIM, d->max_grid_dim);
  ws_json_int (&out.json, WS_KEY_MAX_THREADS_PER_SM, d->max_threads_per_sm);
  ws_json_int (&out.json, WS_KEY_MAX_BLOCKS_PER_SM, d->max_blocks_per_sm);
  ws_json_int (&out.json, WS_KEY_REGS_PER_SM, d->regs_per_sm);
  ws_json_int (&out.json, WS_KEY_REGS_PER_BLOCK, d->regs_per_block);
  ws_json_uint (&out.json, WS_KEY_SMEM_PER_SM, d->smem_per_sm);
  ws_json_uint (&out.json, WS_KEY_SMEM_PER_BLOCK, d->smem_per_block);
  ws_json_uint (&out.json, WS_KEY_SMEM_PER_BLOCK_OPTIN, d->smem_per_block_optin);
  ws_json_uint (&out.json, WS_KEY_RESERVED_SMEM_PER_BLOCK, d->reserved_smem_per_block);
  ws_json_int (&out.json, WS_KEY_L2_BYTES, d->l2_bytes);
  ws_json_uint (&out.json, WS_KEY_MEMORY_BYTES, d->memory_bytes);
  ws_json_uint (&out.json, WS_KEY_MEMORY_FREE_BYTES, d->memory_free);
  ws_json_int (&out.json, WS_KEY_MEMORY_CLOCK_KHZ, d->memory_clock_khz);
  ws_json_int (&out.json, WS_KEY_BUS_WIDTH_BITS, d->bus_width_bits);
  ws_json_int (&out.json, WS_KEY_SM_CLOCK_KHZ, d->sm_clock_khz);
  ws_json_bool (&out.json, WS_KEY_ECC, d->ecc);
  ws_json_int (&out.json, WS_KEY_ASYNC_ENGINES, d->async_engines);
  ws_json_int (&out.json, WS_KEY_FP32_LANES_PER_SM, d->fp32_lanes_per_sm);
  ws_json_double (&out.json, WS_KEY_FP32_PEAK_GFLOPS,
                  d->fp32_peak_gflops > 0 ? d->fp32_peak_gflops : NAN);
  ws_json_double (&out.json, WS_KEY_BANDWIDTH_THEORETICAL_GBS,
                  d->bandwidth_theoretical_gbs > 0 ? d->bandwidth_theoretical_gbs : NAN);
  ws_json_double (&out.json, WS_KEY_BANDWIDTH_MEASURED_GBS,
                  d->bandwidth_measured_gbs > 0 ? d->bandwidth_measured_gbs : NAN);
  ws_json_double (&out.json, WS_KEY_H2D_PINNED_GBS,
                  d->h2d_pinned_gbs > 0 ? d->h2d_pinned_gbs : NAN);
  ws_json_double (&out.json, WS_KEY_D2H_PINNED_GBS,
                  d->d2h_pinned_gbs > 0 ? d->d2h_pinned_gbs : NAN);
  ws_json_double (&out.json, WS_KEY_H2D_PAGEABLE_GBS,
                  d->h2d_pageable_gbs > 0 ? d->h2d_pageable_gbs : NAN);
  ws_json_double (&out.json, WS_KEY_D2H_PAGEABLE_GBS,
                  d->d2h_pageable_gbs > 0 ? d->d2h_pageable_gbs : NAN);
  spread (WS_KEY_H2D_PINNED_SPREAD, &d->h2d_pinned);
  spread (WS_KEY_D2H_PINNED_SPREAD, &d->d2h_pinned);
  spread (WS_KEY_H2D_PAGEABLE_SPREAD, &d->h2d_pageable);
  spread (WS_KEY_D2H_PAGEABLE_SPREAD, &d->d2h_pageable);
  ws_json_uint (&out.json, WS_KEY_CALIBRATION_BYTES, d->calibration_bytes);
  end (1);
}

static const char *
cpu_wanted_name (int cpu)
{
  switch (cpu)
    {
    case 0: return "none";
    case WS_CPU_ONE: return "1";
    case WS_CPU_ALL: return "all";
    default: return "1,all";
    }
}

void
ws_output_run (const WsRunSpec *s, int cpu_wanted)
{
  const WsKernelDesc *k = s->kernel;
  uint64_t in_bytes = 0;
  double size;
  char transfer[24];

  for (int b = 0; b < k->n_inputs; b++)
    in_bytes += k->buffer_elements (s->shape, b) * sizeof (float);
  begin (WS_RECORD_TYPE_RUN);
  ws_json_int (&out.json, WS_KEY_ID, s->id);
  ws_json_string (&out.json, WS_KEY_KERNEL, k->name);
  ws_json_string (&out.json, WS_KEY_FAMILY, k->family);
  ws_json_begin_array (&out.json, WS_KEY_SHAPE);
  for (int i = 0; i < k->shape_rank; i++)
    ws_json_uint (&out.json, NULL, s->shape[i]);
  ws_json_end_array (&out.json);
  /* One number for plots: n, or the edge of the square or cube with as many elements. */
  if (k->shape_rank == 1)
    size = (double) s->shape[0];
  else if (k->shape_rank == 2)
    size = round (sqrt ((double) s->shape[0] * (double) s->shape[1]));
  else
    size = round (cbrt ((double) s->shape[0] * (double) s->shape[1] * (double) s->shape[2]));
  ws_json_double (&out.json, WS_KEY_SIZE, size);
  ws_json_string (&out.json, WS_KEY_SIZE_TEXT, s->size_text);
  /* A library picks its kernels' blocks and grids; its kernel records carry them. */
  if (k->library != NULL)
    {
      ws_json_null (&out.json, WS_KEY_BLOCK);
      ws_json_null (&out.json, WS_KEY_GRID);
      ws_json_null (&out.json, WS_KEY_THREADS_PER_BLOCK);
    }
  else
    {
      uint_triple (WS_KEY_BLOCK, s->block);
      uint_triple (WS_KEY_GRID, s->grid);
      ws_json_uint (&out.json, WS_KEY_THREADS_PER_BLOCK,
                    (uint64_t) s->block[0] * s->block[1] * s->block[2]);
    }
  ws_json_string (&out.json, WS_KEY_TRANSFER,
                  ws_transfer_text (s->transfer, s->streams, transfer, sizeof transfer));
  ws_json_int (&out.json, WS_KEY_STREAMS, s->streams);
  ws_json_int (&out.json, WS_KEY_REPS, s->reps);
  ws_json_int (&out.json, WS_KEY_WARMUP, s->warmup);
  ws_json_uint (&out.json, WS_KEY_SEED, s->seed);
  ws_json_string (&out.json, WS_KEY_CPU, cpu_wanted_name (cpu_wanted));
  ws_json_string (&out.json, WS_KEY_CACHE, s->cache_cold ? "cold" : "warm");
  ws_json_double (&out.json, WS_KEY_FLOPS, k->flops (s->shape));
  ws_json_double (&out.json, WS_KEY_BYTES, k->bytes (s->shape));
  ws_json_uint (&out.json, WS_KEY_INPUT_BYTES, in_bytes);
  ws_json_uint (&out.json, WS_KEY_OUTPUT_BYTES,
                k->buffer_elements (s->shape, k->n_inputs) * sizeof (float));
  if (s->source_hash != NULL)
    {
      ws_json_string (&out.json, WS_KEY_SOURCE_HASH, s->source_hash);
      ws_json_begin_object (&out.json, WS_KEY_PARAMS);
      for (int i = 0; i < s->n_params; i++)
        ws_json_double (&out.json, s->param_names[i], strtod (s->param_values[i], NULL));
      ws_json_end_object (&out.json);
    }
  end (1);
}

void
ws_output_launch (int run, const WsLaunchFacts *f)
{
  begin (WS_RECORD_TYPE_LAUNCH);
  ws_json_int (&out.json, WS_KEY_RUN, run);
  ws_json_int (&out.json, WS_KEY_REGISTERS, f->registers);
  ws_json_string (&out.json, WS_KEY_REGISTERS_SOURCE, f->registers_source);
  ws_json_int (&out.json, WS_KEY_REGISTERS_COMPILED, f->registers_compiled);
  ws_json_int (&out.json, WS_KEY_STATIC_SMEM, f->static_smem);
  ws_json_int (&out.json, WS_KEY_DYNAMIC_SMEM, f->dynamic_smem);
  ws_json_int (&out.json, WS_KEY_LOCAL_BYTES, f->local_bytes);
  ws_json_int (&out.json, WS_KEY_KERNEL_MAX_THREADS, f->kernel_max_threads);
  ws_json_int (&out.json, WS_KEY_PTX_VERSION, f->ptx_version);
  ws_json_int (&out.json, WS_KEY_BINARY_VERSION, f->binary_version);
  ws_json_int (&out.json, WS_KEY_THREADS_PER_BLOCK, f->threads);
  ws_json_int (&out.json, WS_KEY_WARPS_PER_BLOCK, f->warps_per_block);
  ws_json_int (&out.json, WS_KEY_ACTIVE_BLOCKS_PER_SM, f->active_blocks_per_sm);
  ws_json_int (&out.json, WS_KEY_ACTIVE_WARPS_PER_SM, f->active_warps_per_sm);
  ws_json_int (&out.json, WS_KEY_MAX_WARPS_PER_SM, f->max_warps_per_sm);
  ws_json_double (&out.json, WS_KEY_OCCUPANCY, f->occupancy);
  ws_json_string (&out.json, WS_KEY_LIMITER, f->limiter);
  ws_json_begin_object (&out.json, WS_KEY_LIMITS);
  ws_json_int (&out.json, WS_KEY_BLOCKS_PER_SM, f->limit_blocks);
  ws_json_int (&out.json, WS_KEY_WARPS, f->limit_warps);
  ws_json_int (&out.json, WS_KEY_REGISTERS, f->limit_registers);
  ws_json_int (&out.json, WS_KEY_SHARED_MEMORY, f->limit_smem);
  ws_json_end_object (&out.json);
  ws_json_uint (&out.json, WS_KEY_BLOCKS, f->blocks_total);
  ws_json_double (&out.json, WS_KEY_WAVES, f->waves);
  end (0);
}

void
ws_output_activity (int run, WsActivityPhase phase, int rep, const WsRunnerActivity *a)
{
  begin (WS_RECORD_TYPE_ACTIVITY);
  ws_json_int (&out.json, WS_KEY_RUN, run);
  ws_json_string (&out.json, WS_KEY_PHASE, ws_activity_phase_to_string (phase));
  ws_json_int (&out.json, WS_KEY_REP, rep);
  ws_json_string (&out.json, WS_KEY_KIND, ws_activity_kind_to_string (a->kind));
  ws_json_int (&out.json, WS_KEY_START, (int64_t) (a->start - out.origin));
  ws_json_int (&out.json, WS_KEY_END, (int64_t) (a->end - out.origin));
  switch (a->kind)
    {
    case WS_ACTIVITY_MEMCPY:
      ws_json_string (&out.json, WS_KEY_DIRECTION, ws_copy_direction_to_string (a->direction));
      ws_json_uint (&out.json, WS_KEY_BYTES, a->bytes);
      ws_json_string (&out.json, WS_KEY_HOST_MEMORY, ws_host_memory_to_string (a->host_memory));
      ws_json_uint (&out.json, WS_KEY_STREAM, a->stream);
      break;
    case WS_ACTIVITY_MEMSET:
      ws_json_uint (&out.json, WS_KEY_BYTES, a->bytes);
      ws_json_uint (&out.json, WS_KEY_STREAM, a->stream);
      break;
    case WS_ACTIVITY_KERNEL:
      ws_json_string (&out.json, WS_KEY_NAME, a->name);
      int_triple (WS_KEY_GRID, a->grid);
      int_triple (WS_KEY_BLOCK, a->block);
      ws_json_int (&out.json, WS_KEY_REGISTERS, a->registers);
      ws_json_int (&out.json, WS_KEY_STATIC_SMEM, a->static_smem);
      ws_json_int (&out.json, WS_KEY_DYNAMIC_SMEM, a->dynamic_smem);
      ws_json_uint (&out.json, WS_KEY_STREAM, a->stream);
      break;
    case WS_ACTIVITY_SYNC:
      ws_json_string (&out.json, WS_KEY_SYNC, a->detail);
      ws_json_uint (&out.json, WS_KEY_STREAM, a->stream);
      break;
    case WS_ACTIVITY_OVERHEAD:
      ws_json_string (&out.json, WS_KEY_OVERHEAD, a->detail);
      break;
    case WS_ACTIVITY_CPU:
      ws_json_string (&out.json, WS_KEY_NAME, a->detail);
      ws_json_int (&out.json, WS_KEY_THREADS, a->threads);
      break;
    default:
      break;
    }
  if (a->kind != WS_ACTIVITY_CPU)
    ws_json_uint (&out.json, WS_KEY_CORRELATION, a->correlation);
  end (0);
}

void
ws_output_verify (int run, const WsVerifyResult *v)
{
  begin (WS_RECORD_TYPE_VERIFY);
  ws_json_int (&out.json, WS_KEY_RUN, run);
  ws_json_bool (&out.json, WS_KEY_PASS, v->pass);
  ws_json_string (&out.json, WS_KEY_METHOD, v->method);
  ws_json_uint (&out.json, WS_KEY_CHECKED, v->checked);
  ws_json_uint (&out.json, WS_KEY_TOTAL, v->total);
  ws_json_uint (&out.json, WS_KEY_MISMATCHES, v->mismatches);
  ws_json_uint (&out.json, WS_KEY_UNWRITTEN, v->unwritten);
  ws_json_double (&out.json, WS_KEY_MAX_ABS_ERR, v->max_abs_err);
  ws_json_double (&out.json, WS_KEY_MAX_REL_ERR, v->max_rel_err);
  ws_json_double (&out.json, WS_KEY_RTOL, v->rtol);
  ws_json_double (&out.json, WS_KEY_ATOL, v->atol);
  if (v->note != NULL)
    ws_json_string (&out.json, WS_KEY_NOTE, v->note);
  if (v->first_bad >= 0)
    {
      if (v->first_bad_buffer != NULL)
        ws_json_string (&out.json, WS_KEY_FIRST_BAD_BUFFER, v->first_bad_buffer);
      ws_json_int (&out.json, WS_KEY_FIRST_BAD_INDEX, v->first_bad);
      ws_json_double (&out.json, WS_KEY_FIRST_BAD_VALUE, v->first_bad_value);
      ws_json_double (&out.json, WS_KEY_FIRST_BAD_EXPECTED, v->first_bad_expected);
    }
  end (0);
}

static void
stats (const char *key, const WsRunnerStats *s)
{
  if (s->n == 0)
    {
      ws_json_null (&out.json, key);
      return;
    }
  ws_json_begin_object (&out.json, key);
  ws_json_double (&out.json, WS_KEY_MEDIAN, s->median);
  ws_json_double (&out.json, WS_KEY_MIN, s->min);
  ws_json_double (&out.json, WS_KEY_MAX, s->max);
  ws_json_int (&out.json, WS_KEY_N, s->n);
  ws_json_end_object (&out.json);
}

static void
cpu_baseline (const char *key, int wanted, const WsRunnerBaseline *c, const char *library_note)
{
  if (!wanted)
    {
      ws_json_null (&out.json, key);
      return;
    }
  ws_json_begin_object (&out.json, key);
  ws_json_int (&out.json, WS_KEY_THREADS, c->threads);
  ws_json_string (&out.json, WS_KEY_IMPLEMENTATION, c->implementation);
  if (c->library != NULL)
    {
      ws_json_string (&out.json, WS_KEY_LIBRARY, c->library->name);
      ws_json_string (&out.json, WS_KEY_LIBRARY_VERSION,
                      c->library->version[0] ? c->library->version : NULL);
      ws_json_string (&out.json, WS_KEY_LIBRARY_CONFIG, c->library->config);
      ws_json_string (&out.json, WS_KEY_LIBRARY_PATH, c->library->path);
      ws_json_string (&out.json, WS_KEY_LIBRARY_SYMBOL, c->library->symbol);
    }
  if (library_note != NULL)
    ws_json_string (&out.json, WS_KEY_LIBRARY_NOTE, library_note);
  if (c->stats.n > 0)
    {
      ws_json_double (&out.json, WS_KEY_MEDIAN, c->stats.median);
      ws_json_double (&out.json, WS_KEY_MIN, c->stats.min);
      ws_json_double (&out.json, WS_KEY_MAX, c->stats.max);
      ws_json_int (&out.json, WS_KEY_N, c->stats.n);
      ws_json_bool (&out.json, WS_KEY_WARMED_UP, c->warmed_up);
    }
  else
    ws_json_bool (&out.json, WS_KEY_SKIPPED, 1);
  ws_json_double (&out.json, WS_KEY_ESTIMATE, c->estimate_ns);
  if (c->from_run > 0)
    ws_json_int (&out.json, WS_KEY_FROM_RUN, c->from_run);
  ws_json_string (&out.json, WS_KEY_NOTE, c->note[0] ? c->note : NULL);
  /* An all-core baseline says which run it is: every core, or one thread where that was
   * faster. */
  if (c->max_threads > 0)
    {
      ws_json_int (&out.json, WS_KEY_MAX_THREADS, c->max_threads);
      ws_json_bool (&out.json, WS_KEY_ONE_THREAD_FASTER, c->one_thread_faster);
    }
  ws_json_end_object (&out.json);
}

void
ws_output_timing (int run, const WsRunSpec *spec, const WsRunnerTiming *t)
{
  double kernel_ns = t->kernel.n > 0 ? t->kernel.median : t->kernel_untraced_ns;

  begin (WS_RECORD_TYPE_TIMING);
  ws_json_int (&out.json, WS_KEY_RUN, run);
  ws_json_bool (&out.json, WS_KEY_TRACED, t->traced);
  stats (WS_KEY_KERNEL_NS, &t->kernel);
  if (t->traced)
    {
      ws_json_int (&out.json, WS_KEY_KERNEL_RECORDS_PER_LAUNCH, t->records_per_launch);
      ws_json_string (&out.json, WS_KEY_KERNEL_RECORDS, t->kernel_records);
    }
  stats (WS_KEY_KERNEL_IN_SEQUENCE_NS, &t->kernel_in_sequence);
  stats (WS_KEY_H2D_NS, &t->h2d);
  stats (WS_KEY_D2H_NS, &t->d2h);
  stats (WS_KEY_MEMSET_NS, &t->memset);
  ws_json_double (&out.json, WS_KEY_KERNEL_UNTRACED_NS, t->kernel_untraced_ns);
  ws_json_int (&out.json, WS_KEY_UNTRACED_LAUNCHES, t->untraced_launches);
  ws_json_string (&out.json, WS_KEY_UNTRACED_METHOD, t->untraced_method);
  stats (WS_KEY_E2E_NS, &t->e2e);
  cpu_baseline (WS_KEY_CPU_1, t->cpu_one_wanted, &t->cpu_one, t->library_note);
  cpu_baseline (WS_KEY_CPU_ALL, t->cpu_all_wanted, &t->cpu_all, t->library_note);
  /* The other implementation, under its own name: cpu_1_hand_written beside a BLAS, or
   * cpu_1_blas where the hand-written SGEMM was the faster. */
  if (t->cpu_one_wanted && t->cpu_one_other.implementation != NULL)
    cpu_baseline (strcmp (t->cpu_one_other.implementation, "blas") == 0 ? WS_KEY_CPU_1_BLAS
                                                                       : WS_KEY_CPU_1_HAND_WRITTEN,
                  1, &t->cpu_one_other, NULL);
  if (t->cpu_all_wanted && t->cpu_all_other.implementation != NULL)
    cpu_baseline (strcmp (t->cpu_all_other.implementation, "blas") == 0 ? WS_KEY_CPU_ALL_BLAS
                                                                       : WS_KEY_CPU_ALL_HAND_WRITTEN,
                  1, &t->cpu_all_other, NULL);
  if (kernel_ns > 0)
    {
      ws_json_double (&out.json, WS_KEY_KERNEL_GBS, spec->kernel->bytes (spec->shape) / kernel_ns);
      ws_json_double (&out.json, WS_KEY_KERNEL_GFLOPS,
                      spec->kernel->flops (spec->shape) / kernel_ns);
    }
  end (1);
}

void
ws_output_progress (int done, int total)
{
  begin (WS_RECORD_TYPE_PROGRESS);
  ws_json_int (&out.json, WS_KEY_DONE, done);
  ws_json_int (&out.json, WS_KEY_TOTAL, total);
  end (1);
}

void
ws_output_selftest (const char *check, const char *kernel, int cases, int failed,
                    const WsSelftestCase *first)
{
  begin (WS_RECORD_TYPE_SELFTEST);
  ws_json_string (&out.json, WS_KEY_CHECK, check);
  ws_json_string (&out.json, WS_KEY_KERNEL, kernel);
  ws_json_int (&out.json, WS_KEY_CASES, cases);
  ws_json_int (&out.json, WS_KEY_FAILED, failed);
  if (first == NULL)
    ws_json_null (&out.json, WS_KEY_FIRST_FAILURE);
  else
    {
      ws_json_begin_object (&out.json, WS_KEY_FIRST_FAILURE);
      ws_json_uint (&out.json, WS_KEY_N, first->n);
      ws_json_uint (&out.json, WS_KEY_BLOCK, first->block);
      ws_json_uint (&out.json, WS_KEY_GRID, first->grid);
      ws_json_uint (&out.json, WS_KEY_MISMATCHES, first->mismatches);
      ws_json_uint (&out.json, WS_KEY_UNWRITTEN, first->unwritten);
      ws_json_int (&out.json, WS_KEY_FIRST_BAD_INDEX, first->first_bad);
      ws_json_end_object (&out.json);
    }
  end (1);
}

void
ws_output_error (int run, WsErrorSeverity severity, WsErrorCode code, const char *message,
                 const char *detail)
{
  ws_output_error_at (run, severity, code, message, detail, NULL, 0, 0);
}

void
ws_output_error_at (int run, WsErrorSeverity severity, WsErrorCode code, const char *message,
                    const char *detail, const char *file, int line, int column)
{
  const char *severity_name = ws_error_severity_to_string (severity);

  if (file != NULL && line > 0)
    fprintf (stderr, "%s:%d:%d: %s: %s\n", file, line, column > 0 ? column : 1, severity_name,
             message);
  else
    fprintf (stderr, "warpscope-runner: %s: %s%s%s%s\n", severity_name, message,
             detail ? " (" : "", detail ? detail : "", detail ? ")" : "");
  begin (WS_RECORD_TYPE_ERROR);
  if (run > 0)
    ws_json_int (&out.json, WS_KEY_RUN, run);
  else
    ws_json_null (&out.json, WS_KEY_RUN);
  ws_json_string (&out.json, WS_KEY_SEVERITY, severity_name);
  ws_json_string (&out.json, WS_KEY_CODE, ws_error_code_to_string (code));
  ws_json_string (&out.json, WS_KEY_MESSAGE, message);
  ws_json_string (&out.json, WS_KEY_DETAIL, detail);
  if (file != NULL)
    {
      ws_json_string (&out.json, WS_KEY_FILE, file);
      ws_json_int (&out.json, WS_KEY_LINE, line);
      ws_json_int (&out.json, WS_KEY_COLUMN, column);
    }
  end (1);
}

WsJson *
ws_output_begin (const char *type)
{
  begin (type);
  return &out.json;
}

void
ws_output_end (void)
{
  end (1);
}

void
ws_output_done (int runs, int failed, uint64_t dropped, int exit_code)
{
  begin (WS_RECORD_TYPE_DONE);
  ws_json_int (&out.json, WS_KEY_RUNS, runs);
  ws_json_int (&out.json, WS_KEY_FAILED, failed);
  ws_json_uint (&out.json, WS_KEY_DROPPED_RECORDS, dropped);
  ws_json_int (&out.json, WS_KEY_EXIT_CODE, exit_code);
  end (1);
}

/* ---- --summary -------------------------------------------------------------------------- */

static void
human_time (double ns, char *buf, size_t len)
{
  if (!(ns > 0))
    snprintf (buf, len, "–");
  else if (ns < 1e3)
    snprintf (buf, len, "%.0f ns", ns);
  else if (ns < 1e6)
    snprintf (buf, len, "%.1f µs", ns / 1e3);
  else if (ns < 1e9)
    snprintf (buf, len, "%.2f ms", ns / 1e6);
  else
    snprintf (buf, len, "%.2f s", ns / 1e9);
}

static void
human_count (uint64_t v, char *buf, size_t len)
{
  char digits[32];
  size_t n, o = 0;

  snprintf (digits, sizeof digits, "%llu", (unsigned long long) v);
  n = strlen (digits);
  for (size_t i = 0; i < n && o + 2 < len; i++)
    {
      if (i > 0 && (n - i) % 3 == 0)
        buf[o++] = ',';
      buf[o++] = digits[i];
    }
  buf[o] = '\0';
}

/* "OpenBLAS 0.3.21, 16 threads", "hand-written, 1 thread". */
static void
baseline_label (const WsRunnerBaseline *b, char *buf, size_t len)
{
  const WsBlasInfo *l = b->library;
  char threads[48];

  if (b->threads > 0)
    snprintf (threads, sizeof threads, "%d thread%s", b->threads, b->threads == 1 ? "" : "s");
  else
    snprintf (threads, sizeof threads, "threads unknown");
  if (l == NULL)
    snprintf (buf, len, "hand-written, %s", threads);
  else if (strcmp (l->name, "BLAS") == 0)
    snprintf (buf, len, "BLAS (%.60s), %s", l->config, threads);
  else
    snprintf (buf, len, "%s%s%.40s, %s", l->name, l->version[0] ? " " : "", l->version, threads);
}

void
ws_output_summary_run (const WsRunSpec *s, const WsLaunchFacts *f, const WsRunnerTiming *t,
                       const WsVerifyResult *v, const WsRunnerDevice *d)
{
  char size[64], kt[32], ut[32], h2d[32], d2h[32], e2e[32], c1[32], n[32];
  char transfer[24], block[48];
  double kernel_ns = t->kernel.n > 0 ? t->kernel.median : t->kernel_untraced_ns;
  double gbs = s->kernel->bytes (s->shape) / kernel_ns;
  double gflops = s->kernel->flops (s->shape) / kernel_ns;

  if (!out.summary)
    return;
  if (s->kernel->shape_rank == 1)
    {
      human_count (s->shape[0], n, sizeof n);
      snprintf (size, sizeof size, "n = %s", n);
    }
  else if (s->kernel->shape_rank == 2)
    snprintf (size, sizeof size, "%llu×%llu", (unsigned long long) s->shape[0],
              (unsigned long long) s->shape[1]);
  else
    snprintf (size, sizeof size, "%llu×%llu×%llu", (unsigned long long) s->shape[0],
              (unsigned long long) s->shape[1], (unsigned long long) s->shape[2]);
  if (s->kernel->library != NULL)
    snprintf (block, sizeof block, "block and grid chosen by %s", s->kernel->library);
  else
    snprintf (block, sizeof block, "block %u×%u, grid %u×%u", s->block[0], s->block[1],
              s->grid[0], s->grid[1]);
  ws_transfer_text (s->transfer, s->streams, transfer, sizeof transfer);
  human_time (kernel_ns, kt, sizeof kt);
  human_time (t->kernel_untraced_ns, ut, sizeof ut);
  human_time (t->h2d.median, h2d, sizeof h2d);
  human_time (t->d2h.median, d2h, sizeof d2h);
  human_time (t->e2e.median, e2e, sizeof e2e);
  if (s->transfer == WS_TRANSFER_STREAMS)
    printf ("\nRun %d: %s, %s, %s, pinned host memory in %d pieces over %d streams\n", s->id,
            s->kernel->name, size, block, s->streams, s->streams);
  else
    printf ("\nRun %d: %s, %s, %s, %s host memory\n", s->id, s->kernel->name, size, block,
            transfer);
  printf ("  kernel      %s (CUPTI median of %d back-to-back launches, %s L2); untraced: %s\n",
          kt, t->kernel.n, s->cache_cold ? "cold" : "warm", ut);
  if (t->kernel_in_sequence.n > 0)
    {
      human_time (t->kernel_in_sequence.median, kt, sizeof kt);
      printf ("              %s right after its inputs were copied in\n", kt);
    }
  if (d->bandwidth_measured_gbs > 0)
    printf ("  throughput  %.0f GB/s = %.0f%% of the %.0f GB/s device copy; %.1f GFLOP/s\n", gbs,
            100.0 * gbs / d->bandwidth_measured_gbs, d->bandwidth_measured_gbs, gflops);
  printf ("  copies      host→device %s, device→host %s; end-to-end %s\n", h2d, d2h, e2e);
  {
    const WsRunnerBaseline *const baselines[] = { &t->cpu_one, &t->cpu_one_other, &t->cpu_all,
                                               &t->cpu_all_other };

    for (size_t i = 0; i < sizeof baselines / sizeof *baselines; i++)
      {
        const WsRunnerBaseline *b = baselines[i];
        char label[160];

        if (b->implementation == NULL || b->stats.n == 0)
          continue;
        baseline_label (b, label, sizeof label);
        human_time (b->stats.median, c1, sizeof c1);
        /* Speedups only against the baseline that counts, the faster one. */
        if (b == &t->cpu_one || b == &t->cpu_all)
          printf ("  CPU         %s: %s; speedup: kernel %.1f×, end-to-end %.2f×\n", label, c1,
                  b->stats.median / kernel_ns, b->stats.median / t->e2e.median);
        else
          printf ("  CPU         %s: %s (slower, so not the baseline)\n", label, c1);
      }
  }
  if (t->library_note != NULL && (t->cpu_one_wanted || t->cpu_all_wanted))
    printf ("  CPU         %s\n", t->library_note);
  if (f != NULL)
    printf ("  occupancy   %.0f%% (%d blocks of %d warps per SM, limited by %s), %.2f waves\n",
            100.0 * f->occupancy, f->active_blocks_per_sm, f->warps_per_block, f->limiter,
            f->waves);
  human_count (v->checked, n, sizeof n);
  printf ("  verified    %s: %s elements checked (%s), max abs error %.3g, max rel error %.3g\n",
          v->pass ? "PASS" : "FAIL", n, v->method, v->max_abs_err, v->max_rel_err);
  fflush (stdout);
}
