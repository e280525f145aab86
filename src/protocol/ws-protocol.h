/* ws-protocol.h: the protocol's vocabulary (docs/protocol.md), one plain C11 header shared by
 * whoever writes it (warpscope-runner, libwarpscope-inject) and whoever reads it (the session
 * model): the versions, the record types, the field keys, and the enumerations with their
 * names on the wire. A name is spelled here once; writers and readers use the macro.
 * No GLib: the runner and the injection library link it too.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#ifdef __cplusplus
extern "C" {
#endif

/* ---- versions ----------------------------------------------------------------------------- */

/* What warpscope-runner writes in its hello. */
#define WS_PROTOCOL_RUNNER 1
/* What libwarpscope-inject writes for a traced program: version 1 and the records of traced
 * programs (a hello with "source": "trace", context, module, trace_end, the activity kinds
 * api, nvtx and jit, "pid" on every record). Nothing of version 1 changed. */
#define WS_PROTOCOL_TRACE 2

/* ---- record types: the value of "type" ------------------------------------------------------ */

#define WS_RECORD_TYPE_HELLO     "hello"
#define WS_RECORD_TYPE_DEVICE    "device"
#define WS_RECORD_TYPE_KERNEL    "kernel"
#define WS_RECORD_TYPE_RUN       "run"
#define WS_RECORD_TYPE_LAUNCH    "launch"
#define WS_RECORD_TYPE_ACTIVITY  "activity"
#define WS_RECORD_TYPE_VERIFY    "verify"
#define WS_RECORD_TYPE_TIMING    "timing"
#define WS_RECORD_TYPE_SELFTEST  "selftest"
#define WS_RECORD_TYPE_PROGRESS  "progress"
#define WS_RECORD_TYPE_ERROR     "error"
#define WS_RECORD_TYPE_DONE      "done"
/* Protocol 2: traced programs. */
#define WS_RECORD_TYPE_CONTEXT   "context"
#define WS_RECORD_TYPE_MODULE    "module"
#define WS_RECORD_TYPE_TRACE_END "trace_end"
/* warpscope-runner --trace: one per run of the traced program */
#define WS_RECORD_TYPE_PROGRAM     "program"
#define WS_RECORD_TYPE_PROGRAM_END "program_end"
/* own kernels (--source, --check-source, --memcheck) */
#define WS_RECORD_TYPE_SOURCE           "source"
#define WS_RECORD_TYPE_COMPILE          "compile"
#define WS_RECORD_TYPE_MEMCHECK         "memcheck"
#define WS_RECORD_TYPE_MEMCHECK_SUMMARY "memcheck_summary"
/* The GPU's counters of a run (--counters) */
#define WS_RECORD_TYPE_COUNTERS         "counters"

/* A hello's "source" for a traced program (a runner's hello has none). */
#define WS_SOURCE_TRACE "trace"

/* ---- field keys ------------------------------------------------------------------------------
 * One macro per name, whatever records use it ("bytes" is a copy's size, a run's least
 * traffic and a spread's copy size). Listed by the record that introduces them. */

/* Every record */
#define WS_KEY_TYPE                         "type"
#define WS_KEY_T                            "t"
#define WS_KEY_RUN                          "run"
#define WS_KEY_PID                          "pid"

/* hello */
#define WS_KEY_PROTOCOL                     "protocol"
#define WS_KEY_RUNNER                       "runner"
#define WS_KEY_BUILD                        "build"
#define WS_KEY_GPU_ARCHS                    "gpu_archs"
#define WS_KEY_TIME                         "time"
#define WS_KEY_HOST                         "host"
#define WS_KEY_DRIVER_FOUND                 "driver_found"
#define WS_KEY_DRIVER_VERSION               "driver_version"
#define WS_KEY_DRIVER_CUDA                  "driver_cuda"
#define WS_KEY_RUNTIME_VERSION              "runtime_version"
#define WS_KEY_RUNTIME_CUDA                 "runtime_cuda"
#define WS_KEY_CUPTI_VERSION                "cupti_version"
#define WS_KEY_ARGV                         "argv"
#define WS_KEY_REPLAY                       "replay"
#define WS_KEY_FILE                         "file"
#define WS_KEY_SPEED                        "speed"

