/* test-app-trace.c: a traced program in the app, under Xvfb: the tutorial's vector add opens
 * into its timeline, its kernel and copy tables and the findings that explain its 0.02×; the
 * welcome page offers it; a sweep's tables follow its values; and Trace a Program… through the
 * real runner's trace mode with stand-in programs that write a trace recorded on an H200
 * (tests/test-cli-trace.c runs the CLI the same way): the live line, the exit status, Stop
 * keeping the trace, and the errors in plain words.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <glib/gstdio.h>

#include "test-app-util.h"
#include "ws-occupancy-view.h"
#include "ws-source-view.h"
#include "ws-takeaway.h"
#include "ws-trace-dialog.h"
#include "ws-trace-view.h"
#include "ws-welcome-page.h"
#include "ws-trace.h"

static void
assert_has (const char *text, const char *part)
{
  if (text == NULL || strstr (text, part) == NULL)
    g_error ("“%s” is not in:\n%s", part, text ? text : "(null)");
}

static gboolean
page_visible (WsWindow *window, const char *name)
{
  AdwViewStack *views = ws_test_view (window, "views");
  GtkWidget *child = adw_view_stack_get_child_by_name (views, name);

  return adw_view_stack_page_get_visible (adw_view_stack_get_page (views, child));
}

/* The welcome page's first offer is the tutorial's own program, traced: one click shows its
 * timeline (API calls, the stream), its kernel and copy tables, and the findings saying why
 * its timer read 0.02×. */
static void
test_trace_welcome (void)
{
  WsWindow *window = ws_test_new_window ();
  GtkWidget *traced = GTK_WIDGET (gtk_widget_get_template_child (ws_test_view (window, "welcome"),
                                                                 WS_TYPE_WELCOME_PAGE,
                                                                 "traced_button"));
  WsTraceView *view = ws_test_view (window, "trace_view");
  GtkWidget *findings = ws_test_view (window, "findings_panel");
  g_autofree char *kernels = NULL, *copies = NULL;
  WsSession *session;

  g_assert_cmpstr (ws_window_get_page (window), ==, "welcome");
  g_assert_true (gtk_widget_get_visible (traced));
  g_assert_false (page_visible (window, "kernels"));
  gtk_widget_activate (traced);
  ws_test_spin_until (ws_test_has_session, window, 10000);
  session = ws_workspace_get_session (ws_window_get_workspace (window));
  g_assert_nonnull (session);
  g_assert_nonnull (ws_session_get_trace (session));
  ws_test_spin_for (100);
  /* The views replace the welcome page, the Kernels page appears. */
  g_assert_cmpstr (ws_window_get_page (window), ==, "views");
  g_assert_true (page_visible (window, "kernels"));
  /* add_kernel, once, its grid of 39,063 blocks of 256 threads with 16 registers, all of the
   * GPU's kernel time. */
  kernels = ws_trace_view_dup_kernel_rows (view, 0);
  assert_has (kernels, "add_kernel | 39063 | 256 | 16 | 1 | ");
  assert_has (kernels, " | 100% | ");
  g_assert_cmpuint (strlen (kernels) - strlen (strchr (kernels, '\n')), >, 0);
  g_assert_null (strchr (strchr (kernels, '\n') + 1, '\n')); /* one configuration */
  /* Two copies in from pageable memory, 80 MB together, and one back. */
  copies = ws_trace_view_dup_copy_rows (view, 0);
  assert_has (copies, "host to device, pageable | 2 | 80.0 MB | ");
  assert_has (copies, "device to host, pageable | 1 | 40.0 MB | ");
  /* The findings, once the session's analysis has found them (in a thread of its own): why
   * the first call took a second, and the pageable copies. */
  ws_test_wait_analysed (ws_window_get_workspace (window));
  g_assert_nonnull (ws_test_find_label (findings, "Findings about the traced program"));
  g_assert_nonnull (ws_test_find_label (findings, "Compile timed: the first call of add_kernel"));
  g_assert_nonnull (ws_test_find_label (findings, "Transfer-bound"));
  g_assert_cmpuint (ws_test_count_css (findings, "finding"), >=, 3);
  /* At the window's first size (1400 px) the findings pane is folded away: the answer stays in
   * sight over the chart, and one click shows the rest. */
  {
    WsTakeaway *takeaway = ws_test_view (window, "takeaway");
    AdwFlap *flap = ws_test_view (window, "findings_flap");

    g_assert_true (adw_flap_get_folded (flap));
    g_assert_false (adw_flap_get_reveal_flap (flap));
    g_assert_true (gtk_widget_get_visible (GTK_WIDGET (takeaway)));
    g_assert_true (g_str_has_prefix (ws_takeaway_get_headline (takeaway),
                                     "Compile timed: the first call of add_kernel"));
    g_assert_nonnull (ws_test_find_label (GTK_WIDGET (takeaway), "All findings"));
    gtk_widget_activate_action (GTK_WIDGET (window), "win.toggle-findings", NULL);
    ws_test_spin_for (500);
    g_assert_true (adw_flap_get_reveal_flap (flap));
    g_assert_false (gtk_widget_get_visible (GTK_WIDGET (takeaway)));
    gtk_widget_activate_action (GTK_WIDGET (window), "win.toggle-findings", NULL);
    ws_test_spin_for (500);
    g_assert_true (gtk_widget_get_visible (GTK_WIDGET (takeaway)));
  }
  /* For a person to look at: the program's tables, once the panes have stopped moving. */
  if (g_getenv ("WS_TEST_SCREENSHOTS") != NULL)
    {
      g_object_set (gtk_settings_get_default (), "gtk-enable-animations", FALSE, NULL);
      adw_view_stack_set_visible_child_name (ws_test_view (window, "views"), "kernels");
      ws_test_spin_for (500);
      ws_test_screenshot (GTK_WIDGET (window), "trace-kernels");
    }
  gtk_window_destroy (GTK_WINDOW (window));
}

