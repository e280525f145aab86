/* test-analysis-session.h: sessions for the analysis tests, built record by record as the
 * runner writes them, and the checks every finding must pass. Included by the programs of
 * tests/test-analysis-{findings,baselines,samples}.c (header only: each uses what it needs).
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>
#include <math.h>
#include <string.h>

#include "ws-analysis-private.h"

/* ---- sessions built from records --------------------------------------------------------- */

/* One configuration as the runner would report it. The defaults describe a run with nothing
 * to find: a memory-bound kernel at 82% of the copy rate, copies shorter than the kernel,
 * full occupancy, many waves, steady times, far faster than the CPU. */
typedef struct
{
  int id;
  const char *name; /* the kernel's */
  int rank;
  gint64 shape[3];
  int block[2];
  gint64 grid;
  const char *transfer;
  double flops, bytes;
  gint64 input_bytes, output_bytes;
  int copies_in; /* host-to-device copies per sequence */
  int reps;
  int registers, smem, active_blocks, max_warps;
  double occupancy;
  const char *limiter;
  double kernel, kernel_min, kernel_max; /* ns */
  double h2d, d2h, e2e;
  double cpu1, cpu_all;
  int cpu1_n;
  const char *cpu1_note;
  gboolean cpu1_skipped;
  gboolean pass;
  gint64 mismatches, unwritten;
  int streams;    /* > 1: copies and kernels on several streams */
  double overlap; /* share of the shorter of copies and kernel that overlaps */
  gboolean results; /* FALSE: announced, then nothing */
  /* A counters record (docs/counters.md), where achieved > 0: achieved occupancy in %, and the
   * warps stalled per issue in all and at barriers (0: the stalls were not read). */
  double achieved, stall_total, stall_barrier;
  const char *counted; /* more members of the counters' values, ",\"key\":value…" */
} Spec;

static inline void
spec_init (Spec *s, int id)
{
  *s = (Spec){
    .id = id, .name = "vector_add", .rank = 1, .shape = { 100000000, 1, 1 },
    .block = { 256, 1 }, .grid = 390625, .transfer = "pinned", .flops = 1e8, .bytes = 1.2e9,
    .input_bytes = 8000000, .output_bytes = 4000000, .copies_in = 2, .reps = 10,
    .registers = 12, .smem = 0, .active_blocks = 8, .max_warps = 64, .occupancy = 1,
    .limiter = "warps", .kernel = 350000, .kernel_min = 348000, .kernel_max = 352000,
    .h2d = 150000, .d2h = 75000, .e2e = 600000, .cpu1 = 100e6, .cpu_all = 15e6, .cpu1_n = 5,
    .pass = TRUE, .streams = 1, .results = TRUE,
  };
}

static inline void
feed (WsSession *session, const char *format, ...) G_GNUC_PRINTF (2, 3);

static inline void
feed (WsSession *session, const char *format, ...)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *line = NULL;
  va_list args;

  va_start (args, format);
  line = g_strdup_vprintf (format, args);
  va_end (args);
  ws_session_feed_line (session, line, -1, &error);
  g_assert_no_error (error);
}

static inline WsSession *
new_session (void)
{
  WsSession *s = ws_session_new (WS_SESSION_SOURCE_RECORDING);

  feed (s, "{\"type\":\"hello\",\"protocol\":1,\"runner\":\"0.1.0\","
           "\"time\":\"2026-11-29T10:00:00Z\"}");
  feed (s, "{\"type\":\"device\",\"index\":0,\"name\":\"NVIDIA H200\",\"sm\":\"sm_90\","
           "\"compute_capability\":\"9.0\",\"sm_count\":132,\"warp_size\":32,"
           "\"max_threads_per_block\":1024,\"max_threads_per_sm\":2048,\"max_blocks_per_sm\":32,"
           "\"regs_per_sm\":65536,\"regs_per_block\":65536,\"smem_per_sm\":233472,"
           "\"smem_per_block\":49152,\"smem_per_block_optin\":232448,"
           "\"reserved_smem_per_block\":1024,\"sm_clock_khz\":1980000,\"fp32_lanes_per_sm\":128,"
           "\"fp32_peak_gflops\":66908.16,\"bandwidth_theoretical_gbs\":4814.3,"
           "\"bandwidth_measured_gbs\":4180,\"h2d_pinned_gbs\":55,\"d2h_pinned_gbs\":55,"
           "\"h2d_pageable_gbs\":7,\"d2h_pageable_gbs\":11}");
  return s;
}

