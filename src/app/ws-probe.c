/* ws-probe.c: the benchmark marks. The main loop's gap is measured by a source that is
 * prepared at the start of every iteration and checked after every poll: the time from one
 * check to the next prepare is what that iteration's callbacks took, with no input handled.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "ws-probe.h"

#include "ws-runs-view.h"
#include "ws-window.h"

typedef struct
{
  GSource source;
  gint64 checked; /* when the last poll returned */
  gint64 longest; /* the longest busy stretch so far */
} GapSource;

static gboolean
gap_prepare (GSource *source, int *timeout)
{
  GapSource *gap = (GapSource *) source;

  gint64 now = g_get_monotonic_time ();

  /* Each long iteration on its own line, to be matched with a profile on the same clock
   * (perf record --clockid=CLOCK_MONOTONIC). */
  if (now - gap->checked >= 50000)
    g_print ("main-loop-busy-us %" G_GINT64_FORMAT " %" G_GINT64_FORMAT "\n", gap->checked,
             now - gap->checked);
  gap->longest = MAX (gap->longest, now - gap->checked);
  *timeout = -1;
  return FALSE;
}

static gboolean
gap_check (GSource *source)
{
  ((GapSource *) source)->checked = g_get_monotonic_time ();
  return FALSE;
}

static GSourceFuncs gap_funcs = { gap_prepare, gap_check, NULL, NULL, NULL, NULL };

/* One process, one measurement: the first session shown. */
static GapSource *gap;

static void
first_frame_cb (GdkFrameClock *clock, GtkWidget *window)
{
  g_signal_handlers_disconnect_by_func (clock, first_frame_cb, window);
  g_print ("first-frame-monotonic-us %" G_GINT64_FORMAT "\n", g_get_monotonic_time ());
}

void
ws_probe_window_mapped (GtkWidget *window)
{
  if (g_getenv ("WARPSCOPE_PRINT_FIRST_FRAME") != NULL)
    g_signal_connect (gtk_widget_get_frame_clock (window), "after-paint",
                      G_CALLBACK (first_frame_cb), window);
}

/* The scrolling probe: the runs list from its first row to its last, by the same step each
 * frame, as a person dragging the scroll bar's slider would. */
#define SCROLL_FRAMES 600

typedef struct
{
  GtkAdjustment *adjustment;
  guint frame;
  gint64 ticks[SCROLL_FRAMES + 1];       /* the monotonic clock at each frame's start */
  gint64 frame_times[SCROLL_FRAMES + 1]; /* the frame clock's times, in whole refreshes */
} Scroll;

static int
compare_gint64 (gconstpointer a, gconstpointer b)
{
  gint64 x = *(const gint64 *) a, y = *(const gint64 *) b;

  return x < y ? -1 : x > y;
}

static void
report_scroll (Scroll *scroll)
{
  gint64 intervals[SCROLL_FRAMES];
  guint over = 0, late = 0;

  for (guint i = 0; i < SCROLL_FRAMES; i++)
    {
      intervals[i] = scroll->ticks[i + 1] - scroll->ticks[i];
      /* A 60 Hz display's frame is 16.7 ms. */
      over += intervals[i] > 16700;
      /* GDK rounds its frame times to whole refreshes, so that a frame a little late is not
       * counted as a refresh missed, as the monotonic clock's jitter would be. */
      late += scroll->frame_times[i + 1] - scroll->frame_times[i] > 25000;
    }
  qsort (intervals, SCROLL_FRAMES, sizeof *intervals, compare_gint64);
  g_print ("scroll-frames %d\n", SCROLL_FRAMES);
  g_print ("scroll-frame-median-us %" G_GINT64_FORMAT "\n", intervals[SCROLL_FRAMES / 2]);
  g_print ("scroll-frame-p95-us %" G_GINT64_FORMAT "\n", intervals[SCROLL_FRAMES * 95 / 100 - 1]);
  g_print ("scroll-frame-max-us %" G_GINT64_FORMAT "\n", intervals[SCROLL_FRAMES - 1]);
  g_print ("scroll-frames-late %u\n", late);
  g_print ("scroll-frames-over-16700us %u\n", over);
}

