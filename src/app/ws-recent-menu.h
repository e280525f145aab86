/* ws-recent-menu.h: the sessions opened last, newest first, that still exist, as menu items
 * opening them again.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

/* Fills `menu` with up to eight items (action win.open-sample, the path as target) and keeps
 * it up to date for as long as it exists. */
void ws_recent_menu_follow (GMenu *menu);

G_END_DECLS
