/* ws-run.h: one configuration of a session: what was asked, what the launch allowed, how
 * long each part took with its spread, the CPU baselines, the verification, its activities.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib-object.h>

#include "ws-run-counters.h"

#include "ws-span.h"

G_BEGIN_DECLS

typedef struct
{
  double median, min, max; /* ns */
  int n;                   /* 0: not measured */
} WsStats;

typedef struct
{
  gboolean present;   /* asked for */
  gboolean skipped;   /* asked for but not run: note says why */
  int threads;
  WsStats stats;
  gboolean warmed_up;
  double estimate_ns;
  int from_run;       /* measured by that earlier run; 0 here */
  const char *note;
  /* What ran: "hand_written" (Warpscope's own code: also recordings from before BLAS
   * baselines) or "blas"; for "blas", the library ("OpenBLAS"), its version ("0.3.21") or
   * NULL, and its own description of itself. */
  const char *implementation;
  const char *library;
  const char *library_version;
  const char *library_config;
  /* For a family that could have used a BLAS but did not: why (none found, …); else NULL. */
  const char *library_note;
  /* An all-core baseline: the threads "all cores" means, 0 in recordings from before; and
   * whether one thread was the faster, and so is the run kept (threads then says 1). */
  int max_threads;
  gboolean one_thread_faster;
} WsCpuBaseline;

typedef struct
{
  gboolean traced;
  WsStats kernel;             /* CUPTI, back-to-back launches */
  WsStats kernel_in_sequence; /* CUPTI, kernels inside the copy sequences */
  WsStats h2d, d2h, memset, e2e;
  double kernel_untraced_ns;
  int untraced_launches;
  const char *untraced_method;
  /* The baselines speedups are against: the faster implementation the runner measured. */
  WsCpuBaseline cpu_one, cpu_all;
  /* The other implementation beside it (the hand-written SGEMM beside a BLAS, or a BLAS that
   * was slower); present is FALSE when there was none. */
  WsCpuBaseline cpu_one_other, cpu_all_other;
} WsTiming;

typedef struct
{
  int registers, static_smem, dynamic_smem, local_bytes;
  int registers_compiled; /* the compiler's count; 0 in recordings that do not say */
  int kernel_max_threads;
  int threads_per_block, warps_per_block;
  int active_blocks_per_sm, active_warps_per_sm, max_warps_per_sm;
  double occupancy;
  const char *limiter;
  int limit_blocks, limit_warps, limit_registers, limit_smem;
  gint64 blocks;
  double waves;
} WsLaunch;

typedef struct
{
  gboolean pass;
  const char *method;
  gint64 checked, total, mismatches, unwritten;
  double max_abs_err, max_rel_err, rtol, atol;
  gint64 first_bad_index; /* -1 when none */
  double first_bad_value, first_bad_expected;
  /* Nothing was compared: an own kernel whose header declares no reference (method
   * "none"); pass is TRUE then, and checked 0. */
  gboolean unverified;
  const char *note;       /* why the check could not be made; NULL when it was */
  const char *first_bad_buffer; /* an own kernel with several outputs: where first_bad is */
} WsVerify;

typedef struct
{
  int id;
  const char *kernel;
  const char *family;
  int shape_rank;       /* 1: n; 2: rows, columns; 3: m, n, k */
  guint64 shape[3];
  double size;          /* one number for plots */
  const char *size_text;
  guint block[3];
  guint grid[3];
  gboolean library;     /* a library kernel (cuBLAS) that picks its own block and grid */
  gboolean has_block;   /* the record gives the block (not a library's kernel, nor absent) */
  gboolean has_grid;
  guint threads_per_block;
  const char *transfer; /* as written: "pageable", "pinned", "streams:4" */
  WsTransfer transfer_kind; /* the same, through the protocol's names: compare this one */
  int reps, warmup;
  guint64 seed;
  const char *cpu;
  const char *cache;    /* "warm" (each launch after the last; also older recordings) or "cold"
                         * (L2 flushed before every timed launch) */
  double flops, bytes;
  gint64 input_bytes, output_bytes;
  /* The GPU that ran it, in a session merged from several runners (ws-sweep-merge.h): its
   * CUDA index and UUID (the one device record that has it); -1 and NULL otherwise. */
  int device;
  const char *device_uuid;
  /* An own kernel's run (docs/own-kernels.md): the SHA-256 of its source and its tunable
   * parameters' values as "TILE=16, UNROLL=2"; NULL for a built-in kernel's. */
  const char *source_hash;
  const char *params;
} WsRunConfig;