/* hello of a traced program */
#define WS_KEY_SOURCE                       "source"
#define WS_KEY_INJECT                       "inject"
#define WS_KEY_PPID                         "ppid"
#define WS_KEY_PROGRAM                      "program"
#define WS_KEY_COMMAND                      "command"
#define WS_KEY_CWD                          "cwd"
#define WS_KEY_CUPTI_BUILT                  "cupti_built"
#define WS_KEY_CUDA_VISIBLE_DEVICES         "cuda_visible_devices"
#define WS_KEY_CLOCK_ORIGIN_NS              "clock_origin_ns"
#define WS_KEY_MONOTONIC_ORIGIN_NS          "monotonic_origin_ns"
#define WS_KEY_PROCESS_START                "process_start"
#define WS_KEY_API                          "api"
#define WS_KEY_BUFFER_BYTES                 "buffer_bytes"
#define WS_KEY_FLUSH_MS                     "flush_ms"

/* device */
#define WS_KEY_INDEX                        "index"
#define WS_KEY_NAME                         "name"
#define WS_KEY_UUID                         "uuid"
#define WS_KEY_PCI_BUS_ID                   "pci_bus_id"
#define WS_KEY_COMPUTE_CAPABILITY           "compute_capability"
#define WS_KEY_SM                           "sm"
#define WS_KEY_SM_COUNT                     "sm_count"
#define WS_KEY_WARP_SIZE                    "warp_size"
#define WS_KEY_MAX_THREADS_PER_BLOCK        "max_threads_per_block"
#define WS_KEY_MAX_BLOCK_DIM                "max_block_dim"
#define WS_KEY_MAX_GRID_DIM                 "max_grid_dim"
#define WS_KEY_MAX_THREADS_PER_SM           "max_threads_per_sm"
#define WS_KEY_MAX_BLOCKS_PER_SM            "max_blocks_per_sm"
#define WS_KEY_REGS_PER_SM                  "regs_per_sm"
#define WS_KEY_REGS_PER_BLOCK               "regs_per_block"
#define WS_KEY_SMEM_PER_SM                  "smem_per_sm"
#define WS_KEY_SMEM_PER_BLOCK               "smem_per_block"
#define WS_KEY_SMEM_PER_BLOCK_OPTIN         "smem_per_block_optin"
#define WS_KEY_RESERVED_SMEM_PER_BLOCK      "reserved_smem_per_block"
#define WS_KEY_L2_BYTES                     "l2_bytes"
#define WS_KEY_MEMORY_BYTES                 "memory_bytes"
#define WS_KEY_MEMORY_FREE_BYTES            "memory_free_bytes"
#define WS_KEY_MEMORY_CLOCK_KHZ             "memory_clock_khz"
#define WS_KEY_BUS_WIDTH_BITS               "bus_width_bits"
#define WS_KEY_SM_CLOCK_KHZ                 "sm_clock_khz"
#define WS_KEY_ECC                          "ecc"
#define WS_KEY_ASYNC_ENGINES                "async_engines"
#define WS_KEY_FP32_LANES_PER_SM            "fp32_lanes_per_sm"
#define WS_KEY_FP32_PEAK_GFLOPS             "fp32_peak_gflops"
#define WS_KEY_BANDWIDTH_THEORETICAL_GBS    "bandwidth_theoretical_gbs"
#define WS_KEY_BANDWIDTH_MEASURED_GBS       "bandwidth_measured_gbs"
#define WS_KEY_H2D_PINNED_GBS               "h2d_pinned_gbs"
#define WS_KEY_D2H_PINNED_GBS               "d2h_pinned_gbs"
#define WS_KEY_H2D_PAGEABLE_GBS             "h2d_pageable_gbs"
#define WS_KEY_D2H_PAGEABLE_GBS             "d2h_pageable_gbs"
#define WS_KEY_H2D_PINNED_SPREAD            "h2d_pinned_spread"
#define WS_KEY_D2H_PINNED_SPREAD            "d2h_pinned_spread"
#define WS_KEY_H2D_PAGEABLE_SPREAD          "h2d_pageable_spread"
#define WS_KEY_D2H_PAGEABLE_SPREAD          "d2h_pageable_spread"
#define WS_KEY_CALIBRATION_BYTES            "calibration_bytes"

/* a rate spread of the device record */
#define WS_KEY_MIN                          "min"
#define WS_KEY_MEDIAN                       "median"
#define WS_KEY_MAX                          "max"
#define WS_KEY_N                            "n"
#define WS_KEY_BYTES                        "bytes"
#define WS_KEY_MEAN                         "mean"
#define WS_KEY_CPUS                         "cpus"
#define WS_KEY_BUFFERS                      "buffers"

