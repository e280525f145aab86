/* ws-chart-timeline-spans.c: the timeline's spans: wide ones drawn and labelled, a pixel
 * column of narrow ones merged into one density bar, and outlines where findings point.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "ws-config.h"

#include <glib/gi18n-lib.h>
#include <math.h>

#include "ws-analysis.h"
#include "ws-chart-timeline-private.h"

/* ---- spans ------------------------------------------------------------------------------ */

#define DENSITY_LEVELS 6

typedef struct
{
  const WsTimelineLayout *l;
  WsChartContext *ctx;
  double y, h;
  GArray *solid;     /* WsRect */
  GArray *density[DENSITY_LEVELS];
  GArray *labelled;  /* Labelled */
  gboolean used_density;
} Walk;

typedef struct
{
  WsRect rect;
  WsRun *run;
  guint index;
} Labelled;

static void
add_rect (GArray *rects, double x0, double x1, double y, double h)
{
  WsRect r = { x0, y, x1 - x0, h };

  /* Edges on whole pixels: cairo fills pixel-aligned boxes without rasterising, and
   * touching boxes merge into one, so a busy lane costs a few boxes, not thousands. */
  r.x = round (x0);
  r.width = MAX (round (x1) - r.x, 1);
  if (rects->len > 0)
    {
      WsRect *last = &g_array_index (rects, WsRect, rects->len - 1);

      if (last->y == r.y && r.x <= last->x + last->width && r.x >= last->x)
        {
          last->width = MAX (last->width, r.x + r.width - last->x);
          return;
        }
    }
  g_array_append_val (rects, r);
}

/* Draws one lane of one run: wide spans as themselves, a pixel column of narrow ones as one
 * bar whose strength is the share of the column they kept busy. */
static void
walk_lane (Walk *w, WsRun *run, const WsLane *lane)
{
  const WsTimelineLayout *l = w->l;
  guint i = _ws_lane_first_reaching (lane, l->start);

  while (i < lane->n && lane->spans[i].start < l->end)
    {
      const WsLaneSpan *s = &lane->spans[i];
      double x0 = _ws_timeline_x (l, s->start), x1 = _ws_timeline_x (l, s->end);
      double column, busy;
      gint64 column_end;
      guint k, level;

      if (s->end <= l->start)
        {
          i++;
          continue;
        }
      if (x1 - x0 >= 1.0)
        {
          add_rect (w->solid, x0, x1, w->y, w->h);
          if (x1 - x0 >= 2.5 * w->ctx->line_height)
            {
              Labelled lab = { { x0, w->y, x1 - x0, w->h }, run, s->index };

              g_array_append_val (w->labelled, lab);
            }
          i++;
          continue;
        }
      column = floor (MAX (x0, l->plot.x) - l->plot.x);
      column_end = l->start + (gint64) ceil ((column + 1) / l->ppn);
      k = _ws_lane_first_starting (lane, i + 1, column_end);
      if (k == i + 1)
        {
          /* A lone narrow span still shows, a pixel wide. */
          add_rect (w->solid, x0, x0 + 1, w->y, w->h);
          i++;
          continue;
        }
      /* The column's last span may reach far beyond it: that one is drawn as itself. */
      if (k - 1 > i && (lane->spans[k - 1].end - lane->spans[k - 1].start) * l->ppn >= 1.0)
        k--;
      busy = (double) (lane->busy[k] - lane->busy[i]) * l->ppn;
      level = (guint) CLAMP (ceil (busy * DENSITY_LEVELS) - 1, 0, DENSITY_LEVELS - 1);
      add_rect (w->density[level], l->plot.x + column, l->plot.x + column + 1, w->y, w->h);
      w->used_density = TRUE;
      i = k;
    }
}

static void
fill_rects (WsChartContext *ctx, GArray *rects, const WsColor *color, double alpha)
{
  cairo_t *cr = ctx->cr;

  if (rects->len == 0)
    return;
  for (guint i = 0; i < rects->len; i++)
    {
      const WsRect *r = &g_array_index (rects, WsRect, i);

      cairo_rectangle (cr, r->x, r->y, r->width, r->height);
    }
  if (alpha < 1)
    {
      WsColor c = _ws_color_mix (&ctx->theme->background, color, alpha);

      _ws_set_color (cr, &c);
      cairo_fill (cr);
    }
  else
    _ws_fill_shape (ctx, color);
  g_array_set_size (rects, 0);
}

/* A span's label: its facts as fragments, most important first. One line when they all fit;
 * in a tall span one fragment a line, as many as fit; else the first that fits. */
