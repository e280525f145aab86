/* ws-trace.h: a traced program in a session (libwarpscope-inject, through warpscope-runner
 * --trace or on its own): its program runs (one, or one per point of a sweep over the
 * program's own parameters), their processes, and what they did, as typed records on one time
 * axis: kernels, copies, memsets, synchronizations, API calls, NVTX ranges, JIT compiles,
 * context and module events. Tables group them as `nsys stats` does: kernels per name and
 * configuration, copies per direction and host memory, API calls per name.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "ws-occupancy.h"
#include "ws-session.h"
#include "ws-span.h"

G_BEGIN_DECLS

typedef struct _WsTrace WsTrace;

/* The session's trace; NULL for a runner session of built-in kernels. */
WsTrace *ws_session_get_trace (WsSession *session);

/* A traced program's spans are the session's spans (ws-span.h): `run` is the program run
 * (ws_trace_get_program ()), `process` an index into ws_trace_get_processes (), and times are
 * ns on the trace's axis: 0 is the moment the library started in the trace's first process
 * (inside its cuInit); the processes of one machine share that clock. */

typedef enum
{
  WS_TRACE_EVENT_CONTEXT_CREATE,
  WS_TRACE_EVENT_CONTEXT_DESTROY,
  WS_TRACE_EVENT_MODULE_LOAD,
  WS_TRACE_EVENT_MODULE_UNLOAD,
} WsTraceEventKind;

typedef struct
{
  WsTraceEventKind kind;
  gint64 at;           /* on the trace's axis */
  guint32 program, process;
  guint32 id;          /* the context's or the module's */
  guint32 context, device;
  gint64 bytes;        /* a module's cubin */
} WsTraceEvent;

typedef struct
{
  char *name;
  char *value;
} WsTraceParam;

/* One run of the program: the only one, or one point of a sweep. */
typedef struct
{
  guint id;             /* 1, 2, … as warpscope-runner --trace numbers them; 0 for a trace the
                         * library wrote on its own (no runner around it) */
  guint of;             /* program runs in the sweep (1 without one) */
  WsTraceParam *params; /* the sweep's values for this run */
  guint n_params;
  char **argv;          /* after substitution; NULL when not known (the first process's
                         * command line is in its WsTraceProcess) */
  char **env;           /* NAME=VALUE as given to --env, after substitution */
  char *cwd;
  char *path;           /* the executable that was started; NULL when it was not found */
  gboolean ended;       /* its program_end arrived */
  /* "exit", "signal", "timeout", "stopped" or "not_started"; NULL before its end. */
  const char *end_reason;
  int exit_status;      /* -1 when it did not exit by itself */
  int signal;           /* 0 when not ended by one */
  const char *signal_name;
  gint64 wall_ns;       /* from its start to its exit, as the runner measured; 0 unknown */
  guint n_processes;    /* processes that initialized CUDA */
  GPtrArray *errors;    /* WsRunnerError about this run (program_not_found, no_cuda_activity,
                         * cupti_in_use, …) */
  /* Internal: the runner's monotonic clock at its start and at its exit; 0 when not known. */
  guint64 start_monotonic_ns, end_monotonic_ns;
} WsTraceProgram;

typedef struct
{
  guint program;
  gint64 pid, ppid;
  char *executable;       /* /usr/bin/python3.12 */
  char **command;         /* argv, argv[0] included */
  char *cwd;
  gint64 start;           /* when the process started (before CUDA), on the trace's axis */
  gint64 cuda_start;      /* when the library started in it, inside cuInit */
  gint64 end;             /* the end of its last record */
  gboolean ended;         /* its trace_end arrived */
  const char *end_reason; /* "exit" or "signal"; NULL before its trace_end */
  int exit_status;
  int signal;
  const char *signal_name;
  gboolean flushed;
  gint64 records, dropped_records, lost_records, api_errors;
  const char *api_mode;   /* WARPSCOPE_TRACE_API: "launch", "all", "none" */
  /* Internal: CUPTI's and the monotonic clock at its origin. */
  gint64 clock_origin_ns, monotonic_origin_ns;
  GPtrArray *devices;     /* WsDevice, the devices it created contexts on */
} WsTraceProcess;

/* Whether the stream came from warpscope-runner --trace (program records, a done record). */
gboolean ws_trace_is_from_runner (WsTrace *trace);

/* Program runs, in order (WsTraceProgram, borrowed). */
GPtrArray *ws_trace_get_programs (WsTrace *trace);
const WsTraceProgram *ws_trace_get_program (WsTrace *trace, guint id);
/* Processes, in the order their records began (WsTraceProcess, borrowed). */
GPtrArray *ws_trace_get_processes (WsTrace *trace);
/* Every span in the order read; sorted by start once the stream has ended. */
const WsSpan *ws_trace_get_spans (WsTrace *trace, guint *n_spans);
const WsTraceEvent *ws_trace_get_events (WsTrace *trace, guint *n_events);
/* The span of a program run on the axis, from the start of its first process (or its start
 * by the runner) to its last record (or its exit); FALSE when it has no records. */