/* The widgets under `widget` with the CSS class, in the order they are drawn. */
static void
collect_css (GtkWidget *widget, const char *css, GPtrArray *out)
{
  if (gtk_widget_has_css_class (widget, css))
    g_ptr_array_add (out, widget);
  for (GtkWidget *c = gtk_widget_get_first_child (widget); c; c = gtk_widget_get_next_sibling (c))
    collect_css (c, css, out);
}

/* A PyTorch program: its start-up (what it can change) leads; its library kernels' findings
 * follow folded, one expander per library, that opens onto their cards. */
static void
test_trace_library_findings (void)
{
  WsWindow *window = ws_test_new_window ();
  GtkWidget *findings = ws_test_view (window, "findings_panel");
  g_autoptr (GPtrArray) folds = g_ptr_array_new ();
  g_autoptr (GPtrArray) cards = g_ptr_array_new ();

  ws_test_open (window, "trace-torch-matmul-h200.jsonl");
  ws_test_wait_analysed (ws_window_get_workspace (window));
  ws_test_spin_for (100);
  collect_css (findings, "library-findings", folds);
  g_assert_cmpuint (folds->len, ==, 2);
  g_assert_nonnull (ws_test_find_label (g_ptr_array_index (folds, 0), "CUTLASS: 2 findings"));
  g_assert_nonnull (ws_test_find_label (g_ptr_array_index (folds, 1), "PyTorch: 1 finding"));
  /* Folded: only the start-up's card shows, before the libraries. */
  collect_css (findings, "finding", cards);
  g_assert_cmpuint (cards->len, ==, 1);
  g_assert_nonnull (ws_test_find_label (g_ptr_array_index (cards, 0), "Start-up:"));
  g_assert_true (gtk_widget_get_parent (g_ptr_array_index (cards, 0))
                 == gtk_widget_get_parent (g_ptr_array_index (folds, 0)));
  {
    GtkWidget *c = g_ptr_array_index (cards, 0);

    while (c != NULL && c != g_ptr_array_index (folds, 0))
      c = gtk_widget_get_next_sibling (c);
    g_assert_nonnull (c); /* the fold comes after the card */
  }
  for (guint i = 0; i < folds->len; i++)
    gtk_expander_set_expanded (g_ptr_array_index (folds, i), TRUE);
  g_assert_cmpuint (ws_test_count_css (g_ptr_array_index (folds, 0), "finding"), ==, 2);
  g_assert_cmpuint (ws_test_count_css (g_ptr_array_index (folds, 1), "finding"), ==, 1);
  g_assert_nonnull (ws_test_find_label (g_ptr_array_index (folds, 0), "Kernel2<cutlass_80"));
  gtk_window_destroy (GTK_WINDOW (window));
}

