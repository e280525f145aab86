/* ws-chart-private.h: what the charts share: the drawing context, text through pango (or as
 * SVG <text>), number formats, scales, axes, legends, markers, and the timeline's lane index.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <pango/pangocairo.h>

#include "ws-chart.h"
#include "ws-occupancy.h"

G_BEGIN_DECLS

typedef struct
{
  double x, y, width, height;
} WsRect;

/* ---- drawing context (ws-chart-text.c) -------------------------------------------------- */

typedef enum
{
  WS_FONT_NORMAL,
  WS_FONT_SMALL,
  WS_FONT_BOLD,
  WS_FONT_TITLE,
  WS_N_FONTS
} WsFontRole;

/* SVG export records text here instead of drawing glyphs, so that the SVG holds <text>. */
typedef struct _WsTextSink WsTextSink;

typedef struct
{
  cairo_t *cr;
  const WsTheme *theme;
  const WsChartOptions *options;
  WsRect area;
  PangoContext *pango;
  PangoLayout *layouts[WS_N_FONTS];
  WsTextSink *sink;
  double unit;        /* spacing unit: 1 at the theme's normal size, larger when scaled */
  double line_height; /* of WS_FONT_NORMAL */
  double small_height;
  cairo_surface_t *scratch; /* when measuring without a target (geometry queries) */
} WsChartContext;

/* cr may be NULL: the context then measures text on a scratch surface and draws nothing. */
void _ws_chart_context_init (WsChartContext *ctx, cairo_t *cr, const WsChartOptions *options);
void _ws_chart_context_clear (WsChartContext *ctx);

void _ws_text_extent (WsChartContext *ctx, WsFontRole role, const char *text, double *width,
                      double *height);
double _ws_text_width (WsChartContext *ctx, WsFontRole role, const char *text);
/* Draws `text` so that the point (ax, ay) of its box (0..1 each) lies at (x, y). */
void _ws_text_show (WsChartContext *ctx, WsFontRole role, const char *text, double x, double y,
                    double ax, double ay, const WsColor *color);
/* The same, turned by `angle` radians (clockwise on screen) about (x, y). */
void _ws_text_show_rotated (WsChartContext *ctx, WsFontRole role, const char *text, double x,
                            double y, double angle, double ax, double ay, const WsColor *color);
/* The same, turned by a quarter anticlockwise (vertical axis titles). */
void _ws_text_show_vertical (WsChartContext *ctx, WsFontRole role, const char *text, double x,
                             double y, double ax, double ay, const WsColor *color);
/* Wrapped to `width`, from (x, y) down; returns the height used. draw FALSE only measures. */
double _ws_text_show_wrapped (WsChartContext *ctx, WsFontRole role, const char *text, double x,
                              double y, double width, PangoAlignment align,
                              const WsColor *color, gboolean draw);
/* The first of `candidates` (NULL-terminated) that fits in max_width, or NULL. */
const char *_ws_text_fit (WsChartContext *ctx, WsFontRole role, const char *const *candidates,
                          double max_width);

/* SVG text sink (ws-export-svg.c fills it in, ws-chart-text.c records into it). */
WsTextSink *_ws_text_sink_new (void);
void _ws_text_sink_free (WsTextSink *sink);
void _ws_text_sink_attach (WsTextSink *sink, cairo_surface_t *surface);
/* One line of text whose baseline starts (ax 0), is centred (0.5) or ends (1) at (x, y) in
 * the user space of cr. */
void _ws_text_sink_record (WsTextSink *sink, cairo_t *cr, const char *text, gssize length,
                           double x, double y, double ax, const PangoFontDescription *font,
                           const WsColor *color);
/* Appends the recorded text as SVG <text> elements. */
void _ws_text_sink_write (WsTextSink *sink, GString *svg);
WsTextSink *_ws_text_sink_from_surface (cairo_surface_t *surface);

/* ---- colours and shapes (ws-chart-axes.c) ----------------------------------------------- */

