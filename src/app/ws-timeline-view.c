/* ws-timeline-view.c: the timeline widget. It paints with the same ws_chart_draw as export,
 * and turns pointer and keys into the workspace's visible window and selected range; a range
 * being dragged out is its own until the button is let go.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "ws-timeline-view.h"

#include <adwaita.h>
#include <glib/gi18n.h>

#include "ws-chart-widget.h"
#include "ws-chart-view.h"
#include "ws-format.h"
#include "ws-units.h"
#include "ws-trace-command.h"

struct _WsTimelineView
{
  WsView parent_instance;

  WsWorkspace *workspace; /* WsView's, not held: set in workspace_changed */
  double drag_start_x;
  gint64 drag_window_start, drag_window_end;
  gboolean selecting;
  gint64 selecting_start, selecting_end; /* the range while it is dragged out */
  gint64 zoom_begin_start, zoom_begin_end;
};

G_DEFINE_FINAL_TYPE (WsTimelineView, ws_timeline_view, WS_TYPE_VIEW)

static WsSession *
session (WsTimelineView *self)
{
  return self->workspace ? ws_workspace_get_session (self->workspace) : NULL;
}

/* What is painted, so that the pointer is read in the geometry it sees. */
static void
fill_options (WsTimelineView *self, WsChartOptions *options, WsTheme **owned)
{
  ws_chart_view_fill_options (GTK_WIDGET (self), self->workspace, WS_CHART_TIMELINE, options,
                              owned);
  if (self->selecting)
    {
      options->selection_start = self->selecting_start;
      options->selection_end = self->selecting_end;
    }
}

void
ws_timeline_view_get_options (WsTimelineView *self, WsChartOptions *options)
{
  g_autofree WsTheme *owned = NULL;

  g_return_if_fail (WS_IS_TIMELINE_VIEW (self));
  fill_options (self, options, &owned);
  ws_chart_widget_export_options (options);
}

static void
ws_timeline_view_snapshot (GtkWidget *widget, GtkSnapshot *snapshot)
{
  WsTimelineView *self = WS_TIMELINE_VIEW (widget);
  int width = gtk_widget_get_width (widget), height = gtk_widget_get_height (widget);
  g_autofree WsTheme *owned = NULL;
  WsChartOptions options;

  if (width <= 0 || height <= 0)
    return;
  if (ws_chart_view_paint_waiting (widget, snapshot, self->workspace))
    return;
  fill_options (self, &options, &owned);
  ws_chart_widget_snapshot (widget, snapshot, ws_chart_view_sessions (self->workspace), &options);
}

/* ---- the window ----------------------------------------------------------------------- */

/* Until a loaded session's lanes are built (in a thread) the pointer finds nothing: finding it
 * would build them here. */
static gboolean
active (WsTimelineView *self)
{
  return session (self) != NULL && ws_workspace_is_analysed (self->workspace);
}

/* The window shown: the workspace's, or the whole range. */
static void
current_window (WsTimelineView *self, gint64 *start, gint64 *end)
{
  ws_workspace_get_visible_window (self->workspace, start, end);
  if (*end <= *start && !ws_workspace_get_full_range (self->workspace, start, end))
    *start = 0, *end = 1;
}

void
ws_timeline_view_zoom (WsTimelineView *self, double factor, double anchor)
{
  gint64 start, end, anchor_t;

  g_return_if_fail (WS_IS_TIMELINE_VIEW (self));
  if (!active (self))
    return;
  current_window (self, &start, &end);
  anchor_t = start + (gint64) (anchor * (double) (end - start));
  ws_workspace_set_visible_window (self->workspace,
                                   anchor_t - (gint64) ((double) (anchor_t - start) / factor),
                                   anchor_t + (gint64) ((double) (end - anchor_t) / factor));
}

void
ws_timeline_view_pan (WsTimelineView *self, double fraction)
{
  gint64 start, end, shift;

  g_return_if_fail (WS_IS_TIMELINE_VIEW (self));
  if (!active (self))
    return;
  current_window (self, &start, &end);
  shift = (gint64) (fraction * (double) (end - start));
  ws_workspace_set_visible_window (self->workspace, start + shift, end + shift);
}

void
ws_timeline_view_zoom_to_selection (WsTimelineView *self)
{
  gint64 start, end;

  g_return_if_fail (WS_IS_TIMELINE_VIEW (self));
  if (!active (self) || !ws_workspace_get_selected_range (self->workspace, &start, &end))
    return;
  ws_workspace_set_visible_window (self->workspace, start, end);
  ws_workspace_set_selected_range (self->workspace, 0, 0);
}

