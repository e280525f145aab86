/* ws-chart-frame.c: what every chart shares around its plot: its frame and title, the sentence
 * of an empty chart, the runs it shows and their labels, and the findings written on it in
 * presentation mode.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "ws-config.h"

#include <glib/gi18n-lib.h>
#include <math.h>
#include <string.h>

#include "ws-analysis.h"
#include "ws-chart-frame-private.h"
#include "ws-chart-private.h"
#include "ws-chart-shapes-private.h"

void
_ws_chart_frame_clear (WsChartFrame *frame)
{
  g_clear_pointer (&frame->title, g_free);
  g_clear_pointer (&frame->subtitle, g_free);
  g_clear_pointer (&frame->message, g_free);
  g_clear_pointer (&frame->notes, g_ptr_array_unref);
}

static void
frame_layout (WsChartContext *ctx, const char *title, const char *subtitle, gboolean draw,
              WsRect *content)
{
  cairo_t *cr = ctx->cr;
  double pad = 0.9 * ctx->line_height;
  double width = MAX (ctx->area.width - 2 * pad, 1);
  double y = ctx->area.y + pad * 0.8;

  if (draw)
    {
      _ws_set_color (cr, &ctx->theme->background);
      cairo_rectangle (cr, ctx->area.x, ctx->area.y, ctx->area.width, ctx->area.height);
      cairo_fill (cr);
    }
  /* A figure too short for its text at full size (one column of a paper, a short window)
   * keeps half its height for the plot: the title is set at the text's size, and the
   * subtitle (the GPU, the date) gives its lines to the plot. */
  gboolean short_figure = _ws_chart_is_short (ctx);

  if (title)
    y += _ws_text_show_wrapped (ctx, short_figure ? WS_FONT_BOLD : WS_FONT_TITLE, title,
                                ctx->area.x + pad, y, width, PANGO_ALIGN_LEFT,
                                &ctx->theme->foreground, draw);
  /* On a projector the text is large and the chart short: the subtitle (the GPU, the date,
   * what is ringed) gives its lines to the plot; the takeaway over the chart names the run. */
  if ((ctx->base->annotate && ctx->area.height < 20 * ctx->line_height) || short_figure)
    subtitle = NULL;
  if (subtitle)
    y += _ws_text_show_wrapped (ctx, WS_FONT_NORMAL, subtitle, ctx->area.x + pad, y + 2, width,
                                PANGO_ALIGN_LEFT, &ctx->theme->muted, draw)
         + 2;
  y += 0.5 * pad;
  content->x = ctx->area.x + pad;
  content->y = y;
  content->width = width;
  content->height = MAX (ctx->area.y + ctx->area.height - pad * 0.7 - y, 1);
}

void
_ws_chart_frame_draw (WsChartContext *ctx, const WsChartFrame *frame, gboolean draw,
                      WsRect *content)
{
  frame_layout (ctx, frame->title, frame->subtitle, draw, content);
}

void
_ws_chart_message (WsChartContext *ctx, const WsRect *area, const char *sentence)
{
  double width = MIN (area->width, 40 * ctx->line_height);
  double h = _ws_text_show_wrapped (ctx, WS_FONT_NORMAL, sentence, 0, 0, width,
                                    PANGO_ALIGN_CENTER, NULL, FALSE);
  double y = area->y + MAX (0, (area->height - h) / 2);

  _ws_text_show_wrapped (ctx, WS_FONT_NORMAL, sentence, area->x + (area->width - width) / 2, y,
                         width, PANGO_ALIGN_CENTER, &ctx->theme->muted, TRUE);
}

char *
_ws_chart_subtitle (WsSession *session, const char *what)
{
  GString *s = g_string_new (NULL);
  WsDevice *device = session ? ws_session_get_device (session) : NULL;
  g_autofree char *date = session ? ws_session_dup_date (session) : NULL;

  if (device)
    g_string_append (s, ws_device_get_name (device));
  if (date)
    {
      if (s->len)
        g_string_append (s, " · ");
      /* TRANSLATORS: the date a session was recorded on, e.g. "recorded 2026-11-29" */
      g_string_append_printf (s, _("recorded %s"), date);
    }
  if (what && *what)
    {
      if (s->len)
        g_string_append (s, " · ");
      g_string_append (s, what);
    }
  return g_string_free (s, s->len == 0);
}

char *
_ws_chart_dup_size_label (WsRun *run)
{
  const WsRunConfig *c = ws_run_get_config (run);

  /* The model names vectors and cubes; a matrix (a transpose's rows × columns) is named
   * here. */
  if (c->shape_rank == 2)
    {
      if (c->shape[0] == c->shape[1])
        return g_strdup_printf ("%" G_GUINT64_FORMAT "²", c->shape[0]);
      return g_strdup_printf ("%" G_GUINT64_FORMAT "×%" G_GUINT64_FORMAT, c->shape[0],
                              c->shape[1]);
    }
  return ws_run_dup_size_label (run);
}

static gboolean
has_results (WsRun *run)
{
  WsRunState state = ws_run_get_state (run);

  return state == WS_RUN_STATE_COMPLETE || state == WS_RUN_STATE_FAILED;
}

GPtrArray *
_ws_chart_runs (WsSession *session, const WsChartBase *options)
{
  GPtrArray *runs = g_ptr_array_new_with_free_func (g_object_unref);
  GListModel *model;

  if (session == NULL)
    return runs;
  if (options->run != 0)
    {
      int ids[2] = { options->run, options->compare_run };

      for (guint i = 0; i < 2; i++)
        {
          WsRun *run = ids[i] ? ws_session_find_run (session, ids[i]) : NULL;

          if (run && (i == 0 || ids[1] != ids[0]))
            g_ptr_array_add (runs, g_object_ref (run));
        }
      return runs;
    }
  model = ws_session_get_runs (session);
  for (guint i = 0; i < g_list_model_get_n_items (model); i++)
    {
      g_autoptr (WsRun) run = g_list_model_get_item (model, i);

      if (has_results (run))
        g_ptr_array_add (runs, g_steal_pointer (&run));
    }
  return runs;
}