static void
label_span (WsChartContext *ctx, const WsTimelineLayout *l, const Labelled *lab,
            const WsColor *fill)
{
  guint n, n_frags = 0, shown = 0;
  const WsActivity *a = &ws_run_get_activities (lab->run, &n)[lab->index];
  double x0 = MAX (lab->rect.x, l->plot.x);
  double x1 = MIN (lab->rect.x + lab->rect.width, l->plot.x + l->plot.width);
  double width = x1 - x0 - 6 * ctx->unit, line = ctx->small_height;
  guint max_lines = (guint) MAX (0, floor ((lab->rect.height - 4 * ctx->unit) / line));
  char *frags[4] = { NULL };
  const char *lines[4];
  g_autofree char *joined = NULL;
  WsColor text = _ws_color_text_on (fill);

  if (max_lines == 0 || width < ctx->small_height)
    return;
  switch ((WsActivityKind) a->kind)
    {
    case WS_ACTIVITY_MEMCPY:
      {
        /* The lane says which direction. */
        frags[n_frags++] = _ws_format_bytes ((double) a->bytes);
        frags[n_frags++] = _ws_format_duration ((double) ws_activity_duration (a));
        frags[n_frags++] = _ws_format_gbs (ws_activity_gbs (a));
        break;
      }
    case WS_ACTIVITY_KERNEL:
      frags[n_frags++] = g_strdup (a->name ? a->name : _("kernel"));
      frags[n_frags++] = _ws_format_duration ((double) ws_activity_duration (a));
      if (a->grid[1] <= 1 && a->block[1] <= 1)
        frags[n_frags++] = g_strdup_printf (_("%u blocks × %u threads"), a->grid[0], a->block[0]);
      else
        frags[n_frags++] = g_strdup_printf (_("grid %u×%u × block %u×%u"), a->grid[0],
                                            a->grid[1], a->block[0], a->block[1]);
      break;
    case WS_ACTIVITY_CPU:
      frags[n_frags++] = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "CPU, %u thread",
                                                       "CPU, %u threads", a->threads),
                                          a->threads);
      frags[n_frags++] = _ws_format_duration ((double) ws_activity_duration (a));
      break;
    case WS_ACTIVITY_MEMSET:
      frags[n_frags++] = _ws_format_duration ((double) ws_activity_duration (a));
      frags[n_frags++] = _ws_format_bytes ((double) a->bytes);
      break;
    case WS_ACTIVITY_SYNC:
      frags[n_frags++] = _ws_format_duration ((double) ws_activity_duration (a));
      frags[n_frags++] = g_strdup (a->detail ? a->detail : _("sync"));
      break;
    case WS_ACTIVITY_OVERHEAD:
    case WS_ACTIVITY_OTHER:
    default:
      frags[n_frags++] = _ws_format_duration ((double) ws_activity_duration (a));
      frags[n_frags++] = g_strdup_printf (_("CUPTI: %s"), a->detail ? a->detail : "");
      break;
    }
  joined = g_strjoinv (" · ", frags);
  if (_ws_text_fit (ctx, WS_FONT_SMALL, (const char *const[]) { joined, NULL }, width))
    lines[shown++] = joined;
  else
    for (guint i = 0; i < n_frags && shown < max_lines; i++)
      if (_ws_text_fit (ctx, WS_FONT_SMALL, (const char *const[]) { frags[i], NULL }, width))
        lines[shown++] = frags[i];
  for (guint i = 0; i < shown; i++)
    _ws_text_show (ctx, WS_FONT_SMALL, lines[i], (x0 + x1) / 2,
                   lab->rect.y + lab->rect.height / 2 + (i - (shown - 1) / 2.0) * line, 0.5, 0.5,
                   &text);
  for (guint i = 0; i < n_frags; i++)
    g_free (frags[i]);
}

const WsLane *
_ws_timeline_find_lane (const WsRunLanes *lanes, guint64 key)
{
  for (guint j = 0; j < lanes->n_lanes; j++)
    if (lanes->lanes[j].key == key)
      return &lanes->lanes[j];
  return NULL;
}