/* kernel (a catalog entry) */
#define WS_KEY_FAMILY                       "family"
#define WS_KEY_TITLE                        "title"
#define WS_KEY_DESCRIPTION                  "description"
#define WS_KEY_BLOCK_DIMS                   "block_dims"
#define WS_KEY_SHAPE_PARAMS                 "shape_params"
#define WS_KEY_DEFAULT_SHAPE                "default_shape"
#define WS_KEY_DEFAULT_BLOCK                "default_block"
#define WS_KEY_BLOCK_FIXED                  "block_fixed"
#define WS_KEY_LIBRARY                      "library"
#define WS_KEY_STREAMABLE                   "streamable"
#define WS_KEY_FLOPS                        "flops"
#define WS_KEY_TOLERANCE                    "tolerance"

/* run */
#define WS_KEY_ID                           "id"
#define WS_KEY_KERNEL                       "kernel"
#define WS_KEY_SHAPE                        "shape"
#define WS_KEY_SIZE                         "size"
#define WS_KEY_SIZE_TEXT                    "size_text"
#define WS_KEY_BLOCK                        "block"
#define WS_KEY_GRID                         "grid"
#define WS_KEY_THREADS_PER_BLOCK            "threads_per_block"
#define WS_KEY_TRANSFER                     "transfer"
#define WS_KEY_STREAMS                      "streams"
#define WS_KEY_REPS                         "reps"
#define WS_KEY_WARMUP                       "warmup"
#define WS_KEY_SEED                         "seed"
#define WS_KEY_CPU                          "cpu"
#define WS_KEY_CACHE                        "cache"
#define WS_KEY_INPUT_BYTES                  "input_bytes"
#define WS_KEY_OUTPUT_BYTES                 "output_bytes"
/* an own kernel's run */
#define WS_KEY_SOURCE_HASH                  "source_hash"
#define WS_KEY_PARAMS                       "params"
/* a run of a session merged from shares (docs/protocol.md, "Shares of a sweep"): its GPU
 * ("device", the CUDA index, as in activity records) */
#define WS_KEY_DEVICE_UUID                  "device_uuid"

/* launch */
#define WS_KEY_REGISTERS                    "registers"
#define WS_KEY_REGISTERS_SOURCE             "registers_source"
#define WS_KEY_REGISTERS_COMPILED           "registers_compiled"
#define WS_KEY_STATIC_SMEM                  "static_smem"
#define WS_KEY_DYNAMIC_SMEM                 "dynamic_smem"
#define WS_KEY_LOCAL_BYTES                  "local_bytes"
#define WS_KEY_KERNEL_MAX_THREADS           "kernel_max_threads"
#define WS_KEY_PTX_VERSION                  "ptx_version"
#define WS_KEY_BINARY_VERSION               "binary_version"
#define WS_KEY_WARPS_PER_BLOCK              "warps_per_block"
#define WS_KEY_ACTIVE_BLOCKS_PER_SM         "active_blocks_per_sm"
#define WS_KEY_ACTIVE_WARPS_PER_SM          "active_warps_per_sm"
#define WS_KEY_MAX_WARPS_PER_SM             "max_warps_per_sm"
#define WS_KEY_OCCUPANCY                    "occupancy"
#define WS_KEY_LIMITER                      "limiter"
#define WS_KEY_LIMITS                       "limits"
#define WS_KEY_BLOCKS_PER_SM                "blocks_per_sm"
#define WS_KEY_WARPS                        "warps"
#define WS_KEY_SHARED_MEMORY                "shared_memory"
#define WS_KEY_BLOCKS                       "blocks"
#define WS_KEY_WAVES                        "waves"

/* activity */
#define WS_KEY_PHASE                        "phase"
#define WS_KEY_REP                          "rep"
#define WS_KEY_KIND                         "kind"
#define WS_KEY_START                        "start"
#define WS_KEY_END                          "end"
#define WS_KEY_CORRELATION                  "correlation"
#define WS_KEY_STREAM                       "stream"
#define WS_KEY_DIRECTION                    "direction"
#define WS_KEY_HOST_MEMORY                  "host_memory"
#define WS_KEY_SYNC                         "sync"
#define WS_KEY_OVERHEAD                     "overhead"
#define WS_KEY_THREADS                      "threads"

