/* ws-chart-axes.c: linear and log scales, ticks whose labels never collide (measured with
 * pango, thinned until they fit), axes, gridlines, and the layout of a plot between them.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "ws-chart-axes-private.h"
#include "ws-chart-format-private.h"
#include "ws-chart-shapes-private.h"

#include <math.h>

/* Pixel coordinates are kept within this of the plot so that cairo never sees a value its
 * fixed-point arithmetic cannot hold (a log of a tiny number, a zoom of a billion). */
#define WS_PIXEL_LIMIT 1e6
/* The floor every axis keeps at any size, where its labels fit at all: three labelled ticks
 * (and every decade on a log axis that has room for their labels). */
#define WS_AXIS_MIN_TICKS 3

void
_ws_scale_set_domain (WsScale *scale, WsScaleKind kind, double lo, double hi)
{
  scale->kind = kind;
  if (!isfinite (lo) || !isfinite (hi))
    {
      lo = kind == WS_SCALE_LOG ? 1 : 0;
      hi = kind == WS_SCALE_LOG ? 10 : 1;
    }
  if (lo > hi)
    {
      double t = lo;

      lo = hi;
      hi = t;
    }
  if (kind == WS_SCALE_LOG)
    {
      if (hi <= 0)
        hi = 10;
      if (lo <= 0)
        lo = hi / 10;
      if (hi / lo < 1 + 1e-9)
        {
          /* One value, or several equal ones: a factor of 2 either side. */
          lo /= 2;
          hi *= 2;
        }
    }
  else if (hi - lo <= fabs (hi) * 1e-12)
    {
      double d = fabs (lo) * 0.1;

      if (d == 0)
        d = 1;
      lo -= d;
      hi += d;
    }
  scale->lo = lo;
  scale->hi = hi;
}

void
_ws_scale_pad (WsScale *scale, double fraction)
{
  if (scale->kind == WS_SCALE_LOG)
    {
      double f = pow (scale->hi / scale->lo, fraction);

      scale->lo /= f;
      scale->hi *= f;
    }
  else
    {
      double d = (scale->hi - scale->lo) * fraction;

      scale->lo -= d;
      scale->hi += d;
    }
}

double
_ws_scale_map (const WsScale *scale, double value)
{
  double t, p;

  if (scale->kind == WS_SCALE_LOG)
    {
      if (!(value > 0))
        value = scale->lo * 1e-6;
      t = (log10 (value) - log10 (scale->lo)) / (log10 (scale->hi) - log10 (scale->lo));
    }
  else
    t = (value - scale->lo) / (scale->hi - scale->lo);
  if (!isfinite (t))
    t = 0;
  p = scale->p0 + t * (scale->p1 - scale->p0);
  return CLAMP (p, -WS_PIXEL_LIMIT, WS_PIXEL_LIMIT);
}

double
_ws_nice_step (double raw)
{
  double magnitude, f;

  if (!(raw > 0) || !isfinite (raw))
    return 1;
  magnitude = pow (10, floor (log10 (raw)));
  f = raw / magnitude;
  if (f <= 1)
    return magnitude;
  if (f <= 2)
    return 2 * magnitude;
  if (f <= 5)
    return 5 * magnitude;
  return 10 * magnitude;
}

gboolean
_ws_range_update (double value, gboolean log, double *lo, double *hi)
{
  if (!isfinite (value) || (log && value <= 0))
    return FALSE;
  if (value < *lo)
    *lo = value;
  if (value > *hi)
    *hi = value;
  return TRUE;
}

void
_ws_axis_init (WsAxis *axis, WsAxisSide side, WsScaleKind kind, double lo, double hi,
               const char *title)
{
  memset (axis, 0, sizeof *axis);
  axis->side = side;
  axis->title = title;
  _ws_scale_set_domain (&axis->scale, kind, lo, hi);
  axis->ticks = g_array_new (FALSE, FALSE, sizeof (double));
  axis->labels = g_ptr_array_new_with_free_func (g_free);
}

void
_ws_axis_clear (WsAxis *axis)
{
  g_clear_pointer (&axis->ticks, g_array_unref);
  g_clear_pointer (&axis->labels, g_ptr_array_unref);
  g_clear_pointer (&axis->fixed, g_array_unref);
}

