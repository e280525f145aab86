/* ws-chart-timeline-ruler.c: the timeline's time ruler (units that follow the zoom, counted
 * from a base deep into a long session) and the band that names each run's phases.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "ws-config.h"

#include <glib/gi18n-lib.h>
#include <math.h>

#include "ws-chart-timeline-private.h"

/* ---- the ruler -------------------------------------------------------------------------- */

typedef struct
{
  double step_ns, unit_ns;
  const char *unit;
  double base; /* ns after the origin that labels count from (offset mode), else 0 */
} Ruler;

static char *
ruler_label (const Ruler *r, double rel)
{
  g_autofree char *v = _ws_format_tick ((rel - r->base) / r->unit_ns, r->step_ns / r->unit_ns);

  return g_strdup_printf (r->base != 0 ? "+%s %s" : "%s %s", v, r->unit);
}

void
_ws_timeline_draw_ruler (WsChartContext *ctx, const WsTimelineLayout *l)
{
  double span = (double) MAX (ws_time_length (l->start, l->end), 1);
  double count = MAX (2, floor (l->plot.width / (7 * ctx->line_height)));
  g_autoptr (GArray) ticks = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr (GPtrArray) labels = g_ptr_array_new_with_free_func (g_free);
  Ruler r = { 0 };
  double lo = (double) l->start - (double) l->origin, hi = (double) l->end - (double) l->origin;
  cairo_t *cr = ctx->cr;

  for (int attempt = 0; attempt < 20; attempt++)
    {
      double first, prev_end = -G_MAXDOUBLE;
      gboolean fits = TRUE;

      r.step_ns = MAX (1, _ws_nice_step (span / count));
      r.unit = _ws_time_unit (r.step_ns, &r.unit_ns);
      first = ceil (lo / r.step_ns) * r.step_ns;
      /* Deep in a long session "363,520,400 ns" is unreadable: count from a base instead. */
      r.base = MAX (fabs (lo), fabs (hi)) / r.unit_ns >= 1e5 ? first : 0;
      g_array_set_size (ticks, 0);
      g_ptr_array_set_size (labels, 0);
      for (double v = first; v <= hi && ticks->len < 500; v += r.step_ns)
        {
          double x = l->plot.x + (v - lo) * l->ppn;
          char *label = ruler_label (&r, v);
          double w = _ws_text_width (ctx, WS_FONT_SMALL, label);

          if (x - w / 2 < prev_end + ctx->line_height)
            fits = FALSE;
          prev_end = x + w / 2;
          g_array_append_val (ticks, v);
          g_ptr_array_add (labels, label);
        }
      if (fits || count <= 2)
        break;
      count = MAX (2, floor (count * 0.7));
    }

  cairo_save (cr);
  cairo_set_line_width (cr, 1);
  _ws_set_color (cr, &ctx->theme->grid);
  for (guint i = 0; i < ticks->len; i++)
    {
      double x = round (l->plot.x + (g_array_index (ticks, double, i) - lo) * l->ppn) + 0.5;

      cairo_move_to (cr, x, l->ruler_y + ctx->small_height + 2 * ctx->unit);
      cairo_line_to (cr, x, l->plot.y + l->plot.height);
    }
  cairo_stroke (cr);
  cairo_restore (cr);
  for (guint i = 0; i < ticks->len; i++)
    {
      double x = l->plot.x + (g_array_index (ticks, double, i) - lo) * l->ppn;
      const char *label = g_ptr_array_index (labels, i);
      double w = _ws_text_width (ctx, WS_FONT_SMALL, label);

      x = CLAMP (x, l->plot.x + w / 2, ctx->area.x + ctx->area.width - w / 2);
      _ws_text_show (ctx, WS_FONT_SMALL, label, x, l->ruler_y, 0.5, 0, &ctx->theme->foreground);
    }
  {
    g_autofree char *what = NULL;

    if (r.base != 0)
      {
        double unit_ns;
        const char *unit = _ws_time_unit (r.base, &unit_ns);
        int decimals = CLAMP ((int) ceil (log10 (unit_ns / r.step_ns) - 1e-9), 0, 9);
        g_autofree char *v = _ws_format_tick (r.base / unit_ns, pow (10, -decimals));

        /* TRANSLATORS: the ruler counts from this time: "after 363.5204 ms" */
        what = g_strdup_printf (_("after %s %s"), v, unit);
      }
    else
      what = g_strdup (l->group->caption ? l->group->caption : _("since start"));
    _ws_text_show (ctx, WS_FONT_SMALL, what, l->content.x, l->ruler_y, 0, 0, &ctx->theme->muted);
  }
}

