/* ws-selftest.h: --self-test, every kernel at sizes that are and are not multiples of its
 * blocks, checked against the CPU reference.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "ws-args.h"
#include "ws-runner.h"

/* Short repetitions and the one-thread CPU reference: the test is about correctness. */
void ws_selftest_options (WsOptions *opts);
WsRunSpec *ws_selftest_plan (const WsOptions *opts, uint64_t seed, int *n);
/* The sweep of the 1D kernels over n = 1…67, their five smallest blocks and, for kernels
 * right for any grid, grids of 1 to 5 blocks: a selftest record per kernel, an error record
 * per kernel that failed. Returns the failed cases; *fault when the GPU context is lost. */
int ws_selftest_tails (int *fault);