static inline void
feed_activity (WsSession *s, const Spec *r, const char *phase, int rep, const char *kind,
               gint64 start, gint64 end, const char *extra)
{
  feed (s, "{\"type\":\"activity\",\"run\":%d,\"phase\":\"%s\",\"rep\":%d,\"kind\":\"%s\","
           "\"start\":%" G_GINT64_FORMAT ",\"end\":%" G_GINT64_FORMAT "%s}",
        r->id, phase, rep, kind, start, end, extra);
}

static inline void
add_run (WsSession *s, const Spec *r)
{
  const char *memory = g_str_equal (r->transfer, "pageable") ? "pageable" : "pinned";
  int threads = r->block[0] * r->block[1];
  int warps = (threads + 31) / 32;
  gint64 t = (gint64) r->id * 1000000000;
  g_autofree char *shape = r->rank == 3 ? g_strdup_printf ("[%" G_GINT64_FORMAT ",%" G_GINT64_FORMAT
                                                           ",%" G_GINT64_FORMAT "]",
                                                           r->shape[0], r->shape[1], r->shape[2])
                                        : g_strdup_printf ("[%" G_GINT64_FORMAT "]", r->shape[0]);
  g_autofree char *cpu1 = NULL;
  double size = r->rank == 3 ? cbrt ((double) r->shape[0] * r->shape[1] * r->shape[2])
                             : (double) r->shape[0];

  feed (s, "{\"type\":\"run\",\"id\":%d,\"kernel\":\"%s\",\"family\":\"%s\",\"shape\":%s,"
           "\"size\":%.17g,\"block\":[%d,%d,1],\"grid\":[%" G_GINT64_FORMAT ",1,1],"
           "\"threads_per_block\":%d,\"transfer\":\"%s\",\"reps\":%d,\"warmup\":3,"
           "\"cpu\":\"1,all\","
           "\"flops\":%.17g,\"bytes\":%.17g,\"input_bytes\":%" G_GINT64_FORMAT ","
           "\"output_bytes\":%" G_GINT64_FORMAT "}",
        r->id, r->name, r->name, shape, size, r->block[0], r->block[1], r->grid, threads,
        r->transfer, r->reps, r->flops, r->bytes, r->input_bytes, r->output_bytes);
  if (!r->results)
    return;
  feed (s, "{\"type\":\"launch\",\"run\":%d,\"registers\":%d,\"static_smem\":%d,"
           "\"dynamic_smem\":0,\"kernel_max_threads\":1024,\"threads_per_block\":%d,"
           "\"warps_per_block\":%d,\"active_blocks_per_sm\":%d,\"active_warps_per_sm\":%d,"
           "\"max_warps_per_sm\":%d,\"occupancy\":%.17g,\"limiter\":\"%s\",\"limits\":"
           "{\"blocks_per_sm\":32,\"warps\":%d,\"registers\":64,\"shared_memory\":228},"
           "\"blocks\":%" G_GINT64_FORMAT ",\"waves\":%.17g}",
        r->id, r->registers, r->smem, threads, warps, r->active_blocks,
        r->active_blocks * warps, r->max_warps, r->occupancy, r->limiter, r->max_warps / warps,
        r->grid, (double) r->grid / (r->active_blocks * 132));

  for (int rep = 0; rep < r->reps; rep++, t += 10 * (gint64) (r->e2e + r->h2d + r->d2h))
    {
      gint64 c = t, piece = (gint64) (r->h2d / r->copies_in), k_start, k_end;
      g_autofree char *in = g_strdup_printf (",\"direction\":\"htod\",\"bytes\":%" G_GINT64_FORMAT
                                             ",\"host_memory\":\"%s\",\"stream\":%d",
                                             r->input_bytes / r->copies_in, memory, 14);
      g_autofree char *out = g_strdup_printf (",\"direction\":\"dtoh\",\"bytes\":%" G_GINT64_FORMAT
                                              ",\"host_memory\":\"%s\",\"stream\":%d",
                                              r->output_bytes, memory, r->streams > 1 ? 16 : 14);
      g_autofree char *kernel = g_strdup_printf (",\"name\":\"%s\",\"grid\":[%" G_GINT64_FORMAT
                                                 ",1,1],\"block\":[%d,%d,1],\"stream\":%d",
                                                 r->name, r->grid, r->block[0], r->block[1],
                                                 r->streams > 1 ? 15 : 14);

      for (int i = 0; i < r->copies_in; i++, c += piece + 500)
        feed_activity (s, r, "sequence", rep, "memcpy", c, c + piece, in);
      feed_activity (s, r, "sequence", rep, "memset", c, c + 2000, ",\"bytes\":4000,\"stream\":14");
      c += 2500;
      k_start = c;
      if (r->streams > 1)
        k_start = c - 2500 - 500 - (gint64) (r->overlap * MIN (r->kernel, r->h2d));
      k_end = k_start + (gint64) r->kernel;
      feed_activity (s, r, "sequence", rep, "kernel", k_start, k_end, kernel);
      c = MAX (c, k_end) + 500;
      feed_activity (s, r, "sequence", rep, "memcpy", c, c + (gint64) r->d2h, out);
    }
  for (int rep = 0; rep < r->reps; rep++)
    {
      g_autofree char *kernel = g_strdup_printf (",\"name\":\"%s\",\"stream\":14", r->name);
      double d = rep == 0 ? r->kernel_max : rep == 1 ? r->kernel_min : r->kernel;

      feed_activity (s, r, "kernels", rep, "kernel", t, t + (gint64) d, kernel);
      t += (gint64) d + 1500;
    }
  if (r->cpu1 > 0 && !r->cpu1_skipped)
    feed_activity (s, r, "cpu", 0, "cpu", t, t + (gint64) r->cpu1,
                   ",\"name\":\"cpu_reference_1_thread\",\"threads\":1");

  if (r->achieved > 0 && r->stall_total > 0)
    feed (s, "{\"type\":\"counters\",\"run\":%d,\"chip\":\"GH100\",\"groups\":\"basic,stalls\","
             "\"passes\":8,\"cost_ns\":2500000,\"values\":{\"achieved_occupancy\":%.17g,"
             "\"dram_bytes_read\":8e7,\"stall_total\":%.17g,\"stall_barrier\":%.17g}}",
          r->id, r->achieved, r->stall_total, r->stall_barrier);
  else if (r->achieved > 0)
    feed (s, "{\"type\":\"counters\",\"run\":%d,\"chip\":\"GH100\",\"groups\":\"basic\","
             "\"passes\":2,\"cost_ns\":900000,\"values\":{\"achieved_occupancy\":%.17g,"
             "\"dram_bytes_read\":8e7,\"future_counter\":1%s}}",
          r->id, r->achieved, r->counted ? r->counted : "");
  feed (s, "{\"type\":\"verify\",\"run\":%d,\"pass\":%s,\"method\":\"all\",\"checked\":1000000,"
           "\"total\":1000000,\"mismatches\":%" G_GINT64_FORMAT ",\"unwritten\":%" G_GINT64_FORMAT
           ",\"max_abs_err\":%g,\"max_rel_err\":%g,\"rtol\":1e-05,\"atol\":1e-08%s}",
        r->id, r->pass ? "true" : "false", r->mismatches, r->unwritten, r->pass ? 0 : 0.5,
        r->pass ? 0 : 0.25,
        r->pass ? ""
                : ",\"first_bad_index\":17,\"first_bad_value\":3.5,\"first_bad_expected\":2.5");
  if (r->cpu1_skipped)
    cpu1 = g_strdup ("{\"threads\":1,\"skipped\":true,\"note\":\"one run would take 40 s\"}");
  else
    cpu1 = g_strdup_printf ("{\"threads\":1,\"median\":%.17g,\"min\":%.17g,\"max\":%.17g,"
                            "\"n\":%d,\"warmed_up\":true%s%s%s}",
                            r->cpu1, r->cpu1, r->cpu1, r->cpu1_n,
                            r->cpu1_note ? ",\"note\":\"" : "", r->cpu1_note ?: "",
                            r->cpu1_note ? "\"" : "");
  feed (s, "{\"type\":\"timing\",\"run\":%d,\"traced\":true,"
           "\"kernel_ns\":{\"median\":%.17g,\"min\":%.17g,\"max\":%.17g,\"n\":%d},"
           "\"kernel_in_sequence_ns\":{\"median\":%.17g,\"min\":%.17g,\"max\":%.17g,\"n\":%d},"
           "\"h2d_ns\":{\"median\":%.17g,\"min\":%.17g,\"max\":%.17g,\"n\":%d},"
           "\"d2h_ns\":{\"median\":%.17g,\"min\":%.17g,\"max\":%.17g,\"n\":%d},"
           "\"e2e_ns\":{\"median\":%.17g,\"min\":%.17g,\"max\":%.17g,\"n\":%d},"
           "\"cpu_1\":%s,\"cpu_all\":{\"threads\":16,\"median\":%.17g,\"min\":%.17g,"
           "\"max\":%.17g,\"n\":5,\"warmed_up\":true}}",
        r->id, r->kernel, r->kernel_min, r->kernel_max, r->reps, r->kernel, r->kernel, r->kernel,
        r->reps, r->h2d, r->h2d, r->h2d, r->reps, r->d2h, r->d2h, r->d2h, r->reps, r->e2e, r->e2e,
        r->e2e, r->reps, cpu1, r->cpu_all, r->cpu_all, r->cpu_all);
}