static gboolean
in_domain (const WsScale *s, double v)
{
  double eps = (s->kind == WS_SCALE_LOG ? s->hi : s->hi - s->lo) * 1e-9;

  return v >= s->lo - eps && v <= s->hi + eps;
}

static void
ticks_at_step (const WsScale *s, double step, GArray *out)
{
  double first = ceil (s->lo / step - 1e-9) * step;

  g_array_set_size (out, 0);
  for (int i = 0; i < 1000; i++)
    {
      double v = first + i * step;

      if (v > s->hi + step * 1e-9)
        break;
      g_array_append_val (out, v);
    }
}

/* Nice steps (1, 2, 5 times a power of ten) for about `count` ticks; a step that leaves fewer
 * than WS_AXIS_MIN_TICKS is halved (to the next nice step down) until it does not. */
static void
ticks_linear (const WsScale *s, double count, GArray *out, double *step)
{
  *step = _ws_nice_step ((s->hi - s->lo) / MAX (count, 1));
  ticks_at_step (s, *step, out);
  for (int i = 0; i < 4 && out->len < WS_AXIS_MIN_TICKS && count >= WS_AXIS_MIN_TICKS; i++)
    {
      *step = _ws_nice_step (*step / 2.5);
      ticks_at_step (s, *step, out);
    }
}

/* Log ticks: 1-2-5 in each decade (1 to 9 as well when less than a decade is shown), else
 * every k-th decade, else linear ticks: the densest that stays within `count` wins. */
static void
ticks_log (const WsScale *s, double count, GArray *out, double *step)
{
  static const double m19[] = { 1, 2, 3, 4, 5, 6, 7, 8, 9 };
  static const double m125[] = { 1, 2, 5 };
  const double *levels[] = { m19, m125 };
  guint n_levels[] = { G_N_ELEMENTS (m19), G_N_ELEMENTS (m125) };
  double d0 = floor (log10 (s->lo) + 1e-9), d1 = ceil (log10 (s->hi) - 1e-9);
  /* 2, 3, 4 … 9 labelled over several decades is a wall of numbers. */
  guint first_level = log10 (s->hi / s->lo) < 1 ? 0 : 1;

  *step = 0;
  /* Each level stops as soon as it has more ticks than fit: a domain of hundreds of decades
   * (numbers no GPU measures) must not cost thousands of labels. */
  for (guint level = first_level; level < G_N_ELEMENTS (levels); level++)
    {
      g_array_set_size (out, 0);
      for (double d = d0; d <= d1 && out->len <= count; d++)
        for (guint m = 0; m < n_levels[level]; m++)
          {
            double v = levels[level][m] * pow (10, d);

            if (in_domain (s, v))
              g_array_append_val (out, v);
          }
      if (out->len >= 2 && out->len <= count)
        return;
    }
  for (double k = 1; k <= 1024; k *= 2)
    {
      g_array_set_size (out, 0);
      for (double d = ceil (d0 / k) * k; d <= d1 && out->len <= count; d += k)
        {
          double v = pow (10, d);

          if (in_domain (s, v))
            g_array_append_val (out, v);
        }
      if (out->len < 2)
        break;
      if (out->len <= count)
        return;
    }
  g_array_set_size (out, 0);
  ticks_linear (s, count, out, step);
}

/* A log tick with the decimals it needs: 0.01, 0.5, 2.5, 1,000. */
char *
_ws_format_log_tick (double value)
{
  int base = CLAMP ((int) -floor (log10 (value) + 1e-9), 0, 9);

  for (int d = base; d < base + 4; d++)
    {
      double scaled = value * pow (10, d);

      if (fabs (scaled - round (scaled)) < 1e-6 * MAX (1, fabs (scaled)))
        return _ws_format_tick (value, pow (10, -d));
    }
  return ws_units_number (value, 3);
}

static char *
format_label (const WsAxis *axis, double value)
{
  if (axis->format)
    return axis->format (value, axis->step, axis->format_data);
  if (axis->scale.kind == WS_SCALE_LOG)
    return _ws_format_log_tick (value);
  return _ws_format_tick (value, axis->step);
}

/* Do the labels, placed at their ticks, keep clear of each other? Neighbours are enough:
 * ticks are in order. */