gboolean ws_trace_get_program_range (WsTrace *trace, guint program, gint64 *start,
                                     gint64 *end);
/* Counts of kernels and copies (memcpy) seen so far, for a live view. */
void ws_trace_count (WsTrace *trace, guint *kernels, guint *copies);

/* The device a process's span ran on, with the copy ceilings the runner measured for it
 * merged in when it did (same UUID); NULL when the trace does not describe it. Valid until
 * the next device record arrives (rows collected from the trace hold it too). */
const WsDeviceInfo *ws_trace_get_device (WsTrace *trace, guint process, guint device);

/* "add_kernel" for Numba's "__main__::add_kernel[abi:v1][abi:cw51…](Array<float, 1, …>, …)",
 * "Kernel2<cutlass_80_simt_sgemm_256x128_8x4_nn_align1>" for "void cutlass::Kernel2<…>(…)":
 * the name without return type, namespaces, ABI tags and parameters, long template arguments
 * shortened. */
char *ws_trace_kernel_short_name (const char *name);
/* Whether the kernel is a library's (cuBLAS, CUTLASS, cuDNN, PyTorch's own, Thrust, CUB): the
 * program chose neither its block nor its resources. */
gboolean ws_trace_kernel_is_library (const char *name);
/* The library that owns the kernel, as its name says ("cuBLAS", "CUTLASS", "cuDNN", "PyTorch",
 * "Thrust", "CUB", …: a static string); NULL for the program's own kernel. */
const char *ws_trace_kernel_library (const char *name);

/* ---- tables ------------------------------------------------------------------------------- */

#define WS_TRACE_ALL_PROGRAMS G_MAXUINT

/* One kernel configuration of one program run: name, grid, block, registers and shared
 * memory, as `nsys stats`' kernel summary groups them, with the occupancy those resources
 * allow on the device. */
typedef struct
{
  guint program;
  const char *name;        /* interned, as recorded */
  char *short_name;
  guint32 grid[3], block[3];
  guint registers, static_smem, dynamic_smem;
  guint process;           /* of its first launch */
  guint device;
  const WsDeviceInfo *device_info; /* NULL when the trace has no device record for it */
  guint count;
  double total_ns, median_ns, min_ns, max_ns;
  double share;            /* of the kernel time of its program run */
  gboolean has_occupancy;  /* the device and its architecture are known */
  WsOccupancy occupancy;
  double waves;            /* blocks / (active blocks per SM × SMs); 0 unknown */
  GArray *spans;           /* guint: indices of its kernels in ws_trace_get_spans () */
} WsTraceKernel;

void ws_trace_kernel_free (WsTraceKernel *kernel);
/* threads per block and blocks of the grid */
guint ws_trace_kernel_threads (const WsTraceKernel *kernel);
guint64 ws_trace_kernel_blocks (const WsTraceKernel *kernel);

/* Copies (memcpy) of one direction and host memory, and memsets, of one program run. */
typedef struct
{
  guint program;
  WsActivityKind kind;    /* WS_ACTIVITY_MEMCPY or WS_ACTIVITY_MEMSET */
  WsCopyDirection direction;
  WsHostMemory host_memory;
  guint count, n_async;
  guint64 bytes;
  double total_ns, median_ns, min_ns, max_ns;
  double gbs;              /* bytes / total time */
  GArray *spans;
} WsTraceCopy;

void ws_trace_copy_free (WsTraceCopy *copy);

/* The API calls of one name in one program run. */
typedef struct
{
  guint program;
  const char *name;
  guint count, n_failed;
  double total_ns, median_ns, min_ns, max_ns;
} WsTraceApi;

void ws_trace_api_free (WsTraceApi *api);

/* Each a new array (free with g_ptr_array_unref) for one program run, or for every run
 * (WS_TRACE_ALL_PROGRAMS), in program order: kernels by total time, longest first; copies by
 * direction; API calls by total time. */
GPtrArray *ws_trace_collect_kernels (WsTrace *trace, guint program);
GPtrArray *ws_trace_collect_copies (WsTrace *trace, guint program);
GPtrArray *ws_trace_collect_api (WsTrace *trace, guint program);

/* A kernel (by short name) over the runs of a sweep: the rows the Block Size and speedup
 * charts plot against the sweep's parameter values. */
typedef struct
{
  char *short_name;
  GPtrArray *points; /* WsTraceKernel, owned: the run's most time-consuming configuration of
                      * the kernel, one per program run that launched it, in program order */
} WsTraceSeries;

void ws_trace_series_free (WsTraceSeries *series);
/* Kernels launched in at least two program runs of a sweep (WsTraceSeries). */
GPtrArray *ws_trace_collect_series (WsTrace *trace);

G_END_DECLS