/* A sweep over TPB: a table per program run under its value, each with its own block. */
static void
test_trace_sweep_tables (void)
{
  WsWindow *window = ws_test_new_window ();
  WsTraceView *view = ws_test_view (window, "trace_view");
  const char *const blocks[] = { "32", "64", "128", "256", "512", "1024" };

  ws_test_open (window, "trace-vector-add-tpb-sweep-h200.jsonl");
  ws_test_spin_for (100);
  g_assert_nonnull (ws_test_find_label (GTK_WIDGET (view), "Run 1 of 6 · TPB=32"));
  g_assert_nonnull (ws_test_find_label (GTK_WIDGET (view), "Run 6 of 6 · TPB=1024"));
  for (guint i = 0; i < G_N_ELEMENTS (blocks); i++)
    {
      g_autofree char *rows = ws_trace_view_dup_kernel_rows (view, i + 1);
      g_autofree char *cell = g_strdup_printf (" | %s | ", blocks[i]);

      assert_has (rows, "add_kernel | ");
      assert_has (rows, cell);
    }
  gtk_window_destroy (GTK_WINDOW (window));
}

/* ---- Trace a Program… --------------------------------------------------------------------- */

/* A program standing in for a traced one: it writes a recording to the runner's descriptor. */
static char *
write_program (const char *dir, const char *sample, const char *body)
{
  return ws_test_write_script (dir, "program.sh", body, sample);
}

static gboolean
dialog_done (gpointer data)
{
  WsTraceDialog *dialog = data;

  return *ws_trace_dialog_get_message (dialog) != '\0';
}

static WsTraceDialog *
new_dialog (WsWindow *window, GSettings *settings)
{
  GObject *controller = gtk_widget_get_template_child (GTK_WIDGET (window), WS_TYPE_WINDOW,
                                                       "controller");

  return ws_trace_dialog_new (GTK_WINDOW (window), settings, WS_RUN_CONTROLLER (controller),
                              ws_window_get_workspace (window), g_getenv ("WS_RUNNER"));
}

/* A window and its trace dialog, and a folder of the test's own holding the stand-in program
 * `body` (writing the recording `sample`). */
typedef struct
{
  char *dir, *program;
  WsWindow *window;
  WsTraceDialog *dialog;
} Traced;

static void
traced_start (Traced *t, GSettings *settings, const char *sample, const char *body)
{
  t->dir = g_dir_make_tmp ("ws-app-trace-XXXXXX", NULL);
  t->program = write_program (t->dir, sample, body);
  t->window = ws_test_new_window ();
  t->dialog = new_dialog (t->window, settings);
}

static void
traced_finish (Traced *t)
{
  gtk_window_destroy (GTK_WINDOW (t->dialog));
  gtk_window_destroy (GTK_WINDOW (t->window));
  ws_test_remove_dir (t->dir);
  g_free (t->dir);
  g_free (t->program);
}

/* The program's records reach the workspace's live session through the model's trace path;
 * the dialog counts its kernels and copies and says how it exited; the command is
 * remembered; its arguments arrive as typed. */
