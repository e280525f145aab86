/* ws-runner-memcheck.h: --memcheck TOOL: one configuration of an own kernel run under
 * compute-sanitizer (the runner starts itself under it), the report turned into memcheck
 * records that point at the source line.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "ws-args.h"

/* After ws_own_load (): returns the exit status (0 nothing found, 1 findings, 3 no
 * compute-sanitizer, or the checked run's own status when it failed without findings). */
int ws_runner_memcheck_run (const WsOptions *opts, const char *argv0);