/* The time under widget x, in the chart's own geometry. */
static gint64
time_at (WsTimelineView *self, double x, double *fraction)
{
  g_autofree WsTheme *owned = NULL;
  WsChartOptions options;
  WsTimelineGeometry g;
  double f;

  fill_options (self, &options, &owned);
  ws_timeline_get_geometry (session (self), &options, &g);
  f = g.plot_width > 0 ? (x - g.plot_x) / g.plot_width : 0.5;
  f = CLAMP (f, 0.0, 1.0);
  if (fraction)
    *fraction = f;
  return g.start + (gint64) (f * (double) (g.end - g.start));
}

/* The span under (x, y), if any. */
static gboolean
pick (WsTimelineView *self, double x, double y, WsRun **run, guint *index)
{
  g_autofree WsTheme *owned = NULL;
  WsChartOptions options;

  fill_options (self, &options, &owned);
  return ws_timeline_pick (session (self), &options, x, y, run, index);
}

/* ---- pointer ---------------------------------------------------------------------------- */

static gboolean
scroll_cb (GtkEventControllerScroll *controller, double dx, double dy, WsTimelineView *self)
{
  GdkModifierType state;
  GdkEvent *event;
  double x = 0, y, fraction = 0.5;

  if (!active (self))
    return FALSE;
  state = gtk_event_controller_get_current_event_state (GTK_EVENT_CONTROLLER (controller));
  event = gtk_event_controller_get_current_event (GTK_EVENT_CONTROLLER (controller));
  if (event != NULL && gdk_event_get_position (event, &x, &y))
    time_at (self, x, &fraction);
  if (state & GDK_CONTROL_MASK)
    ws_timeline_view_zoom (self, dy < 0 ? 1.25 : 0.8, fraction);
  else
    ws_timeline_view_pan (self, 0.1 * (dx != 0 ? dx : dy));
  return TRUE;
}

static void
zoom_begin_cb (GtkGesture *gesture, GdkEventSequence *sequence, WsTimelineView *self)
{
  if (active (self))
    current_window (self, &self->zoom_begin_start, &self->zoom_begin_end);
}

static void
zoom_scale_changed_cb (GtkGestureZoom *gesture, double scale, WsTimelineView *self)
{
  double cx, cy, fraction;
  gint64 span = self->zoom_begin_end - self->zoom_begin_start, anchor;

  if (!active (self) || scale <= 0)
    return;
  gtk_gesture_get_bounding_box_center (GTK_GESTURE (gesture), &cx, &cy);
  time_at (self, cx, &fraction);
  anchor = self->zoom_begin_start + (gint64) (fraction * (double) span);
  ws_workspace_set_visible_window (
    self->workspace, anchor - (gint64) ((double) (anchor - self->zoom_begin_start) / scale),
    anchor + (gint64) ((double) (self->zoom_begin_end - anchor) / scale));
}

static void
drag_begin_cb (GtkGestureDrag *gesture, double x, double y, WsTimelineView *self)
{
  GdkModifierType state = gtk_event_controller_get_current_event_state (GTK_EVENT_CONTROLLER (gesture));

  if (!active (self))
    return;
  gtk_widget_grab_focus (GTK_WIDGET (self));
  self->drag_start_x = x;
  current_window (self, &self->drag_window_start, &self->drag_window_end);
  self->selecting = (state & GDK_SHIFT_MASK) != 0;
  if (self->selecting)
    self->selecting_start = self->selecting_end = time_at (self, x, NULL);
}

static void
drag_update_cb (GtkGestureDrag *gesture, double dx, double dy, WsTimelineView *self)
{
  g_autofree WsTheme *owned = NULL;
  WsChartOptions options;
  WsTimelineGeometry g;
  gint64 span, shift;

  if (!active (self))
    return;
  if (self->selecting)
    {
      gint64 a = time_at (self, self->drag_start_x, NULL);
      gint64 b = time_at (self, self->drag_start_x + dx, NULL);

      self->selecting_start = MIN (a, b);
      self->selecting_end = MAX (a, b);
      gtk_widget_queue_draw (GTK_WIDGET (self));
      return;
    }
  fill_options (self, &options, &owned);
  ws_timeline_get_geometry (session (self), &options, &g);
  if (g.plot_width <= 0)
    return;
  span = self->drag_window_end - self->drag_window_start;
  shift = (gint64) (-dx / g.plot_width * (double) span);
  ws_workspace_set_visible_window (self->workspace, self->drag_window_start + shift,
                                   self->drag_window_end + shift);
}

