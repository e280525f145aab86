/* ws-chart-timeline.c: the timeline: a lane for CPU reference runs, H2D copies, kernels (one
 * lane per stream), D2H copies, memsets and syncs, CUPTI's own work; a time ruler with units
 * that follow the zoom; a band naming each run's phases; spans labelled when wide enough and
 * merged into density bars when narrower than a pixel.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "ws-config.h"

#include <glib/gi18n-lib.h>
#include <math.h>

#include "ws-chart-timeline-private.h"

static void
row_clear (WsTimelineRow *row)
{
  g_free (row->label);
}

static void
layout_clear (WsTimelineLayout *l)
{
  g_clear_pointer (&l->runs, g_ptr_array_unref);
  g_clear_pointer (&l->lanes, g_ptr_array_unref);
  g_clear_pointer (&l->rows, g_array_unref);
  g_clear_pointer (&l->caption, g_free);
}

static char *
row_label (guint64 key, guint n_kernel_lanes)
{
  switch (WS_LANE_KEY_CATEGORY (key))
    {
    case WS_LANE_CPU:
      return g_strdup (_("CPU reference"));
    case WS_LANE_H2D:
      return g_strdup (_("H2D copies"));
    case WS_LANE_KERNEL:
      if (n_kernel_lanes > 1)
        return g_strdup_printf (_("Kernels · stream %u"), WS_LANE_KEY_STREAM (key));
      return g_strdup (_("Kernels"));
    case WS_LANE_D2H:
      return g_strdup (_("D2H copies"));
    case WS_LANE_OTHER_COPY:
      return g_strdup (_("Other copies"));
    case WS_LANE_MEMSET:
      return g_strdup (_("Memsets"));
    case WS_LANE_SYNC:
      return g_strdup (_("Host waits (sync)"));
    case WS_LANE_OVERHEAD:
    case WS_N_LANE_CATEGORIES:
    default:
      return g_strdup (_("CUPTI overhead"));
    }
}

static WsColor
category_color (const WsTheme *theme, WsLaneCategory category, guint kernel_ordinal)
{
  switch (category)
    {
    case WS_LANE_CPU:
      return theme->cpu;
    case WS_LANE_H2D:
      return theme->h2d;
    case WS_LANE_KERNEL:
      return kernel_ordinal % 2 ? theme->kernel_alt : theme->kernel;
    case WS_LANE_D2H:
      return theme->d2h;
    case WS_LANE_OTHER_COPY:
      return theme->other_copy;
    case WS_LANE_MEMSET:
      return theme->memset;
    case WS_LANE_SYNC:
      return theme->sync;
    case WS_LANE_OVERHEAD:
    case WS_N_LANE_CATEGORIES:
    default:
      return theme->sync;
    }
}

static int
compare_u64 (gconstpointer a, gconstpointer b)
{
  guint64 x = *(const guint64 *) a, y = *(const guint64 *) b;

  return x < y ? -1 : x > y;
}

static void
add_keys (GArray *keys, const WsRunLanes *lanes)
{
  for (guint j = 0; j < lanes->n_lanes; j++)
    {
      guint64 key = lanes->lanes[j].key;
      gboolean known = FALSE;

      for (guint k = 0; k < keys->len && !known; k++)
        known = g_array_index (keys, guint64, k) == key;
      if (!known)
        g_array_append_val (keys, key);
    }
}

/* Runs, their lanes, and the rows: every lane any run has, so that lanes stay put while the
 * window pans. With `only`, that run alone, with rows for the lanes of `also` as well, so
 * that two runs compared side by side have the same rows in the same places. */