typedef struct
{
  int run;                  /* 0: the session's */
  WsErrorSeverity severity; /* an unknown severity reads as an error */
  WsErrorCode code;         /* WS_ERROR_UNKNOWN for a code this version does not know */
  char *code_name;          /* the code as written ("no_driver"), for people: never NULL */
  char *message;
  char *detail;
  /* An own kernel's header or compile error: where in its file; NULL and 0 otherwise. */
  char *file;
  int line, column;
} WsRunnerError;

void ws_runner_error_free (WsRunnerError *error);

typedef enum
{
  WS_RUN_STATE_RUNNING,  /* announced, results still to come */
  WS_RUN_STATE_COMPLETE, /* timed and verified */
  WS_RUN_STATE_FAILED,   /* verification failed */
  WS_RUN_STATE_REFUSED,  /* an error stopped it */
  WS_RUN_STATE_INCOMPLETE, /* the stream ended before its results */
} WsRunState;

#define WS_TYPE_RUN (ws_run_get_type ())
G_DECLARE_FINAL_TYPE (WsRun, ws_run, WS, RUN, GObject)

int ws_run_get_id (WsRun *self);
const WsRunConfig *ws_run_get_config (WsRun *self);
/* NULL until the corresponding record has arrived. */
const WsLaunch *ws_run_get_launch (WsRun *self);
const WsTiming *ws_run_get_timing (WsRun *self);
const WsVerify *ws_run_get_verify (WsRun *self);
/* NULL unless the run's counters were read. */
const WsCounters *ws_run_get_counters (WsRun *self);
WsRunState ws_run_get_state (WsRun *self);
/* The runner's error records about this run (WsRunnerError). */
GPtrArray *ws_run_get_errors (WsRun *self);

/* Activities, sorted by start time. */
const WsSpan *ws_run_get_activities (WsRun *self, guint *n_activities);
/* The first activity that ends after `start` (binary search); n when none. */
guint ws_run_find_activity (WsRun *self, gint64 start);
/* The span of all its activities; FALSE when it has none. */
gboolean ws_run_get_time_range (WsRun *self, gint64 *start, gint64 *end);

/* The kernel time findings and charts use: CUPTI's median, else the untraced figure; 0 when
 * not measured. */
double ws_run_get_kernel_ns (WsRun *self);
/* "16×16", "256"; "" for a library kernel, which picks its own. */
char *ws_run_dup_block_label (WsRun *self);
/* "256 threads", "16×16 block"; "" for a library kernel. */
char *ws_run_dup_block_phrase (WsRun *self);
/* "matmul_tiled TILE=16" for an own kernel's run with tunable parameters, else the kernel. */
char *ws_run_dup_kernel_label (WsRun *self);
/* The kernels of these runs (WsRun) in order, three named and the rest counted: "a, b, c and 1
 * more". */
char *ws_runs_dup_kernels_label (GPtrArray *runs);
/* Two runs compared, each counted from its own start (ws_run_get_time_range's start is its
 * origin): the longer one's length, at least 1 µs; 0 when either has no spans. */
gint64 ws_runs_compared_length (WsRun *a, WsRun *b);
/* "n = 10,000,000", "4096³", "512×256×1024". */
char *ws_run_dup_size_label (WsRun *self);
/* A run's host memory ("pageable", "pinned") in the reader's language; other values as
 * they are. The records and CSV keep the English words. */
const char *ws_transfer_label (const char *transfer);
/* Per-run sums over its copy sequences. Copies and kernels are the lengths of the unions of
 * their spans, overlap the length of both at once, idle the rest of the sequences' span. */
typedef struct
{
  gint64 span_ns;
  gint64 copy_ns;
  gint64 h2d_ns;
  gint64 d2h_ns;
  gint64 kernel_ns;
  gint64 overlap_ns;
  gint64 idle_ns;
} WsTotals;

void ws_run_get_totals (WsRun *self, WsTotals *totals);
/* The same over any time window, for the activities that fall in it. */
void ws_totals_for_window (const WsSpan *activities, guint n, gint64 start, gint64 end,
                           WsTotals *totals);

G_END_DECLS