static gboolean
labels_fit (WsChartContext *ctx, WsAxis *axis, double *max_width)
{
  gboolean horizontal = axis->side == WS_AXIS_BOTTOM;
  double gap = horizontal ? 0.9 * ctx->line_height : 0.15 * ctx->small_height;
  double prev_lo = 0, prev_hi = 0;

  *max_width = 0;
  for (guint i = 0; i < axis->ticks->len; i++)
    {
      double p = _ws_scale_map (&axis->scale, g_array_index (axis->ticks, double, i));
      double w, h, half;

      _ws_text_extent (ctx, WS_FONT_SMALL, g_ptr_array_index (axis->labels, i), &w, &h);
      *max_width = MAX (*max_width, w);
      half = (horizontal ? w : h) / 2;
      if (i > 0 && p - half < prev_hi + gap && p + half > prev_lo - gap)
        return FALSE;
      prev_lo = p - half;
      prev_hi = p + half;
    }
  return TRUE;
}

static void
label_ticks (WsAxis *axis)
{
  g_ptr_array_set_size (axis->labels, 0);
  for (guint i = 0; i < axis->ticks->len; i++)
    g_ptr_array_add (axis->labels, format_label (axis, g_array_index (axis->ticks, double, i)));
}

/* A log axis that ticks every second decade or fewer (or has fewer than three ticks) ticks
 * every decade instead where those labels fit: a reader counts decades. */
static void
every_decade (WsChartContext *ctx, WsAxis *axis)
{
  const WsScale *s = &axis->scale;
  g_autoptr (GArray) kept = NULL;
  double d0 = ceil (log10 (s->lo) - 1e-9), d1 = floor (log10 (s->hi) + 1e-9);
  double width;
  guint decades = 0;

  if (!(d1 - d0 < 64))
    return;
  for (guint i = 0; i < axis->ticks->len; i++)
    {
      double l = log10 (g_array_index (axis->ticks, double, i));

      decades += fabs (l - round (l)) < 1e-9;
    }
  if (decades >= d1 - d0 + 1 && axis->ticks->len >= WS_AXIS_MIN_TICKS)
    return;
  kept = g_array_copy (axis->ticks);
  g_array_set_size (axis->ticks, 0);
  for (double d = d0; d <= d1; d++)
    {
      double v = pow (10, d);

      g_array_append_val (axis->ticks, v);
    }
  label_ticks (axis);
  if (axis->ticks->len > kept->len && axis->ticks->len >= 2 && labels_fit (ctx, axis, &width))
    {
      axis->step = 0;
      return;
    }
  g_array_set_size (axis->ticks, 0);
  g_array_append_vals (axis->ticks, kept->data, kept->len);
}

void
_ws_axis_compute_ticks (WsChartContext *ctx, WsAxis *axis)
{
  gboolean horizontal = axis->side == WS_AXIS_BOTTOM;
  double length = fabs (axis->scale.p1 - axis->scale.p0);
  double spacing = horizontal ? 5 * ctx->line_height : 2.2 * ctx->line_height;
  double count = MAX (WS_AXIS_MIN_TICKS, floor (length / spacing));
  double max_width = 0;

  for (int attempt = 0; attempt < 40; attempt++)
    {
      g_array_set_size (axis->ticks, 0);
      g_ptr_array_set_size (axis->labels, 0);
      if (axis->fixed != NULL && axis->fixed->len > 0)
        {
          guint stride = attempt + 1;
          guint kept = 0;

          axis->step = 0;
          for (guint i = 0; i < axis->fixed->len; i++)
            {
              double v = g_array_index (axis->fixed, double, i);

              if (!in_domain (&axis->scale, v))
                continue;
              if (kept++ % stride == 0)
                g_array_append_val (axis->ticks, v);
            }
        }
      else if (axis->scale.kind == WS_SCALE_LOG)
        ticks_log (&axis->scale, count, axis->ticks, &axis->step);
      else
        ticks_linear (&axis->scale, count, axis->ticks, &axis->step);
      if (axis->fixed == NULL && axis->scale.kind == WS_SCALE_LOG)
        every_decade (ctx, axis);
      label_ticks (axis);
      if (labels_fit (ctx, axis, &max_width) || axis->ticks->len <= 1)
        break;
      if (axis->fixed == NULL)
        {
          double fewer = MIN (count - 1, floor (axis->ticks->len * 0.75));

          if (fewer < 1)
            break;
          count = fewer;
        }
    }
  axis->label_extent = max_width;
}

