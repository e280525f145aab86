/* ws-analysis.h: findings: what a run's numbers say, with the cause and the fix in words a
 * student understands, and the records they point at. Every threshold is in one table
 * (ws_analysis_get_thresholds, docs/findings.md).
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "ws-json-writer.h"
#include "ws-session.h"
#include "ws-trace.h"

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
  WS_FINDING_TIMED_COMPILE,      /* traced: a compile or module load where a timer may be */
  WS_FINDING_UNDER_OCCUPIED,     /* theoretical occupancy < 100%, naming the limiter */
  WS_FINDING_PARTIAL_WARP,       /* block size not a multiple of 32 */
  WS_FINDING_SMALL_GRID,         /* fewer blocks than SMs (high) or than 2× SMs (low) */
  WS_FINDING_TAIL_EFFECT,        /* a partial last wave that is a large share of few waves */
  WS_FINDING_TRANSFER_BOUND,     /* copies take at least as long as the kernel */
  WS_FINDING_PAGEABLE_MEMORY,    /* pageable copies, with pinned's rate on the same device */
  WS_FINDING_SYNCHRONOUS_COPIES, /* traced: asynchronous copy calls from pageable memory */
  WS_FINDING_SMALL_COPIES,       /* copies so small that latency dominates */
  WS_FINDING_LOW_OVERLAP,        /* streamed modes: copies and kernels barely overlap */
  WS_FINDING_GPU_IDLE,           /* traced: the GPU waits between its work */
  WS_FINDING_LAUNCH_BOUND,       /* the kernel is shorter than launch overhead */
  WS_FINDING_BELOW_BANDWIDTH,    /* memory-bound, below 60% of the measured copy bandwidth */
  WS_FINDING_BELOW_COMPUTE,      /* compute-bound, below 60% of the compute ceiling */
  WS_FINDING_SLOWER_THAN_CPU,    /* with the crossover size of its series */
  WS_FINDING_NOISY_TIMING,       /* spread too wide to rank configurations */
  WS_FINDING_TIED_WITH_BEST,     /* in a block sweep: within the best one's spread */
  WS_FINDING_BEST_IN_SWEEP,      /* in a block sweep: the fastest (with the ties named) */
  WS_FINDING_CPU_BASELINE_NOTE,  /* a CPU baseline was skipped or ran fewer times */
  WS_FINDING_STARTUP_TIME,       /* traced: most of the program passes before its first kernel */
  WS_FINDING_ACHIEVED_OCCUPANCY, /* counted: achieved occupancy well below the theoretical */
  WS_FINDING_UNCOALESCED,        /* counted: global accesses touching too many sectors */
  WS_FINDING_BANK_CONFLICTS,     /* counted: shared-memory bank conflicts */
  WS_FINDING_DIVERGENT,          /* counted: few threads active per warp instruction */
  WS_FINDING_STALLS,             /* counted: where the warps' stalled time goes */
} WsFindingKind;

#define WS_N_FINDING_KINDS (WS_FINDING_STALLS + 1)

/* The stable identifier of a kind ("under_occupied"): the same as WsFinding.id. */
const char *ws_finding_kind_to_string (WsFindingKind kind);

typedef struct
{
  WsFindingKind kind;
  const char *id;      /* stable identifier: "under_occupied", "transfer_bound", … */
  WsSeverity severity;
  int run;             /* the run it is about; 0 for a finding about a whole series or the
                        * session (the runner's session-level errors) */
  char *title;         /* one line: "Transfer-bound: the copies take 363× as long as the kernel" */
  char *numbers;       /* the numbers behind it, in words */
  char *cause;         /* why, for a student */
  char *fix;           /* what to change, naming the command line's flags (--transfer pinned) */
  char *fix_app;       /* the same in the app's words, naming its controls (Host memory:
                        * Pinned in the sidebar); read both through ws_finding_get_fix */
  double value;        /* the measured quantity the threshold applies to, in the unit of
                        * the threshold's row of the table (a fraction, µs, ×, bytes) */
  double threshold;    /* the threshold that made it fire, in the same unit */
  GArray *activities;  /* guint: indices into ws_run_get_activities() it points at; for a
                        * finding about a traced program, into ws_trace_get_spans () */
  /* A finding about a traced program (ws_analyze_trace): */
  gboolean trace;
  guint program;       /* its program run (WsTraceProgram.id) */
  const char *kernel;  /* interned: the kernel it is about; NULL for the whole run */
  const char *library; /* static: the library whose choice it is about ("cuBLAS", "PyTorch":
                        * ws_trace_kernel_library), nothing the program can change; NULL for
                        * the program's own kernels and for what the program does (a library
                        * kernel launched too often is the program's doing) */
} WsFinding;

