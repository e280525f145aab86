/* ws-environment.h: what the chosen target (this computer, a GPU server over ssh, a Slurm
 * cluster) can run: the runner's catalog of kernels (--list, needs no GPU), its GPUs and what
 * is wrong with the set-up (--device-info), asked through the target's launcher; with the
 * sentences that say so, which name the target, and the launcher's own words when it fails.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

#include "ws-device.h"
#include "ws-session.h"
#include "ws-target.h"

G_BEGIN_DECLS

typedef enum
{
  WS_ENVIRONMENT_NO_RUNNER, /* built without the CUDA runner: recordings and the calculator */
  WS_ENVIRONMENT_PROBING,   /* the runner has been asked and has not answered yet */
  WS_ENVIRONMENT_READY,     /* a GPU to run on */
  WS_ENVIRONMENT_UNUSABLE,  /* no usable GPU, or the runner did not answer */
} WsEnvironmentState;

#define WS_TYPE_ENVIRONMENT_STATE (ws_environment_state_get_type ())
GType ws_environment_state_get_type (void);

/* Properties: "runner" (the runner's path here; NULL when built without one) and "target"
 * (where the runner runs; NULL: this computer) are set; another target, or the target
 * edited, asks again. Read-only, with notify: "state", "catalog", "device", "title" and "description"
 * (a heading and a paragraph for the welcome page), "summary" (one line for the status
 * line). */
#define WS_TYPE_ENVIRONMENT (ws_environment_get_type ())
G_DECLARE_FINAL_TYPE (WsEnvironment, ws_environment, WS, ENVIRONMENT, GObject)

WsEnvironment *ws_environment_new (void);

const char *ws_environment_get_runner (WsEnvironment *self);
void ws_environment_set_runner (WsEnvironment *self, const char *runner);
WsTarget *ws_environment_get_target (WsEnvironment *self);
void ws_environment_set_target (WsEnvironment *self, WsTarget *target);

/* Asks the runner (again): --list and --device-info, on the target. */
void ws_environment_probe (WsEnvironment *self);

WsEnvironmentState ws_environment_get_state (WsEnvironment *self);
/* The runner's catalog (WsKernelEntry), or NULL until it arrives. */
GListModel *ws_environment_get_catalog (WsEnvironment *self);
/* The first GPU, or NULL; every GPU is in the session's devices. */
WsDevice *ws_environment_get_device (WsEnvironment *self);
/* The --device-info answer (versions, every GPU, error records), or NULL before it. */
WsSession *ws_environment_get_session (WsEnvironment *self);
/* What is wrong with the set-up (WsRunnerError, borrowed; empty when nothing). */
GPtrArray *ws_environment_get_problems (WsEnvironment *self);

const char *ws_environment_get_title (WsEnvironment *self);
const char *ws_environment_get_description (WsEnvironment *self);
const char *ws_environment_get_summary (WsEnvironment *self);

G_END_DECLS
