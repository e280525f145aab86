/* ws-chart-view.c: a chart widget. Painting goes through gtk_snapshot_append_cairo and the
 * same ws_chart_draw that export uses; on the timeline, Ctrl+scroll, pinch, Ctrl+= / Ctrl+- /
 * Ctrl+0 and W/S zoom, drag, scroll and A/D pan, Shift+drag selects a range, Z zooms to it,
 * hovering shows every field of a span and a click selects it.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "ws-chart-view.h"

#include <adwaita.h>
#include <glib/gi18n.h>
#include <math.h>

struct _WsChartView
{
  GtkWidget parent_instance;

  WsChartKind kind;
  GPtrArray *sessions;
  int run, compare_run;
  GArray *highlight;
  gboolean presentation;
  char *arch;
  int block_size, registers, smem_bytes;

  /* Timeline view state, ns. */
  gint64 window_start, window_end;
  gint64 selection_start, selection_end;
  double drag_start_x;
  gint64 drag_window_start, drag_window_end;
  gboolean selecting;
  double zoom_scale_begin;
  gint64 zoom_begin_start, zoom_begin_end;
};

G_DEFINE_FINAL_TYPE (WsChartView, ws_chart_view, GTK_TYPE_WIDGET)

enum
{
  ACTIVITY_SELECTED,
  RANGE_SELECTED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

static WsSession *
main_session (WsChartView *self)
{
  return self->sessions && self->sessions->len ? g_ptr_array_index (self->sessions, 0) : NULL;
}

static const WsTheme *
current_theme (WsChartView *self, WsTheme **owned)
{
  const WsTheme *base = ws_theme_get (adw_style_manager_get_dark (adw_style_manager_get_default ())
                                        ? WS_THEME_DARK
                                        : WS_THEME_LIGHT);

  *owned = NULL;
  if (!self->presentation)
    return base;
  *owned = ws_theme_scaled (base, 1.45);
  return *owned;
}

static void
fill_options (WsChartView *self, WsChartOptions *options, const WsTheme *theme)
{
  ws_chart_options_init (options, self->kind, theme, gtk_widget_get_width (GTK_WIDGET (self)),
                         gtk_widget_get_height (GTK_WIDGET (self)));
  options->run = self->run;
  options->compare_run = self->compare_run;
  options->window_start = self->window_start;
  options->window_end = self->window_end;
  options->selection_start = self->selection_start;
  options->selection_end = self->selection_end;
  options->highlight = self->highlight;
  options->arch = self->arch;
  options->block_size = self->block_size;
  options->registers = self->registers;
  options->smem_bytes = self->smem_bytes;
  options->annotate = self->presentation;
}

void
ws_chart_view_get_options (WsChartView *self, WsChartOptions *options)
{
  g_return_if_fail (WS_IS_CHART_VIEW (self));
  /* Exported charts choose their own theme; the rest is what the screen shows. */
  fill_options (self, options, ws_theme_get (WS_THEME_LIGHT));
  options->highlight = NULL;
}

static void
ws_chart_view_snapshot (GtkWidget *widget, GtkSnapshot *snapshot)
{
  WsChartView *self = WS_CHART_VIEW (widget);
  int width = gtk_widget_get_width (widget), height = gtk_widget_get_height (widget);
  g_autofree WsTheme *owned = NULL;
  const WsTheme *theme;
  WsChartOptions options;
  cairo_t *cr;
  g_autoptr (GPtrArray) empty = NULL;

  if (width <= 0 || height <= 0)
    return;
  theme = current_theme (self, &owned);
  fill_options (self, &options, theme);
  cr = gtk_snapshot_append_cairo (snapshot, &GRAPHENE_RECT_INIT (0, 0, width, height));
  if (self->sessions == NULL)
    empty = g_ptr_array_new ();
  ws_chart_draw (cr, self->sessions ? self->sessions : empty, &options);
  cairo_destroy (cr);
}

/* ---- timeline window ------------------------------------------------------------------ */

/* The session's time range, or, comparing two runs, 0 to the longer one's length. */
static gboolean
full_range (WsChartView *self, gint64 *start, gint64 *end)
{
  WsChartOptions options;

  fill_options (self, &options, ws_theme_get (WS_THEME_LIGHT));
  return ws_timeline_get_full_range (main_session (self), &options, start, end);
}

static void
current_window (WsChartView *self, gint64 *start, gint64 *end)
{
  if (self->window_end > self->window_start)
    {
      *start = self->window_start;
      *end = self->window_end;
    }
  else if (!full_range (self, start, end))
    *start = 0, *end = 1;
}

void
ws_chart_view_set_window (WsChartView *self, gint64 start, gint64 end)
{
  gint64 fs, fe;

  g_return_if_fail (WS_IS_CHART_VIEW (self));
  if (end > start && full_range (self, &fs, &fe))
    {
      /* Keep at least 100 ns visible and never wander far off the data. */
      if (end - start < 100)
        {
          gint64 mid = start / 2 + end / 2;
          start = mid - 50, end = mid + 50;
        }
      if (start < fs - (fe - fs) / 10)
        end += (fs - (fe - fs) / 10) - start, start = fs - (fe - fs) / 10;
      if (end > fe + (fe - fs) / 10)
        start -= end - (fe + (fe - fs) / 10), end = fe + (fe - fs) / 10;
      if (start <= fs && end >= fe)
        start = end = 0;
    }
  else
    start = end = 0;
  self->window_start = start;
  self->window_end = end;
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

void
ws_chart_view_zoom (WsChartView *self, double factor, double anchor)
{
  gint64 start, end, span, anchor_t;

  g_return_if_fail (WS_IS_CHART_VIEW (self));
  current_window (self, &start, &end);
  span = end - start;
  anchor_t = start + (gint64) (anchor * (double) span);
  ws_chart_view_set_window (self, anchor_t - (gint64) ((double) (anchor_t - start) / factor),
                            anchor_t + (gint64) ((double) (end - anchor_t) / factor));
}

void
ws_chart_view_pan (WsChartView *self, double fraction)
{
  gint64 start, end, shift;

  g_return_if_fail (WS_IS_CHART_VIEW (self));
  current_window (self, &start, &end);
  shift = (gint64) (fraction * (double) (end - start));
  ws_chart_view_set_window (self, start + shift, end + shift);
}

void
ws_chart_view_zoom_to_selection (WsChartView *self)
{
  g_return_if_fail (WS_IS_CHART_VIEW (self));
  if (self->selection_end > self->selection_start)
    {
      ws_chart_view_set_window (self, self->selection_start, self->selection_end);
      self->selection_start = self->selection_end = 0;
    }
}

gboolean
ws_chart_view_get_selection (WsChartView *self, gint64 *start, gint64 *end)
{
  g_return_val_if_fail (WS_IS_CHART_VIEW (self), FALSE);
  *start = self->selection_start;
  *end = self->selection_end;
  return self->selection_end > self->selection_start;
}

/* The time under widget x, using the chart's own geometry. */
static gint64
time_at (WsChartView *self, double x, double *fraction)
{
  WsChartOptions options;
  WsTimelineGeometry g;
  double f;

  fill_options (self, &options, ws_theme_get (WS_THEME_LIGHT));
  ws_timeline_get_geometry (main_session (self), &options, &g);
  f = g.plot_width > 0 ? (x - g.plot_x) / g.plot_width : 0.5;
  f = CLAMP (f, 0.0, 1.0);
  if (fraction)
    *fraction = f;
  return g.start + (gint64) (f * (double) (g.end - g.start));
}

static gboolean
is_timeline (WsChartView *self)
{
  return self->kind == WS_CHART_TIMELINE && main_session (self) != NULL;
}

static gboolean
scroll_cb (GtkEventControllerScroll *controller, double dx, double dy, WsChartView *self)
{
  GdkModifierType state;
  double x = 0, fraction = 0.5;

  if (!is_timeline (self))
    return FALSE;
  state = gtk_event_controller_get_current_event_state (GTK_EVENT_CONTROLLER (controller));
  {
    GdkEvent *event = gtk_event_controller_get_current_event (GTK_EVENT_CONTROLLER (controller));
    double ey;

    if (event != NULL && gdk_event_get_position (event, &x, &ey))
      time_at (self, x, &fraction);
  }
  if (state & GDK_CONTROL_MASK)
    ws_chart_view_zoom (self, dy < 0 ? 1.25 : 0.8, fraction);
  else
    ws_chart_view_pan (self, 0.1 * (dx != 0 ? dx : dy));
  return TRUE;
}

static void
zoom_begin_cb (GtkGesture *gesture, GdkEventSequence *sequence, WsChartView *self)
{
  current_window (self, &self->zoom_begin_start, &self->zoom_begin_end);
}

static void
zoom_scale_changed_cb (GtkGestureZoom *gesture, double scale, WsChartView *self)
{
  double cx, cy, fraction;
  gint64 span = self->zoom_begin_end - self->zoom_begin_start, anchor;

  if (!is_timeline (self) || scale <= 0)
    return;
  gtk_gesture_get_bounding_box_center (GTK_GESTURE (gesture), &cx, &cy);
  time_at (self, cx, &fraction);
  anchor = self->zoom_begin_start + (gint64) (fraction * (double) span);
  ws_chart_view_set_window (self, anchor - (gint64) ((double) (anchor - self->zoom_begin_start) / scale),
                            anchor + (gint64) ((double) (self->zoom_begin_end - anchor) / scale));
}

static void
drag_begin_cb (GtkGestureDrag *gesture, double x, double y, WsChartView *self)
{
  GdkModifierType state = gtk_event_controller_get_current_event_state (GTK_EVENT_CONTROLLER (gesture));

  if (!is_timeline (self))
    return;
  gtk_widget_grab_focus (GTK_WIDGET (self));
  self->drag_start_x = x;
  self->selecting = (state & GDK_SHIFT_MASK) != 0;
  current_window (self, &self->drag_window_start, &self->drag_window_end);
  if (self->selecting)
    self->selection_start = self->selection_end = time_at (self, x, NULL);
}

static void
drag_update_cb (GtkGestureDrag *gesture, double dx, double dy, WsChartView *self)
{
  WsChartOptions options;
  WsTimelineGeometry g;

  if (!is_timeline (self))
    return;
  if (self->selecting)
    {
      gint64 a = time_at (self, self->drag_start_x, NULL);
      gint64 b = time_at (self, self->drag_start_x + dx, NULL);

      self->selection_start = MIN (a, b);
      self->selection_end = MAX (a, b);
      gtk_widget_queue_draw (GTK_WIDGET (self));
      return;
    }
  fill_options (self, &options, ws_theme_get (WS_THEME_LIGHT));
  ws_timeline_get_geometry (main_session (self), &options, &g);
  if (g.plot_width <= 0)
    return;
  {
    gint64 span = self->drag_window_end - self->drag_window_start;
    gint64 shift = (gint64) (-dx / g.plot_width * (double) span);

    ws_chart_view_set_window (self, self->drag_window_start + shift, self->drag_window_end + shift);
  }
}

static void
drag_end_cb (GtkGestureDrag *gesture, double dx, double dy, WsChartView *self)
{
  if (!is_timeline (self))
    return;
  if (self->selecting && self->selection_end > self->selection_start)
    g_signal_emit (self, signals[RANGE_SELECTED], 0, self->selection_start, self->selection_end);
  self->selecting = FALSE;
}

static void
click_cb (GtkGestureClick *gesture, int n_press, double x, double y, WsChartView *self)
{
  WsChartOptions options;
  WsRun *run = NULL;
  guint index = 0;

  if (!is_timeline (self))
    return;
  gtk_widget_grab_focus (GTK_WIDGET (self));
  fill_options (self, &options, ws_theme_get (WS_THEME_LIGHT));
  if (ws_timeline_pick (main_session (self), &options, x, y, &run, &index))
    g_signal_emit (self, signals[ACTIVITY_SELECTED], 0, ws_run_get_id (run), index);
  else if (self->selection_end > self->selection_start)
    {
      self->selection_start = self->selection_end = 0;
      gtk_widget_queue_draw (GTK_WIDGET (self));
      g_signal_emit (self, signals[RANGE_SELECTED], 0, (gint64) 0, (gint64) 0);
    }
}

static char *
human_ns (double ns)
{
  if (ns < 1e3)
    return g_strdup_printf ("%.0f ns", ns);
  if (ns < 1e6)
    return g_strdup_printf ("%.2f µs", ns / 1e3);
  if (ns < 1e9)
    return g_strdup_printf ("%.3f ms", ns / 1e6);
  return g_strdup_printf ("%.3f s", ns / 1e9);
}

static char *
describe_activity (WsRun *run, const WsActivity *a)
{
  g_autofree char *dur = human_ns ((double) ws_activity_duration (a));
  g_autofree char *start = human_ns ((double) a->start);
  GString *s = g_string_new (NULL);

  switch (a->kind)
    {
    case WS_ACTIVITY_MEMCPY:
      g_string_append_printf (s, _("<b>Copy %s</b>, %s host memory\n%.3f MB in %s: %.2f GB/s"),
                              a->direction == WS_COPY_HTOD   ? _("host → device")
                              : a->direction == WS_COPY_DTOH ? _("device → host")
                                                             : _("device → device"),
                              ws_host_memory_to_string (a->host_memory) ?: _("device"),
                              (double) a->bytes / 1e6, dur, ws_activity_gbs (a));
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
                                   "so unwritten elements are caught)\n%.3f MB in %s"),
                              (double) a->bytes / 1e6, dur);
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

static gboolean
query_tooltip_cb (GtkWidget *widget, int x, int y, gboolean keyboard, GtkTooltip *tooltip,
                  WsChartView *self)
{
  WsChartOptions options;
  WsRun *run = NULL;
  guint index = 0;
  g_autofree char *markup = NULL;
  guint n;
  const WsActivity *a;

  if (!is_timeline (self) || keyboard)
    return FALSE;
  fill_options (self, &options, ws_theme_get (WS_THEME_LIGHT));
  if (!ws_timeline_pick (main_session (self), &options, x, y, &run, &index))
    return FALSE;
  a = ws_run_get_activities (run, &n);
  if (index >= n)
    return FALSE;
  markup = describe_activity (run, &a[index]);
  gtk_tooltip_set_markup (tooltip, markup);
  return TRUE;
}

static gboolean
key_pressed_cb (GtkEventControllerKey *controller, guint keyval, guint keycode,
                GdkModifierType state, WsChartView *self)
{
  gboolean ctrl = (state & GDK_CONTROL_MASK) != 0;

  if (!is_timeline (self))
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
      ws_chart_view_zoom (self, 1.5, 0.5);
      return TRUE;
    case GDK_KEY_minus:
    case GDK_KEY_KP_Subtract:
      if (!ctrl)
        return FALSE;
      G_GNUC_FALLTHROUGH;
    case GDK_KEY_s:
      if (keyval == GDK_KEY_s && ctrl)
        return FALSE; /* Ctrl+S saves */
      ws_chart_view_zoom (self, 1 / 1.5, 0.5);
      return TRUE;
    case GDK_KEY_0:
      if (!ctrl)
        return FALSE;
      ws_chart_view_set_window (self, 0, 0);
      return TRUE;
    case GDK_KEY_a:
    case GDK_KEY_Left:
      ws_chart_view_pan (self, -0.2);
      return TRUE;
    case GDK_KEY_d:
    case GDK_KEY_Right:
      ws_chart_view_pan (self, 0.2);
      return TRUE;
    case GDK_KEY_z:
      ws_chart_view_zoom_to_selection (self);
      return TRUE;
    default:
      return FALSE;
    }
}

/* ---- setters --------------------------------------------------------------------------- */

GtkWidget *
ws_chart_view_new (WsChartKind kind)
{
  WsChartView *self = g_object_new (WS_TYPE_CHART_VIEW, NULL);

  ws_chart_view_set_kind (self, kind);
  return GTK_WIDGET (self);
}

WsChartKind
ws_chart_view_get_kind (WsChartView *self)
{
  g_return_val_if_fail (WS_IS_CHART_VIEW (self), WS_CHART_TIMELINE);
  return self->kind;
}

void
ws_chart_view_set_kind (WsChartView *self, WsChartKind kind)
{
  g_return_if_fail (WS_IS_CHART_VIEW (self));
  self->kind = kind;
  gtk_widget_set_focusable (GTK_WIDGET (self), kind == WS_CHART_TIMELINE);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  ws_chart_kind_title (kind), -1);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

void
ws_chart_view_set_sessions (WsChartView *self, GPtrArray *sessions)
{
  g_return_if_fail (WS_IS_CHART_VIEW (self));
  g_clear_pointer (&self->sessions, g_ptr_array_unref);
  if (sessions != NULL)
    self->sessions = g_ptr_array_ref (sessions);
  self->window_start = self->window_end = 0;
  self->selection_start = self->selection_end = 0;
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

void
ws_chart_view_set_run (WsChartView *self, int run, int compare_run)
{
  g_return_if_fail (WS_IS_CHART_VIEW (self));
  self->run = run;
  self->compare_run = compare_run;
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

void
ws_chart_view_set_highlight (WsChartView *self, GArray *refs)
{
  g_return_if_fail (WS_IS_CHART_VIEW (self));
  g_clear_pointer (&self->highlight, g_array_unref);
  if (refs != NULL)
    self->highlight = g_array_ref (refs);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

void
ws_chart_view_set_presentation (WsChartView *self, gboolean presentation)
{
  g_return_if_fail (WS_IS_CHART_VIEW (self));
  self->presentation = presentation;
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

void
ws_chart_view_set_occupancy (WsChartView *self, const char *arch, int block_size, int registers,
                             int smem_bytes)
{
  g_return_if_fail (WS_IS_CHART_VIEW (self));
  g_free (self->arch);
  self->arch = g_strdup (arch);
  self->block_size = block_size;
  self->registers = registers;
  self->smem_bytes = smem_bytes;
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

/* ---- boilerplate ----------------------------------------------------------------------- */

static void
dark_changed_cb (AdwStyleManager *manager, GParamSpec *pspec, WsChartView *self)
{
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static void
ws_chart_view_dispose (GObject *object)
{
  WsChartView *self = WS_CHART_VIEW (object);

  g_signal_handlers_disconnect_by_data (adw_style_manager_get_default (), self);
  g_clear_pointer (&self->sessions, g_ptr_array_unref);
  g_clear_pointer (&self->highlight, g_array_unref);
  g_clear_pointer (&self->arch, g_free);
  G_OBJECT_CLASS (ws_chart_view_parent_class)->dispose (object);
}

static void
ws_chart_view_class_init (WsChartViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = ws_chart_view_dispose;
  widget_class->snapshot = ws_chart_view_snapshot;

  /* A span was clicked: its run and its index in the run's activities. */
  signals[ACTIVITY_SELECTED] = g_signal_new ("activity-selected", G_TYPE_FROM_CLASS (klass),
                                             G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL, G_TYPE_NONE,
                                             2, G_TYPE_INT, G_TYPE_UINT);
  /* A range was dragged out (start == end: cleared). */
  signals[RANGE_SELECTED] = g_signal_new ("range-selected", G_TYPE_FROM_CLASS (klass),
                                          G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL, G_TYPE_NONE, 2,
                                          G_TYPE_INT64, G_TYPE_INT64);
  gtk_widget_class_set_css_name (widget_class, "chart");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_IMG);
}

static void
ws_chart_view_init (WsChartView *self)
{
  GtkEventController *scroll, *key, *motion_zoom;
  GtkGesture *drag, *click;

  self->block_size = 256;
  self->registers = 32;
  gtk_widget_set_hexpand (GTK_WIDGET (self), TRUE);
  gtk_widget_set_vexpand (GTK_WIDGET (self), TRUE);
  gtk_widget_set_size_request (GTK_WIDGET (self), 320, 200);
  gtk_widget_set_has_tooltip (GTK_WIDGET (self), TRUE);
  g_signal_connect (self, "query-tooltip", G_CALLBACK (query_tooltip_cb), self);

  scroll = gtk_event_controller_scroll_new (GTK_EVENT_CONTROLLER_SCROLL_BOTH_AXES);
  g_signal_connect (scroll, "scroll", G_CALLBACK (scroll_cb), self);
  gtk_widget_add_controller (GTK_WIDGET (self), scroll);

  motion_zoom = GTK_EVENT_CONTROLLER (gtk_gesture_zoom_new ());
  g_signal_connect (motion_zoom, "begin", G_CALLBACK (zoom_begin_cb), self);
  g_signal_connect (motion_zoom, "scale-changed", G_CALLBACK (zoom_scale_changed_cb), self);
  gtk_widget_add_controller (GTK_WIDGET (self), motion_zoom);

  drag = gtk_gesture_drag_new ();
  g_signal_connect (drag, "drag-begin", G_CALLBACK (drag_begin_cb), self);
  g_signal_connect (drag, "drag-update", G_CALLBACK (drag_update_cb), self);
  g_signal_connect (drag, "drag-end", G_CALLBACK (drag_end_cb), self);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (drag));

  click = gtk_gesture_click_new ();
  g_signal_connect (click, "released", G_CALLBACK (click_cb), self);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (click));

  key = gtk_event_controller_key_new ();
  g_signal_connect (key, "key-pressed", G_CALLBACK (key_pressed_cb), self);
  gtk_widget_add_controller (GTK_WIDGET (self), key);

  g_signal_connect (adw_style_manager_get_default (), "notify::dark",
                    G_CALLBACK (dark_changed_cb), self);
}