gboolean
_ws_timeline_draw_lanes (WsChartContext *ctx, const WsTimelineLayout *l)
{
  Walk w = { l, ctx };
  cairo_t *cr = ctx->cr;
  gboolean density = FALSE;

  w.solid = g_array_new (FALSE, FALSE, sizeof (WsRect));
  for (guint i = 0; i < DENSITY_LEVELS; i++)
    w.density[i] = g_array_new (FALSE, FALSE, sizeof (WsRect));
  w.labelled = g_array_new (FALSE, FALSE, sizeof (Labelled));

  cairo_save (cr);
  cairo_rectangle (cr, l->plot.x, l->plot.y - 1, l->plot.width, l->plot.height + 2);
  cairo_clip (cr);
  for (guint r = 0; r < l->rows->len; r++)
    {
      const WsTimelineRow *row = &g_array_index (l->rows, WsTimelineRow, r);
      WsLaneCategory category = WS_LANE_KEY_CATEGORY (row->key);
      WsColor color = row->color;

      if (category == WS_LANE_OVERHEAD)
        color = _ws_color_mix (&ctx->theme->sync, &ctx->theme->background, 0.35);
      w.h = MAX (1, round (l->row_height * 0.72));
      w.y = l->plot.y + r * l->row_height + round ((l->row_height - w.h) / 2);
      for (guint i = 0; i < l->runs->len; i++)
        {
          const WsRunLanes *lanes = g_ptr_array_index (l->lanes, i);
          const WsLane *lane;

          if (lanes->end < l->start || lanes->start > l->end)
            continue;
          lane = _ws_timeline_find_lane (lanes, row->key);
          if (lane)
            walk_lane (&w, g_ptr_array_index (l->runs, i), lane);
        }
      for (guint lv = 0; lv < DENSITY_LEVELS; lv++)
        fill_rects (ctx, w.density[lv], &color, 0.3 + 0.7 * (lv + 1) / DENSITY_LEVELS);
      fill_rects (ctx, w.solid, &color, 1);
      {
        double last_end = -G_MAXDOUBLE;

        for (guint k = 0; k < w.labelled->len && k < 400; k++)
          {
            const Labelled *lab = &g_array_index (w.labelled, Labelled, k);

            if (lab->rect.x < last_end)
              continue;
            label_span (ctx, l, lab, &color);
            last_end = lab->rect.x + lab->rect.width;
          }
        g_array_set_size (w.labelled, 0);
      }
    }
  cairo_restore (cr);
  density = w.used_density;
  g_array_unref (w.solid);
  for (guint i = 0; i < DENSITY_LEVELS; i++)
    g_array_unref (w.density[i]);
  g_array_unref (w.labelled);
  return density;
}

static int
row_of (const WsTimelineLayout *l, const WsActivity *a)
{
  WsLaneCategory category = _ws_lane_category (a);
  guint64 key = WS_LANE_KEY (category, category == WS_LANE_KERNEL ? a->stream : 0);

  for (guint r = 0; r < l->rows->len; r++)
    if (g_array_index (l->rows, WsTimelineRow, r).key == key)
      return (int) r;
  return -1;
}

static void
outline (WsChartContext *ctx, const WsTimelineLayout *l, WsRun *run, guint index)
{
  guint n;
  const WsActivity *a = ws_run_get_activities (run, &n);
  int r;
  double x0, x1, h, y;
  cairo_t *cr = ctx->cr;

  if (index >= n || (r = row_of (l, &a[index])) < 0)
    return;
  if (a[index].end < l->start || a[index].start > l->end)
    return;
  x0 = _ws_timeline_x (l, a[index].start);
  x1 = MAX (_ws_timeline_x (l, a[index].end), x0 + 1);
  /* A span too short to see is still pointed at: its outline is a few pixels wide. */
  if (x1 - x0 < 6 * ctx->unit)
    {
      double c = (x0 + x1) / 2;

      x0 = c - 3 * ctx->unit;
      x1 = c + 3 * ctx->unit;
    }
  h = MAX (1, round (l->row_height * 0.72));
  y = l->plot.y + r * l->row_height + round ((l->row_height - h) / 2);
  cairo_save (cr);
  cairo_rectangle (cr, x0 - 1.5 * ctx->unit, y - 1.5 * ctx->unit, x1 - x0 + 3 * ctx->unit,
                   h + 3 * ctx->unit);
  _ws_set_color (cr, &ctx->theme->background);
  cairo_set_line_width (cr, 4.5 * ctx->unit);
  cairo_stroke_preserve (cr);
  _ws_set_color (cr, &ctx->theme->highlight);
  cairo_set_line_width (cr, 2.25 * ctx->unit);
  cairo_stroke (cr);
  cairo_restore (cr);
}

void
_ws_timeline_draw_highlights (WsChartContext *ctx, const WsTimelineLayout *l)
{
  const WsChartOptions *o = ctx->options;

  if (o->highlight != NULL)
    for (guint i = 0; i < o->highlight->len; i++)
      {
        const WsActivityRef *ref = &g_array_index (o->highlight, WsActivityRef, i);
        WsRun *run = ws_session_find_run (l->session, ref->run);

        if (run)
          outline (ctx, l, run, ref->index);
      }
  if (!o->annotate)
    return;
  for (guint i = 0; i < l->runs->len; i++)
    {
      WsRun *run = g_ptr_array_index (l->runs, i);
      WsRunLanes *lanes = g_ptr_array_index (l->lanes, i);
      g_autoptr (GPtrArray) findings = NULL;

      if (lanes->end < l->start || lanes->start > l->end)
        continue;
      findings = ws_analyze_run (l->session, run);
      /* Only the most severe finding's spans: outlines on everything point at nothing. */
      for (guint f = 0; f < findings->len; f++)
        {
          const WsFinding *finding = g_ptr_array_index (findings, f);

          if (finding->severity < WS_SEVERITY_LOW || finding->activities == NULL
              || finding->activities->len == 0)
            continue;
          for (guint k = 0; k < finding->activities->len && k < 64; k++)
            outline (ctx, l, run, g_array_index (finding->activities, guint, k));
          break;
        }
    }
}
