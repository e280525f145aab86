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
  ws_json_double (&out.json, "t", round ((double) (ws_clock_ns () - out.start_ns) / 1e3) / 1e3);
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
ws_output_hello (const WsDriverInfo *driver, uint32_t cupti_version, int argc, char **argv)
{
  char host[256] = "", when[32], version[16];
  time_t now = time (NULL);
  struct tm tm;

  gethostname (host, sizeof host - 1);
  gmtime_r (&now, &tm);
  strftime (when, sizeof when, "%Y-%m-%dT%H:%M:%SZ", &tm);
  begin ("hello");
  ws_json_int (&out.json, "protocol", WS_PROTOCOL_VERSION);
  ws_json_string (&out.json, "runner", WS_VERSION);
  ws_json_string (&out.json, "build", WS_BUILDTYPE);
  ws_json_string (&out.json, "gpu_archs", WS_CUDA_ARCHS);
  ws_json_string (&out.json, "time", when);
  ws_json_string (&out.json, "host", host);
  ws_json_bool (&out.json, "driver_found", driver->libcuda_found);
  if (driver->driver_version > 0)
    {
      ws_cuda_version_string (driver->driver_version, version, sizeof version);
      ws_json_int (&out.json, "driver_version", driver->driver_version);
      ws_json_string (&out.json, "driver_cuda", version);
    }
  else
    {
      ws_json_null (&out.json, "driver_version");
      ws_json_null (&out.json, "driver_cuda");
    }
  ws_cuda_version_string (driver->runtime_version, version, sizeof version);
  ws_json_int (&out.json, "runtime_version", driver->runtime_version);
  ws_json_string (&out.json, "runtime_cuda", version);
  if (cupti_version > 0)
    ws_json_uint (&out.json, "cupti_version", cupti_version);
  else
    ws_json_null (&out.json, "cupti_version");
  ws_json_begin_array (&out.json, "argv");
  for (int i = 1; i < argc; i++)
    ws_json_string (&out.json, NULL, argv[i]);
  ws_json_end_array (&out.json);
  end (1);
}

void
ws_output_kernel (const WsKernelDesc *k)
{
  begin ("kernel");
  ws_json_string (&out.json, "name", k->name);
  ws_json_string (&out.json, "family", k->family);
  ws_json_string (&out.json, "title", k->title);
  ws_json_string (&out.json, "description", k->description);
  ws_json_string (&out.json, "source", k->source);
  ws_json_int (&out.json, "block_dims", k->block_rank);
  ws_json_begin_array (&out.json, "shape_params");
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
  ws_json_begin_array (&out.json, "default_shape");
  for (int i = 0; i < k->shape_rank; i++)
    ws_json_uint (&out.json, NULL, k->default_shape[i]);
  ws_json_end_array (&out.json);
  if (k->library != NULL)
    ws_json_null (&out.json, "default_block");
  else
    uint_triple ("default_block", k->default_block);
  ws_json_bool (&out.json, "block_fixed", k->block_fixed);
  ws_json_string (&out.json, "library", k->library);
  ws_json_bool (&out.json, "streamable", k->piece != NULL);
  ws_json_string (&out.json, "flops", k->flops_formula);
  ws_json_string (&out.json, "bytes", k->bytes_formula);
  ws_json_string (&out.json, "tolerance", k->tolerance);
  end (0);
}

/* {"min", "median", "max"} in GB/s, "n" samples of "bytes" each; null when not measured. */
static void
spread (const char *key, const WsRateSpread *r)
{
  if (r->n == 0)
    {
      ws_json_null (&out.json, key);
      return;
    }
  ws_json_begin_object (&out.json, key);
  ws_json_double (&out.json, "min", r->min);
  ws_json_double (&out.json, "median", r->median);
  ws_json_double (&out.json, "max", r->max);
  ws_json_int (&out.json, "n", r->n);
  ws_json_uint (&out.json, "bytes", r->bytes);
  if (r->mean > 0)
    {
      ws_json_double (&out.json, "mean", r->mean);
      ws_json_int (&out.json, "cpus", r->cpus);
      ws_json_int (&out.json, "buffers", r->buffers);
    }
  ws_json_end_object (&out.json);
}