/* ---- the phase band --------------------------------------------------------------------- */

typedef struct
{
  double x, y;
  char *text;
} BandLabel;

/* What the band draws: its shaded stretches first, then every label, so that no run's shade
 * covers a neighbour's label. */
/* Runs drawn together, one after the other: a stretch of the band named by its first and last
 * run, where that fits. */
typedef struct
{
  double x0, x1;
  guint first, last; /* into the index */
} Stretch;

typedef struct
{
  WsChartContext *ctx;
  const WsTimelineLayout *l;
  GArray *shades[3]; /* WsRect: even runs, odd runs, runs drawn together */
  Stretch stretch;   /* the one being shaded; x1 < x0: none */
  GArray *labels;    /* BandLabel */
  double last_end;   /* labels keep clear of the last one */
  double digit;      /* no digit is narrower than this */
} Band;

static void
band_label_clear (BandLabel *label)
{
  g_free (label->text);
}

/* Stretches closer than `gap` merge: runs drawn together become one stretch, not a thousand
 * slivers. */
static void
add_shade (GArray *rects, double x0, double x1, const WsRect *band, double gap)
{
  WsRect r = { x0, band->y, MAX (x1 - x0, 1), band->height };

  if (rects->len > 0)
    {
      WsRect *last = &g_array_index (rects, WsRect, rects->len - 1);

      if (r.x <= last->x + last->width + gap && r.x >= last->x)
        {
          last->width = MAX (last->width, r.x + r.width - last->x);
          return;
        }
    }
  g_array_append_val (rects, r);
}

/* Could a label of at least `digits` digits centred over [x0, x1] fit and keep clear of the
 * last one? This saves shaping text that cannot go there. */
static gboolean
may_fit (const Band *b, double x0, double x1, guint n_digits)
{
  double w = n_digits * b->digit;

  return x1 - x0 >= b->ctx->small_height && w <= x1 - x0 - 6 * b->ctx->unit
         && (x0 + x1) / 2 - w / 2 >= b->last_end + 4 * b->ctx->unit;
}

/* A label centred over [x0, x1] if one of `candidates` fits and keeps clear of the last. */
static gboolean
band_label (Band *b, const char *const *candidates, double x0, double x1)
{
  WsChartContext *ctx = b->ctx;
  const char *fit;
  double w;
  BandLabel label;

  if (x1 - x0 < ctx->small_height)
    return FALSE;
  fit = _ws_text_fit (ctx, WS_FONT_SMALL, candidates, x1 - x0 - 6 * ctx->unit);
  if (fit == NULL)
    return FALSE;
  w = _ws_text_width (ctx, WS_FONT_SMALL, fit);
  if ((x0 + x1) / 2 - w / 2 < b->last_end + 4 * ctx->unit)
    return FALSE;
  label = (BandLabel) { (x0 + x1) / 2, b->l->band.y + b->l->band.height / 2, g_strdup (fit) };
  g_array_append_val (b->labels, label);
  b->last_end = (x0 + x1) / 2 + w / 2;
  return TRUE;
}

static guint
digits (int id)
{
  guint n = 1;

  for (guint v = (guint) ABS (id); v >= 10; v /= 10)
    n++;
  return n;
}

/* A phase of a run: "run 5 · n = 10 M · 256 threads · pinned · copies + kernel", or as much
 * of it as fits. */
static gboolean
label_phase (Band *b, WsRun *run, const char *phase, double x0, double x1)
{
  const WsRunConfig *c = ws_run_get_config (run);
  g_autofree char *size = NULL, *threads = NULL, *c0 = NULL, *c1 = NULL, *c2 = NULL, *c3 = NULL;
  const char *memory;

  if (!may_fit (b, x0, x1, digits (c->id)))
    return FALSE;
  size = _ws_chart_dup_size_label (run);
  threads = ws_run_dup_block_phrase (run);
  memory = ws_transfer_label (c->transfer);
  c0 = g_strdup_printf (_("run %d · %s · %s · %s · %s"), c->id, size, threads, memory, phase);
  c1 = g_strdup_printf (_("run %d · %s · %s · %s"), c->id, threads, memory, phase);
  c2 = g_strdup_printf (_("run %d · %s · %s"), c->id, memory, phase);
  c3 = g_strdup_printf (_("run %d · %s"), c->id, phase);
  return band_label (b, (const char *const[]) { c0, c1, c2, c3, NULL }, x0, x1);
}