static gboolean
collect (WsChartContext *ctx, WsSession *session, WsRun *only, WsRun *also,
         WsTimelineLayout *l)
{
  GListModel *model = ws_session_get_runs (session);
  g_autoptr (GArray) keys = g_array_new (FALSE, FALSE, sizeof (guint64));
  gint64 s = G_MAXINT64, e = G_MININT64;
  guint n_kernel = 0, kernel_ordinal = 0;
  guint n_candidates = only ? 1 : g_list_model_get_n_items (model);

  l->session = session;
  l->runs = g_ptr_array_new_with_free_func (g_object_unref);
  l->lanes = g_ptr_array_new_with_free_func ((GDestroyNotify) _ws_run_lanes_unref);
  l->rows = g_array_new (FALSE, TRUE, sizeof (WsTimelineRow));
  g_array_set_clear_func (l->rows, (GDestroyNotify) row_clear);
  for (guint i = 0; i < n_candidates; i++)
    {
      g_autoptr (WsRun) run = only ? g_object_ref (only) : g_list_model_get_item (model, i);
      WsRunLanes *lanes = _ws_run_lanes_get (run);

      if (!lanes->has_range)
        {
          _ws_run_lanes_unref (lanes);
          continue;
        }
      s = MIN (s, lanes->start);
      e = MAX (e, lanes->end);
      add_keys (keys, lanes);
      g_ptr_array_add (l->runs, g_steal_pointer (&run));
      g_ptr_array_add (l->lanes, lanes);
    }
  if (also != NULL)
    {
      WsRunLanes *lanes = _ws_run_lanes_get (also);

      add_keys (keys, lanes);
      _ws_run_lanes_unref (lanes);
    }
  if (l->runs->len == 0)
    return FALSE;
  g_array_sort (keys, compare_u64);
  for (guint k = 0; k < keys->len; k++)
    if (WS_LANE_KEY_CATEGORY (g_array_index (keys, guint64, k)) == WS_LANE_KERNEL)
      n_kernel++;
  for (guint k = 0; k < keys->len; k++)
    {
      guint64 key = g_array_index (keys, guint64, k);
      WsTimelineRow row = { key, row_label (key, n_kernel),
                  category_color (ctx->theme, WS_LANE_KEY_CATEGORY (key), kernel_ordinal) };

      if (WS_LANE_KEY_CATEGORY (key) == WS_LANE_KERNEL)
        kernel_ordinal++;
      g_array_append_val (l->rows, row);
    }
  l->origin = s;
  l->start = s;
  l->end = e;
  return TRUE;
}

/* Which lanes go first when the chart is too short for a line of text per lane (a projector
 * in presentation mode, two runs compared): the host's waits, CUPTI's own work and memsets;
 * copies, kernels and the CPU reference stay. */
static int
drop_rank (guint64 key)
{
  switch (WS_LANE_KEY_CATEGORY (key))
    {
    case WS_LANE_OVERHEAD:
      return 3;
    case WS_LANE_SYNC:
      return 2;
    case WS_LANE_MEMSET:
      return 1;
    case WS_LANE_CPU:
    case WS_LANE_H2D:
    case WS_LANE_KERNEL:
    case WS_LANE_D2H:
    case WS_LANE_OTHER_COPY:
    case WS_N_LANE_CATEGORIES:
    default:
      return 0;
    }
}

static void
fit_rows (WsChartContext *ctx, GArray *rows, double avail)
{
  while (rows->len > 1 && avail / rows->len < ctx->small_height * 1.2)
    {
      guint worst = 0;

      for (guint r = 1; r < rows->len; r++)
        if (drop_rank (g_array_index (rows, WsTimelineRow, r).key)
            >= drop_rank (g_array_index (rows, WsTimelineRow, worst).key))
          worst = r;
      if (drop_rank (g_array_index (rows, WsTimelineRow, worst).key) == 0)
        break;
      g_array_remove_index (rows, worst);
    }
}

/* The rows of `rows` that `like` has too, so that two compared runs keep the same lanes. */
static void
keep_rows_like (GArray *rows, GArray *like)
{
  for (guint r = rows->len; r-- > 0;)
    {
      gboolean found = FALSE;

      for (guint k = 0; k < like->len && !found; k++)
        found = g_array_index (like, WsTimelineRow, k).key
                == g_array_index (rows, WsTimelineRow, r).key;
      if (!found)
        g_array_remove_index (rows, r);
    }
}

/* The window asked for, else the whole session (start == end means all, as the widget
 * assumes when it zooms from there). */