void
ws_output_device (const WsDeviceInfo *d)
{
  char cc[16], sm[16];

  snprintf (cc, sizeof cc, "%d.%d", d->cc_major, d->cc_minor);
  snprintf (sm, sizeof sm, "sm_%d%d", d->cc_major, d->cc_minor);
  begin ("device");
  ws_json_int (&out.json, "index", d->index);
  ws_json_string (&out.json, "name", d->name);
  ws_json_string (&out.json, "uuid", d->uuid);
  ws_json_string (&out.json, "pci_bus_id", d->pci_bus_id);
  ws_json_string (&out.json, "compute_capability", cc);
  ws_json_string (&out.json, "sm", sm);
  ws_json_int (&out.json, "sm_count", d->sm_count);
  ws_json_int (&out.json, "warp_size", d->warp_size);
  ws_json_int (&out.json, "max_threads_per_block", d->max_threads_per_block);
  int_triple ("max_block_dim", d->max_block_dim);
  int_triple ("max_grid_dim", d->max_grid_dim);
  ws_json_int (&out.json, "max_threads_per_sm", d->max_threads_per_sm);
  ws_json_int (&out.json, "max_blocks_per_sm", d->max_blocks_per_sm);
  ws_json_int (&out.json, "regs_per_sm", d->regs_per_sm);
  ws_json_int (&out.json, "regs_per_block", d->regs_per_block);
  ws_json_uint (&out.json, "smem_per_sm", d->smem_per_sm);
  ws_json_uint (&out.json, "smem_per_block", d->smem_per_block);
  ws_json_uint (&out.json, "smem_per_block_optin", d->smem_per_block_optin);
  ws_json_uint (&out.json, "reserved_smem_per_block", d->reserved_smem_per_block);
  ws_json_int (&out.json, "l2_bytes", d->l2_bytes);
  ws_json_uint (&out.json, "memory_bytes", d->memory_bytes);
  ws_json_uint (&out.json, "memory_free_bytes", d->memory_free);
  ws_json_int (&out.json, "memory_clock_khz", d->memory_clock_khz);
  ws_json_int (&out.json, "bus_width_bits", d->bus_width_bits);
  ws_json_int (&out.json, "sm_clock_khz", d->sm_clock_khz);
  ws_json_bool (&out.json, "ecc", d->ecc);
  ws_json_int (&out.json, "async_engines", d->async_engines);
  ws_json_int (&out.json, "fp32_lanes_per_sm", d->fp32_lanes_per_sm);
  ws_json_double (&out.json, "fp32_peak_gflops", d->fp32_peak_gflops > 0 ? d->fp32_peak_gflops : NAN);
  ws_json_double (&out.json, "bandwidth_theoretical_gbs",
                  d->bandwidth_theoretical_gbs > 0 ? d->bandwidth_theoretical_gbs : NAN);
  ws_json_double (&out.json, "bandwidth_measured_gbs",
                  d->bandwidth_measured_gbs > 0 ? d->bandwidth_measured_gbs : NAN);
  ws_json_double (&out.json, "h2d_pinned_gbs", d->h2d_pinned_gbs > 0 ? d->h2d_pinned_gbs : NAN);
  ws_json_double (&out.json, "d2h_pinned_gbs", d->d2h_pinned_gbs > 0 ? d->d2h_pinned_gbs : NAN);
  ws_json_double (&out.json, "h2d_pageable_gbs",
                  d->h2d_pageable_gbs > 0 ? d->h2d_pageable_gbs : NAN);
  ws_json_double (&out.json, "d2h_pageable_gbs",
                  d->d2h_pageable_gbs > 0 ? d->d2h_pageable_gbs : NAN);
  spread ("h2d_pinned_spread", &d->h2d_pinned);
  spread ("d2h_pinned_spread", &d->d2h_pinned);
  spread ("h2d_pageable_spread", &d->h2d_pageable);
  spread ("d2h_pageable_spread", &d->d2h_pageable);
  ws_json_uint (&out.json, "calibration_bytes", d->calibration_bytes);
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
  begin ("run");
  ws_json_int (&out.json, "id", s->id);
  ws_json_string (&out.json, "kernel", k->name);
  ws_json_string (&out.json, "family", k->family);
  ws_json_begin_array (&out.json, "shape");
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
  ws_json_double (&out.json, "size", size);
  ws_json_string (&out.json, "size_text", s->size_text);
  /* A library picks its kernels' blocks and grids; its kernel records carry them. */
  if (k->library != NULL)
    {
      ws_json_null (&out.json, "block");
      ws_json_null (&out.json, "grid");
      ws_json_null (&out.json, "threads_per_block");
    }
  else
    {
      uint_triple ("block", s->block);
      uint_triple ("grid", s->grid);
      ws_json_uint (&out.json, "threads_per_block",
                    (uint64_t) s->block[0] * s->block[1] * s->block[2]);
    }
  ws_json_string (&out.json, "transfer",
                  ws_transfer_text (s->transfer, s->streams, transfer, sizeof transfer));
  ws_json_int (&out.json, "streams", s->streams);
  ws_json_int (&out.json, "reps", s->reps);
  ws_json_int (&out.json, "warmup", s->warmup);
  ws_json_uint (&out.json, "seed", s->seed);
  ws_json_string (&out.json, "cpu", cpu_wanted_name (cpu_wanted));
  ws_json_string (&out.json, "cache", s->cache_cold ? "cold" : "warm");
  ws_json_double (&out.json, "flops", k->flops (s->shape));
  ws_json_double (&out.json, "bytes", k->bytes (s->shape));
  ws_json_uint (&out.json, "input_bytes", in_bytes);
  ws_json_uint (&out.json, "output_bytes",
                k->buffer_elements (s->shape, k->n_inputs) * sizeof (float));
  if (s->source_hash != NULL)
    {
      ws_json_string (&out.json, "source_hash", s->source_hash);
      ws_json_begin_object (&out.json, "params");
      for (int i = 0; i < s->n_params; i++)
        ws_json_double (&out.json, s->param_names[i], strtod (s->param_values[i], NULL));
      ws_json_end_object (&out.json);
    }
  end (1);
}

