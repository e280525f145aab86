/* ws-time-summary.c: the line about the selected stretch of time. It says whichever was
 * chosen last, the range or the span.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "ws-time-summary.h"

#include <glib/gi18n.h>

#include "ws-units.h"

struct _WsTimeSummary
{
  WsView parent_instance;
  GtkLabel *label;
};

G_DEFINE_FINAL_TYPE (WsTimeSummary, ws_time_summary, WS_TYPE_VIEW)

static void
say (WsTimeSummary *self, const char *text)
{
  gtk_label_set_text (self->label, text ? text : "");
  gtk_widget_set_visible (GTK_WIDGET (self), text != NULL);
}

const char *
ws_time_summary_get_text (WsTimeSummary *self)
{
  g_return_val_if_fail (WS_IS_TIME_SUMMARY (self), NULL);
  return gtk_widget_get_visible (GTK_WIDGET (self)) ? gtk_label_get_text (self->label) : NULL;
}

/* A length in the range, "1.25 ms"; none of it is "0 ns", not ws_units_duration's "—" (not
 * measured). */
static char *
length_text (gint64 ns)
{
  return ns > 0 ? ws_units_duration ((double) ns) : g_strdup ("0 ns");
}

/* A share of the range, "37%": of nothing, none. */
static char *
share (gint64 part_ns, gint64 span_ns)
{
  return ws_units_percent ((double) part_ns / MAX (span_ns, 1));
}

/* A range on two runs compared: the same stretch of each, from its own start. */
static char *
compare_text (WsTimeSummary *self, gint64 start, gint64 end)
{
  WsWorkspace *workspace = ws_view_get_workspace (WS_VIEW (self));
  int ids[2] = { ws_workspace_get_run (workspace),
                 ws_workspace_get_compare_run (workspace) };
  GString *text = g_string_new (NULL);
  g_autofree char *length = length_text (end - start);

  /* TRANSLATORS: a range on two runs compared, "1.00 ms"; the runs' figures follow */
  g_string_printf (text, _("%s from each run's start:"), length);
  for (guint i = 0; i < 2; i++)
    {
      g_autofree char *copies = NULL, *kernels = NULL, *idle = NULL;
      WsTotals t;

      ws_workspace_get_range_totals (workspace, ids[i], &t);
      copies = share (t.copy_ns, t.span_ns);
      kernels = share (t.kernel_ns, t.span_ns);
      idle = share (t.idle_ns, t.span_ns);
      g_string_append_c (text, ' ');
      /* TRANSLATORS: shares of the range, "37%" */
      g_string_append_printf (text, _("run %d: copies %s, kernels %s, idle %s."), ids[i], copies,
                              kernels, idle);
    }
  g_string_append_c (text, ' ');
  g_string_append (text, _("Press Z to zoom to it."));
  return g_string_free (text, FALSE);
}

static char *
range_text (const WsTotals *t)
{
  g_autofree char *span = length_text (t->span_ns), *copies = length_text (t->copy_ns);
  g_autofree char *kernels = length_text (t->kernel_ns);
  g_autofree char *overlap = length_text (t->overlap_ns), *idle = length_text (t->idle_ns);
  g_autofree char *copy_share = share (t->copy_ns, t->span_ns);
  g_autofree char *kernel_share = share (t->kernel_ns, t->span_ns);
  g_autofree char *idle_share = share (t->idle_ns, t->span_ns);

  /* TRANSLATORS: durations ("1.25 ms") and shares of the range ("37%") */
  return g_strdup_printf (_("Selected %s: copies %s (%s), kernels %s (%s), both at once %s, "
                            "idle %s (%s). Press Z to zoom to it."),
                          span, copies, copy_share, kernels, kernel_share, overlap, idle,
                          idle_share);
}