/* activity of a traced program */
#define WS_KEY_MANGLED                      "mangled"
#define WS_KEY_SMEM_CONFIG                  "smem_config"
#define WS_KEY_CLUSTER                      "cluster"
#define WS_KEY_COOPERATIVE                  "cooperative"
#define WS_KEY_GRAPH                        "graph"
#define WS_KEY_GRAPH_NODE                   "graph_node"
#define WS_KEY_DEVICE                       "device"
#define WS_KEY_CONTEXT                      "context"
#define WS_KEY_RUNTIME_CORRELATION          "runtime_correlation"
#define WS_KEY_ASYNC                        "async"
#define WS_KEY_VALUE                        "value"
#define WS_KEY_EVENT                        "event"
#define WS_KEY_RESULT                       "result"
#define WS_KEY_CBID                         "cbid"
#define WS_KEY_THREAD                       "thread"
#define WS_KEY_NVTX                         "nvtx"
#define WS_KEY_DOMAIN                       "domain"
#define WS_KEY_END_THREAD                   "end_thread"
#define WS_KEY_OPEN                         "open"
#define WS_KEY_JIT                          "jit"
#define WS_KEY_OPERATION                    "operation"
#define WS_KEY_CACHE_BYTES                  "cache_bytes"
#define WS_KEY_CACHE_PATH                   "cache_path"

/* verify */
#define WS_KEY_PASS                         "pass"
#define WS_KEY_METHOD                       "method"
#define WS_KEY_CHECKED                      "checked"
#define WS_KEY_TOTAL                        "total"
#define WS_KEY_MISMATCHES                   "mismatches"
#define WS_KEY_UNWRITTEN                    "unwritten"
#define WS_KEY_MAX_ABS_ERR                  "max_abs_err"
#define WS_KEY_MAX_REL_ERR                  "max_rel_err"
#define WS_KEY_RTOL                         "rtol"
#define WS_KEY_ATOL                         "atol"
#define WS_KEY_FIRST_BAD_INDEX              "first_bad_index"
#define WS_KEY_FIRST_BAD_VALUE              "first_bad_value"
#define WS_KEY_FIRST_BAD_EXPECTED           "first_bad_expected"
#define WS_KEY_FIRST_BAD_BUFFER             "first_bad_buffer"

/* timing (stats objects: median, min, max, n) */
#define WS_KEY_TRACED                       "traced"
#define WS_KEY_KERNEL_NS                    "kernel_ns"
#define WS_KEY_KERNEL_RECORDS               "kernel_records"
#define WS_KEY_KERNEL_RECORDS_PER_LAUNCH    "kernel_records_per_launch"
#define WS_KEY_KERNEL_IN_SEQUENCE_NS        "kernel_in_sequence_ns"
#define WS_KEY_H2D_NS                       "h2d_ns"
#define WS_KEY_D2H_NS                       "d2h_ns"
#define WS_KEY_MEMSET_NS                    "memset_ns"
#define WS_KEY_KERNEL_UNTRACED_NS           "kernel_untraced_ns"
#define WS_KEY_UNTRACED_LAUNCHES            "untraced_launches"
#define WS_KEY_UNTRACED_METHOD              "untraced_method"
#define WS_KEY_E2E_NS                       "e2e_ns"
#define WS_KEY_CPU_1                        "cpu_1"
#define WS_KEY_CPU_ALL                      "cpu_all"
#define WS_KEY_CPU_1_HAND_WRITTEN           "cpu_1_hand_written"
#define WS_KEY_CPU_ALL_HAND_WRITTEN         "cpu_all_hand_written"
#define WS_KEY_CPU_1_BLAS                   "cpu_1_blas"
#define WS_KEY_CPU_ALL_BLAS                 "cpu_all_blas"
#define WS_KEY_KERNEL_GBS                   "kernel_gbs"
#define WS_KEY_KERNEL_GFLOPS                "kernel_gflops"

/* a CPU baseline of the timing record */
#define WS_KEY_IMPLEMENTATION               "implementation"
#define WS_KEY_LIBRARY_VERSION              "library_version"
#define WS_KEY_LIBRARY_CONFIG               "library_config"
#define WS_KEY_LIBRARY_PATH                 "library_path"
#define WS_KEY_LIBRARY_SYMBOL               "library_symbol"
#define WS_KEY_LIBRARY_NOTE                 "library_note"
#define WS_KEY_SKIPPED                      "skipped"
#define WS_KEY_WARMED_UP                    "warmed_up"
#define WS_KEY_ESTIMATE                     "estimate"
#define WS_KEY_FROM_RUN                     "from_run"
#define WS_KEY_MAX_THREADS                  "max_threads"
#define WS_KEY_ONE_THREAD_FASTER            "one_thread_faster"
#define WS_KEY_NOTE                         "note"

