/* ws-figure.h: a chart as a figure for a report or a slide: its size in centimetres, its text
 * in points, a PNG's resolution; the presets a report asks for, and the name it is saved as.
 * Placed at its size, a figure's body text has the size chosen.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

#include "ws-chart.h"
#include "ws-export.h"

G_BEGIN_DECLS

typedef enum
{
  WS_FIGURE_COLUMN, /* one column of a two-column paper: 8.5 × 8 cm, 8 pt */
  WS_FIGURE_PAGE,   /* the text width of an A4 or Letter page: 17 × 10 cm, 9 pt */
  WS_FIGURE_SLIDE,  /* a whole 16:9 slide, 33.87 × 19.05 cm, 18 pt */
  WS_FIGURE_CUSTOM,
} WsFigurePreset;

#define WS_N_FIGURE_PRESETS 4

typedef struct
{
  WsFigurePreset preset;
  double width_cm, height_cm;
  double font_pt; /* the body text; titles and tick labels keep their proportion to it */
  double dpi;     /* PNG only */
} WsFigure;

/* The limits the dialog keeps to, and that ws_figure_check enforces. */
#define WS_FIGURE_MIN_CM 2.0
#define WS_FIGURE_MAX_CM 200.0
#define WS_FIGURE_MIN_PT 4.0
#define WS_FIGURE_MAX_PT 72.0
#define WS_FIGURE_MIN_DPI 36.0
#define WS_FIGURE_MAX_DPI 1200.0

void ws_figure_init_preset (WsFigure *figure, WsFigurePreset preset);
const char *ws_figure_preset_to_string (WsFigurePreset preset); /* "column", … (settings) */
gboolean ws_figure_preset_from_string (const char *name, WsFigurePreset *preset);
const char *ws_figure_preset_title (WsFigurePreset preset);     /* for people, translated */

/* Settings' export-size, export-width-cm, export-height-cm, export-font-pt, export-dpi. */
void ws_figure_load (WsFigure *figure, GSettings *settings);
void ws_figure_save (const WsFigure *figure, GSettings *settings);
/* FALSE, with a sentence saying what to change, for a size, font or resolution out of range. */
gboolean ws_figure_check (const WsFigure *figure, GError **error);

/* `options` sized in points, and a theme (`owned`, free with g_free) whose body text is
 * `font_pt` points at that size. */
void ws_figure_apply (const WsFigure *figure, WsThemeKind theme, WsChartOptions *options,
                      WsTheme **owned);
/* A PNG's size in pixels: the size in inches times the resolution. */
void ws_figure_get_pixels (const WsFigure *figure, int *width, int *height);

/* The bytes of `format` (PNG, SVG, PDF) of the chart `options` describes, as a figure. */
GBytes *ws_figure_render (const WsFigure *figure, GPtrArray *sessions,
                          const WsChartOptions *options, WsThemeKind theme,
                          WsExportFormat format, GError **error);

/* "<session>-<chart>.<ext>": the session file's name without its extension ("warpscope" for
 * a live session not saved yet), then the chart ("trace" for a trace). */
char *ws_figure_default_name (WsSession *session, WsChartKind chart, WsExportFormat format);
/* Where exports go: the folder last used, or Pictures, or the home folder. */
GFile *ws_figure_default_folder (GSettings *settings);
/* `file`, or the first of "name-2.ext", "name-3.ext", … that does not exist yet. */
GFile *ws_figure_unused_file (GFile *file);

G_END_DECLS
