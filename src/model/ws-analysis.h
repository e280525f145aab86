/* ws-analysis.h: findings: what a run's numbers say, with the cause and the fix in words a
 * student understands, and the records they point at. Every threshold is in one table
 * (ws_analysis_get_thresholds, docs/findings.md).
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "ws-session.h"

G_BEGIN_DECLS

typedef enum
{
  WS_SEVERITY_INFO,    /* worth knowing, nothing to fix */
  WS_SEVERITY_LOW,     /* a little is lost */
  WS_SEVERITY_MEDIUM,  /* a clear loss with a clear fix */
  WS_SEVERITY_HIGH,    /* the run is wrong, or most of its time is lost */
} WsSeverity;

typedef enum
{
  WS_FINDING_VERIFICATION_FAILED,
  WS_FINDING_RUN_ERROR,          /* the runner refused or lost the run */
  WS_FINDING_UNDER_OCCUPIED,     /* theoretical occupancy < 100%, naming the limiter */
  WS_FINDING_PARTIAL_WARP,       /* block size not a multiple of 32 */
  WS_FINDING_SMALL_GRID,         /* fewer blocks than SMs (high) or than 2× SMs (low) */
  WS_FINDING_TAIL_EFFECT,        /* a partial last wave that is a large share of few waves */
  WS_FINDING_TRANSFER_BOUND,     /* copies take at least as long as the kernel */
  WS_FINDING_PAGEABLE_MEMORY,    /* pageable copies, with pinned's rate on the same device */
  WS_FINDING_SMALL_COPIES,       /* copies so small that latency dominates */
  WS_FINDING_LOW_OVERLAP,        /* streamed modes: copies and kernels barely overlap */
  WS_FINDING_LAUNCH_BOUND,       /* the kernel is shorter than launch overhead */
  WS_FINDING_BELOW_BANDWIDTH,    /* memory-bound, below 60% of the measured copy bandwidth */
  WS_FINDING_BELOW_COMPUTE,      /* compute-bound, below 60% of the compute ceiling */
  WS_FINDING_SLOWER_THAN_CPU,    /* with the crossover size of its series */
  WS_FINDING_NOISY_TIMING,       /* spread too wide to rank configurations */
  WS_FINDING_TIED_WITH_BEST,     /* in a block sweep: within the best one's spread */
  WS_FINDING_BEST_IN_SWEEP,      /* in a block sweep: the fastest (with the ties named) */
  WS_FINDING_CPU_BASELINE_NOTE,  /* a CPU baseline was skipped or ran fewer times */
} WsFindingKind;

typedef struct
{
  WsFindingKind kind;
  const char *id;      /* stable identifier: "under_occupied", "transfer_bound", … */
  WsSeverity severity;
  int run;             /* the run it is about; 0 for a finding about a whole series */
  char *title;         /* one line: "Transfer-bound: copies are 97% of the end-to-end time" */
  char *numbers;       /* the numbers behind it, in words */
  char *cause;         /* why, for a student */
  char *fix;           /* what to change */
  double value;        /* the measured quantity the threshold applies to */
  double threshold;    /* the threshold it was compared with */
  GArray *activities;  /* guint: indices into ws_run_get_activities() it points at */
} WsFinding;

void ws_finding_free (WsFinding *finding);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (WsFinding, ws_finding_free)

const char *ws_severity_to_string (WsSeverity severity); /* "info", "low", "medium", "high" */

/* The thresholds, named, with what each means: the one table in code. */
typedef struct
{
  const char *name;        /* "occupancy_low" */
  double value;            /* 1.0 */
  const char *unit;        /* "fraction", "µs", "×" */
  const char *description; /* "theoretical occupancy below this is reported" */
} WsThreshold;

const WsThreshold *ws_analysis_get_thresholds (guint *n_thresholds);
double ws_analysis_threshold (const char *name);

/* Findings about one run, most severe first (WsFinding). Series-level findings (crossover,
 * ties, noise) need the session and are included for the runs they concern. */
GPtrArray *ws_analyze_run (WsSession *session, WsRun *run);
/* Every run's findings, in run order (WsFinding). */
GPtrArray *ws_analyze_session (WsSession *session);

/* Speedup of the GPU over a CPU baseline: kernel only, or end to end with the copies;
 * 0 when either time is missing. */
double ws_run_get_speedup (WsRun *run, gboolean all_cores, gboolean end_to_end);

/* Where a size series crosses 1× (interpolated on log scales); FALSE when it does not. */
gboolean ws_analysis_find_crossover (WsSeries *series, gboolean all_cores, gboolean end_to_end,
                                     double *size);

/* In a block series: the fastest run, and every run whose median lies within the best one's
 * spread (min–max), the best included (WsRun, borrowed). */
WsRun *ws_analysis_rank_blocks (WsSeries *series, GPtrArray *tied);

/* The ceiling a run is compared with: memory-bound kernels against the measured copy
 * bandwidth, compute-bound ones against the session's cuBLAS SGEMM rate when it has one,
 * else the theoretical FP32 peak. Fills `name` with which, for the finding's words. */
typedef enum
{
  WS_CEILING_NONE,
  WS_CEILING_COPY_BANDWIDTH,
  WS_CEILING_CUBLAS,
  WS_CEILING_FP32_PEAK,
} WsCeiling;

WsCeiling ws_analysis_get_ceiling (WsSession *session, WsRun *run, double *fraction,
                                   double *ceiling);

G_END_DECLS