/* Each frame starts with the tick callbacks: the time from one to the next is that frame's. */
static gboolean
scroll_tick_cb (GtkWidget *widget, GdkFrameClock *clock, gpointer data)
{
  Scroll *scroll = data;
  double end = gtk_adjustment_get_upper (scroll->adjustment)
               - gtk_adjustment_get_page_size (scroll->adjustment);

  scroll->ticks[scroll->frame] = g_get_monotonic_time ();
  scroll->frame_times[scroll->frame] = gdk_frame_clock_get_frame_time (clock);
  if (scroll->frame == SCROLL_FRAMES)
    {
      report_scroll (scroll);
      return G_SOURCE_REMOVE;
    }
  scroll->frame++;
  gtk_adjustment_set_value (scroll->adjustment, end * scroll->frame / SCROLL_FRAMES);
  return G_SOURCE_CONTINUE;
}

static void
start_scrolling (GtkWidget *window)
{
  GObject *runs = WS_IS_WINDOW (window)
                    ? gtk_widget_get_template_child (window, WS_TYPE_WINDOW, "runs_view")
                    : NULL;
  Scroll *scroll;

  if (runs == NULL || !gtk_widget_get_mapped (GTK_WIDGET (runs)))
    {
      /* Nothing to scroll: say so rather than leave a benchmark waiting. */
      g_print ("scroll-frames 0\nscroll-frames-over-16700us 0\n");
      return;
    }
  scroll = g_new0 (Scroll, 1);
  scroll->adjustment = ws_runs_view_get_vadjustment (WS_RUNS_VIEW (runs));
  gtk_adjustment_set_value (scroll->adjustment, 0);
  gtk_widget_add_tick_callback (GTK_WIDGET (runs), scroll_tick_cb, scroll, g_free);
}

static gboolean
report_gap_cb (gpointer window)
{
  g_print ("main-loop-gap-max-us %" G_GINT64_FORMAT "\n", gap->longest);
  g_source_destroy ((GSource *) gap);
  if (g_getenv ("WARPSCOPE_PROBE_SCROLL") != NULL)
    start_scrolling (window);
  return G_SOURCE_REMOVE;
}

static gboolean painted, analysed, reporting;
static GtkWidget *probed_window; /* the window of the session measured */

/* Whatever the first frames and the analysis set off (the table's rows, their findings, the
 * charts drawn again) has run two seconds after both. */
static void
report_later (void)
{
  if (painted && analysed && !reporting)
    {
      reporting = TRUE;
      g_timeout_add_seconds (2, report_gap_cb, probed_window);
    }
}

static void
session_analysed_cb (WsWorkspace *workspace, gpointer data)
{
  g_signal_handlers_disconnect_by_func (workspace, session_analysed_cb, data);
  if (analysed)
    return;
  analysed = TRUE;
  g_print ("session-analysed-monotonic-us %" G_GINT64_FORMAT "\n", g_get_monotonic_time ());
  report_later ();
}

static void
session_painted_cb (GdkFrameClock *clock, WsWorkspace *workspace)
{
  g_signal_handlers_disconnect_by_func (clock, session_painted_cb, workspace);
  painted = TRUE;
  g_print ("session-shown-monotonic-us %" G_GINT64_FORMAT "\n", g_get_monotonic_time ());
  if (workspace == NULL || ws_workspace_is_analysed (workspace))
    session_analysed_cb (workspace, NULL);
  report_later ();
}

void
ws_probe_session_arrives (GtkWidget *window)
{
  GdkFrameClock *clock = gtk_widget_get_frame_clock (window);
  WsWorkspace *workspace = WS_IS_WINDOW (window) ? ws_window_get_workspace (WS_WINDOW (window))
                                                 : NULL;

  if (gap != NULL || clock == NULL || g_getenv ("WARPSCOPE_PRINT_MAIN_LOOP_GAP") == NULL)
    return;
  probed_window = window;
  gap = (GapSource *) g_source_new (&gap_funcs, sizeof (GapSource));
  /* The time from here counts: the views take the session in this very callback. */
  gap->checked = g_get_monotonic_time ();
  g_source_set_priority ((GSource *) gap, G_PRIORITY_HIGH);
  g_source_attach ((GSource *) gap, NULL);
  g_signal_connect (clock, "after-paint", G_CALLBACK (session_painted_cb), workspace);
  if (workspace != NULL)
    g_signal_connect (workspace, "analysis-ready", G_CALLBACK (session_analysed_cb), NULL);
}