static void
choose_window (WsChartContext *ctx, WsTimelineLayout *l)
{
  const WsChartOptions *o = ctx->options;

  if (o->window_end > o->window_start)
    {
      l->start = o->window_start;
      l->end = o->window_end;
    }
  if (l->end <= l->start)
    l->end = l->start + 1000;
}

static char *
chart_title (WsTimelineLayout *l, const WsChartOptions *o)
{
  WsRun *run = o->run ? ws_session_find_run (l->session, o->run) : NULL;
  gint64 rs, re;

  /* The run picked names the chart when the window shows that run alone. */
  if (run && ws_run_get_time_range (run, &rs, &re)
      && l->start >= rs - (re - rs) / 10 && l->end <= re + (re - rs) / 10)
    {
      const WsRunConfig *c = ws_run_get_config (run);
      g_autofree char *size = _ws_chart_dup_size_label (run);
      g_autofree char *block = ws_run_dup_block_label (run);

      if (*block == '\0') /* a library call: it picks its own blocks */
        return g_strdup_printf (_("%s · run %d: %s, %s, %s"), ws_chart_kind_title (o->kind),
                                c->id, c->kernel, size, c->transfer);
      /* TRANSLATORS: "Timeline · run 5: vector_add, n = 10,000, block 256, pinned" */
      return g_strdup_printf (_("%s · run %d: %s, %s, block %s, %s"), ws_chart_kind_title (o->kind),
                              c->id, c->kernel, size, block, c->transfer);
    }
  {
    g_autofree char *kernels = _ws_chart_kernels_label (l->runs);

    /* TRANSLATORS: "Timeline · vector_add, 12 runs" */
    return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%s · %s, %u run", "%s · %s, %u runs",
                                         l->runs->len),
                            ws_chart_kind_title (o->kind), kernels, l->runs->len);
  }
}

static guint
legend_items (WsChartContext *ctx, WsTimelineLayout *l, WsLegendItem *items, gboolean density)
{
  const WsTheme *t = ctx->theme;
  gboolean present[WS_N_LANE_CATEGORIES] = { FALSE };
  guint n = 0;

  for (guint i = 0; i < l->rows->len; i++)
    present[WS_LANE_KEY_CATEGORY (g_array_index (l->rows, WsTimelineRow, i).key)] = TRUE;
#define ITEM(cond, text, color)                                                               \
  if (cond)                                                                                   \
  items[n++] = (WsLegendItem) { text, color, WS_LEGEND_BOX, -1 }
  ITEM (present[WS_LANE_H2D], _("H2D copy"), t->h2d);
  ITEM (present[WS_LANE_D2H], _("D2H copy"), t->d2h);
  ITEM (present[WS_LANE_OTHER_COPY], _("other copy"), t->other_copy);
  ITEM (present[WS_LANE_KERNEL], _("kernel"), t->kernel);
  ITEM (present[WS_LANE_MEMSET], _("memset"), t->memset);
  ITEM (present[WS_LANE_SYNC], _("host waits"), t->sync);
  ITEM (present[WS_LANE_CPU], _("CPU reference"), t->cpu);
  ITEM (present[WS_LANE_OVERHEAD], _("CUPTI overhead"),
        _ws_color_mix (&t->sync, &t->background, 0.35));
#undef ITEM
  if (ctx->options->highlight != NULL || ctx->options->annotate)
    items[n++] = (WsLegendItem) { _("a finding points here"), t->highlight, WS_LEGEND_OUTLINE, -1 };
  if (density)
    items[n++] = (WsLegendItem) { _("pale: spans under a pixel, by share of time busy"),
                                  _ws_color_mix (&t->kernel, &t->background, 0.55),
                                  WS_LEGEND_BOX, -1 };
  return n;
}

