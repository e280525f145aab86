/* ws-analysis-private.h: what the files of the analysis share: the thresholds by index, the
 * context of one analysis, the numbers written for people, and the finding builder.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "ws-config.h"

#include <glib/gi18n-lib.h>

#include "ws-analysis.h"
#include "ws-occupancy.h"

G_BEGIN_DECLS

/* Indices into the table of ws-analysis.c, in its order. */
typedef enum
{
  WS_T_OCCUPANCY_LOW,
  WS_T_OCCUPANCY_POOR,
  WS_T_OCCUPANCY_VERY_LOW,
  WS_T_PARTIAL_WARP_MEDIUM,
  WS_T_SMALL_GRID_HIGH,
  WS_T_SMALL_GRID_LOW,
  WS_T_TAIL_MAX_FULL_WAVES,
  WS_T_TAIL_IDLE,
  WS_T_TRANSFER_BOUND,
  WS_T_TRANSFER_BOUND_HIGH,
  WS_T_PAGEABLE_RATE,
  WS_T_SMALL_COPY_BYTES,
  WS_T_OVERLAP_LOW,
  WS_T_LAUNCH_OVERHEAD,
  WS_T_SPEED_OF_LIGHT,
  WS_T_SPEED_OF_LIGHT_POOR,
  WS_T_CPU_SPEEDUP,
  WS_T_NOISE_SPREAD,
  WS_T_ACHIEVED_GAP,
  WS_T_UNCOALESCED,
  WS_T_BANK_CONFLICTS,
  WS_T_SIMT,
  WS_T_STALL_TOP,
  WS_T_TIMED_COMPILE,
  WS_T_TIMED_COMPILE_HIGH,
  WS_T_STARTUP_TIME,
  WS_T_STARTUP_SHARE,
  WS_T_GPU_IDLE,
  WS_T_GPU_IDLE_SHARE,
  WS_T_GPU_IDLE_MEDIUM,
  WS_T_LAUNCH_BUSY,
  WS_T_LAUNCH_BUSY_MEDIUM,
  WS_T_LAUNCH_LAUNCHES,
  WS_T_PAGEABLE_MIN_TIME,
  WS_T_MANY_SMALL_COPIES,
  WS_N_THRESHOLDS
} WsThresholdId;

double _ws_threshold (WsThresholdId id);

/* What a run's launch facts and a traced kernel's share (ws-analysis-launch.c): the words for
 * what limits occupancy ("registers"), how much an occupancy under the threshold costs, and
 * the share of the last wave's slots a grid of `waves` waves leaves idle, or -1 where there
 * is no tail to speak of (less than a wave, whole waves, or more full waves than the last one
 * matters beside). */
const char *_ws_limiter_words (WsLimiter limiter);
WsSeverity _ws_occupancy_severity (double occupancy);
double _ws_tail_idle (double waves);

/* One analysis: the session, its device, and its series found once for all its runs. */
typedef struct
{
  WsSession *session;
  const WsDeviceInfo *device; /* NULL when the session names none */
  GPtrArray *size_series;     /* WsSeries, at least 2 runs */
  GPtrArray *block_series;
  GHashTable *size_series_of; /* WsRun → WsSeries (borrowed) */
  GHashTable *block_series_of;
  /* Built on first use, so that a sweep of thousands of runs is not searched for each run: */
  GHashTable *cublas;         /* shape → best matmul_cublas GFLOP/s (double *) */
  GHashTable *pinned;         /* kernel, shape and block → the complete pinned run of them */
  GHashTable *crossovers;     /* WsSeries → its crossovers, for each comparison */
  GHashTable *rankings;       /* WsSeries → its fastest run and the runs tied with it */
} WsAnalysis;

/* One run's findings within an analysis, most severe first, appended to `out`. */
void _ws_analysis_run (WsAnalysis *a, WsRun *run, GPtrArray *out);

/* ws_analysis_find_crossover and ws_analysis_rank_blocks, once per series of an analysis.
 * `rising`: the GPU catches up at `size` (else it falls behind there); `tied` is borrowed. */
gboolean _ws_analysis_crossover (WsAnalysis *a, WsSeries *series, gboolean all_cores,
                                 gboolean end_to_end, double *size, gboolean *rising);
