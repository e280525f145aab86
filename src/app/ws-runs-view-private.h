/* ws-runs-view-private.h: what the runs table's files share: its columns, the text of a cell,
 * its tooltip (ws-runs-view-tooltips.c) and the columns' widths (ws-runs-view-widths.c).
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "ws-runs-view.h"

G_BEGIN_DECLS

typedef enum
{
  COL_ID,
  COL_DEVICE,
  COL_KERNEL,
  COL_SIZE,
  COL_BLOCK,
  COL_MEMORY,
  COL_KERNEL_TIME,
  COL_E2E,
  COL_SPEEDUP_ONE,
  COL_SPEEDUP_ALL,
  COL_OCCUPANCY,
  COL_VERIFIED,
  COL_FINDINGS,
  N_COLUMNS
} Column;

/* A cell's text and its style class (NULL for none); its tooltip is asked for apart. */
char *_ws_runs_view_cell_text (WsRunsView *self, WsRun *run, Column column, const char **css);
WsSession *_ws_runs_view_get_session (WsRunsView *self);
/* The findings of a run from the workspace's analysis, NULL before it is ready. */
GPtrArray *_ws_runs_view_get_findings (WsRunsView *self, WsRun *run);
/* A cell's "query-tooltip" handler (ws-runs-view-tooltips.c): the cell carries its run and
 * column as object data ("run", "column"). */
gboolean _ws_runs_view_query_tooltip_cb (GtkWidget *cell, int x, int y, gboolean keyboard,
                                         GtkTooltip *tooltip, gpointer data);
/* The tooltips of the headers that need one, set once the columns are in `columns`. */
void _ws_runs_view_set_header_tooltips (GtkColumnView *columns);

/* The columns' widths, fixed once the first rows are bound (ws-runs-view-widths.c). */
#define WS_RUNS_TEXT_COLUMNS 5

typedef struct
{
  WsRunsView *view;
  GtkColumnView *columns;
  GtkWidget *sample;       /* a bound cell's inscription, to measure the widths in (weak) */
  guint tick;              /* the tick callback that fixes them */
  gboolean fixed;
  gboolean texts_stale;    /* a new session's texts are not measured yet */
  gboolean restyled;       /* the font changed: the cells' styles are new a frame later */
  int widths[N_COLUMNS];       /* fixed, or -1 */
  int title_widths[N_COLUMNS];
  int text_widths[WS_RUNS_TEXT_COLUMNS]; /* the widest text so far of each column of text */
  GtkSettings *settings;
} WsRunsWidths;

void _ws_runs_widths_init (WsRunsWidths *widths, WsRunsView *view, GtkColumnView *columns);
void _ws_runs_widths_clear (WsRunsWidths *widths);
/* A cell's child was bound. */
void _ws_runs_widths_bound (WsRunsWidths *widths, GtkWidget *child);
/* The view shows a new session: its texts are measured in the next frame. */
void _ws_runs_widths_new_session (WsRunsWidths *widths);
/* A run of a live session changed: its texts may be wider. */
void _ws_runs_widths_fit_run (WsRunsWidths *widths, WsRun *run);

G_END_DECLS