static void
test_trace_dialog (void)
{
  g_autofree char *line = NULL, *args = NULL;
  g_autoptr (GSettings) settings = g_settings_new ("org.warpscope.Warpscope");
  g_auto (GStrv) recent = NULL;
  Traced t = { 0 };
  WsSession *session;
  WsTrace *trace;

  if (!ws_test_have_runner ())
    return;
  traced_start (&t, settings, "trace-vector-add-h200.jsonl",
                "echo \"$@\" > args.txt\n"
                "cat '@SAMPLE@' >&\"$WARPSCOPE_TRACE_FD\"\n");
  gtk_window_present (GTK_WINDOW (t.dialog));
  line = g_strdup_printf ("'%s' --tpb 256 'two words'", t.program);
  ws_trace_dialog_set_fields (t.dialog, line, t.dir, "WS_TEST_VAR=1", "");
  g_assert_true (ws_trace_dialog_start (t.dialog));
  ws_test_spin_until (dialog_done, t.dialog, 30000);
  assert_has (ws_trace_dialog_get_message (t.dialog), "exited with status 0");
  assert_has (ws_trace_dialog_get_status (t.dialog), "1 kernel, 3 copies");
  session = ws_workspace_get_session (ws_window_get_workspace (t.window));
  trace = ws_session_get_trace (session);
  g_assert_nonnull (trace);
  g_assert_true (ws_trace_is_from_runner (trace));
  g_assert_cmpuint (ws_trace_get_programs (trace)->len, ==, 1);
  g_assert_cmpint (ws_trace_get_program (trace, 1)->exit_status, ==, 0);
  g_assert_cmpstr (ws_trace_get_program (trace, 1)->cwd, ==, t.dir);
  /* The views show it: the Kernels page and the window's toast with its ending. */
  ws_test_spin_for (100);
  g_assert_cmpstr (ws_window_get_page (t.window), ==, "views");
  assert_has (ws_window_get_last_toast (t.window), "exited with status 0");
  {
    g_autofree char *path = g_build_filename (t.dir, "args.txt", NULL);

    g_assert_true (g_file_get_contents (path, &args, NULL, NULL));
    g_assert_cmpstr (args, ==, "--tpb 256 two words\n");
  }
  recent = g_settings_get_strv (settings, "trace-recent");
  g_assert_cmpstr (recent[0], ==, line);
  ws_test_screenshot (GTK_WIDGET (t.dialog), "trace-dialog");
  traced_finish (&t);
}

static gboolean
live_kernels_shown (gpointer window)
{
  g_autofree char *rows = ws_trace_view_dup_kernel_rows (ws_test_view (window, "trace_view"), 0);

  return strstr (rows, "add_kernel | ") != NULL;
}

/* A sweep from the dialog: a program run per value, {TPB} replaced in the command and in an
 * environment variable; the Kernels view has a table per value, the ending names each run. */
static void
test_trace_dialog_sweep (void)
{
  g_autofree char *line = NULL, *seen = NULL, *seen_path = NULL;
  g_autoptr (GSettings) settings = g_settings_new ("org.warpscope.Warpscope");
  Traced t = { 0 };
  WsTrace *trace;

  if (!ws_test_have_runner ())
    return;
  traced_start (&t, settings, "trace-vector-add-h200.jsonl",
                "echo \"$2 $WS_TPB\" >> seen.txt\n"
                "cat '@SAMPLE@' >&\"$WARPSCOPE_TRACE_FD\"\n");
  line = g_strdup_printf ("%s --tpb {TPB}", t.program);
  ws_trace_dialog_set_fields (t.dialog, line, t.dir, "WS_TPB=env{TPB}", "TPB=32,64");
  g_assert_true (ws_trace_dialog_start (t.dialog));
  ws_test_spin_until (dialog_done, t.dialog, 30000);
  assert_has (ws_trace_dialog_get_message (t.dialog), " --tpb 32 exited with status 0");
  assert_has (ws_trace_dialog_get_message (t.dialog), " --tpb 64 exited with status 0");
  seen_path = g_build_filename (t.dir, "seen.txt", NULL);
  g_assert_true (g_file_get_contents (seen_path, &seen, NULL, NULL));
  g_assert_cmpstr (seen, ==, "32 env32\n64 env64\n");
  trace = ws_session_get_trace (ws_workspace_get_session (ws_window_get_workspace (t.window)));
  g_assert_cmpuint (ws_trace_get_programs (trace)->len, ==, 2);
  g_assert_cmpstr (ws_trace_get_program (trace, 2)->params[0].value, ==, "64");
  ws_test_spin_for (100);
  g_assert_nonnull (ws_test_find_label (ws_test_view (t.window, "trace_view"),
                                        "Run 2 of 2 · TPB=64"));
  traced_finish (&t);
}