WsRun *_ws_analysis_ranking (WsAnalysis *a, WsSeries *series, GPtrArray **tied);
/* The same configuration as `run` with pinned host memory, if the session ran it. */
WsRun *_ws_analysis_pinned_twin (WsAnalysis *a, WsRun *run);

/* ws_analysis_get_ceiling within an analysis. */
WsCeiling _ws_analysis_get_ceiling (WsAnalysis *a, WsRun *run, double *fraction,
                                    double *ceiling);

/* ---- one kernel configuration's launch, whichever source ran it ---- */

/* What the launch rules read about a kernel configuration: a sweep's run (its config and launch
 * records, the session's device) or a traced program's kernel (its launches' grid, block and
 * resources, the occupancy worked out on its device). The findings go to the run, or to the
 * program run and kernel with the launches they point at. */
typedef struct
{
  WsRun *run;                 /* a sweep's run; NULL for a traced kernel */
  guint program;              /* a traced kernel's program run */
  const char *kernel;         /* interned: a traced kernel's name as recorded */
  const char *short_name;     /* a traced kernel's short name, which its findings' titles
                               * give (a run is one kernel: its titles name none) */
  const GArray *spans;        /* a traced kernel's launches (guint indices of spans) */
  const char *library;        /* a library's kernel (static: "cuBLAS"): its authors' choices,
                               * reported as such; NULL for the program's own */
  gboolean numba;             /* launched from Numba: fixes in its launch syntax */
  const WsDeviceInfo *device; /* NULL when unknown */
  guint threads;              /* per block; 0 when the record gives none (cuBLAS) */
  guint block[3];
  gboolean has_block;
  gint64 blocks;              /* of the grid; 0 when unknown or too many to judge */
  int registers, smem, kernel_max_threads;
  gboolean has_occupancy;     /* the fields below are known */
  WsOccupancy occupancy;      /* only warps_per_block, active_blocks and active_warps,
                               * max_warps, occupancy, limiter and limit_blocks are read */
  gboolean limiter_known;     /* occupancy.limiter is one this version knows */
  const char *limiter_words;  /* for people: "registers" */
  /* Launch overhead, as each source sees it. A sweep times one configuration launched back
   * to back: a kernel shorter than a launch costs is launch-bound. A traced program launches
   * at its own pace: a kernel is launch-bound where the GPU finished it before the host asked
   * for the next one, and how much of the time between launches it worked says how much. */
  double kernel_ns;           /* the kernel's median time; 0 unknown */
  guint launches;             /* that the median is of; 0 when the source gives no count */
  gboolean paced;             /* a traced program's launches: the fields below are read */
  gboolean waited;            /* the GPU waited for most of the launches after the first */
  double interval_ns;         /* median from one launch's start to the next's */
  double call_ns;             /* median time of the driver's launch call; 0 unknown */
  double gap_ns;              /* a sweep's median idle time between back-to-back launches */
  /* Measured by the GPU's counters (docs/counters.md), where they were read: the warps
   * resident on average (0–1 of the most an SM holds), and the warps held at a barrier for
   * each instruction issued (NaN when the stalls were not read). */
  gboolean has_achieved;
  double achieved_occupancy;
  double stall_barrier, stall_total;
  const WsCounters *counters; /* every counter read; NULL where none was */
} WsLaunchFacts;

/* ws-analysis-kernel.c: occupancy, partial warps, a small grid, a partial last wave. */
void _ws_check_launch (const WsLaunchFacts *facts, GPtrArray *out);
/* ws-analysis-kernel.c: a kernel held back by its launches. */
void _ws_check_launch_bound (const WsLaunchFacts *facts, GPtrArray *out);
/* A finding about the launch `facts` describe, and its place among `out`. */
WsFinding *_ws_launch_finding_new (const WsLaunchFacts *facts, WsFindingKind kind,
                                   WsSeverity severity, double value, double threshold);
void _ws_launch_finding_add (const WsLaunchFacts *facts, WsFinding *f, GPtrArray *out);
/* ws-analysis-counted.c: what the GPU's counters say of the launch, where they were read:
 * achieved occupancy, coalescing, bank conflicts, divergence, stalls. */