/* Phases too narrow to name: the run as a whole gets its number. A run too narrow for its
 * own number may lend some room from the empty band around it: labels still never touch. */
static void
label_run (Band *b, WsRun *run, const WsRunLanes *lanes)
{
  const WsTimelineLayout *l = b->l;
  const WsRunConfig *c = ws_run_get_config (run);
  double x0 = MAX (_ws_timeline_x (l, lanes->start) - b->ctx->line_height, l->band.x);
  double x1 = MIN (_ws_timeline_x (l, lanes->end) + b->ctx->line_height,
                   l->band.x + l->band.width);
  g_autofree char *c0 = NULL, *c1 = NULL, *c2 = NULL;

  if (!may_fit (b, x0, x1, digits (c->id)))
    return;
  c0 = g_strdup_printf (_("run %d · %s"), c->id, ws_transfer_label (c->transfer));
  c1 = g_strdup_printf (_("run %d"), c->id);
  c2 = g_strdup_printf ("%d", c->id);
  band_label (b, (const char *const[]) { c0, c1, c2, NULL }, x0, x1);
}

static void
band_run (Band *b, guint i, WsRun *run, const WsRunLanes *lanes)
{
  static const char *const phase_names[] = { N_("copies + kernel"), N_("back-to-back"),
                                              N_("CPU reference") };
  const WsTimelineLayout *l = b->l;
  gboolean labelled = FALSE;

  for (guint p = 0; p < 3; p++)
    {
      double x0, x1;

      if (lanes->phase_start[p] > lanes->phase_end[p])
        continue;
      x0 = MAX (_ws_timeline_x (l, lanes->phase_start[p]), l->band.x);
      x1 = MIN (_ws_timeline_x (l, lanes->phase_end[p]), l->band.x + l->band.width);
      if (x1 <= x0)
        continue;
      add_shade (b->shades[i % 2], x0, x1, &l->band, 0);
      labelled |= label_phase (b, run, _(phase_names[p]), x0, x1);
    }
  if (!labelled)
    label_run (b, run, lanes);
}

static void
band_fill (Band *b)
{
  static const double strength[3] = { 0.07, 0.13, 0.10 };
  const WsTheme *t = b->ctx->theme;

  for (guint s = 0; s < 3; s++)
    {
      WsColor fill = _ws_color_mix (&t->background, &t->foreground, strength[s]);

      if (b->shades[s]->len == 0)
        continue;
      for (guint k = 0; k < b->shades[s]->len; k++)
        {
          const WsRect *r = &g_array_index (b->shades[s], WsRect, k);

          cairo_rectangle (b->ctx->cr, r->x, r->y, r->width, r->height);
        }
      _ws_set_color (b->ctx->cr, &fill);
      cairo_fill (b->ctx->cr);
    }
  for (guint k = 0; k < b->labels->len; k++)
    {
      const BandLabel *label = &g_array_index (b->labels, BandLabel, k);

      _ws_text_show (b->ctx, WS_FONT_SMALL, label->text, label->x, label->y, 0.5, 0.5,
                     &b->ctx->theme->foreground);
    }
}

static void
close_stretch (Band *b)
{
  const WsLaneIndex *index = b->l->group->index;
  Stretch st = b->stretch;
  int first, last;
  g_autofree char *c0 = NULL, *c1 = NULL;

  if (st.x1 < st.x0)
    return;
  b->stretch.x1 = b->stretch.x0 - 1;
  first = ws_run_get_id (g_ptr_array_index (index->runs, st.first));
  last = ws_run_get_id (g_ptr_array_index (index->runs, st.last));
  if (first == last || !may_fit (b, st.x0, st.x1, digits (first) + digits (last)))
    return;
  /* TRANSLATORS: a stretch of runs drawn together on the timeline: "runs 1–12,996" */
  c0 = g_strdup_printf (_("runs %d–%d"), first, last);
  c1 = g_strdup_printf ("%d–%d", first, last);
  band_label (b, (const char *const[]) { c0, c1, NULL }, st.x0, st.x1);
}

/* A run a few pixels wide, shaded with its neighbours. */
static void
band_together (Band *b, guint i, double x0, double x1)
{
  const WsTimelineLayout *l = b->l;
  Stretch *st = &b->stretch;

  x0 = MAX (x0, l->band.x);
  x1 = MIN (x1, l->band.x + l->band.width);
  add_shade (b->shades[2], x0, x1, &l->band, 1);
  if (st->x1 >= st->x0 && x0 <= st->x1 + 1)
    {
      st->x1 = MAX (st->x1, x1);
      st->last = i;
      return;
    }
  close_stretch (b);
  *st = (Stretch) { x0, x1, i, i };
}