static void
drag_end_cb (GtkGestureDrag *gesture, double dx, double dy, WsTimelineView *self)
{
  gboolean selecting = self->selecting;

  self->selecting = FALSE;
  if (active (self) && selecting && self->selecting_end > self->selecting_start)
    ws_workspace_set_selected_range (self->workspace, self->selecting_start, self->selecting_end);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static void
click_cb (GtkGestureClick *gesture, int n_press, double x, double y, WsTimelineView *self)
{
  WsRun *run = NULL;
  guint index = 0;
  gint64 start, end;

  if (!active (self))
    return;
  gtk_widget_grab_focus (GTK_WIDGET (self));
  if (pick (self, x, y, &run, &index))
    ws_workspace_select_activity (self->workspace, ws_run_get_id (run), index);
  else if (ws_workspace_get_selected_range (self->workspace, &start, &end))
    ws_workspace_set_selected_range (self->workspace, 0, 0);
}

/* ---- hover ------------------------------------------------------------------------------ */

static char *
describe_activity (WsRun *run, const WsSpan *a)
{
  g_autofree char *dur = ws_units_duration ((double) ws_span_duration (a));
  g_autofree char *start = ws_units_duration ((double) a->start);
  g_autofree char *bytes = ws_units_bytes ((double) a->bytes);
  g_autofree char *gbs = ws_units_gbs (ws_span_gbs (a));
  GString *s = g_string_new (NULL);

  switch (a->kind)
    {
    case WS_ACTIVITY_MEMCPY:
      g_string_append_printf (s, _("<b>Copy %s</b>, %s host memory\n%s in %s: %s"),
                              a->direction == WS_COPY_HTOD   ? _("host → device")
                              : a->direction == WS_COPY_DTOH ? _("device → host")
                                                             : _("device → device"),
                              ws_host_memory_to_string (a->host_memory) ?: _("device"),
                              bytes, dur, gbs);
      break;
    case WS_ACTIVITY_KERNEL:
      g_string_append_printf (s, _("<b>Kernel %s</b>\n%s; grid %u×%u×%u, block %u×%u×%u\n"
                                   "%u registers per thread, %u bytes of shared memory per block"),
                              a->name ?: "?", dur, a->grid[0], a->grid[1], a->grid[2],
                              a->block[0], a->block[1], a->block[2], a->registers,
                              a->static_smem + a->dynamic_smem);
      break;
    case WS_ACTIVITY_MEMSET:
      g_string_append_printf (s, _("<b>Memset</b> (the output filled with NaN before the run, "
                                   "so unwritten elements are caught)\n%s in %s"),
                              bytes, dur);
      break;
    case WS_ACTIVITY_CPU:
      g_string_append_printf (s, _("<b>CPU reference</b> on %u thread(s)\n%s"), a->threads, dur);
      break;
    case WS_ACTIVITY_SYNC:
      g_string_append_printf (s, _("<b>The host waits</b> (%s)\n%s"), a->detail ?: "", dur);
      break;
    case WS_ACTIVITY_OVERHEAD:
      g_string_append_printf (s, _("<b>CUPTI's own work</b> (%s)\n%s"), a->detail ?: "", dur);
      break;
    default:
      g_string_append_printf (s, "%s", dur);
    }
  g_string_append_printf (s, _("\nRun %d, %s %u, stream %u, starts at %s"), ws_run_get_id (run),
                          ws_activity_phase_to_string (a->phase), a->rep + 1, a->stream, start);
  return g_string_free (s, FALSE);
}

/* A traced program's span (what it is, its facts, when it started) or a wait for a compile. */
static gboolean
query_trace_tooltip (WsTimelineView *self, int x, int y, GtkTooltip *tooltip)
{
  g_autofree WsTheme *owned = NULL;
  g_autofree char *text = NULL;
  WsChartOptions options;

  if (ws_session_get_trace (session (self)) == NULL)
    return FALSE;
  fill_options (self, &options, &owned);
  text = ws_timeline_dup_trace_tooltip (session (self), &options, x, y);
  if (text == NULL)
    return FALSE;
  {
    /* Names come from the program: nothing in them may reorder or hide what is read. */
    g_autofree char *safe = ws_format_escape_controls (text, WS_ESCAPE_KEEP_NEWLINE);

    gtk_tooltip_set_text (tooltip, safe);
  }
  return TRUE;
}

static gboolean
query_tooltip_cb (GtkWidget *widget, int x, int y, gboolean keyboard, GtkTooltip *tooltip,
                  WsTimelineView *self)
{
  WsRun *run = NULL;
  guint index = 0, n;
  const WsSpan *a;
  g_autofree char *markup = NULL;

  if (active (self) && !keyboard && query_trace_tooltip (self, x, y, tooltip))
    return TRUE;
  if (!active (self) || keyboard || !pick (self, x, y, &run, &index))
    return FALSE;
  a = ws_run_get_activities (run, &n);
  if (index >= n)
    return FALSE;
  markup = describe_activity (run, &a[index]);
  gtk_tooltip_set_markup (tooltip, markup);
  return TRUE;
}

/* ---- keys ------------------------------------------------------------------------------- */

static gboolean
key_pressed_cb (GtkEventControllerKey *controller, guint keyval, guint keycode,
                GdkModifierType state, WsTimelineView *self)
{
  gboolean ctrl = (state & GDK_CONTROL_MASK) != 0;

  if (!active (self))
    return FALSE;
  switch (keyval)
    {
    case GDK_KEY_equal:
    case GDK_KEY_plus:
    case GDK_KEY_KP_Add:
      if (!ctrl)
        return FALSE;
      G_GNUC_FALLTHROUGH;
    case GDK_KEY_w:
      ws_timeline_view_zoom (self, 1.5, 0.5);
      return TRUE;
    case GDK_KEY_minus:
    case GDK_KEY_KP_Subtract:
      if (!ctrl)
        return FALSE;
      G_GNUC_FALLTHROUGH;
    case GDK_KEY_s:
      if (keyval == GDK_KEY_s && ctrl)
        return FALSE; /* Ctrl+S saves */
      ws_timeline_view_zoom (self, 1 / 1.5, 0.5);
      return TRUE;
    case GDK_KEY_0:
      if (!ctrl)
        return FALSE;
      ws_workspace_set_visible_window (self->workspace, 0, 0);
      return TRUE;
    case GDK_KEY_a:
    case GDK_KEY_Left:
      ws_timeline_view_pan (self, -0.2);
      return TRUE;
    case GDK_KEY_d:
    case GDK_KEY_Right:
      ws_timeline_view_pan (self, 0.2);
      return TRUE;
    case GDK_KEY_z:
      ws_timeline_view_zoom_to_selection (self);
      return TRUE;
    default:
      return FALSE;
    }
}

/* ---- the workspace ---------------------------------------------------------------------- */

static void
ws_timeline_view_workspace_changed (WsView *view, WsWorkspace *workspace)
{
  WS_TIMELINE_VIEW (view)->workspace = workspace;
  ws_chart_widget_follow (GTK_WIDGET (view), workspace);
}

/* ---- boilerplate ------------------------------------------------------------------------ */

static void
ws_timeline_view_dispose (GObject *object)
{
  WsTimelineView *self = WS_TIMELINE_VIEW (object);

  ws_chart_widget_dispose (GTK_WIDGET (self));
  self->workspace = NULL;
  G_OBJECT_CLASS (ws_timeline_view_parent_class)->dispose (object);
}

static void
ws_timeline_view_class_init (WsTimelineViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = ws_timeline_view_dispose;
  widget_class->snapshot = ws_timeline_view_snapshot;
  ws_chart_widget_class_init (widget_class);
  WS_VIEW_CLASS (klass)->workspace_changed = ws_timeline_view_workspace_changed;
}

static void
ws_timeline_view_init (WsTimelineView *self)
{
  GtkWidget *widget = GTK_WIDGET (self);
  GtkEventController *scroll, *key, *zoom;
  GtkGesture *drag, *click;

  gtk_widget_set_focusable (widget, TRUE);
  gtk_widget_set_has_tooltip (widget, TRUE);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  ws_chart_kind_title (WS_CHART_TIMELINE), -1);
  g_signal_connect (self, "query-tooltip", G_CALLBACK (query_tooltip_cb), self);

  scroll = gtk_event_controller_scroll_new (GTK_EVENT_CONTROLLER_SCROLL_BOTH_AXES);
  g_signal_connect (scroll, "scroll", G_CALLBACK (scroll_cb), self);
  gtk_widget_add_controller (widget, scroll);

  zoom = GTK_EVENT_CONTROLLER (gtk_gesture_zoom_new ());
  g_signal_connect (zoom, "begin", G_CALLBACK (zoom_begin_cb), self);
  g_signal_connect (zoom, "scale-changed", G_CALLBACK (zoom_scale_changed_cb), self);
  gtk_widget_add_controller (widget, zoom);

  drag = gtk_gesture_drag_new ();
  g_signal_connect (drag, "drag-begin", G_CALLBACK (drag_begin_cb), self);
  g_signal_connect (drag, "drag-update", G_CALLBACK (drag_update_cb), self);
  g_signal_connect (drag, "drag-end", G_CALLBACK (drag_end_cb), self);
  gtk_widget_add_controller (widget, GTK_EVENT_CONTROLLER (drag));

  click = gtk_gesture_click_new ();
  g_signal_connect (click, "released", G_CALLBACK (click_cb), self);
  gtk_widget_add_controller (widget, GTK_EVENT_CONTROLLER (click));

  key = gtk_event_controller_key_new ();
  g_signal_connect (key, "key-pressed", G_CALLBACK (key_pressed_cb), self);
  gtk_widget_add_controller (widget, key);
  /* After the timeline's own controllers, as the context menu always was. */
  ws_chart_widget_init (widget);
}

GtkWidget *
ws_timeline_view_new (void)
{
  return g_object_new (WS_TYPE_TIMELINE_VIEW, NULL);
}