/* Stop ends the program; what it traced stays, and the ending says it was stopped. */
static void
test_trace_dialog_stop (void)
{
  g_autoptr (GSettings) settings = g_settings_new ("org.warpscope.Warpscope");
  Traced t = { 0 };
  WsTrace *trace;

  if (!ws_test_have_runner ())
    return;
  traced_start (&t, settings, "trace-vector-add-advised-h200.jsonl",
                "head -40 '@SAMPLE@' >&\"$WARPSCOPE_TRACE_FD\"\n"
                "sleep 100000\n");
  ws_trace_dialog_set_fields (t.dialog, t.program, t.dir, "", "");
  g_assert_true (ws_trace_dialog_start (t.dialog));
  /* While it runs, its kernels reach the Kernels view: the live session says it grew. */
  ws_test_spin_until (live_kernels_shown, t.window, 20000);
  g_assert_true (ws_window_is_running (t.window));
  g_assert_true (live_kernels_shown (t.window));
  assert_has (ws_trace_dialog_get_status (t.dialog), " kernels, ");
  ws_trace_dialog_stop (t.dialog);
  ws_test_spin_until (dialog_done, t.dialog, 30000);
  assert_has (ws_trace_dialog_get_message (t.dialog), "was stopped");
  trace = ws_session_get_trace (ws_workspace_get_session (ws_window_get_workspace (t.window)));
  g_assert_cmpuint (ws_trace_get_processes (trace)->len, ==, 1);
  {
    guint kernels = 0, copies = 0;

    ws_trace_count (trace, &kernels, &copies);
    g_assert_cmpuint (kernels + copies, >, 0);
  }
  traced_finish (&t);
}

/* What goes wrong, in plain words: a program not found, one that never uses CUDA, no driver,
 * and a sweep that changes nothing (refused before anything starts). */
static void
test_trace_dialog_errors (void)
{
  struct
  {
    const char *command, *sweep, *libcuda;
    gboolean starts;
    const char *words;
  } cases[] = {
    { "no-such-program-of-warpscope", "", NULL, TRUE, "The program was not found" },
    { "true", "", NULL, TRUE, "never used CUDA" },
    { "true", "", "/nonexistent/libcuda.so.1", TRUE, "No NVIDIA driver was found" },
    { "true", "TPB=32,64", NULL, FALSE, "The sweep over TPB changes nothing" },
    { "python3 'unbalanced", "", NULL, FALSE, "check its quotes" },
  };
  g_autoptr (GSettings) settings = g_settings_new ("org.warpscope.Warpscope");

  if (!ws_test_have_runner ())
    return;
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      WsWindow *window = ws_test_new_window ();
      WsTraceDialog *dialog = new_dialog (window, settings);

      g_setenv ("WARPSCOPE_LIBCUDA", cases[i].libcuda ? cases[i].libcuda
                                                      : g_getenv ("WS_FAKE_CUDA"), TRUE);
      ws_trace_dialog_set_fields (dialog, cases[i].command, g_get_tmp_dir (), "",
                                  cases[i].sweep);
      g_assert_cmpint (ws_trace_dialog_start (dialog), ==, cases[i].starts);
      ws_test_spin_until (dialog_done, dialog, 30000);
      assert_has (ws_trace_dialog_get_message (dialog), cases[i].words);
      gtk_window_destroy (GTK_WINDOW (dialog));
      gtk_window_destroy (GTK_WINDOW (window));
    }
  g_setenv ("WARPSCOPE_LIBCUDA", g_getenv ("WS_FAKE_CUDA"), TRUE);
}