/* A session of the given runs, ended as a file would be. */
static inline WsSession *
session_of (const Spec *specs, guint n)
{
  WsSession *s = new_session ();

  for (guint i = 0; i < n; i++)
    add_run (s, &specs[i]);
  feed (s, "{\"type\":\"done\",\"runs\":%u,\"failed\":0,\"exit_code\":0}", n);
  return s;
}

/* The kind of activity each finding points at (0: any or none). */
static const int points_at[WS_N_FINDING_KINDS] = {
  [WS_FINDING_TRANSFER_BOUND] = 1 + WS_ACTIVITY_MEMCPY,
  [WS_FINDING_PAGEABLE_MEMORY] = 1 + WS_ACTIVITY_MEMCPY,
  [WS_FINDING_SMALL_COPIES] = 1 + WS_ACTIVITY_MEMCPY,
  [WS_FINDING_UNDER_OCCUPIED] = 1 + WS_ACTIVITY_KERNEL,
  [WS_FINDING_PARTIAL_WARP] = 1 + WS_ACTIVITY_KERNEL,
  [WS_FINDING_SMALL_GRID] = 1 + WS_ACTIVITY_KERNEL,
  [WS_FINDING_TAIL_EFFECT] = 1 + WS_ACTIVITY_KERNEL,
  [WS_FINDING_LAUNCH_BOUND] = 1 + WS_ACTIVITY_KERNEL,
  [WS_FINDING_BELOW_BANDWIDTH] = 1 + WS_ACTIVITY_KERNEL,
  [WS_FINDING_BELOW_COMPUTE] = 1 + WS_ACTIVITY_KERNEL,
  [WS_FINDING_NOISY_TIMING] = 1 + WS_ACTIVITY_KERNEL,
  [WS_FINDING_TIED_WITH_BEST] = 1 + WS_ACTIVITY_KERNEL,
  [WS_FINDING_BEST_IN_SWEEP] = 1 + WS_ACTIVITY_KERNEL,
  [WS_FINDING_ACHIEVED_OCCUPANCY] = 1 + WS_ACTIVITY_KERNEL,
  [WS_FINDING_VERIFICATION_FAILED] = 1 + WS_ACTIVITY_KERNEL,
};