static int
compare_severity (gconstpointer a, gconstpointer b)
{
  const WsFinding *x = *(WsFinding **) a, *y = *(WsFinding **) b;

  if (x->severity != y->severity)
    return x->severity > y->severity ? -1 : 1;
  return x->run - y->run;
}

WsSessionAnalysis *
_ws_chart_analysis (WsSession *session)
{
  WsSessionAnalysis *analysis = ws_session_get_analysis (session);

  ws_session_analysis_ensure (analysis);
  return analysis;
}

GPtrArray *
_ws_chart_findings (WsSession *session, GPtrArray *runs)
{
  WsSessionAnalysis *analysis = _ws_chart_analysis (session);
  GPtrArray *findings = g_ptr_array_new ();

  for (guint i = 0; i < runs->len; i++)
    {
      GPtrArray *some = ws_session_analysis_get_run_findings (analysis,
                                                              g_ptr_array_index (runs, i));

      for (guint k = 0; some != NULL && k < some->len; k++)
        g_ptr_array_add (findings, g_ptr_array_index (some, k));
    }
  g_ptr_array_sort (findings, compare_severity);
  return findings;
}

static void
note_free (WsChartNote *note)
{
  g_free (note->title);
  g_free (note->fix);
  g_free (note);
}

void
_ws_chart_frame_notes_from (WsChartFrame *frame, GPtrArray *findings, WsAudience audience)
{
  g_autoptr (GHashTable) seen = g_hash_table_new (g_str_hash, g_str_equal);

  if (frame->notes == NULL)
    frame->notes = g_ptr_array_new_with_free_func ((GDestroyNotify) note_free);
  /* The same finding about many runs of a sweep is said once; a chart shows three at most. */
  for (guint i = 0; i < findings->len && frame->notes->len < 3; i++)
    {
      WsFinding *f = g_ptr_array_index (findings, i);
      WsChartNote *note;
      const char *fix;

      if (f->severity < WS_SEVERITY_LOW || g_hash_table_contains (seen, f->id))
        continue;
      g_hash_table_add (seen, (gpointer) f->id);
      note = g_new0 (WsChartNote, 1);
      note->title = g_strdup (f->title);
      fix = ws_finding_get_fix (f, audience);
      note->fix = fix && *fix ? g_strdup (fix) : NULL;
      g_ptr_array_add (frame->notes, note);
    }
}

void
_ws_chart_frame_add_notes (WsChartFrame *frame, WsSession *session, GPtrArray *runs,
                           WsAudience audience)
{
  g_autoptr (GPtrArray) findings = NULL;

  if (session == NULL || runs == NULL || runs->len == 0)
    {
      if (frame->notes == NULL)
        frame->notes = g_ptr_array_new_with_free_func ((GDestroyNotify) note_free);
      return;
    }
  findings = _ws_chart_findings (session, runs);
  _ws_chart_frame_notes_from (frame, findings, audience);
}

static void
append_note (GString *text, const WsChartNote *note, gboolean with_fix)
{
  if (text->len)
    g_string_append_c (text, '\n');
  g_string_append_printf (text, "● %s", note->title);
  if (with_fix && note->fix)
    g_string_append_printf (text, " — %s", note->fix);
}

void
_ws_chart_notes_draw (WsChartContext *ctx, const WsChartFrame *frame, double keep,
                      gboolean draw, WsRect *area)
{
  g_autoptr (GString) text = g_string_new (NULL);
  double pad = 0.5 * ctx->line_height, h = 0, y, cap, width = area->width - 2 * pad;
  guint shown = 0;

  if (frame->notes == NULL || frame->notes->len == 0)
    return;
  /* As many as fit in 40% of the area and leave the chart the height it needs. */
  cap = MIN (area->height * 0.4, area->height - keep) - 2 * pad;
  for (guint i = 0; i < frame->notes->len; i++)
    {
      const WsChartNote *note = g_ptr_array_index (frame->notes, i);
      gsize before = text->len;
      double need;

      append_note (text, note, TRUE);
      need = _ws_text_show_wrapped (ctx, WS_FONT_NORMAL, text->str, 0, 0, width,
                                    PANGO_ALIGN_LEFT, NULL, FALSE);
      if (need > cap && shown == 0)
        {
          g_string_truncate (text, before);
          append_note (text, note, FALSE);
          need = _ws_text_show_wrapped (ctx, WS_FONT_NORMAL, text->str, 0, 0, width,
                                        PANGO_ALIGN_LEFT, NULL, FALSE);
        }
      if (need > cap)
        {
          g_string_truncate (text, before);
          break;
        }
      h = need;
      shown++;
    }
  if (shown == 0)
    return;
  y = area->y + area->height - h - 2 * pad;
  if (draw)
    {
      WsColor band = _ws_color_mix (&ctx->theme->background, &ctx->theme->severity[2], 0.12);

      _ws_set_color (ctx->cr, &band);
      cairo_rectangle (ctx->cr, area->x, y, area->width, h + 2 * pad);
      cairo_fill (ctx->cr);
      _ws_text_show_wrapped (ctx, WS_FONT_NORMAL, text->str, area->x + pad, y + pad, width,
                             PANGO_ALIGN_LEFT, &ctx->theme->foreground, TRUE);
    }
  area->height = MAX (1, y - area->y - pad);
}
