/* ws-devices-group.h: the sidebar's GPUs: when the chosen target has several, which of them a
 * sweep is split across (all of them, or some), one runner per GPU; a single run goes to the
 * first chosen. Hidden while the target has one GPU or none. The choice is the plan's
 * "devices" ("all", or CUDA indices "0,2"), which the plan turns into a run's GPUs.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <adwaita.h>

#include "ws-environment.h"
#include "ws-plan.h"

G_BEGIN_DECLS

/* Properties: "environment" (whose GPUs are offered), "plan" (whose "devices" is the choice). */
#define WS_TYPE_DEVICES_GROUP (ws_devices_group_get_type ())
G_DECLARE_FINAL_TYPE (WsDevicesGroup, ws_devices_group, WS, DEVICES_GROUP, AdwPreferencesGroup)

void ws_devices_group_set_environment (WsDevicesGroup *self, WsEnvironment *environment);
void ws_devices_group_set_plan (WsDevicesGroup *self, WsPlan *plan);

G_END_DECLS