void _ws_set_color (cairo_t *cr, const WsColor *color);
void _ws_set_color_alpha (cairo_t *cr, const WsColor *color, double alpha);
WsColor _ws_color_mix (const WsColor *a, const WsColor *b, double t);
double _ws_color_luminance (const WsColor *color);
/* `color` moved towards the theme's text colour until text in it reads on the background
 * (WCAG AA, 4.5:1): labels in a series' colour. */
WsColor _ws_color_readable (const WsTheme *theme, const WsColor *color);
/* Black or white, whichever reads better on `fill`. */
WsColor _ws_color_text_on (const WsColor *fill);
/* Fills the current path; in print also outlines it in a darker shade of the fill. */
void _ws_fill_shape (WsChartContext *ctx, const WsColor *color);

typedef enum
{
  WS_MARKER_CIRCLE,
  WS_MARKER_SQUARE,
  WS_MARKER_TRIANGLE,
  WS_MARKER_DIAMOND,
  WS_MARKER_STAR,
  WS_N_MARKERS
} WsMarker;

void _ws_draw_marker (WsChartContext *ctx, WsMarker marker, double x, double y, double size,
                      const WsColor *fill, const WsColor *stroke);
/* Diagonal hatching over `rect` (invalid configurations). */
void _ws_draw_hatch (WsChartContext *ctx, const WsRect *rect, const WsColor *color);
/* A box of the background colour, `alpha` opaque, so that a label stays readable over lines
 * and marks drawn before it. */
void _ws_draw_halo (WsChartContext *ctx, double x, double y, double width, double height,
                    double alpha);

/* ---- numbers for people (ws-chart-format.c) --------------------------------------------- */

char *_ws_format_duration (double ns);  /* "2.40 µs", "15.1 ms" */
char *_ws_format_bytes (double bytes);  /* "4 kB", "80 MB": SI, as GB/s are */
char *_ws_format_gbs (double gbs);       /* "55.2 GB/s" */
char *_ws_format_count (double value);  /* "1 K", "10 M", "2048", "1.5 M" */
char *_ws_format_count_approx (double value); /* two digits: "6.1 K", "95 K" */
char *_ws_format_sig (double value, int digits); /* significant digits, grouped thousands */
char *_ws_format_percent (double fraction);      /* "97%", "0.5%" */
/* The unit a step of `step_ns` reads best in: "ns", "µs", "ms", "s", and its size in ns. */
const char *_ws_time_unit (double step_ns, double *ns_per_unit);
/* A value with as many decimals as `step` needs to tell neighbouring ticks apart. */
char *_ws_format_tick (double value, double step);
/* A tick of a log axis with the decimals it needs: 0.01, 0.5, 2.5, 1,000. */
char *_ws_format_log_tick (double value);

/* ---- scales and axes (ws-chart-axes.c) -------------------------------------------------- */

typedef enum
{
  WS_SCALE_LINEAR,
  WS_SCALE_LOG,
} WsScaleKind;

typedef struct
{
  WsScaleKind kind;
  double lo, hi; /* domain */
  double p0, p1; /* pixels that lo and hi map to */
} WsScale;

/* Sets a domain that can be drawn: finite, lo < hi, positive on a log scale. */
void _ws_scale_set_domain (WsScale *scale, WsScaleKind kind, double lo, double hi);
/* Widens the domain by `fraction` of its span (log: of its decades) on each side. */
void _ws_scale_pad (WsScale *scale, double fraction);
double _ws_scale_map (const WsScale *scale, double value);
double _ws_nice_step (double raw);
/* Min and max of the finite (and, for log, positive) values; FALSE when there are none. */
gboolean _ws_range_update (double value, gboolean log, double *lo, double *hi);

typedef enum
{
  WS_AXIS_BOTTOM,
  WS_AXIS_LEFT,
  WS_AXIS_RIGHT,
} WsAxisSide;

typedef char *(*WsTickFormat) (double value, double step, gpointer user_data);