static gboolean
compute_layout (WsChartContext *ctx, WsSession *session, WsTimelineLayout *l)
{
  g_autofree char *title = NULL;
  g_autofree char *subtitle = NULL;
  WsLegendItem items[16];
  guint n_items;
  double legend_h, pad = 0.5 * ctx->line_height, avail;

  memset (l, 0, sizeof *l);
  if (session == NULL || !collect (ctx, session, NULL, NULL, l))
    {
      subtitle = session ? _ws_chart_subtitle (session, NULL) : NULL;
      _ws_chart_frame (ctx, ws_chart_kind_title (WS_CHART_TIMELINE), subtitle, &l->content);
      return FALSE;
    }
  choose_window (ctx, l);
  title = chart_title (l, ctx->options);
  subtitle = _ws_chart_subtitle (session, NULL);
  _ws_chart_frame (ctx, title, subtitle, &l->content);
  /* Presentation mode writes the findings about the runs in view at the bottom; the lanes
   * take what is left. */
  if (ctx->options->annotate)
    {
      g_autoptr (GPtrArray) shown = g_ptr_array_new ();

      for (guint i = 0; i < l->runs->len; i++)
        {
          WsRunLanes *lanes = g_ptr_array_index (l->lanes, i);

          if (lanes->end >= l->start && lanes->start <= l->end)
            g_ptr_array_add (shown, g_ptr_array_index (l->runs, i));
        }
      /* The lanes keep a line each, with the legend, the ruler and the band. */
      _ws_chart_annotate (ctx, session, shown, (6 + l->rows->len) * ctx->line_height,
                          &l->content);
    }

  n_items = legend_items (ctx, l, items, TRUE);
  legend_h = _ws_legend_draw (ctx, items, n_items, l->content.x, l->content.y,
                              l->content.width, FALSE);
  l->legend_y = l->content.y;

  l->label_width = 0;
  for (guint i = 0; i < l->rows->len; i++)
    {
      const WsTimelineRow *row = &g_array_index (l->rows, WsTimelineRow, i);

      l->label_width = MAX (l->label_width, _ws_text_width (ctx, WS_FONT_NORMAL, row->label));
    }
  l->label_width = MIN (l->label_width + ctx->line_height, l->content.width * 0.3);

  l->ruler_y = l->content.y + legend_h + pad;
  /* Whole pixels, so that span edges and density columns fall on pixel boundaries. */
  l->band.x = round (l->content.x + l->label_width);
  l->band.width = MAX (round (l->content.x + l->content.width) - l->band.x, 1);
  l->band.y = round (l->ruler_y + ctx->small_height + 6 * ctx->unit);
  l->band.height = 1.5 * ctx->small_height;
  l->plot.x = l->band.x;
  l->plot.width = l->band.width;
  l->plot.y = round (l->band.y + l->band.height + 2 * ctx->unit);
  avail = l->content.y + l->content.height - l->plot.y;
  fit_rows (ctx, l->rows, avail);
  l->row_height = floor (MIN (MAX (avail, 1) / l->rows->len, 8 * ctx->line_height));
  l->row_height = MAX (l->row_height, 1);
  l->plot.height = l->row_height * l->rows->len;
  l->ppn = l->plot.width / (double) (l->end - l->start);
  return TRUE;
}

/* ---- two runs side by side ---------------------------------------------------------------- */

/* The two runs picked, when both have activities to draw. */
static gboolean
compare_runs (WsSession *session, const WsChartOptions *o, WsRun **a, WsRun **b)
{
  if (session == NULL || o->run == 0 || o->compare_run == 0 || o->run == o->compare_run)
    return FALSE;
  *a = ws_session_find_run (session, o->run);
  *b = ws_session_find_run (session, o->compare_run);
  return *a != NULL && *b != NULL && ws_run_get_time_range (*a, NULL, NULL)
         && ws_run_get_time_range (*b, NULL, NULL);
}

/* The longer run's length: comparing two runs, times count from each run's start. */
static gint64
compare_span (WsRun *a, WsRun *b)
{
  gint64 sa, ea, sb, eb;

  ws_run_get_time_range (a, &sa, &ea);
  ws_run_get_time_range (b, &sb, &eb);
  return MAX (MAX (ea - sa, eb - sb), 1000);
}

/* Everything the timeline draws: one group of lanes for the session, or, when two runs are
 * picked, one group per run, each counted from its own start on one scale so that their
 * lengths and phases line up. */
typedef struct
{
  WsTimelineLayout group[2];
  guint n_groups;
  gint64 window_start, window_end; /* comparing: ns since each run's start */
} WsTimelineFrame;