/* selftest */
#define WS_KEY_CHECK                        "check"
#define WS_KEY_CASES                        "cases"
#define WS_KEY_FAILED                       "failed"
#define WS_KEY_FIRST_FAILURE                "first_failure"

/* progress */
#define WS_KEY_DONE                         "done"

/* error */
#define WS_KEY_SEVERITY                     "severity"
#define WS_KEY_CODE                         "code"
#define WS_KEY_MESSAGE                      "message"
#define WS_KEY_DETAIL                       "detail"
/* an own kernel's header and compile errors: where in its file ("file" as in hello) */
#define WS_KEY_LINE                         "line"
#define WS_KEY_COLUMN                       "column"

/* done */
#define WS_KEY_RUNS                         "runs"
#define WS_KEY_DROPPED_RECORDS              "dropped_records"
#define WS_KEY_EXIT_CODE                    "exit_code"

/* context, module */
#define WS_KEY_MODULE                       "module"
#define WS_KEY_CUBIN_BYTES                  "cubin_bytes"
#define WS_KEY_AT                           "at"

/* trace_end */
#define WS_KEY_REASON                       "reason"
#define WS_KEY_EXIT_STATUS                  "exit_status"
#define WS_KEY_SIGNAL                       "signal"
#define WS_KEY_SIGNAL_NAME                  "signal_name"
#define WS_KEY_FLUSHED                      "flushed"
#define WS_KEY_RECORDS                      "records"
#define WS_KEY_LOST_RECORDS                 "lost_records"
#define WS_KEY_API_ERRORS                   "api_errors"

/* program, program_end (warpscope-runner --trace: a run of the traced program) */
#define WS_KEY_PROGRAM_RUN                  "program_run"
#define WS_KEY_OF                           "of"
#define WS_KEY_ENV                          "env"
#define WS_KEY_PATH                         "path"
#define WS_KEY_MONOTONIC_NS                 "monotonic_ns"
#define WS_KEY_WALL_NS                      "wall_ns"
#define WS_KEY_PROCESSES                    "processes"
#define WS_KEY_ENDED_PROCESSES              "ended_processes"
#define WS_KEY_DROPPED_LINES                "dropped_lines"

/* an own kernel's kernel and source records */
#define WS_KEY_OWN                          "own"
#define WS_KEY_ENTRY                        "entry"
#define WS_KEY_ARGS                         "args"
#define WS_KEY_ROLE                         "role"
#define WS_KEY_BUFFER                       "buffer"
#define WS_KEY_LENGTH                       "length"
#define WS_KEY_INIT                         "init"
#define WS_KEY_HIGH                         "high"
#define WS_KEY_DEFAULT                      "default"
#define WS_KEY_VALUES                       "values"
#define WS_KEY_RESTRICTIONS                 "restrictions"
#define WS_KEY_TEXT                         "text"
#define WS_KEY_VERIFY                       "verify"
#define WS_KEY_OPTIONS                      "options"
#define WS_KEY_SHA256                       "sha256"

/* compile */
#define WS_KEY_REFERENCE                    "reference"
#define WS_KEY_ARCH                         "arch"
#define WS_KEY_PTX                          "ptx"
#define WS_KEY_NVRTC                        "nvrtc"
#define WS_KEY_CACHED                       "cached"
#define WS_KEY_KEY                          "key"
#define WS_KEY_MS                           "ms"
#define WS_KEY_OK                           "ok"
#define WS_KEY_LOWERED                      "lowered"
#define WS_KEY_BLOCK_SIZE                   "block_size"
#define WS_KEY_IMAGE_BYTES                  "image_bytes"
#define WS_KEY_ERRORS                       "errors"
#define WS_KEY_WARNINGS                     "warnings"
#define WS_KEY_LOG                          "log"

/* memcheck, memcheck_summary */
#define WS_KEY_TOOL                         "tool"
#define WS_KEY_SANITIZER                    "sanitizer"
#define WS_KEY_SPACE                        "space"
#define WS_KEY_ACCESS                       "access"
#define WS_KEY_ADDRESS                      "address"
#define WS_KEY_COUNT                        "count"
#define WS_KEY_REPORT                       "report"
#define WS_KEY_REPORTS                      "reports"
#define WS_KEY_FINDINGS                     "findings"

