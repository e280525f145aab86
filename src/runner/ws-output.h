/* ws-output.h: the runner's records (docs/protocol.md), as JSON Lines on stdout, or a short
 * table for people with --summary. Messages for people always go to stderr.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <stdint.h>

#include "ws-runner-activity.h"
#include "ws-runner-device.h"
#include "ws-diagnose.h"
#include "ws-json.h"
#include "ws-kernel.h"
#include "ws-runner.h"

void ws_output_init (int summary);
/* Activity timestamps are printed relative to this origin (CUPTI's clock, ns). */
void ws_output_set_origin (uint64_t origin);

void ws_output_hello (const WsDriverInfo *driver, uint32_t cupti_version, int argc, char **argv);
/* What every hello of the runner's says after its protocol (and a trace's source): the
 * runner's version, build and architectures, the time, the host, the driver and the runtime;
 * then, last, its arguments after the program's name. The trace mode's hello uses them too. */
void ws_output_hello_members (WsJson *json, const WsDriverInfo *driver);
void ws_output_hello_argv (WsJson *json, int argc, char **argv);
void ws_output_kernel (const WsKernelDesc *kernel);
void ws_output_device (const WsRunnerDevice *device);
void ws_output_run (const WsRunSpec *spec, int cpu_wanted);
void ws_output_launch (int run, const WsLaunchFacts *facts);
void ws_output_activity (int run, WsActivityPhase phase, int rep, const WsRunnerActivity *activity);
void ws_output_verify (int run, const WsVerifyResult *result);
void ws_output_timing (int run, const WsRunSpec *spec, const WsRunnerTiming *timing);
void ws_output_progress (int done, int total);
/* --self-test's sweep of small problems (check "tails"): how many cases of one kernel ran
 * and failed; `first`, when one failed, says which. */
typedef struct
{
  uint64_t n;
  unsigned block, grid;
  uint64_t mismatches, unwritten;
  int64_t first_bad;
} WsSelftestCase;
void ws_output_selftest (const char *check, const char *kernel, int cases, int failed,
                         const WsSelftestCase *first);
/* run 0 when the error concerns no run. */
void ws_output_error (int run, WsErrorSeverity severity, WsErrorCode code, const char *message,
                      const char *detail);
/* The same, about a place in a file (a header or compile error of an own kernel): the
 * record carries file, line and column, and stderr gets file:line:col: severity: message. */
void ws_output_error_at (int run, WsErrorSeverity severity, WsErrorCode code,
                         const char *message, const char *detail, const char *file, int line,
                         int column);
void ws_output_done (int runs, int failed, uint64_t dropped, int exit_code);

/* A record of another type (an own kernel's kernel, source and compile records, memcheck
 * findings): begin it, add members to the returned writer, end it (it is then written). */
WsJson *ws_output_begin (const char *type);
void ws_output_end (void);

/* --summary: a few lines per run for people; facts is NULL for a library's kernels. */
void ws_output_summary_run (const WsRunSpec *spec, const WsLaunchFacts *facts,
                            const WsRunnerTiming *timing, const WsVerifyResult *verify,
                            const WsRunnerDevice *device);
