/* ws-config-sidebar.h: what to run: the kernel, its size and block, host memory, repetitions,
 * CPU baselines, and a sweep; checked as it is typed, with the reason shown inline.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>
#include <json-glib/json-glib.h>

#include "ws-device.h"
#include "ws-session.h"

G_BEGIN_DECLS

#define WS_TYPE_CONFIG_SIDEBAR (ws_config_sidebar_get_type ())
G_DECLARE_FINAL_TYPE (WsConfigSidebar, ws_config_sidebar, WS, CONFIG_SIDEBAR, GtkWidget)

GtkWidget *ws_config_sidebar_new (void);
/* Loads and keeps the choices in these settings. */
void ws_config_sidebar_bind_settings (WsConfigSidebar *self, GSettings *settings);
/* The kernels to offer: the runner's catalog records (JsonObject). */
void ws_config_sidebar_set_catalog (WsConfigSidebar *self, GPtrArray *kernels);
/* The GPU the runs will use, for limits; NULL when unknown. */
void ws_config_sidebar_set_device (WsConfigSidebar *self, WsDevice *device);
/* Runs so far, to estimate how long a sweep will take. */
void ws_config_sidebar_set_history (WsConfigSidebar *self, WsSession *session);
/* The runner used for --check; NULL checks locally only. */
void ws_config_sidebar_set_runner (WsConfigSidebar *self, const char *runner_path);

gboolean ws_config_sidebar_get_run_valid (WsConfigSidebar *self);
gboolean ws_config_sidebar_get_sweep_valid (WsConfigSidebar *self);
const char *ws_config_sidebar_get_kernel (WsConfigSidebar *self);
/* The kernel's catalog record, or NULL. */
JsonObject *ws_config_sidebar_get_kernel_record (WsConfigSidebar *self);

/* Sets the block of a single run as if typed ("256", "16x16"); for the tests and for taking
 * a run's configuration back. */
void ws_config_sidebar_set_block_text (WsConfigSidebar *self, const char *text);
/* Why the single run cannot start, or NULL when it can. */
const char *ws_config_sidebar_get_run_problem (WsConfigSidebar *self);

/* The runner's arguments for one run or the sweep (without the runner's path). */
GStrv ws_config_sidebar_build_args (WsConfigSidebar *self, gboolean sweep);

G_END_DECLS
