/* ws-probe.c: the benchmark marks. The main loop's gap is measured by a source that is
 * prepared at the start of every iteration and checked after every poll: the time from one
 * check to the next prepare is what that iteration's callbacks took, with no input handled.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "ws-probe.h"

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

static gboolean
report_gap_cb (gpointer data)
{
  g_print ("main-loop-gap-max-us %" G_GINT64_FORMAT "\n", gap->longest);
  g_source_destroy ((GSource *) gap);
  return G_SOURCE_REMOVE;
}

static gboolean painted, analysed;

/* Whatever the first frames and the analysis set off (the table's rows, their findings, the
 * charts drawn again) has run two seconds after both. */
static void
report_later (void)
{
  if (painted && analysed)
    g_timeout_add_seconds (2, report_gap_cb, NULL);
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
  gap = (GapSource *) g_source_new (&gap_funcs, sizeof (GapSource));
  /* The time from here counts: the views take the session in this very callback. */
  gap->checked = g_get_monotonic_time ();
  g_source_set_priority ((GSource *) gap, G_PRIORITY_HIGH);
  g_source_attach ((GSource *) gap, NULL);
  g_signal_connect (clock, "after-paint", G_CALLBACK (session_painted_cb), workspace);
  if (workspace != NULL)
    g_signal_connect (workspace, "analysis-ready", G_CALLBACK (session_analysed_cb), NULL);
}