void
ws_output_launch (int run, const WsLaunchFacts *f)
{
  begin ("launch");
  ws_json_int (&out.json, "run", run);
  ws_json_int (&out.json, "registers", f->registers);
  ws_json_string (&out.json, "registers_source", f->registers_source);
  ws_json_int (&out.json, "registers_compiled", f->registers_compiled);
  ws_json_int (&out.json, "static_smem", f->static_smem);
  ws_json_int (&out.json, "dynamic_smem", f->dynamic_smem);
  ws_json_int (&out.json, "local_bytes", f->local_bytes);
  ws_json_int (&out.json, "kernel_max_threads", f->kernel_max_threads);
  ws_json_int (&out.json, "ptx_version", f->ptx_version);
  ws_json_int (&out.json, "binary_version", f->binary_version);
  ws_json_int (&out.json, "threads_per_block", f->threads);
  ws_json_int (&out.json, "warps_per_block", f->warps_per_block);
  ws_json_int (&out.json, "active_blocks_per_sm", f->active_blocks_per_sm);
  ws_json_int (&out.json, "active_warps_per_sm", f->active_warps_per_sm);
  ws_json_int (&out.json, "max_warps_per_sm", f->max_warps_per_sm);
  ws_json_double (&out.json, "occupancy", f->occupancy);
  ws_json_string (&out.json, "limiter", f->limiter);
  ws_json_begin_object (&out.json, "limits");
  ws_json_int (&out.json, "blocks_per_sm", f->limit_blocks);
  ws_json_int (&out.json, "warps", f->limit_warps);
  ws_json_int (&out.json, "registers", f->limit_registers);
  ws_json_int (&out.json, "shared_memory", f->limit_smem);
  ws_json_end_object (&out.json);
  ws_json_uint (&out.json, "blocks", f->blocks_total);
  ws_json_double (&out.json, "waves", f->waves);
  end (0);
}