/* counters */
#define WS_KEY_CHIP                         "chip"
#define WS_KEY_GROUPS                       "groups"
#define WS_KEY_PASSES                       "passes"
#define WS_KEY_COST_NS                      "cost_ns"
#define WS_KEY_VALUES                       "values"

/* ---- enumerations --------------------------------------------------------------------------
 * Each has a value for "absent" where the protocol allows that (NONE) and one for a name this
 * version does not know (OTHER, UNKNOWN): readers ignore what later versions add. _to_string
 * gives the name on the wire (NULL for NONE); _from_string takes NULL for absent. */

/* An activity's "kind". */
typedef enum
{
  WS_ACTIVITY_MEMCPY,
  WS_ACTIVITY_MEMSET,
  WS_ACTIVITY_KERNEL,
  WS_ACTIVITY_SYNC,
  WS_ACTIVITY_OVERHEAD, /* CUPTI's own work */
  WS_ACTIVITY_CPU,      /* a CPU reference run, timed by the runner itself */
  WS_ACTIVITY_API,      /* protocol 2: a runtime or driver call */
  WS_ACTIVITY_NVTX,     /* protocol 2: an NVTX range or mark */
  WS_ACTIVITY_JIT,      /* protocol 2: a compile by the driver */
  WS_ACTIVITY_OTHER,    /* a kind this version does not know ("other") */
} WsActivityKind;

/* An activity's "phase" (runner sessions; a traced program's activities have none). */
typedef enum
{
  WS_PHASE_SEQUENCE, /* copies in, poison, kernel, copy out */
  WS_PHASE_KERNELS,  /* back-to-back launches */
  WS_PHASE_CPU,      /* a timed CPU reference run */
  WS_PHASE_FLUSH,    /* --cache cold: the L2 flush before a back-to-back launch */
  WS_PHASE_OTHER,    /* absent, or a phase this version does not know ("other") */
} WsActivityPhase;

/* A copy's "direction". */
typedef enum
{
  WS_COPY_NONE,  /* absent: not a copy */
  WS_COPY_HTOD,
  WS_COPY_DTOH,
  WS_COPY_DTOD,
  WS_COPY_HTOH,
  WS_COPY_PTOP,
  WS_COPY_HTOA,  /* to and from CUDA arrays */
  WS_COPY_ATOH,
  WS_COPY_OTHER, /* "other": a kind CUPTI names that these do not */
} WsCopyDirection;

/* A copy's "host_memory": the host side of the copy (or what CUPTI says the memory is). */
typedef enum
{
  WS_HOST_MEMORY_NONE, /* absent: a device-only copy */
  WS_HOST_MEMORY_PAGEABLE,
  WS_HOST_MEMORY_PINNED,
  WS_HOST_MEMORY_DEVICE,
  WS_HOST_MEMORY_ARRAY,
  WS_HOST_MEMORY_MANAGED,
  WS_HOST_MEMORY_DEVICE_STATIC,
  WS_HOST_MEMORY_MANAGED_STATIC,
  WS_HOST_MEMORY_OTHER, /* "unknown" */
} WsHostMemory;

/* A run's "transfer" (--transfer): how its host arrays are allocated and copied. A streamed
 * run's name carries its count of streams, "streams:4" (and its "streams" member says it
 * again); _to_string gives the name without it. */
typedef enum
{
  WS_TRANSFER_PAGEABLE, /* malloc'd host memory; also a run whose record names none */
  WS_TRANSFER_PINNED,   /* page-locked host memory (cudaMallocHost) */
  WS_TRANSFER_STREAMS,  /* pinned, the problem cut into K pieces over K streams */
  WS_TRANSFER_OTHER,    /* a mode this version does not know ("unknown") */
} WsTransfer;

/* An error record's "severity". */
typedef enum
{
  WS_ERROR_SEVERITY_ERROR,   /* the run or the session did not happen */
  WS_ERROR_SEVERITY_WARNING, /* it went on, with less */
} WsErrorSeverity;

/* An error record's "code": stable, and the same from the runner and the injection library
 * (docs/protocol.md, "error"). */