static void
frame_clear (WsTimelineFrame *f)
{
  for (guint i = 0; i < f->n_groups; i++)
    layout_clear (&f->group[i]);
}

static gboolean
compute_compare (WsChartContext *ctx, WsSession *session, WsRun *a, WsRun *b,
                 WsTimelineFrame *f)
{
  const WsChartOptions *o = ctx->options;
  WsRun *runs[2] = { a, b };
  g_autofree char *title = NULL, *subtitle = NULL;
  WsLegendItem items[16];
  WsRect content;
  double legend_h, pad = 0.5 * ctx->line_height, label_width = 0, top, group_h, ppn;
  gint64 span = compare_span (a, b);

  f->window_start = 0;
  f->window_end = span;
  if (o->window_end > o->window_start)
    {
      f->window_start = o->window_start;
      f->window_end = o->window_end;
    }
  for (guint i = 0; i < 2; i++)
    {
      WsTimelineLayout *l = &f->group[i];

      f->n_groups = i + 1; /* so that frame_clear frees what collect allocates */
      if (!collect (ctx, session, runs[i], runs[1 - i], l))
        return FALSE;
      l->origin = ((WsRunLanes *) g_ptr_array_index (l->lanes, 0))->start;
      l->end = l->origin + f->window_end;
      l->start = l->origin + f->window_start;
      /* TRANSLATORS: the ruler of one of two runs compared: it counts from that run's start */
      l->caption = g_strdup_printf (_("run %d, from its start"), ws_run_get_config (runs[i])->id);
    }

  /* TRANSLATORS: "Timeline · run 5 beside run 6" */
  title = g_strdup_printf (_("%s · run %d beside run %d"), ws_chart_kind_title (o->kind),
                           ws_run_get_config (a)->id, ws_run_get_config (b)->id);
  subtitle = _ws_chart_subtitle (session, NULL);
  _ws_chart_frame (ctx, title, subtitle, &content);
  if (o->annotate)
    {
      g_autoptr (GPtrArray) shown = g_ptr_array_new ();

      g_ptr_array_add (shown, a);
      g_ptr_array_add (shown, b);
      _ws_chart_annotate (ctx, session, shown,
                          (8 + 2 * f->group[0].rows->len) * ctx->line_height, &content);
    }
  legend_h = _ws_legend_draw (ctx, items, legend_items (ctx, &f->group[0], items, TRUE),
                              content.x, content.y, content.width, FALSE);
  for (guint r = 0; r < f->group[0].rows->len; r++)
    label_width = MAX (label_width,
                       _ws_text_width (ctx, WS_FONT_NORMAL,
                                       g_array_index (f->group[0].rows, WsTimelineRow, r).label));
  label_width = MIN (label_width + ctx->line_height, content.width * 0.3);

  top = content.y + legend_h + pad;
  group_h = (content.y + content.height - top - ctx->line_height) / 2;
  for (guint i = 0; i < 2; i++)
    {
      WsTimelineLayout *l = &f->group[i];
      double avail;

      l->content = content;
      l->legend_y = content.y;
      l->label_width = label_width;
      l->ruler_y = round (top + i * (group_h + ctx->line_height));
      l->band.x = round (content.x + label_width);
      l->band.width = MAX (round (content.x + content.width) - l->band.x, 1);
      l->band.y = round (l->ruler_y + ctx->small_height + 6 * ctx->unit);
      l->band.height = 1.5 * ctx->small_height;
      l->plot.x = l->band.x;
      l->plot.width = l->band.width;
      l->plot.y = round (l->band.y + l->band.height + 2 * ctx->unit);
      avail = l->ruler_y + group_h - l->plot.y;
      if (i == 0)
        fit_rows (ctx, l->rows, avail);
      else
        keep_rows_like (l->rows, f->group[0].rows);
      l->row_height = floor (MIN (MAX (avail, 1) / l->rows->len, 6 * ctx->line_height));
      l->row_height = MAX (l->row_height, 1);
      l->plot.height = l->row_height * l->rows->len;
    }
  ppn = f->group[0].plot.width / (double) (f->window_end - f->window_start);
  f->group[0].ppn = f->group[1].ppn = ppn;
  return TRUE;
}