/* Who reads a finding or a chart's empty state: the command line names its flags, the app its
 * controls, since a person in the app has no flags to give. */
typedef enum
{
  WS_AUDIENCE_CLI,
  WS_AUDIENCE_APP,
} WsAudience;

/* The fix in the words of `audience`; NULL when the finding has none. */
const char *ws_finding_get_fix (const WsFinding *finding, WsAudience audience);

/* What a finding written as JSON says it is about. */
typedef enum
{
  WS_FINDING_ABOUT_RUN,    /* "run": the run's id, 0 for the whole session */
  WS_FINDING_ABOUT_KERNEL, /* "kernel": a traced program's kernel, null for the whole run */
} WsFindingAbout;

/* One finding as a JSON object, as the CLI's reports write them: id, severity, what it is
 * about, title, numbers, cause, fix (in the words of `audience`), value, threshold. */
void ws_finding_write_json (WsJsonWriter *json, const WsFinding *finding, WsFindingAbout about,
                            WsAudience audience);

void ws_finding_free (WsFinding *finding);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (WsFinding, ws_finding_free)

/* In findings sorted as the analysis sorts them (a library's kernels' findings last in each
 * program run, each library's together): where findings[i] begins a library's group, the
 * heading that folds them ("cuBLAS: 3 findings about its own kernels, which the program
 * cannot change") and in `n` how many follow from i on, the first included; NULL and 0
 * elsewhere. The CLI's report and the app's panel fold with the same words. */
char *ws_findings_library_group (GPtrArray *findings, guint i, guint *n);

const char *ws_severity_to_string (WsSeverity severity); /* "info", "low", "medium", "high" */
const char *ws_severity_to_label (WsSeverity severity);  /* the same word, for people: translated */

/* The thresholds, named, with what each means: the one table in code (docs/findings.md shows
 * the same rows, and the tests check that it does). */
typedef struct
{
  const char *name;        /* "occupancy_low" */
  double value;            /* 1.0 */
  const char *unit;        /* "fraction", "µs", "×" */
  const char *description; /* "theoretical occupancy below this is reported" */
} WsThreshold;

const WsThreshold *ws_analysis_get_thresholds (guint *n_thresholds);
/* The value of a named threshold; NaN (and a critical warning) for a name not in the table. */
double ws_analysis_threshold (const char *name);

/* Findings about one run, most severe first (WsFinding). Series-level findings (crossover,
 * ties, noise) need the session and are included for the runs they concern. */
GPtrArray *ws_analyze_run (WsSession *session, WsRun *run);
/* Every run's findings, in run order (WsFinding), then the runner's session-level errors
 * (run 0). Faster than ws_analyze_run for each run: the series are found once. */
GPtrArray *ws_analyze_session (WsSession *session);

/* A traced program's findings (ws-analysis-trace*.c): program run by program run, each run's
 * most severe first; empty for a session without a trace. */
GPtrArray *ws_analyze_trace (WsSession *session);

/* Whose work a kernel's first launch waited for. */
typedef enum
{
  WS_CODE_WAIT_NUMBA,       /* Numba compiling the program's Python kernel, then the driver */
  WS_CODE_WAIT_DRIVER_JIT,  /* the driver compiling PTX for this GPU */
  WS_CODE_WAIT_MODULE_LOAD, /* the driver loading the kernel's module */
} WsCodeWaitKind;

/* The wait before a kernel's first launch in which its code was compiled or loaded: what the
 * "Compile timed" finding measures (ws-analysis-trace-compile.c), as data the timeline draws. */