static double
title_height (WsChartContext *ctx, const WsAxis *axis)
{
  return axis && axis->title ? ctx->line_height + 0.4 * ctx->line_height : 0;
}

void
_ws_plot_layout (WsChartContext *ctx, const WsRect *area, WsAxis *bottom, WsAxis *left,
                 WsAxis *right, WsRect *plot)
{
  double tick = 5 * ctx->unit;
  double top_pad = ctx->small_height * 0.6;
  double bottom_space = 0, left_space, right_space;

  if (bottom)
    bottom_space = tick + ctx->small_height + 0.3 * ctx->line_height + title_height (ctx, bottom);
  plot->y = area->y + top_pad;
  plot->height = MAX (area->height - top_pad - bottom_space, 1);

  left_space = 0.8 * ctx->line_height;
  right_space = 1.2 * ctx->line_height;
  for (int i = 0; i < 2; i++)
    {
      WsAxis *axis = i == 0 ? left : right;

      if (axis == NULL)
        continue;
      axis->scale.p0 = plot->y + plot->height;
      axis->scale.p1 = plot->y;
      _ws_axis_compute_ticks (ctx, axis);
      if (i == 0)
        left_space = tick + 0.4 * ctx->line_height + axis->label_extent + title_height (ctx, axis);
      else
        right_space = tick + 0.4 * ctx->line_height + axis->label_extent + title_height (ctx, axis);
    }
  plot->x = area->x + left_space;
  plot->width = MAX (area->width - left_space - right_space, 1);
  if (bottom)
    {
      bottom->scale.p0 = plot->x;
      bottom->scale.p1 = plot->x + plot->width;
      _ws_axis_compute_ticks (ctx, bottom);
    }
}

void
_ws_plot_begin (WsChartContext *ctx, const WsRect *area, gboolean with_right, WsPlot *p)
{
  p->with_right = with_right;
  _ws_plot_layout (ctx, area, &p->x, &p->y, with_right ? &p->right : NULL, &p->plot);
  _ws_placer_init (&p->placer);
  _ws_mark_set_init (&p->marks);
}

void
_ws_plot_end (WsPlot *p)
{
  _ws_placer_clear (&p->placer);
  _ws_mark_set_clear (&p->marks);
  _ws_axis_clear (&p->x);
  _ws_axis_clear (&p->y);
  if (p->with_right)
    _ws_axis_clear (&p->right);
}

void
_ws_axis_draw_grid (WsChartContext *ctx, const WsAxis *axis, const WsRect *plot)
{
  cairo_t *cr = ctx->cr;

  if (axis->no_grid)
    return;
  cairo_save (cr);
  cairo_set_line_width (cr, MAX (1.0, ctx->theme->line_width * 0.6));
  _ws_set_color (cr, &ctx->theme->grid);
  for (guint i = 0; i < axis->ticks->len; i++)
    {
      double p = round (_ws_scale_map (&axis->scale, g_array_index (axis->ticks, double, i)))
                 + 0.5;

      if (axis->side == WS_AXIS_BOTTOM)
        {
          cairo_move_to (cr, p, plot->y);
          cairo_line_to (cr, p, plot->y + plot->height);
        }
      else
        {
          cairo_move_to (cr, plot->x, p);
          cairo_line_to (cr, plot->x + plot->width, p);
        }
    }
  cairo_stroke (cr);
  cairo_restore (cr);
}

/* A title cut to `width`: a unit in parentheses at its end ("(KiB)", "(×, log scale)") is
 * kept and the words before it are cut, since a number without its unit is no number. */
static char *
fit_keeping_unit (WsChartContext *ctx, const char *title, double width)
{
  const char *open = strrchr (title, '(');
  g_autofree char *head = NULL, *cut = NULL;
  double unit_w;

  if (open == NULL || open == title || !g_str_has_suffix (title, ")"))
    return _ws_text_dup_fitting (ctx, WS_FONT_NORMAL, title, width);
  unit_w = _ws_text_width (ctx, WS_FONT_NORMAL, open);
  if (unit_w >= width / 2)
    return _ws_text_dup_fitting (ctx, WS_FONT_NORMAL, title, width);
  head = g_strstrip (g_strndup (title, open - title));
  cut = _ws_text_dup_fitting (ctx, WS_FONT_NORMAL, head,
                              width - unit_w - _ws_text_width (ctx, WS_FONT_NORMAL, " "));
  return g_strdup_printf ("%s %s", cut, open);
}