static gboolean
compute_frame (WsChartContext *ctx, WsSession *session, WsTimelineFrame *f)
{
  WsRun *a, *b;

  memset (f, 0, sizeof *f);
  if (compare_runs (session, ctx->options, &a, &b))
    {
      if (compute_compare (ctx, session, a, b, f))
        return TRUE;
      frame_clear (f);
      memset (f, 0, sizeof *f);
    }
  f->n_groups = 1;
  if (!compute_layout (ctx, session, &f->group[0]))
    return FALSE;
  f->window_start = f->group[0].start;
  f->window_end = f->group[0].end;
  return TRUE;
}

gboolean
ws_timeline_get_full_range (WsSession *session, const WsChartOptions *options, gint64 *start,
                            gint64 *end)
{
  WsRun *a, *b;

  g_return_val_if_fail (options != NULL, FALSE);
  if (compare_runs (session, options, &a, &b))
    {
      *start = 0;
      *end = compare_span (a, b);
      return TRUE;
    }
  return session != NULL && ws_session_get_time_range (session, start, end) && *end > *start;
}

/* ---- drawing ------------------------------------------------------------------------------ */

static gboolean
draw_group (WsChartContext *ctx, const WsTimelineLayout *l, gint64 shift)
{
  const WsChartOptions *o = ctx->options;
  cairo_t *cr = ctx->cr;
  gboolean density;
  WsFontRole font;

  _ws_timeline_draw_ruler (ctx, l);
  _ws_timeline_draw_band (ctx, l);
  /* Rows squeezed below a line of text get the small font, and no label at all when even
   * that would overprint its neighbours (the legend still names the colours). */
  font = l->row_height >= 0.9 * ctx->line_height ? WS_FONT_NORMAL : WS_FONT_SMALL;
  for (guint r = 0; r < l->rows->len; r++)
    {
      const WsTimelineRow *row = &g_array_index (l->rows, WsTimelineRow, r);
      double y = l->plot.y + r * l->row_height;

      if (l->row_height >= 0.8 * ctx->small_height)
        _ws_text_show (ctx, font, row->label, l->content.x, y + l->row_height / 2, 0, 0.5,
                       &ctx->theme->foreground);
      if (r > 0)
        {
          _ws_set_color (cr, &ctx->theme->grid);
          cairo_set_line_width (cr, 1);
          cairo_move_to (cr, l->content.x, round (y) + 0.5);
          cairo_line_to (cr, l->plot.x + l->plot.width, round (y) + 0.5);
          cairo_stroke (cr);
        }
    }

  density = _ws_timeline_draw_lanes (ctx, l);
  _ws_timeline_draw_highlights (ctx, l);

  if (o->selection_end > o->selection_start)
    {
      double x0 = _ws_timeline_x (l, o->selection_start + shift);
      double x1 = _ws_timeline_x (l, o->selection_end + shift);

      _ws_set_color_alpha (cr, &ctx->theme->h2d, 0.14);
      cairo_rectangle (cr, x0, l->band.y, MAX (x1 - x0, 1), l->plot.y + l->plot.height - l->band.y);
      cairo_fill_preserve (cr);
      _ws_set_color_alpha (cr, &ctx->theme->h2d, 0.8);
      cairo_set_line_width (cr, 1);
      cairo_stroke (cr);
    }
  return density;
}

void
_ws_chart_timeline (WsChartContext *ctx, GPtrArray *sessions)
{
  WsSession *session = sessions && sessions->len ? g_ptr_array_index (sessions, 0) : NULL;
  WsTimelineFrame f;
  gboolean density = FALSE;
  WsLegendItem items[16];
  guint n_items;

  if (!compute_frame (ctx, session, &f))
    {
      _ws_chart_message (ctx, &f.group[0].content,
                         _("No traced activity yet. Copies, kernels and CPU runs appear here as "
                           "the runner records them."));
      frame_clear (&f);
      return;
    }
  for (guint i = 0; i < f.n_groups; i++)
    {
      /* Comparing, the selection is in ns since each run's start. */
      gint64 shift = f.n_groups > 1 ? f.group[i].origin : 0;

      density |= draw_group (ctx, &f.group[i], shift);
    }
  n_items = legend_items (ctx, &f.group[0], items, density);
  _ws_legend_draw (ctx, items, n_items, f.group[0].content.x, f.group[0].legend_y,
                   f.group[0].content.width, TRUE);
  frame_clear (&f);
}

