/* ws-param-group.h: the sidebar's part for an own kernel: which kernel file the plan runs,
 * and a row of toggles for each tunable parameter its header declares (TILE: 8 16 32), the
 * values a sweep crosses with the blocks; one run takes the first one chosen.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "ws-plan.h"

G_BEGIN_DECLS

/* Property: "plan". Hidden while the plan runs a built-in kernel. */
#define WS_TYPE_PARAM_GROUP (ws_param_group_get_type ())
G_DECLARE_FINAL_TYPE (WsParamGroup, ws_param_group, WS, PARAM_GROUP, GtkWidget)

void ws_param_group_set_plan (WsParamGroup *self, WsPlan *plan);
/* For the tests: the parameters shown ("TILE"), and one value's toggle. */
guint ws_param_group_get_n_params (WsParamGroup *self);
const char *ws_param_group_get_param_name (WsParamGroup *self, guint index);
GtkToggleButton *ws_param_group_get_toggle (WsParamGroup *self, const char *name,
                                            const char *value);

G_END_DECLS