/* Every finding is worded in full and points at activities of its run, in order, of the kind
 * it is about (copies of the sequences for the copy findings); a run's findings come most
 * severe first. */
static inline void
check_pointers (WsSession *session, GPtrArray *findings)
{
  for (guint i = 0; i < findings->len; i++)
    {
      const WsFinding *f = g_ptr_array_index (findings, i);
      WsRun *run = ws_session_find_run (session, f->run);
      const WsSpan *a = NULL;
      guint n = 0;

      g_assert_true (f->title && f->numbers && f->cause && f->fix);
      g_assert_false (isnan (f->value));
      if (i > 0 && ((WsFinding *) g_ptr_array_index (findings, i - 1))->run == f->run)
        g_assert_cmpint (((WsFinding *) g_ptr_array_index (findings, i - 1))->severity, >=,
                         f->severity);
      g_assert_true (f->run == 0 || run != NULL);
      if (run != NULL)
        a = ws_run_get_activities (run, &n);
      for (guint j = 0; j < f->activities->len; j++)
        {
          guint k = g_array_index (f->activities, guint, j);

          g_assert_cmpuint (k, <, n);
          g_assert_true (j == 0 || g_array_index (f->activities, guint, j - 1) < k);
          if (points_at[f->kind] != 0)
            g_assert_cmpint (a[k].kind, ==, points_at[f->kind] - 1);
          if (points_at[f->kind] == 1 + WS_ACTIVITY_MEMCPY)
            g_assert_cmpint (a[k].phase, ==, WS_PHASE_SEQUENCE);
        }
    }
}