/* ---- geometry for the widget ------------------------------------------------------------ */

void
ws_timeline_get_geometry (WsSession *session, const WsChartOptions *options,
                          WsTimelineGeometry *geometry)
{
  WsChartRequest request;
  WsChartContext ctx;
  WsTimelineFrame f;

  g_return_if_fail (options != NULL);
  g_return_if_fail (geometry != NULL);
  memset (geometry, 0, sizeof *geometry);
  _ws_chart_request_init (&request, NULL, options);
  _ws_chart_context_init (&ctx, NULL, &request.base);
  ctx.options = options;
  if (compute_frame (&ctx, session, &f))
    {
      const WsTimelineLayout *first = &f.group[0], *last = &f.group[f.n_groups - 1];

      geometry->plot_x = first->plot.x;
      geometry->plot_y = first->plot.y;
      geometry->plot_width = first->plot.width;
      geometry->plot_height = last->plot.y + last->plot.height - first->plot.y;
      geometry->start = f.window_start;
      geometry->end = f.window_end;
    }
  frame_clear (&f);
  _ws_chart_context_clear (&ctx);
}

static void
pick_in_group (WsChartContext *ctx, const WsTimelineLayout *l, double x, double y, WsRun **run,
               guint *index, double *best, gboolean *found)
{
  guint r;
  guint64 key;
  double tolerance;
  gint64 t;

  if (x < l->plot.x || x >= l->plot.x + l->plot.width || y < l->plot.y
      || y >= l->plot.y + l->plot.height)
    return;
  r = (guint) ((y - l->plot.y) / l->row_height);
  key = g_array_index (l->rows, WsTimelineRow, MIN (r, l->rows->len - 1)).key;
  tolerance = 3 * ctx->unit / l->ppn;
  t = l->start + (gint64) ((x - l->plot.x) / l->ppn);
  for (guint i = 0; i < l->runs->len; i++)
    {
      const WsRunLanes *lanes = g_ptr_array_index (l->lanes, i);
      const WsLane *lane = _ws_timeline_find_lane (lanes, key);

      if (lane == NULL || lanes->end < t - tolerance || lanes->start > t + tolerance)
        continue;
      for (guint k = _ws_lane_first_reaching (lane, (gint64) (t - tolerance));
           k < lane->n && lane->spans[k].start <= t + tolerance; k++)
        {
          const WsLaneSpan *s = &lane->spans[k];
          /* Inside a span beats beside one; of nested spans the shortest wins. */
          double d = (t >= s->start && t < s->end)
                         ? -1.0 / (1.0 + (double) (s->end - s->start))
                         : MIN (fabs ((double) (t - s->start)), fabs ((double) (t - s->end)));

          if (d <= tolerance && d < *best)
            {
              *best = d;
              *found = TRUE;
              if (run)
                *run = g_ptr_array_index (l->runs, i);
              if (index)
                *index = s->index;
            }
        }
    }
}

gboolean
ws_timeline_pick (WsSession *session, const WsChartOptions *options, double x, double y,
                  WsRun **run, guint *index)
{
  WsChartRequest request;
  WsChartContext ctx;
  WsTimelineFrame f;
  gboolean found = FALSE;
  double best = G_MAXDOUBLE;

  g_return_val_if_fail (options != NULL, FALSE);
  _ws_chart_request_init (&request, NULL, options);
  _ws_chart_context_init (&ctx, NULL, &request.base);
  ctx.options = options;
  if (compute_frame (&ctx, session, &f))
    for (guint i = 0; i < f.n_groups; i++)
      pick_in_group (&ctx, &f.group[i], x, y, run, index, &best, &found);
  frame_clear (&f);
  _ws_chart_context_clear (&ctx);
  return found;
}
