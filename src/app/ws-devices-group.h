/* ws-devices-group.h: the sidebar's GPUs: when the chosen target has several, which of them a
 * sweep is split across (all of them, or some), one runner per GPU; a single run goes to the
 * first chosen. Hidden while the target has one GPU or none. The choice is GSettings
 * "devices": "all", or CUDA indices "0,2" (what warpscope-cli run --devices takes).
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <adwaita.h>

#include "ws-environment.h"

G_BEGIN_DECLS

/* Properties: "environment" (whose GPUs are offered), "devices" (the choice, as above). */
#define WS_TYPE_DEVICES_GROUP (ws_devices_group_get_type ())
G_DECLARE_FINAL_TYPE (WsDevicesGroup, ws_devices_group, WS, DEVICES_GROUP, AdwPreferencesGroup)

void ws_devices_group_set_environment (WsDevicesGroup *self, WsEnvironment *environment);
const char *ws_devices_group_get_devices (WsDevicesGroup *self);
void ws_devices_group_set_devices (WsDevicesGroup *self, const char *devices);

/* The CUDA indices `devices` ("all", "0,2") chooses among the GPUs of `info` (an environment's
 * --device-info session; NULL: none), in the order of its device records. Indices it does
 * not have are left out; when none is left, every GPU is chosen. `all` says whether that
 * is every GPU of the target. */
GArray *ws_devices_choose (const char *devices, WsSession *info, gboolean *all);

G_END_DECLS