typedef enum
{
  WS_ERROR_NONE,               /* no error (absent) */
  WS_ERROR_BAD_ARGUMENT,
  WS_ERROR_UNKNOWN_KERNEL,
  WS_ERROR_UNKNOWN_TRANSFER,
  WS_ERROR_KERNEL_UNAVAILABLE,
  WS_ERROR_INVALID_SIZE,
  WS_ERROR_SIZE_TOO_LARGE,
  WS_ERROR_INVALID_BLOCK,
  WS_ERROR_INVALID_REPS,
  WS_ERROR_INVALID_DEVICE,
  WS_ERROR_NO_DRIVER,
  WS_ERROR_DRIVER_TOO_OLD,
  WS_ERROR_DRIVER_MISMATCH,
  WS_ERROR_NO_DEVICE,
  WS_ERROR_DEVICE_BUSY,
  WS_ERROR_NO_KERNEL_IMAGE,
  WS_ERROR_CUPTI_UNAVAILABLE,
  WS_ERROR_CUPTI_IN_USE,
  WS_ERROR_TRACE_INCOMPLETE,
  WS_ERROR_HOST_OUT_OF_MEMORY,
  WS_ERROR_OUT_OF_MEMORY,
  WS_ERROR_SELF_TEST_FAILED,
  WS_ERROR_KERNEL_FAULT,
  WS_ERROR_CUDA_ERROR,
  WS_ERROR_INTERNAL,
  WS_ERROR_RUNNER_FAILED,      /* written by a merge of shares, not by a runner */
  /* own kernels */
  WS_ERROR_BAD_SOURCE,
  WS_ERROR_HEADER_ERROR,
  WS_ERROR_COMPILE_ERROR,
  WS_ERROR_COMPILE_WARNING,
  WS_ERROR_RESTRICTED,
  WS_ERROR_NVRTC_UNAVAILABLE,
  WS_ERROR_SANITIZER_UNAVAILABLE,
  WS_ERROR_SANITIZER_FAILED,
  /* the trace mode */
  WS_ERROR_INJECT_NOT_FOUND,
  WS_ERROR_PROGRAM_NOT_FOUND,
  WS_ERROR_PROGRAM_NOT_EXECUTABLE,
  WS_ERROR_NO_CUDA_ACTIVITY,
  WS_ERROR_PROGRAM_TIMEOUT,
  WS_ERROR_CEILINGS_UNAVAILABLE,
  WS_ERROR_TRACE_UNREACHABLE,
  /* hardware counters */
  WS_ERROR_COUNTERS_UNAVAILABLE,
  WS_ERROR_UNKNOWN,            /* a code this version does not know ("unknown") */
} WsErrorCode;

const char *ws_activity_kind_to_string (WsActivityKind kind);
WsActivityKind ws_activity_kind_from_string (const char *s);
const char *ws_activity_phase_to_string (WsActivityPhase phase);
WsActivityPhase ws_activity_phase_from_string (const char *s);
const char *ws_copy_direction_to_string (WsCopyDirection direction);
WsCopyDirection ws_copy_direction_from_string (const char *s);
const char *ws_host_memory_to_string (WsHostMemory memory);
WsHostMemory ws_host_memory_from_string (const char *s);
const char *ws_transfer_to_string (WsTransfer transfer);
/* PAGEABLE for NULL; STREAMS for "streams" and "streams:K" (K a whole number). */
WsTransfer ws_transfer_from_string (const char *s);
const char *ws_error_severity_to_string (WsErrorSeverity severity);
/* "error" for NULL and for a severity this version does not know. */
WsErrorSeverity ws_error_severity_from_string (const char *s);
const char *ws_error_code_to_string (WsErrorCode code);
WsErrorCode ws_error_code_from_string (const char *s);

/* ---- numbers on the wire ----------------------------------------------------------------- */

/* Room for any double written by ws_protocol_double_text, its terminating NUL included. */
#define WS_PROTOCOL_DOUBLE_LEN 32

/* A finite double as the protocol writes it, for whoever writes it (the runner, the injection
 * library, the model's JSON writer): the fewest significant digits that read back as the same
 * double (15, 16 or 17; a subnormal from 1: "5e-324"), '.' as the decimal point in every
 * locale, and "-0.0" for negative zero (a "-0" would read back as the integer 0). Returns
 * `buf`. The caller writes NaN and infinities its own way (JSON has null). */
char *ws_protocol_double_text (char buf[WS_PROTOCOL_DOUBLE_LEN], double value);

#ifdef __cplusplus
}
#endif