void _ws_check_counted (const WsLaunchFacts *facts, GPtrArray *out);

/* ---- the copies between host and GPU, whichever source ran them ---- */

/* Copies of one direction, or of one direction and host memory: a sweep's run gives the
 * median of its repetitions, a traced program the sum of its copies. */
typedef struct
{
  WsCopyDirection direction;
  guint count;                /* a traced program's copies; a sweep's timed repetitions */
  double bytes;
  double ns;
  double pinned_gbs;          /* what pinned memory reaches the same way; 0 unknown */
  gboolean pinned_measured;   /* pinned_gbs is the runner's measurement of the device (else
                               * the rate of the program's own large pinned copies) */
} WsCopyLeg;

/* What the copy rules read about a sweep's run (the copies of its sequences, their timing and
 * configuration) or a traced program run (its copies between host and GPU, its kernels). The
 * findings go to the run, or to the program run with the spans they point at. */
typedef struct
{
  WsRun *run;                 /* a sweep's run; NULL for a traced program run */
  guint program;              /* a traced program run */
  gboolean numba;             /* launched from Numba: fixes in its own words */
  const WsDeviceInfo *device; /* a sweep's; NULL when unknown, and for a traced program, whose
                               * copies may be on several (each leg has its pinned rate) */
  double kernel_ns;           /* the kernels' time, to hold the copies against */
  double kernel_alone_ns;     /* a sweep's run: its kernel's median back to back, the runs
                               * table's kernel time (kernel_ns is inside the sequence); 0 else */
  /* Transfer-bound: host to device and back, and the spans they are. */
  WsCopyLeg in, back;
  GArray *copy_spans;
  /* A traced program's kernel launches, and how many of its copies came between the first and
   * the last: none means one-time copies around work that keeps the data on the GPU, which
   * only more work per copy amortizes; a sweep's run (one kernel between its copies) leaves
   * both 0. */
  guint kernel_launches, copies_between;
  double e2e_ns;              /* a sweep's run end to end, untraced; 0 else */
  double rate_bytes;          /* the bytes the copies' rate is worked out of */
  double kernel_bytes;        /* what a sweep's kernel moves (0: unknown), its FLOP per byte, */
  double intensity, ridge;    /* and the device's ridge point (0: unknown) */
  /* Pageable memory: copies from it large enough to judge by their rate, in the order the
   * source gives them; the time the host spent in their calls (-1: the source times none). */
  gboolean pageable;          /* copies from pageable memory: as recorded, else as configured */
  gboolean pageable_recorded; /* a copy's record says it is from pageable memory */
  GArray *pageable_legs;      /* WsCopyLeg */
  GArray *pageable_spans;
  double pageable_call_ns;
  WsRun *pinned_twin;         /* a sweep's same configuration with pinned memory; NULL none */
  /* Small copies. A sweep's run repeats one configuration: its copies are alike, and their
   * average says whether they are small. A traced program's copies come in every size: how
   * many are small says it. */
  WsCopyLeg all;              /* a sweep's copies of its sequences */
  WsCopyLeg small;            /* copies under the threshold */
  GArray *small_spans;
  double small_call_ns;
  /* Overlap of copies with kernels, over several streams. */
  gboolean streamed;
  guint streams;              /* 0 when the source does not count them */
  double overlap_copy_ns, overlap_kernel_ns, overlap_ns;
  GArray *overlap_spans;
} WsCopyFacts;

void _ws_copy_facts_clear (WsCopyFacts *facts);
/* ws-analysis-transfer.c: transfer-bound, pageable memory, small copies, low overlap. */
void _ws_check_copies (const WsCopyFacts *facts, GPtrArray *out);

/* ---- the rules, each appending its findings about `run` to `out` ---- */

