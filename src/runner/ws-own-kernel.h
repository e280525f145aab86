/* ws-own-kernel.h: running an own kernel (--source FILE, docs/own-kernels.md): the kernel
 * file read and checked, its configurations planned over sizes, blocks and tunable
 * parameters, each variant compiled with NVRTC and loaded, and a kernel descriptor that the
 * run loop (ws-run.c) uses as it uses a built-in's.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "ws-args.h"
#include "ws-runner-device.h"
#include "ws-diagnose.h"
#include "ws-runner.h"

/* Reads opts->source, checks its header and the --param values against it, writing an error
 * record for each problem; on success puts the kernel's descriptor in opts->kernels[0] and
 * checks the sizes and blocks as for a built-in. Returns 0, or the exit status (2). No GPU
 * is touched. */
int ws_own_load (WsOptions *opts);

/* With the device open: writes the kernel and source records, plans the configurations
 * (sizes × blocks × the parameters' values, less those the restrictions rule out), compiles
 * and loads each variant (compile records; errors with their line and column). Returns the
 * runs, or NULL with *exit_code set. */
WsRunSpec *ws_own_plan (const WsOptions *opts, const WsRunnerDevice *device, uint64_t seed,
                        int *n_runs, int *exit_code);

/* --check-source: the header's errors, then (with NVRTC) the compile of the default
 * configuration and of the reference for --arch, the GPU's architecture, or the newest this
 * build has. Returns the exit status: 0, 2 on errors, 3 without NVRTC. */
int ws_own_check_source (const WsOptions *opts, const WsDriverInfo *driver);

void ws_own_free (void);