void
ws_output_activity (int run, const char *phase, int rep, const WsActivity *a)
{
  begin ("activity");
  ws_json_int (&out.json, "run", run);
  ws_json_string (&out.json, "phase", phase);
  ws_json_int (&out.json, "rep", rep);
  ws_json_string (&out.json, "kind", ws_activity_kind_name (a->kind));
  ws_json_int (&out.json, "start", (int64_t) (a->start - out.origin));
  ws_json_int (&out.json, "end", (int64_t) (a->end - out.origin));
  switch (a->kind)
    {
    case WS_ACTIVITY_MEMCPY:
      ws_json_string (&out.json, "direction", a->direction);
      ws_json_uint (&out.json, "bytes", a->bytes);
      ws_json_string (&out.json, "host_memory", a->host_memory);
      ws_json_uint (&out.json, "stream", a->stream);
      break;
    case WS_ACTIVITY_MEMSET:
      ws_json_uint (&out.json, "bytes", a->bytes);
      ws_json_uint (&out.json, "stream", a->stream);
      break;
    case WS_ACTIVITY_KERNEL:
      ws_json_string (&out.json, "name", a->name);
      int_triple ("grid", a->grid);
      int_triple ("block", a->block);
      ws_json_int (&out.json, "registers", a->registers);
      ws_json_int (&out.json, "static_smem", a->static_smem);
      ws_json_int (&out.json, "dynamic_smem", a->dynamic_smem);
      ws_json_uint (&out.json, "stream", a->stream);
      break;
    case WS_ACTIVITY_SYNC:
      ws_json_string (&out.json, "sync", a->detail);
      ws_json_uint (&out.json, "stream", a->stream);
      break;
    case WS_ACTIVITY_OVERHEAD:
      ws_json_string (&out.json, "overhead", a->detail);
      break;
    case WS_ACTIVITY_CPU:
      ws_json_string (&out.json, "name", a->detail);
      ws_json_int (&out.json, "threads", a->threads);
      break;
    default:
      break;
    }
  if (a->kind != WS_ACTIVITY_CPU)
    ws_json_uint (&out.json, "correlation", a->correlation);
  end (0);
}

void
ws_output_verify (int run, const WsVerifyResult *v)
{
  begin ("verify");
  ws_json_int (&out.json, "run", run);
  ws_json_bool (&out.json, "pass", v->pass);
  ws_json_string (&out.json, "method", v->method);
  ws_json_uint (&out.json, "checked", v->checked);
  ws_json_uint (&out.json, "total", v->total);
  ws_json_uint (&out.json, "mismatches", v->mismatches);
  ws_json_uint (&out.json, "unwritten", v->unwritten);
  ws_json_double (&out.json, "max_abs_err", v->max_abs_err);
  ws_json_double (&out.json, "max_rel_err", v->max_rel_err);
  ws_json_double (&out.json, "rtol", v->rtol);
  ws_json_double (&out.json, "atol", v->atol);
  if (v->note != NULL)
    ws_json_string (&out.json, "note", v->note);
  if (v->first_bad >= 0)
    {
      if (v->first_bad_buffer != NULL)
        ws_json_string (&out.json, "first_bad_buffer", v->first_bad_buffer);
      ws_json_int (&out.json, "first_bad_index", v->first_bad);
      ws_json_double (&out.json, "first_bad_value", v->first_bad_value);
      ws_json_double (&out.json, "first_bad_expected", v->first_bad_expected);
    }
  end (0);
}

