/* ws-config-sidebar.h: what to run, a view of a plan (src/model/ws-plan.h): the kernel, its
 * size and block, host memory, repetitions, CPU baselines, and a sweep; each field is the
 * plan's, and the plan's reason a configuration cannot run is shown inline as it is typed.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "ws-plan.h"
#include "ws-view.h"

G_BEGIN_DECLS

/* Properties: "plan"; "workspace" (WsView's), whose session's runs estimate a sweep's time
 * and, without a runner, name the kernels to offer. */
#define WS_TYPE_CONFIG_SIDEBAR (ws_config_sidebar_get_type ())
G_DECLARE_FINAL_TYPE (WsConfigSidebar, ws_config_sidebar, WS, CONFIG_SIDEBAR, WsView)

GtkWidget *ws_config_sidebar_new (void);
void ws_config_sidebar_set_plan (WsConfigSidebar *self, WsPlan *plan);

/* Sets the block of a single run as if typed ("256", "16x16"): a preset when it is one. */
void ws_config_sidebar_set_block_text (WsConfigSidebar *self, const char *text);
/* The reason shown under the single run, or NULL when none is. */
const char *ws_config_sidebar_get_run_problem (WsConfigSidebar *self);

G_END_DECLS
