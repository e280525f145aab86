/* ws-layout.h: which side panes the window docks beside the chart at a given size. Below
 * the thresholds a pane folds into a flap over the content (F9, Shift+F9), so that from
 * 1024×600 up the chart keeps more than half of the window.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef enum
{
  WS_LAYOUT_WELCOME,      /* no runs: the welcome page, or the calculator */
  WS_LAYOUT_VIEWS,        /* a session's charts over its table */
  WS_LAYOUT_PRESENTATION, /* a projector: the chart and nothing beside it */
} WsLayoutMode;

typedef struct
{
  gboolean config_docked;   /* the configuration sidebar beside the content */
  gboolean findings_docked; /* the findings panel beside the content */
} WsLayout;

/* The widths the panes take when docked, in logical pixels. */
#define WS_LAYOUT_CONFIG_WIDTH 360
#define WS_LAYOUT_FINDINGS_WIDTH 340

void ws_layout_choose (WsLayoutMode mode, int width, int height, WsLayout *layout);

G_END_DECLS