static void
stats (const char *key, const WsStats *s)
{
  if (s->n == 0)
    {
      ws_json_null (&out.json, key);
      return;
    }
  ws_json_begin_object (&out.json, key);
  ws_json_double (&out.json, "median", s->median);
  ws_json_double (&out.json, "min", s->min);
  ws_json_double (&out.json, "max", s->max);
  ws_json_int (&out.json, "n", s->n);
  ws_json_end_object (&out.json);
}

static void
cpu_baseline (const char *key, int wanted, const WsCpuBaseline *c, const char *library_note)
{
  if (!wanted)
    {
      ws_json_null (&out.json, key);
      return;
    }
  ws_json_begin_object (&out.json, key);
  ws_json_int (&out.json, "threads", c->threads);
  ws_json_string (&out.json, "implementation", c->implementation);
  if (c->library != NULL)
    {
      ws_json_string (&out.json, "library", c->library->name);
      ws_json_string (&out.json, "library_version",
                      c->library->version[0] ? c->library->version : NULL);
      ws_json_string (&out.json, "library_config", c->library->config);
      ws_json_string (&out.json, "library_path", c->library->path);
      ws_json_string (&out.json, "library_symbol", c->library->symbol);
    }
  if (library_note != NULL)
    ws_json_string (&out.json, "library_note", library_note);
  if (c->stats.n > 0)
    {
      ws_json_double (&out.json, "median", c->stats.median);
      ws_json_double (&out.json, "min", c->stats.min);
      ws_json_double (&out.json, "max", c->stats.max);
      ws_json_int (&out.json, "n", c->stats.n);
      ws_json_bool (&out.json, "warmed_up", c->warmed_up);
    }
  else
    ws_json_bool (&out.json, "skipped", 1);
  ws_json_double (&out.json, "estimate", c->estimate_ns);
  if (c->from_run > 0)
    ws_json_int (&out.json, "from_run", c->from_run);
  ws_json_string (&out.json, "note", c->note[0] ? c->note : NULL);
  ws_json_end_object (&out.json);
}

void
ws_output_timing (int run, const WsRunSpec *spec, const WsTiming *t)
{
  double kernel_ns = t->kernel.n > 0 ? t->kernel.median : t->kernel_untraced_ns;

  begin ("timing");
  ws_json_int (&out.json, "run", run);
  ws_json_bool (&out.json, "traced", t->traced);
  stats ("kernel_ns", &t->kernel);
  if (t->traced)
    {
      ws_json_int (&out.json, "kernel_records_per_launch", t->records_per_launch);
      ws_json_string (&out.json, "kernel_records", t->kernel_records);
    }
  stats ("kernel_in_sequence_ns", &t->kernel_in_sequence);
  stats ("h2d_ns", &t->h2d);
  stats ("d2h_ns", &t->d2h);
  stats ("memset_ns", &t->memset);
  ws_json_double (&out.json, "kernel_untraced_ns", t->kernel_untraced_ns);
  ws_json_int (&out.json, "untraced_launches", t->untraced_launches);
  ws_json_string (&out.json, "untraced_method", t->untraced_method);
  stats ("e2e_ns", &t->e2e);
  cpu_baseline ("cpu_1", t->cpu_one_wanted, &t->cpu_one, t->library_note);
  cpu_baseline ("cpu_all", t->cpu_all_wanted, &t->cpu_all, t->library_note);
  /* The other implementation, under its own name: cpu_1_hand_written beside a BLAS, or
   * cpu_1_blas where the hand-written SGEMM was the faster. */
  if (t->cpu_one_wanted && t->cpu_one_other.implementation != NULL)
    cpu_baseline (strcmp (t->cpu_one_other.implementation, "blas") == 0 ? "cpu_1_blas"
                                                                       : "cpu_1_hand_written",
                  1, &t->cpu_one_other, NULL);
  if (t->cpu_all_wanted && t->cpu_all_other.implementation != NULL)
    cpu_baseline (strcmp (t->cpu_all_other.implementation, "blas") == 0 ? "cpu_all_blas"
                                                                       : "cpu_all_hand_written",
                  1, &t->cpu_all_other, NULL);
  if (kernel_ns > 0)
    {
      ws_json_double (&out.json, "kernel_gbs", spec->kernel->bytes (spec->shape) / kernel_ns);
      ws_json_double (&out.json, "kernel_gflops", spec->kernel->flops (spec->shape) / kernel_ns);
    }
  end (1);
}

