/* ws-plan.h: what to run next, as a person sets it up: the kernel, one run's size and block,
 * host memory, repetitions, CPU baselines, and a sweep (sizes from/to/factor, a list of
 * blocks). Read forgivingly, checked against the kernel's catalog entry and the device with a
 * sentence saying what to change, and against the runner's own rules (warpscope-runner
 * --check, which touches no GPU); turned into the runner's argv, and its time estimated.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

#include "ws-device.h"
#include "ws-kernel-source.h"
#include "ws-kernel-entry.h"
#include "ws-session.h"
#include "ws-target.h"

G_BEGIN_DECLS

#define WS_PLAN_ERROR (ws_plan_error_quark ())
GQuark ws_plan_error_quark (void);

typedef enum
{
  WS_PLAN_ERROR_NO_KERNEL, /* no kernel chosen (the catalog has not arrived) */
  WS_PLAN_ERROR_SIZE,      /* a size that cannot be read or does not suit the kernel */
  WS_PLAN_ERROR_BLOCK,     /* a block that cannot be read or does not fit kernel or device */
  WS_PLAN_ERROR_SWEEP,     /* a sweep that goes down or lists no block */
  WS_PLAN_ERROR_REFUSED,   /* the runner's own check refused it */
  WS_PLAN_ERROR_TARGET,    /* the chosen target cannot run it (an own kernel over ssh) */
} WsPlanError;

typedef enum
{
  WS_PLAN_RUN,   /* one run: size and block */
  WS_PLAN_SWEEP, /* the sweep: sizes from/to/factor × the list of blocks */
} WsPlanMode;

/* The properties are named as the settings keys that keep them (kernel, size, block,
 * transfer, reps, cpu-one, cpu-all, sweep-from, sweep-to, sweep-factor, sweep-blocks), so
 * g_settings_bind joins them one to one. "catalog" (a GListModel of the runner's catalog
 * entries, WsKernelEntry), "device" (the GPU, for its limits) and "runner" (the program
 * asked with --check; NULL checks here only) come from the environment. Read-only: "run-problem" and
 * "sweep-problem" (why it cannot run, for people; NULL when it can, and while no kernel is
 * chosen), "run-valid" and "sweep-valid". Signal "prepare" (no arguments): a run is about to be
 * made of the plan (ws_plan_prepare_run); whoever edits its own kernel writes what was typed
 * and sets the "source" it reads now, before the runner's argv is built from it. */
#define WS_TYPE_PLAN (ws_plan_get_type ())
G_DECLARE_FINAL_TYPE (WsPlan, ws_plan, WS, PLAN, GObject)

WsPlan *ws_plan_new (void);

/* The kernel by name. With a catalog, choosing another kernel starts it from its own
 * defaults (size, block, sweep); a new catalog keeps the kernel, size and block chosen
 * before when they suit it. */
const char *ws_plan_get_kernel (WsPlan *self);
void ws_plan_set_kernel (WsPlan *self, const char *name);
void ws_plan_set_catalog (WsPlan *self, GListModel *kernels);
void ws_plan_set_device (WsPlan *self, WsDevice *device);
const char *ws_plan_get_runner (WsPlan *self);
void ws_plan_set_runner (WsPlan *self, const char *runner);
const char *ws_plan_get_block (WsPlan *self);
void ws_plan_set_block (WsPlan *self, const char *text);

/* The catalog, for a list of kernels: its length, and each entry's name and title (in the
 * reader's language). */
guint ws_plan_get_n_kernels (WsPlan *self);
const char *ws_plan_get_kernel_name (WsPlan *self, guint index);
const char *ws_plan_get_kernel_title (WsPlan *self, guint index);
/* The chosen kernel: its description (translated), its block's dimensions (1 or 2) and the
 * number of sizes it takes (1, or 3 for M×N×K); "", 1 and 1 while unknown. */
const char *ws_plan_get_kernel_description (WsPlan *self);
int ws_plan_get_block_dims (WsPlan *self);
int ws_plan_get_size_rank (WsPlan *self);

/* ---- an own kernel (docs/own-kernels.md) ---- */

/* The kernel file the runner is to read (`ws_kernel_source_get_path`, which must name a file
 * on disk), or NULL for the catalog's kernels. A kernel with another entry than before starts
 * from its header's defaults (size, block, each parameter's values); the same kernel read
 * again (an edit) keeps what was chosen where the header still allows it. Property "source";
 * "params" (read-only) notifies when a parameter's values change. */