typedef struct
{
  WsAxisSide side;
  WsScale scale;
  const char *title;
  WsTickFormat format;  /* NULL: _ws_format_tick */
  gpointer format_data;
  GArray *fixed;        /* double: ticks only at these values (thinned when they collide) */
  gboolean no_grid;
  const WsColor *color; /* labels and title; NULL: the theme's */

  /* filled in by _ws_axis_compute_ticks */
  GArray *ticks;      /* double */
  GPtrArray *labels;  /* char * */
  double step;
  double label_extent; /* widest label (vertical axes) */
} WsAxis;

void _ws_axis_init (WsAxis *axis, WsAxisSide side, WsScaleKind kind, double lo, double hi,
                    const char *title);
void _ws_axis_clear (WsAxis *axis);
void _ws_axis_compute_ticks (WsChartContext *ctx, WsAxis *axis);
/* Lays out a plot in `area` with room for the axes (any may be NULL) and sets their pixels
 * and ticks. */
void _ws_plot_layout (WsChartContext *ctx, const WsRect *area, WsAxis *bottom, WsAxis *left,
                      WsAxis *right, WsRect *plot);
void _ws_axis_draw_grid (WsChartContext *ctx, const WsAxis *axis, const WsRect *plot);
void _ws_axis_draw (WsChartContext *ctx, const WsAxis *axis, const WsRect *plot);

/* ---- legends ---------------------------------------------------------------------------- */

typedef enum
{
  WS_LEGEND_BOX,      /* a filled square */
  WS_LEGEND_LINE,     /* a line with the marker on it */
  WS_LEGEND_DASHED,   /* a dashed line with the marker */
  WS_LEGEND_MARKER,   /* the marker alone */
  WS_LEGEND_HATCH,    /* hatched square */
  WS_LEGEND_OUTLINE,  /* an outlined square */
  WS_LEGEND_BAND,     /* a light band */
} WsLegendStyle;

typedef struct
{
  const char *label;
  WsColor color;
  WsLegendStyle style;
  int marker; /* WsMarker, or -1 */
} WsLegendItem;

/* Lays the items out in rows from (x, y) within max_width; returns the height used. */
double _ws_legend_draw (WsChartContext *ctx, const WsLegendItem *items, guint n, double x,
                        double y, double max_width, gboolean draw);

/* ---- frame, labels, runs (ws-chart.c) --------------------------------------------------- */

/* Paints the background, the title and the subtitle; `content` receives the area below. */
void _ws_chart_frame (WsChartContext *ctx, const char *title, const char *subtitle,
                      WsRect *content);
/* A chart with nothing to show: a sentence in the middle of `area`. */
void _ws_chart_message (WsChartContext *ctx, const WsRect *area, const char *sentence);
/* ws_run_dup_size_label, knowing 2D shapes as well: "n = 10,000", "4096³", "5000×3000". */
char *_ws_chart_dup_size_label (WsRun *run);
/* The kernels of these runs in order, three named and the rest counted: "a, b, c and 1 more". */
char *_ws_chart_kernels_label (GPtrArray *runs);
/* "NVIDIA H200 · 2026-11-29": which GPU and when. */
char *_ws_chart_subtitle (WsSession *session, const char *what);

/* Places labels without overlaps: FALSE when `rect` collides with one already placed. */
typedef struct
{
  GArray *rects;
} WsPlacer;

void _ws_placer_init (WsPlacer *placer);
void _ws_placer_clear (WsPlacer *placer);
gboolean _ws_placer_try (WsPlacer *placer, const WsRect *rect);

/* Runs with results (complete or failed verification), or the one run asked for and the one
 * to compare with (WsRun, referenced). */
GPtrArray *_ws_chart_runs (WsSession *session, const WsChartOptions *options);
/* Findings shown in presentation mode (annotate): the most severe ones in a box at the
 * bottom of `area`, which shrinks by the height used; whole findings only, leaving the chart
 * at least `keep` of the height. */
void _ws_chart_annotate (WsChartContext *ctx, WsSession *session, GPtrArray *runs, double keep,
                         WsRect *area);