void
ws_output_progress (int done, int total)
{
  begin ("progress");
  ws_json_int (&out.json, "done", done);
  ws_json_int (&out.json, "total", total);
  end (1);
}

void
ws_output_selftest (const char *check, const char *kernel, int cases, int failed,
                    const WsSelftestCase *first)
{
  begin ("selftest");
  ws_json_string (&out.json, "check", check);
  ws_json_string (&out.json, "kernel", kernel);
  ws_json_int (&out.json, "cases", cases);
  ws_json_int (&out.json, "failed", failed);
  if (first == NULL)
    ws_json_null (&out.json, "first_failure");
  else
    {
      ws_json_begin_object (&out.json, "first_failure");
      ws_json_uint (&out.json, "n", first->n);
      ws_json_uint (&out.json, "block", first->block);
      ws_json_uint (&out.json, "grid", first->grid);
      ws_json_uint (&out.json, "mismatches", first->mismatches);
      ws_json_uint (&out.json, "unwritten", first->unwritten);
      ws_json_int (&out.json, "first_bad_index", first->first_bad);
      ws_json_end_object (&out.json);
    }
  end (1);
}

void
ws_output_error (int run, const char *severity, const char *code, const char *message,
                 const char *detail)
{
  ws_output_error_at (run, severity, code, message, detail, NULL, 0, 0);
}

void
ws_output_error_at (int run, const char *severity, const char *code, const char *message,
                    const char *detail, const char *file, int line, int column)
{
  if (file != NULL && line > 0)
    fprintf (stderr, "%s:%d:%d: %s: %s\n", file, line, column > 0 ? column : 1, severity,
             message);
  else
    fprintf (stderr, "warpscope-runner: %s: %s%s%s%s\n", severity, message,
             detail ? " (" : "", detail ? detail : "", detail ? ")" : "");
  begin ("error");
  if (run > 0)
    ws_json_int (&out.json, "run", run);
  else
    ws_json_null (&out.json, "run");
  ws_json_string (&out.json, "severity", severity);
  ws_json_string (&out.json, "code", code);
  ws_json_string (&out.json, "message", message);
  ws_json_string (&out.json, "detail", detail);
  if (file != NULL)
    {
      ws_json_string (&out.json, "file", file);
      ws_json_int (&out.json, "line", line);
      ws_json_int (&out.json, "column", column);
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
  begin ("done");
  ws_json_int (&out.json, "runs", runs);
  ws_json_int (&out.json, "failed", failed);
  ws_json_uint (&out.json, "dropped_records", dropped);
  ws_json_int (&out.json, "exit_code", exit_code);
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
baseline_label (const WsCpuBaseline *b, char *buf, size_t len)
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
ws_output_summary_run (const WsRunSpec *s, const WsLaunchFacts *f, const WsTiming *t,
                       const WsVerifyResult *v, const WsDeviceInfo *d)
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
    const WsCpuBaseline *const baselines[] = { &t->cpu_one, &t->cpu_one_other, &t->cpu_all,
                                               &t->cpu_all_other };

    for (size_t i = 0; i < sizeof baselines / sizeof *baselines; i++)
      {
        const WsCpuBaseline *b = baselines[i];
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