/* ws-analysis-launch.c */
void _ws_launch_facts_of_run (WsAnalysis *a, WsRun *run, WsLaunchFacts *facts);
void _ws_check_ceiling (WsAnalysis *a, WsRun *run, GPtrArray *out);
/* ws-analysis-copies.c; cleared with _ws_copy_facts_clear */
void _ws_copy_facts_of_run (WsAnalysis *a, WsRun *run, WsCopyFacts *facts);
/* ws-analysis-results.c */
void _ws_check_errors (WsAnalysis *a, WsRun *run, GPtrArray *out);
void _ws_check_verify (WsAnalysis *a, WsRun *run, GPtrArray *out);
void _ws_check_cpu (WsAnalysis *a, WsRun *run, GPtrArray *out);
void _ws_check_timing_spread (WsAnalysis *a, WsRun *run, GPtrArray *out);
WsFinding *_ws_finding_for_session_error (const WsRunnerError *error);

/* The kernel as it ran between the copies, else the back-to-back figure (ws-analysis-copies.c);
 * the time to hold against the copies. */
double _ws_run_get_kernel_in_sequence_ns (WsRun *run);

/* A kernel shorter than the launch overhead: its rates say nothing about the kernel. */
gboolean _ws_run_is_launch_bound (WsRun *run);

/* ---- building findings ---- */

/* Most severe first; within a severity, in the order of WsFindingKind; otherwise as found.
 * Findings about a library's kernel (WsFinding.library) come after all the others, library by
 * library in the order of their names, each library's in the same order. */
void _ws_sort_findings (GPtrArray *findings);

WsFinding *_ws_finding_new (WsFindingKind kind, WsSeverity severity, WsRun *run, double value,
                            double threshold);
/* Each appends one sentence (a format string that is one whole sentence, for translators) to
 * the field, separated from the previous one by a space. */
void _ws_finding_title (WsFinding *finding, const char *format, ...) G_GNUC_PRINTF (2, 3);
void _ws_finding_numbers (WsFinding *finding, const char *format, ...) G_GNUC_PRINTF (2, 3);
void _ws_finding_cause (WsFinding *finding, const char *format, ...) G_GNUC_PRINTF (2, 3);
/* A sentence of the fix that both the CLI and the app say. */
void _ws_finding_fix (WsFinding *finding, const char *format, ...) G_GNUC_PRINTF (2, 3);
/* A sentence that names a way to change the run: as the CLI's flags (`cli`) and as the app's
 * controls (`app`). */
void _ws_finding_fix_for (WsFinding *finding, const char *cli, const char *app);
/* Points the finding at the run's activities of `kind` (-1: any) in `phase` (-1: any). */
void _ws_finding_point_at (WsFinding *finding, WsRun *run, int kind, int phase);
/* For a run measured with --cache cold, a sentence saying so, after the numbers of a finding
 * that quotes its kernel time. */
void _ws_finding_cache_note (WsFinding *finding, WsRun *run);

/* ---- numbers for people: ws-units.h's, each written into `buf` and returned ---------- */

#define WS_FMT_LEN 48

const char *_ws_fmt_time (char *buf, double ns);          /* "37.5 µs", "12.4 ms", "810 ns" */
const char *_ws_fmt_bytes (char *buf, double bytes);      /* "120 MB", "4.00 kB" (10³) */
const char *_ws_fmt_kib (char *buf, double bytes);        /* "48 KiB" (2¹⁰), shared memory */
const char *_ws_fmt_gbs (char *buf, double gbs);          /* "629 GB/s", "6.74 GB/s" */
const char *_ws_fmt_flops (char *buf, double flops);      /* "137 GFLOP" */
const char *_ws_fmt_gflops (char *buf, double gflops);    /* "8.10 TFLOP/s", "52.4 GFLOP/s" */
const char *_ws_fmt_percent (char *buf, double fraction); /* "15%", "99.7%" */
const char *_ws_fmt_ratio (char *buf, double ratio);      /* "0.16×", "1.66×", "390×" */
const char *_ws_fmt_count (char *buf, double count);      /* "10,000,000" */
const char *_ws_fmt_number (char *buf, double value);     /* 3 significant digits: "0.0833" */
/* A size of a series for people, to 2 significant digits: "n ≈ 95,000", "≈ 300³". */
const char *_ws_fmt_size (char *buf, const WsRunConfig *config, double size);
/* "block 256", "block 16×16" */
const char *_ws_fmt_block (char *buf, WsRun *run);

G_END_DECLS