typedef struct
{
  WsWindow *window;
  WsSession *before;
} Opening;

static gboolean
session_replaced (gpointer data)
{
  Opening *o = data;
  WsWorkspace *workspace = ws_window_get_workspace (o->window);

  return ws_workspace_get_session (workspace) != o->before && ws_workspace_is_analysed (workspace);
}

/* A file opened in place of the one shown (ws_test_open returns as soon as any is). */
static void
open_path (WsWindow *window, const char *path)
{
  g_autoptr (GFile) file = g_file_new_for_path (path);
  Opening o = { window, ws_workspace_get_session (ws_window_get_workspace (window)) };

  ws_window_open_file (window, file);
  ws_test_spin_until (session_replaced, &o, 20000);
  g_assert_true (session_replaced (&o));
  ws_test_spin_for (100);
}

static void
open_next (WsWindow *window, const char *name)
{
  g_autofree char *path = ws_test_sample (name);

  open_path (window, path);
}

/* A traced program opened while Speedup or Roofline shows (views it cannot fill) lands on its
 * timeline; a sweep opened there stays. Its Occupancy view starts from its longest kernel's
 * launch: add_kernel's 256 threads and 16 registers, not the calculator's defaults. */
static void
test_trace_lands (void)
{
  WsWindow *window = ws_test_new_window ();
  AdwViewStack *views = ws_test_view (window, "views");
  GtkWidget *occupancy = ws_test_view (window, "occupancy");
  GtkWidget *regs = GTK_WIDGET (
    gtk_widget_get_template_child (occupancy, WS_TYPE_OCCUPANCY_VIEW, "regs_label"));
  GtkWidget *button = GTK_WIDGET (
    gtk_widget_get_template_child (occupancy, WS_TYPE_OCCUPANCY_VIEW, "from_run_button"));

  g_assert_cmpstr (gtk_label_get_text (GTK_LABEL (regs)), ==, "Registers per thread: 32");
  open_next (window, "vector-add-blocks-h200.jsonl");
  adw_view_stack_set_visible_child_name (views, "speedup");
  open_next (window, "vector-add-sizes-h200.jsonl");
  g_assert_cmpstr (adw_view_stack_get_visible_child_name (views), ==, "speedup");
  open_next (window, "trace-vector-add-h200.jsonl");
  g_assert_cmpstr (adw_view_stack_get_visible_child_name (views), ==, "timeline");
  g_assert_cmpstr (gtk_label_get_text (GTK_LABEL (regs)), ==, "Registers per thread: 16");
  g_assert_cmpstr (gtk_button_get_label (GTK_BUTTON (button)), ==, "Use the longest kernel");
  g_assert_true (gtk_widget_get_sensitive (button));
  /* Once: a person who then picks Roofline stays there while the program is open. */
  adw_view_stack_set_visible_child_name (views, "roofline");
  ws_test_spin_for (100);
  g_assert_cmpstr (adw_view_stack_get_visible_child_name (views), ==, "roofline");
  open_next (window, "trace-matmul-tiled-h200.jsonl");
  g_assert_cmpstr (adw_view_stack_get_visible_child_name (views), ==, "timeline");
  gtk_window_destroy (GTK_WINDOW (window));
}

/* The sample's lines with the folder the program ran in replaced by `cwd`. */
static char *
sample_in (const char *cwd)
{
  g_autofree char *path = ws_test_sample ("trace-vector-add-h200.jsonl");
  g_autofree char *text = NULL, *quoted = g_strdup_printf ("\"cwd\":\"%s\"", cwd);
  g_auto (GStrv) parts = NULL;

  g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
  parts = g_strsplit (text, "\"cwd\":\"/work/main\"", -1);
  g_assert_cmpuint (g_strv_length (parts), >, 1);
  return g_strjoinv (quoted, parts);
}

