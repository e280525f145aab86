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

/* What a recording is of, in the order the welcome page and the menu show them. */
typedef enum
{
  WS_SAMPLE_BUILT_IN, /* Warpscope's own kernels, run by the runner */
  WS_SAMPLE_TRACED,   /* programs traced as they are (trace-*.jsonl) */
  WS_SAMPLE_OWN,      /* a kernel of your own, compiled at run time (own-*.jsonl) */
} WsSampleGroup;

#define WS_N_SAMPLE_GROUPS 3

/* The heading of a group, for people: "Your own kernel". */
const char *ws_sample_group_title (WsSampleGroup group);

/* "vector-add-sizes-h200.jsonl" in `dir`: "Vector add over sizes (H200)"; a file this version
 * does not know is titled from its name. */
WsSample *ws_sample_new (const char *dir, const char *file_name);
const char *ws_sample_get_title (WsSample *self);
const char *ws_sample_get_path (WsSample *self);
WsSampleGroup ws_sample_get_group (WsSample *self);

/* The .jsonl recordings in `dir`, in the order a class meets them, then others by name
 * (WsSample). */
GListModel *ws_sample_list_new (const char *dir);
/* Appends a submenu per group to `menu`, labelled by its title, with an item opening each
 * recording (action win.open-sample, the path as target). */
void ws_sample_list_fill_menu (GListModel *samples, GMenu *menu);

G_END_DECLS