static inline const WsFinding *
find (GPtrArray *findings, WsFindingKind kind, int run)
{
  for (guint i = 0; i < findings->len; i++)
    {
      const WsFinding *f = g_ptr_array_index (findings, i);

      if (f->kind == kind && (run == 0 || f->run == run))
        return f;
    }
  return NULL;
}

static inline GPtrArray *
analyze_one (const Spec *spec)
{
  g_autoptr (WsSession) s = session_of (spec, 1);
  GPtrArray *findings = ws_analyze_run (s, ws_session_find_run (s, spec->id));

  check_pointers (s, findings);
  return findings;
}

/* The finding of `kind` among `findings`, which must be there with `severity`; shown in the
 * test log, so that its words can be read. */
static inline const WsFinding *
expect (GPtrArray *findings, WsFindingKind kind, WsSeverity severity)
{
  const WsFinding *f = find (findings, kind, 0);

  if (f == NULL)
    g_error ("expected %s among %u findings", ws_finding_kind_to_string (kind), findings->len);
  g_assert_cmpstr (ws_severity_to_string (f->severity), ==, ws_severity_to_string (severity));
  g_test_message ("%s [%s] %s | %s | %s | %s", f->id, ws_severity_to_string (f->severity),
                  f->title, f->numbers, f->cause, f->fix);
  return f;
}

/* Analyzes the one run of `spec` and takes its finding of `kind` out for the caller. */
static inline WsFinding *
fires (const Spec *spec, WsFindingKind kind, WsSeverity severity)
{
  g_autoptr (GPtrArray) findings = analyze_one (spec);
  const WsFinding *f = expect (findings, kind, severity);
  guint index;

  g_assert_true (g_ptr_array_find (findings, f, &index));
  return g_ptr_array_steal_index (findings, index);
}

static inline void
quiet (const Spec *spec, WsFindingKind kind)
{
  g_autoptr (GPtrArray) findings = analyze_one (spec);
  const WsFinding *f = find (findings, kind, 0);

  if (f != NULL)
    g_error ("%s fired: %s (%s)", f->id, f->title, f->numbers);
}

#define HAS(text, part) g_assert_nonnull (strstr ((text), (part)))

/* ---- the bundled recordings ---- */

static inline gboolean
have_sample (const char *name)
{
  g_autofree char *path = g_build_filename (g_getenv ("WS_SAMPLES_DIR"), name, NULL);

  return g_file_test (path, G_FILE_TEST_EXISTS);
}

static inline WsSession *
load_sample (const char *name)
{
  g_autofree char *path = g_build_filename (g_getenv ("WS_SAMPLES_DIR"), name, NULL);
  g_autoptr (GFile) file = g_file_new_for_path (path);
  g_autoptr (GError) error = NULL;
  WsSession *session = ws_session_load (file, NULL, &error);

  g_assert_no_error (error);
  return session;
}

static inline WsRun *
run_where (WsSession *s, const char *kernel, double size, guint block_x, guint block_y,
           const char *transfer)
{
  GListModel *runs = ws_session_get_runs (s);

  for (guint i = 0; i < g_list_model_get_n_items (runs); i++)
    {
      g_autoptr (WsRun) run = g_list_model_get_item (runs, i);
      const WsRunConfig *c = ws_run_get_config (run);

      if (g_str_equal (c->kernel, kernel) && c->size == size && c->block[0] == block_x
          && c->block[1] == block_y && g_str_equal (c->transfer, transfer))
        return run; /* the session holds it */
    }
  g_error ("no run of %s at %g with block %u×%u, %s", kernel, size, block_x, block_y, transfer);
}

static inline GPtrArray *
analyze_where (WsSession *s, const char *kernel, double size, guint block_x, guint block_y,
               const char *transfer)
{
  WsRun *run = run_where (s, kernel, size, block_x, block_y, transfer);
  GPtrArray *findings = ws_analyze_run (s, run);

  check_pointers (s, findings);
  return findings;
}