WsKernelSource *ws_plan_get_source (WsPlan *self);
void ws_plan_set_source (WsPlan *self, WsKernelSource *source);
gboolean ws_plan_is_own (WsPlan *self);
/* The values chosen for a tunable parameter, "8,16" (the sweep takes them all, one run the
 * first); NULL for a name the header does not declare. Values it does not list are dropped;
 * an empty list means its default. */
const char *ws_plan_get_param (WsPlan *self, const char *name);
void ws_plan_set_param (WsPlan *self, const char *name, const char *values);
/* The runner's argv for the own kernel: `runner --check-source FILE` (compile every variant,
 * run nothing) when `memcheck` is NULL, else one configuration of the run under
 * compute-sanitizer (`--memcheck memcheck`). NULL with the reason when it cannot. */
GStrv ws_plan_build_check_argv (WsPlan *self, const char *runner, const char *memcheck,
                                GError **error);

/* Checks the plan here: sizes, blocks, the kernel's entry, the device's limits. */
gboolean ws_plan_validate (WsPlan *self, WsPlanMode mode, GError **error);
/* What the properties say: this check's reason, else the runner's verdict on the last
 * check; NULL when it can run. */
const char *ws_plan_get_problem (WsPlan *self, WsPlanMode mode);
gboolean ws_plan_get_valid (WsPlan *self, WsPlanMode mode);

/* The runner's argv: `runner` first, then --kernel, --sizes, --blocks, --transfer, --reps,
 * --cpu as it takes them; NULL with the reason when the plan cannot run. */
GStrv ws_plan_build_argv (WsPlan *self, WsPlanMode mode, const char *runner, GError **error);

/* ---- on a target (ws-plan-target.c) ---- */

/* Whether the plan can run on `target` (NULL: this computer): an own kernel's file is on this
 * computer, which an ssh host does not see (a Slurm cluster's nodes share the login node's
 * files, as a rule). FALSE with a sentence that says what to do instead. */
gboolean ws_plan_check_target (WsPlan *self, WsTarget *target, GError **error);
/* A run of `mode` on `target`: emits "prepare", checks the target, and returns the runner's
 * options (the argv of ws_plan_build_argv without the program, whose path is the target's);
 * NULL with the reason when it cannot run there. */
GStrv ws_plan_prepare_run (WsPlan *self, WsPlanMode mode, WsTarget *target, GError **error);

/* Property "devices", kept by the settings key of that name: the GPUs chosen, "all" or CUDA
 * indices "0,2", as warpscope-cli run --devices takes them; NULL or "" is "all". */
const char *ws_plan_get_devices (WsPlan *self);
void ws_plan_set_devices (WsPlan *self, const char *devices);
/* The CUDA indices "devices" chooses among the GPUs of `info` (an environment's --device-info
 * session; NULL: none), in the order of its device records. Indices it does not have are
 * left out; when none is left, or "devices" cannot be read, every GPU is chosen. `all` says
 * whether that is every GPU of the target. */
GArray *ws_plan_choose_devices (WsPlan *self, WsSession *info, gboolean *all);
/* The GPUs a run of `mode` is given (int CUDA indices, one runner each): a sweep is split
 * across those chosen, one run goes to the first chosen; none (the runner's own choice)
 * when every GPU is chosen for one run, or every one of fewer than two for a sweep. */
GArray *ws_plan_dup_run_devices (WsPlan *self, WsPlanMode mode, WsSession *info);

/* "10,000,000 elements in a grid of 39,063 blocks of 256 threads."; NULL when it cannot run. */
char *ws_plan_dup_run_summary (WsPlan *self);
/* The sweep's number of sizes and of blocks; FALSE when it cannot run. */
gboolean ws_plan_count_sweep (WsPlan *self, guint *n_sizes, guint *n_blocks);
/* The sweep's time, judging by the completed runs of this kernel in `history`: FALSE when it
 * has none, or the sweep cannot run. */
gboolean ws_plan_estimate_sweep (WsPlan *self, WsSession *history, double *seconds);
/* "5 sizes × 2 blocks = 10 configurations; about 12 s, judging by the runs so far."; NULL
 * when the sweep cannot run. `history` may be NULL. */
char *ws_plan_dup_sweep_summary (WsPlan *self, WsSession *history);

G_END_DECLS