/* How much smaller than WS_FONT_NORMAL the axis title is drawn to fit in `room`: no smaller
 * than the tick labels; a title still too long is its brief form, or else shortened with "…"
 * (`title`, to free). */
static double
title_fit (WsChartContext *ctx, const WsAxis *axis, double room, char **title)
{
  double w = _ws_text_width (ctx, WS_FONT_NORMAL, axis->title);
  double least = _ws_font_size (ctx, WS_FONT_SMALL) / _ws_font_size (ctx, WS_FONT_NORMAL);
  double shrink = w > room && room > 0 ? room / w : 1;

  if (shrink >= least)
    {
      *title = g_strdup (axis->title);
      return shrink;
    }
  if (axis->brief != NULL)
    {
      w = _ws_text_width (ctx, WS_FONT_NORMAL, axis->brief);
      shrink = w > room && room > 0 ? room / w : 1;
      if (shrink >= least)
        {
          *title = g_strdup (axis->brief);
          return shrink;
        }
    }
  *title = fit_keeping_unit (ctx, axis->brief ? axis->brief : axis->title, MAX (room, 0) / least);
  return least;
}

/* What a test reads of the axis: its labels and sizes, and the plot it frames. */
static WsDrawnAxis *
record_axis (WsChartContext *ctx, const WsAxis *axis, const WsRect *plot)
{
  WsChartDrawn *d = ctx->drawn;
  WsDrawnAxis *a = NULL;

  if (d == NULL)
    return NULL;
  /* A chart that lays out its plot twice (a trial first) is recorded as drawn last. */
  for (guint i = 0; i < d->n_axes; i++)
    if (d->axes[i].side == (int) axis->side)
      a = &d->axes[i];
  if (a == NULL && d->n_axes < G_N_ELEMENTS (d->axes))
    a = &d->axes[d->n_axes++];
  if (a == NULL)
    return NULL;
  memset (a, 0, sizeof *a);
  a->side = axis->side;
  for (guint i = 0; i < axis->labels->len; i++)
    a->labels += *(const char *) g_ptr_array_index (axis->labels, i) != '\0';
  a->label_size = _ws_font_size (ctx, WS_FONT_SMALL);
  d->plot = *plot;
  return a;
}

static void
record_title (WsChartContext *ctx, WsDrawnAxis *a, const WsAxis *axis, const char *title,
              double shrink)
{
  if (a == NULL)
    return;
  a->title_size = _ws_font_size (ctx, WS_FONT_NORMAL) * shrink;
  a->title_cut = g_strcmp0 (title, axis->title) != 0;
}

