/* ws-sample.h: a recording bundled with Warpscope, with a title a student reads, and the
 * list of them in the order a class meets them (the tutorial's own kernels first, then the
 * ladders), for the welcome page and the menu.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

#define WS_TYPE_SAMPLE (ws_sample_get_type ())
G_DECLARE_FINAL_TYPE (WsSample, ws_sample, WS, SAMPLE, GObject)

/* "vector-add-sizes-h200.jsonl" in `dir`: "Vector add over sizes (H200)"; a file this version
 * does not know is titled from its name. */
WsSample *ws_sample_new (const char *dir, const char *file_name);
const char *ws_sample_get_title (WsSample *self);
const char *ws_sample_get_path (WsSample *self);

/* The .jsonl recordings in `dir`, in the order a class meets them, then others by name
 * (WsSample). */
GListModel *ws_sample_list_new (const char *dir);
/* Appends an item opening each (action win.open-sample, the path as target) to `menu`. */
void ws_sample_list_fill_menu (GListModel *samples, GMenu *menu);

G_END_DECLS