typedef struct
{
  guint program;       /* its program run (WsTraceProgram.id) */
  const char *kernel;  /* interned, as recorded */
  gint64 start, end;   /* from the thread's last CUDA call before the loading to the launch */
  gint64 driver_ns;    /* of that, the driver's module loads and JIT as it timed them */
  guint launch;        /* the launch call, into ws_trace_get_spans () */
  WsCodeWaitKind kind;
} WsCodeWait;

/* What a wait is called where it is drawn: "Numba compile", "JIT compile", "Module load". */
const char *ws_code_wait_name (const WsCodeWait *wait);
/* A wait for a person, as the finding says it: what waited, for what, how long, when. */
char *ws_trace_describe_code_wait (WsTrace *trace, const WsCodeWait *wait);

/* Speedup of the GPU over a CPU baseline: kernel only, or end to end with the copies;
 * 0 when either time is missing. */
double ws_run_get_speedup (WsRun *run, gboolean all_cores, gboolean end_to_end);
/* The baseline that speedup is against, for people (translated): "OpenBLAS 0.3.21, 16
 * threads", "hand-written, 1 thread", "hand-written, 1 thread (faster than all cores)"; NULL when the run has no such baseline. Charts, tables
 * and findings name it beside every speedup. */
char *ws_run_dup_baseline_label (WsRun *run, gboolean all_cores);
/* The same words for any baseline record, such as the other implementation beside it. */
char *ws_cpu_baseline_dup_label (const WsCpuBaseline *baseline);
/* The threads an all-core baseline stands for: the cores it could use, also where one thread
 * was the faster and ran; 0 when not known. */
int ws_cpu_baseline_get_cores (const WsCpuBaseline *baseline);

/* What the kernel achieved over its median time (ws_run_get_kernel_ns): GB/s of the run's
 * `bytes` (the fewest any kernel must move) and GFLOP/s of its `flops`; 0 when not known. */
double ws_run_get_gbs (WsRun *run);
double ws_run_get_gflops (WsRun *run);
/* Arithmetic intensity: the run's flops / bytes, in FLOP per byte; 0 when not known. */
double ws_run_get_intensity (WsRun *run);
/* The device's ridge point: FP32 peak / measured copy bandwidth, in FLOP per byte. Kernels
 * below it are memory-bound, above it compute-bound. 0 when the device does not say. */
double ws_analysis_get_ridge_point (const WsDeviceInfo *device);

/* Where a size series first crosses 1× (interpolated on log scales); FALSE when it does not. */
gboolean ws_analysis_find_crossover (WsSeries *series, gboolean all_cores, gboolean end_to_end,
                                     double *size);

/* In a block series: the fastest run, and every run whose median lies within the best one's
 * spread (min–max), the best included (WsRun, borrowed). `tied` may be NULL; NULL when no
 * run of the series has a kernel time. */
WsRun *ws_analysis_rank_blocks (WsSeries *series, GPtrArray *tied);

/* The ceiling a run is compared with: memory-bound kernels against the measured copy
 * bandwidth, compute-bound ones against the session's cuBLAS SGEMM rate when it has one,
 * else the theoretical FP32 peak; ws_ceiling_describe names which, for the finding's words. */
typedef enum
{
  WS_CEILING_NONE,
  WS_CEILING_COPY_BANDWIDTH,
  WS_CEILING_CUBLAS,
  WS_CEILING_FP32_PEAK,
} WsCeiling;

/* `fraction` is the kernel's achieved rate over `ceiling` (GB/s for the copy bandwidth,
 * GFLOP/s otherwise); both may be NULL. The cuBLAS rate is the best of the session's
 * completed `matmul_cublas` runs of the same shape; a cuBLAS run itself is compared with the
 * FP32 peak. */
WsCeiling ws_analysis_get_ceiling (WsSession *session, WsRun *run, double *fraction,
                                   double *ceiling);
/* "the measured copy bandwidth", "cuBLAS SGEMM at this size", "the theoretical FP32 peak" */
const char *ws_ceiling_describe (WsCeiling ceiling);

G_END_DECLS