void
_ws_axis_draw (WsChartContext *ctx, const WsAxis *axis, const WsRect *plot)
{
  cairo_t *cr = ctx->cr;
  const WsColor *color = axis->color ? axis->color : &ctx->theme->foreground;
  double tick = 5 * ctx->unit;
  double x_axis = axis->side == WS_AXIS_RIGHT ? plot->x + plot->width : plot->x;
  double y_axis = plot->y + plot->height;
  WsDrawnAxis *drawn;

  cairo_save (cr);
  cairo_set_line_width (cr, MAX (1.0, ctx->theme->line_width * 0.7));
  _ws_set_color (cr, axis->color ? axis->color : &ctx->theme->axis);
  if (axis->side == WS_AXIS_BOTTOM)
    {
      cairo_move_to (cr, plot->x, y_axis);
      cairo_line_to (cr, plot->x + plot->width, y_axis);
    }
  else
    {
      cairo_move_to (cr, x_axis, plot->y);
      cairo_line_to (cr, x_axis, plot->y + plot->height);
    }
  for (guint i = 0; i < axis->ticks->len; i++)
    {
      double p = _ws_scale_map (&axis->scale, g_array_index (axis->ticks, double, i));

      if (axis->side == WS_AXIS_BOTTOM)
        {
          cairo_move_to (cr, p, y_axis);
          cairo_line_to (cr, p, y_axis + tick);
        }
      else
        {
          double dir = axis->side == WS_AXIS_LEFT ? -1 : 1;

          cairo_move_to (cr, x_axis, p);
          cairo_line_to (cr, x_axis + dir * tick, p);
        }
    }
  cairo_stroke (cr);
  cairo_restore (cr);

  for (guint i = 0; i < axis->ticks->len; i++)
    {
      double p = _ws_scale_map (&axis->scale, g_array_index (axis->ticks, double, i));
      const char *label = g_ptr_array_index (axis->labels, i);

      if (axis->side == WS_AXIS_BOTTOM)
        {
          double w = _ws_text_width (ctx, WS_FONT_SMALL, label);
          double x = CLAMP (p, ctx->area.x + w / 2, ctx->area.x + ctx->area.width - w / 2);

          _ws_text_show (ctx, WS_FONT_SMALL, label, x, y_axis + tick + 0.15 * ctx->line_height,
                         0.5, 0, color);
        }
      else if (axis->side == WS_AXIS_LEFT)
        _ws_text_show (ctx, WS_FONT_SMALL, label, x_axis - tick - 0.3 * ctx->line_height, p, 1,
                       0.5, color);
      else
        _ws_text_show (ctx, WS_FONT_SMALL, label, x_axis + tick + 0.3 * ctx->line_height, p, 0,
                       0.5, color);
    }

  drawn = record_axis (ctx, axis, plot);
  if (axis->title == NULL)
    return;
  if (axis->side == WS_AXIS_BOTTOM)
    {
      /* Centred under the plot, moved in to stay inside the area (with a little margin);
       * one wider than the whole area is drawn smaller, to fit, down to the size of the tick
       * labels, and shortened past that. */
      double inset = MIN (0.5 * ctx->line_height, ctx->area.width / 4);
      double room = ctx->area.width - 2 * inset;
      g_autofree char *title = NULL;
      double shrink = title_fit (ctx, axis, room, &title);
      double w = _ws_text_width (ctx, WS_FONT_NORMAL, title);
      double half = w * shrink / 2;

      record_title (ctx, drawn, axis, title, shrink);
      double x = CLAMP (plot->x + plot->width / 2, ctx->area.x + inset + half,
                        ctx->area.x + ctx->area.width - inset - half);

      cairo_save (ctx->cr);
      cairo_translate (ctx->cr, x, y_axis + tick + ctx->small_height + 0.45 * ctx->line_height);
      cairo_scale (ctx->cr, shrink, shrink);
      _ws_text_show (ctx, WS_FONT_NORMAL, title, 0, 0, 0.5, 0, color);
      cairo_restore (ctx->cr);
    }
  else
    {
      double off = tick + 0.4 * ctx->line_height + axis->label_extent + 0.15 * ctx->line_height;
      double x = axis->side == WS_AXIS_LEFT ? x_axis - off : x_axis + off;
      double y = plot->y + plot->height / 2;
      /* A title longer than the axis runs on below it, beside the bottom axis's labels (the
       * room _ws_plot_layout leaves them), never up into the legend over the plot nor down
       * into what is written under the chart; one longer still is drawn smaller, to fit,
       * down to the size of the tick labels, and shortened past that. */
      double below = tick + ctx->small_height + 0.3 * ctx->line_height + title_height (ctx, axis);
      double room = MIN (ctx->area.y + ctx->area.height, plot->y + plot->height + below) - plot->y;
      g_autofree char *title = NULL;
      double shrink = title_fit (ctx, axis, room, &title);
      double w = _ws_text_width (ctx, WS_FONT_NORMAL, title);

      record_title (ctx, drawn, axis, title, shrink);
      if (w > plot->height)
        y = plot->y + MIN (w, room) / 2;
      cairo_save (ctx->cr);
      cairo_translate (ctx->cr, x, y);
      cairo_scale (ctx->cr, shrink, shrink);
      _ws_text_show_vertical (ctx, WS_FONT_NORMAL, title, 0, 0, 0.5,
                              axis->side == WS_AXIS_LEFT ? 1 : 0, color);
      cairo_restore (ctx->cr);
    }
}