static void
range_cb (WsTimeSummary *self)
{
  WsWorkspace *workspace = ws_view_get_workspace (WS_VIEW (self));
  g_autofree char *text = NULL;
  gint64 start, end;
  WsTotals t;

  if (!ws_workspace_get_selected_range (workspace, &start, &end))
    {
      say (self, NULL);
      return;
    }
  if (ws_workspace_is_comparing (workspace))
    text = compare_text (self, start, end);
  else
    {
      ws_workspace_get_range_totals (workspace, 0, &t);
      text = range_text (&t);
    }
  say (self, text);
}

static void
activity_cb (WsTimeSummary *self)
{
  WsWorkspace *workspace = ws_view_get_workspace (WS_VIEW (self));
  WsSession *session = ws_workspace_get_session (workspace);
  WsActivityRef ref;
  WsRun *run;
  const WsSpan *a;
  guint n = 0;
  g_autofree char *text = NULL, *bytes = NULL, *duration = NULL, *gbs = NULL;

  if (!ws_workspace_get_selected_activity (workspace, &ref)
      || (run = ws_session_find_run (session, ref.run)) == NULL
      || (a = ws_run_get_activities (run, &n), ref.index >= n))
    return;
  a += ref.index;
  bytes = ws_units_bytes ((double) a->bytes);
  duration = ws_units_duration ((double) ws_span_duration (a));
  gbs = ws_units_gbs (ws_span_gbs (a));
  if (a->kind == WS_ACTIVITY_MEMCPY)
    text = g_strdup_printf (_("Run %d · copy %s · %s in %s = %s (%s host memory)"), ref.run,
                            ws_copy_direction_to_string (a->direction), bytes, duration, gbs,
                            ws_host_memory_to_string (a->host_memory) ?: "device");
  else
    text = g_strdup_printf (_("Run %d · %s%s%s · %s"), ref.run,
                            ws_activity_kind_to_string (a->kind), a->name ? " " : "",
                            a->name ? a->name : "", duration);
  say (self, text);
}

static void
session_cb (WsTimeSummary *self)
{
  say (self, NULL);
}

static void
ws_time_summary_workspace_changed (WsView *view, WsWorkspace *workspace)
{
  WsTimeSummary *self = WS_TIME_SUMMARY (view);

  say (self, NULL);
  if (workspace != NULL)
    {
      g_signal_connect_swapped (workspace, "notify::selected-range", G_CALLBACK (range_cb), self);
      g_signal_connect_swapped (workspace, "notify::selected-activity", G_CALLBACK (activity_cb),
                                self);
      /* A new session starts with nothing said. */
      g_signal_connect_swapped (workspace, "notify::session", G_CALLBACK (session_cb), self);
    }
}

static void
ws_time_summary_dispose (GObject *object)
{
  WsTimeSummary *self = WS_TIME_SUMMARY (object);

  if (self->label != NULL)
    {
      gtk_widget_unparent (GTK_WIDGET (self->label));
      self->label = NULL;
    }
  G_OBJECT_CLASS (ws_time_summary_parent_class)->dispose (object);
}

static void
ws_time_summary_class_init (WsTimeSummaryClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = ws_time_summary_dispose;
  WS_VIEW_CLASS (klass)->workspace_changed = ws_time_summary_workspace_changed;
  gtk_widget_class_set_layout_manager_type (GTK_WIDGET_CLASS (klass), GTK_TYPE_BIN_LAYOUT);
}

static void
ws_time_summary_init (WsTimeSummary *self)
{
  self->label = GTK_LABEL (gtk_label_new (NULL));
  gtk_label_set_xalign (self->label, 0);
  gtk_widget_set_margin_start (GTK_WIDGET (self->label), 10);
  gtk_widget_add_css_class (GTK_WIDGET (self->label), "statusline");
  gtk_widget_set_parent (GTK_WIDGET (self->label), GTK_WIDGET (self));
  gtk_widget_set_visible (GTK_WIDGET (self), FALSE);
}

GtkWidget *
ws_time_summary_new (void)
{
  return g_object_new (WS_TYPE_TIME_SUMMARY, NULL);
}