static char *
program_label (const WsTraceProgram *p, guint n_programs)
{
  g_autoptr (GString) s = g_string_new (NULL);

  for (guint i = 0; i < p->n_params; i++)
    g_string_append_printf (s, "%s%s=%s", i > 0 ? ", " : "", p->params[i].name,
                            p->params[i].value);
  if (s->len == 0 && n_programs > 1)
    /* TRANSLATORS: one program run of several, in the timeline's band */
    g_string_printf (s, _("run %u"), p->id);
  return g_string_free (g_steal_pointer (&s), FALSE);
}

/* A traced program's band: one stretch per program run, named by its sweep's values. */
static void
band_programs (WsChartContext *ctx, const WsTimelineLayout *l, WsTrace *trace)
{
  GPtrArray *programs = ws_trace_get_programs (trace);
  cairo_t *cr = ctx->cr;

  cairo_save (cr);
  cairo_rectangle (cr, l->band.x, l->band.y, l->band.width, l->band.height);
  cairo_clip (cr);
  for (guint i = 0; i < programs->len; i++)
    {
      const WsTraceProgram *p = g_ptr_array_index (programs, i);
      g_autofree char *text = program_label (p, programs->len);
      gint64 s, e;
      double x0, x1;

      if (!ws_trace_get_program_range (trace, p->id, &s, &e) || e < l->start || s > l->end)
        continue;
      x0 = _ws_timeline_x (l, s);
      x1 = MAX (_ws_timeline_x (l, e), x0 + 1);
      _ws_set_color_alpha (cr, &ctx->theme->muted, i % 2 ? 0.22 : 0.12);
      cairo_rectangle (cr, x0, l->band.y, x1 - x0, l->band.height);
      cairo_fill (cr);
      if (*text != '\0'
          && _ws_text_width (ctx, WS_FONT_SMALL, text) < x1 - x0 - 4 * ctx->unit)
        _ws_text_show (ctx, WS_FONT_SMALL, text, (MAX (x0, l->plot.x) + MIN (x1, l->plot.x
                                                                              + l->plot.width))
                                                   / 2,
                       l->band.y + l->band.height / 2, 0.5, 0.5, &ctx->theme->foreground);
    }
  cairo_restore (cr);
}

void
_ws_timeline_draw_band (WsChartContext *ctx, const WsTimelineLayout *l)
{
  const WsLaneIndex *index = l->group->index;
  Band b = { ctx, l };
  guint first;

  if (index == NULL)
    {
      band_programs (ctx, l, l->group->trace);
      return;
    }
  first = ws_lane_index_first_reaching (index, l->start > G_MININT64 ? l->start - 1 : l->start);
  for (guint s = 0; s < 3; s++)
    b.shades[s] = g_array_new (FALSE, FALSE, sizeof (WsRect));
  b.labels = g_array_new (FALSE, FALSE, sizeof (BandLabel));
  g_array_set_clear_func (b.labels, (GDestroyNotify) band_label_clear);
  b.last_end = -G_MAXDOUBLE;
  b.stretch.x1 = b.stretch.x0 - 1;
  /* A run's number is at least its digits this wide ("1" is the narrowest digit, with room
   * to spare for fonts where it is not quite), which rules out most runs of a long session
   * without shaping a label for each. */
  b.digit = 0.8 * _ws_text_width (ctx, WS_FONT_SMALL, "1");
  for (guint i = first; i < index->runs->len && index->starts[i] <= l->end; i++)
    {
      double x0, x1;

      if (index->ends[i] < l->start)
        continue;
      x0 = _ws_timeline_x (l, index->starts[i]);
      x1 = _ws_timeline_x (l, index->ends[i]);
      if (!l->together || x1 - x0 >= WS_TIMELINE_NARROW_RUN * ctx->unit)
        {
          close_stretch (&b);
          band_run (&b, i, g_ptr_array_index (index->runs, i),
                    g_ptr_array_index (index->lanes, i));
        }
      else
        band_together (&b, i, x0, x1);
    }
  close_stretch (&b);
  band_fill (&b);
  for (guint s = 0; s < 3; s++)
    g_array_unref (b.shades[s]);
  g_array_unref (b.labels);
}