/* What a plot with axes and a legend needs to stay readable, for _ws_chart_annotate. */
#define WS_CHART_PLOT_KEEP(ctx) (14 * (ctx)->line_height)

/* ---- the charts ------------------------------------------------------------------------- */

void _ws_chart_timeline (WsChartContext *ctx, GPtrArray *sessions);
void _ws_chart_speedup (WsChartContext *ctx, GPtrArray *sessions);
void _ws_chart_blocks (WsChartContext *ctx, GPtrArray *sessions);
void _ws_chart_heatmap (WsChartContext *ctx, WsSession *session, WsSeries *series,
                        const WsRect *content);
void _ws_chart_occupancy (WsChartContext *ctx, GPtrArray *sessions);
void _ws_chart_breakdown (WsChartContext *ctx, GPtrArray *sessions);
void _ws_chart_roofline (WsChartContext *ctx, GPtrArray *sessions);

/* The block series a blocks chart shows (WsSeries, owned), and whether it is 2D. */
GPtrArray *_ws_blocks_pick_series (WsSession *session, const WsChartOptions *options,
                                   gboolean *heatmap);
/* The configuration the occupancy chart shows: the options', else the run's launch, else a
 * common kernel's; returns the architecture's name ("sm_90"). `run` may be NULL. */
const char *_ws_occupancy_chart_input (WsSession *session, const WsChartOptions *options,
                                       WsRun **run, WsOccupancyInput *input);
/* The size series a speedup chart shows (WsSeries, owned). */
GPtrArray *_ws_speedup_pick_series (WsSession *session, const WsChartOptions *options);

/* ---- the timeline's lane index (ws-chart-lanes.c) --------------------------------------- */

typedef enum
{
  WS_LANE_CPU,
  WS_LANE_H2D,
  WS_LANE_KERNEL, /* one per stream */
  WS_LANE_D2H,
  WS_LANE_OTHER_COPY,
  WS_LANE_MEMSET,
  WS_LANE_SYNC,       /* the host waiting: it overlaps the GPU work it waits for */
  WS_LANE_OVERHEAD,
  WS_N_LANE_CATEGORIES
} WsLaneCategory;

#define WS_LANE_KEY(category, stream) (((guint64) (category) << 32) | (guint32) (stream))
#define WS_LANE_KEY_CATEGORY(key) ((WsLaneCategory) ((key) >> 32))
#define WS_LANE_KEY_STREAM(key) ((guint32) ((key) & 0xffffffff))

typedef struct
{
  gint64 start, end;
  guint32 index; /* into ws_run_get_activities () */
  guint32 kind;  /* WsActivityKind */
} WsLaneSpan;

typedef struct
{
  guint64 key;
  guint n;
  WsLaneSpan *spans; /* sorted by start */
  gint64 *busy;      /* busy[i]: summed durations of spans[0 .. i) */
  gint64 *reach;     /* reach[i]: the latest end among spans[0 .. i]; never decreases */
} WsLane;

typedef struct
{
  guint n_activities; /* what it was built from */
  gboolean has_range;
  gint64 start, end;
  WsLane *lanes;
  guint n_lanes;
  gint64 phase_start[3], phase_end[3]; /* WS_PHASE_SEQUENCE .. WS_PHASE_CPU; start > end: none */
} WsRunLanes;

/* The run's activities sorted into lanes, built once and kept with the run until its
 * activities change. Release with _ws_run_lanes_unref. */
WsRunLanes *_ws_run_lanes_get (WsRun *run);
void _ws_run_lanes_unref (WsRunLanes *lanes);
WsLaneCategory _ws_lane_category (const WsActivity *activity);
/* The first span that may still be visible at t (reach > t). */
guint _ws_lane_first_reaching (const WsLane *lane, gint64 t);
/* The first span at or after `from` that starts at or after t. */
guint _ws_lane_first_starting (const WsLane *lane, guint from, gint64 t);

G_END_DECLS