static char *
shown_text (WsSourceView *source)
{
  GtkTextBuffer *buffer = GTK_TEXT_BUFFER (ws_source_view_get_buffer (source));
  GtkTextIter a, b;

  gtk_text_buffer_get_bounds (buffer, &a, &b);
  return gtk_text_buffer_get_text (buffer, &a, &b, FALSE);
}

/* The Source view of a traced program shows the program's own file where it is on this
 * computer, and says whose file it is; where it is not, the view says why it is empty. */
static void
test_trace_source (void)
{
  g_autofree char *dir = g_dir_make_tmp ("ws-trace-source-XXXXXX", NULL);
  g_autofree char *programs = g_build_filename (dir, "tests", "gpu", "programs", NULL);
  g_autofree char *script = g_build_filename (programs, "vector_add.py", NULL);
  g_autofree char *here = g_build_filename (dir, "here.jsonl", NULL);
  g_autofree char *away = g_build_filename (dir, "away.jsonl", NULL);
  g_autofree char *text_here = sample_in (dir), *text_away = sample_in ("/nowhere/at/all");
  g_autofree char *shown = NULL, *empty = NULL;
  WsWindow *window = ws_test_new_window ();
  WsSourceView *source = ws_test_view (window, "source");
  const char *note;

  g_assert_cmpint (g_mkdir_with_parents (programs, 0700), ==, 0);
  g_assert_true (g_file_set_contents (script, "print ('the tutorial')\n", -1, NULL));
  g_assert_true (g_file_set_contents (here, text_here, -1, NULL));
  g_assert_true (g_file_set_contents (away, text_away, -1, NULL));
  adw_view_stack_set_visible_child_name (ws_test_view (window, "views"), "source");
  open_path (window, here);
  shown = shown_text (source);
  g_assert_cmpstr (shown, ==, "print ('the tutorial')\n");
  g_assert_null (ws_source_view_get_note (source));
  open_path (window, away);
  empty = shown_text (source);
  g_assert_cmpstr (empty, ==, "");
  note = ws_source_view_get_note (source);
  assert_has (note, "A traced program's source is its own");
  assert_has (note, "“python3 tests/gpu/programs/vector_add.py” in /nowhere/at/all");
  gtk_window_destroy (GTK_WINDOW (window));
  ws_test_remove_tree (dir);
}

int
main (int argc, char **argv)
{
  g_autofree char *cache = NULL;

  /* Nothing of a person's own cache or settings leaks into the tests. */
  cache = g_dir_make_tmp ("ws-app-cache-XXXXXX", NULL);
  g_setenv ("XDG_CACHE_HOME", cache, TRUE);
  /* The runner's stand-in for the CUDA driver: the stand-in programs need no GPU. */
  if (g_getenv ("WS_FAKE_CUDA") != NULL)
    g_setenv ("WARPSCOPE_LIBCUDA", g_getenv ("WS_FAKE_CUDA"), TRUE);
  gtk_test_init (&argc, &argv, NULL);
  adw_init ();
  g_test_add_func ("/app/trace/welcome", test_trace_welcome);
  g_test_add_func ("/app/trace/sweep-tables", test_trace_sweep_tables);
  g_test_add_func ("/app/trace/library-findings", test_trace_library_findings);
  g_test_add_func ("/app/trace/lands", test_trace_lands);
  g_test_add_func ("/app/trace/source", test_trace_source);
  g_test_add_func ("/app/trace/dialog", test_trace_dialog);
  g_test_add_func ("/app/trace/dialog-sweep", test_trace_dialog_sweep);
  g_test_add_func ("/app/trace/dialog-stop", test_trace_dialog_stop);
  g_test_add_func ("/app/trace/dialog-errors", test_trace_dialog_errors);
  return g_test_run ();
}
