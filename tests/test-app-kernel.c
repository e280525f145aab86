/* test-app-kernel.c: an own kernel in the app, under Xvfb with stand-in runners (no GPU): New
 * Kernel from a template and Open Kernel fill the editor and the sidebar's parameters, the
 * toggles reach the plan, edits undo and save, unsaved changes are asked about, Check's compile
 * error and Memory Check's finding are marked on their lines (their messages the lines'
 * tooltips) and listed in the findings panel, a clean Check says "no errors" as the CLI does,
 * and a recording of an own kernel reopens with its source, a memory check's on its line.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <glib/gstdio.h>

#include "test-app-util.h"
#include "ws-json-writer.h"
#include "ws-kernel-actions.h"
#include "ws-kernel-document.h"
#include "ws-kernel-marks.h"
#include "ws-param-group.h"
#include "ws-plan.h"
#include "ws-source-view.h"

#define HELLO "{\"type\":\"hello\",\"t\":0,\"protocol\":1,\"runner\":\"test\",\"argv\":[]}\n"
#define DONE(code)                                                                            \
  "{\"type\":\"done\",\"t\":9,\"runs\":0,\"failed\":0,\"dropped_records\":0,\"exit_code\":" code   \
  "}\n"

static const char compile_error[]
  = HELLO
    "{\"type\":\"error\",\"t\":4,\"run\":null,\"severity\":\"error\",\"code\":\"compile_error\","
    "\"message\":\"identifier \\\"bb\\\" is undefined\",\"detail\":null,\"file\":\"x.cu\","
    "\"line\":26,\"column\":23}\n" DONE ("2");

static const char memcheck[]
  = HELLO
    "{\"type\":\"memcheck\",\"t\":5,\"tool\":\"memcheck\",\"kind\":\"out_of_bounds\","
    "\"message\":\"Invalid __global__ read of size 4 bytes\",\"file\":\"vector_add_oob.cu\","
    "\"line\":24,\"kernel\":\"vector_add_oob\",\"access\":\"read\",\"space\":\"global\","
    "\"size\":4,\"thread\":[160,0,0],\"block\":[3906,0,0],\"address\":\"0x7f1c2a26ca00\","
    "\"detail\":\"Address 0x7f1c2a26ca00 is out of bounds\",\"count\":2}\n"
    "{\"type\":\"memcheck_summary\",\"t\":6,\"tool\":\"memcheck\",\"findings\":1,\"errors\":2}\n"
    DONE ("1");

static const char check_clean[]
  = HELLO
    "{\"type\":\"compile\",\"t\":3,\"kernel\":\"vector_add\",\"entry\":\"vector_add\","
    "\"reference\":false,\"ok\":true,\"arch\":\"sm_90\",\"nvrtc\":\"13.0\",\"cached\":false,"
    "\"ms\":120.5,\"errors\":0,\"warnings\":0,\"log\":\"\"}\n" DONE ("0");

static const char memcheck_clean[]
  = HELLO "{\"type\":\"memcheck_summary\",\"t\":6,\"tool\":\"memcheck\",\"findings\":0,"
          "\"errors\":0}\n" DONE ("0");

static char *
example_path (const char *name)
{
  return g_build_filename (g_getenv ("G_TEST_SRCDIR"), "..", "examples", "kernels", name, NULL);
}

static char *
example_text (const char *name)
{
  g_autofree char *path = example_path (name);
  char *text = NULL;

  g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
  return text;
}

static char *
buffer_text (GtkSourceBuffer *buffer)
{
  GtkTextIter start, end;

  gtk_text_buffer_get_bounds (GTK_TEXT_BUFFER (buffer), &start, &end);
  return gtk_text_buffer_get_text (GTK_TEXT_BUFFER (buffer), &start, &end, FALSE);
}

static WsKernelDocument *
document_of (WsWindow *window)
{
  return ws_test_view (window, "kernel_document");
}

static WsParamGroup *
param_group_of (WsWindow *window)
{
  return WS_PARAM_GROUP (gtk_widget_get_template_child (ws_test_view (window, "sidebar"),
                                                        g_type_from_name ("WsConfigSidebar"),
                                                        "param_group"));
}

/* A stand-in runner in `dir` that prints `recording` for what the test asks (its arguments in
 * dir/args) and nothing useful for the window's own questions (--device-info, --check). */
static void
use_stand_in (const char *dir, const char *recording, int status)
{
  g_autofree char *rec = g_build_filename (dir, "recording.jsonl", NULL);
  g_autofree char *path = g_build_filename (dir, "runner.sh", NULL);
  g_autofree char *script = NULL;

  g_assert_true (g_file_set_contents (rec, recording, -1, NULL));
  script = g_strdup_printf ("#!/bin/sh\n"
                            "case \"$1\" in --device-info|--check|--list) exit 3 ;; esac\n"
                            "printf '%%s\\n' \"$@\" > '%s/args'\n"
                            "cat '%s'\n"
                            "exit %d\n",
                            dir, rec, status);
  g_assert_true (g_file_set_contents (path, script, -1, NULL));
  g_assert_cmpint (g_chmod (path, 0755), ==, 0);
  g_setenv ("WARPSCOPE_RUNNER", path, TRUE);
}

static char *
read_args (const char *dir)
{
  g_autofree char *path = g_build_filename (dir, "args", NULL);
  char *text = NULL;

  g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
  return text;
}

static void
remove_dir (const char *dir)
{
  g_autoptr (GDir) d = g_dir_open (dir, 0, NULL);
  const char *name;

  while (d != NULL && (name = g_dir_read_name (d)) != NULL)
    {
      g_autofree char *path = g_build_filename (dir, name, NULL);

      g_remove (path);
    }
  g_rmdir (dir);
}

static gboolean
not_running (gpointer window)
{
  return !ws_window_is_running (window);
}

static void
open_example (WsWindow *window, const char *name)
{
  g_autofree char *path = example_path (name);
  g_autoptr (GFile) file = g_file_new_for_path (path);

  /* What Open Kernel… does with the file chosen, and a .cu given on the command line. */
  ws_window_open_file (window, file);
  g_assert_true (ws_kernel_document_is_open (document_of (window)));
  g_assert_cmpstr (ws_kernel_document_get_title (document_of (window)), ==, name);
  gtk_widget_activate_action (GTK_WIDGET (window), "win.show-view", "s", "source");
  ws_test_spin_for (50);
}

/* Open Kernel: the editor holds the file, editable; the sidebar shows TILE's values from the
 * header as toggles, the default chosen; a toggle reaches the plan, and so the sweep. */
static void
test_open_kernel_params (void)
{
  WsWindow *window = ws_test_new_window ();
  WsSourceView *source = ws_test_view (window, "source");
  WsPlan *plan = ws_test_view (window, "plan");
  WsParamGroup *params = param_group_of (window);
  g_autofree char *want = example_text ("matmul_tiled.cu");
  g_autofree char *got = NULL;
  g_auto (GStrv) argv = NULL;
  g_autofree char *args = NULL;

  g_assert_false (gtk_widget_get_visible (GTK_WIDGET (params)));
  open_example (window, "matmul_tiled.cu");
  g_assert_cmpstr (ws_window_get_page (window), ==, "views");
  g_assert_true (ws_source_view_is_editing (source));
  got = buffer_text (ws_source_view_get_buffer (source));
  g_assert_cmpstr (got, ==, want);
  g_assert_true (ws_plan_is_own (plan));
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (params)));
  g_assert_cmpuint (ws_param_group_get_n_params (params), ==, 1);
  g_assert_cmpstr (ws_param_group_get_param_name (params, 0), ==, "TILE");
  g_assert_true (gtk_toggle_button_get_active (ws_param_group_get_toggle (params, "TILE", "16")));
  g_assert_false (gtk_toggle_button_get_active (ws_param_group_get_toggle (params, "TILE", "8")));
  g_assert_nonnull (ws_param_group_get_toggle (params, "TILE", "32"));
  g_assert_null (ws_param_group_get_toggle (params, "TILE", "64"));
  gtk_toggle_button_set_active (ws_param_group_get_toggle (params, "TILE", "32"), TRUE);
  g_assert_cmpstr (ws_plan_get_param (plan, "TILE"), ==, "16,32");
  argv = ws_plan_build_argv (plan, WS_PLAN_SWEEP, "runner", NULL);
  g_assert_nonnull (argv);
  args = g_strjoinv (" ", argv);
  g_assert_true (g_str_has_suffix (args, " --param TILE=16,32"));
  /* The plan's own choice shows on the toggles too. */
  ws_plan_set_param (plan, "TILE", "8");
  g_assert_true (gtk_toggle_button_get_active (ws_param_group_get_toggle (params, "TILE", "8")));
  g_assert_false (gtk_toggle_button_get_active (ws_param_group_get_toggle (params, "TILE", "16")));
  /* Back to the built-in kernels. */
  gtk_widget_activate_action (GTK_WIDGET (window), "win.close-kernel", NULL);
  g_assert_false (ws_plan_is_own (plan));
  g_assert_false (gtk_widget_get_visible (GTK_WIDGET (params)));
  gtk_window_destroy (GTK_WINDOW (window));
}

/* New Kernel: the template, with no file (the first Save asks where); an edit can be undone
 * and is saved whole, and the runner then reads the saved file. */
static void
test_new_kernel_edit_save (void)
{
  WsWindow *window = ws_test_new_window ();
  WsKernelDocument *document = document_of (window);
  WsPlan *plan = ws_test_view (window, "plan");
  GtkSourceBuffer *buffer;
  g_autofree char *want = example_text ("vector_add.cu");
  g_autofree char *got = NULL, *saved = NULL;
  g_autofree char *dir = g_dir_make_tmp ("ws-kernel-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "mine.cu", NULL);
  g_autoptr (GFile) file = g_file_new_for_path (path);
  g_autoptr (GError) error = NULL;
  GtkTextIter end;

  gtk_widget_activate_action (GTK_WIDGET (window), "win.new-kernel", "s", "vector_add");
  ws_test_spin_for (50);
  g_assert_true (ws_kernel_document_is_open (document));
  g_assert_null (ws_kernel_document_get_file (document));
  g_assert_cmpstr (ws_kernel_document_get_title (document), ==, "vector_add.cu");
  buffer = ws_kernel_document_get_buffer (document);
  got = buffer_text (buffer);
  g_assert_cmpstr (got, ==, want);
  g_assert_false (ws_kernel_document_get_modified (document));
  /* The template itself is not an edit to undo. */
  g_assert_false (gtk_text_buffer_get_can_undo (GTK_TEXT_BUFFER (buffer)));
  g_assert_cmpstr (ws_plan_get_block (plan), ==, "256");
  /* Never saved: the runner reads a copy in the cache, not a file of the person's. */
  g_assert_true (g_str_has_prefix (ws_kernel_source_get_path (ws_plan_get_source (plan)),
                                   g_get_user_cache_dir ()));

  gtk_text_buffer_get_end_iter (GTK_TEXT_BUFFER (buffer), &end);
  gtk_text_buffer_begin_user_action (GTK_TEXT_BUFFER (buffer));
  gtk_text_buffer_insert (GTK_TEXT_BUFFER (buffer), &end, "// mine\n", -1);
  gtk_text_buffer_end_user_action (GTK_TEXT_BUFFER (buffer));
  g_assert_true (ws_kernel_document_get_modified (document));
  g_assert_true (gtk_text_buffer_get_can_undo (GTK_TEXT_BUFFER (buffer)));

  g_assert_true (ws_kernel_document_save (document, file, &error));
  g_assert_no_error (error);
  g_assert_true (g_file_get_contents (path, &saved, NULL, NULL));
  g_assert_true (g_str_has_suffix (saved, "// mine\n"));
  g_assert_false (ws_kernel_document_get_modified (document));
  g_assert_cmpstr (ws_kernel_document_get_title (document), ==, "mine.cu");
  g_assert_cmpstr (ws_kernel_source_get_path (ws_plan_get_source (plan)), ==, path);

  gtk_text_buffer_undo (GTK_TEXT_BUFFER (buffer));
  g_clear_pointer (&got, g_free);
  got = buffer_text (buffer);
  g_assert_cmpstr (got, ==, want);
  g_assert_true (ws_kernel_document_get_modified (document));
  ws_kernel_document_close (document);
  gtk_window_destroy (GTK_WINDOW (window));
  remove_dir (dir);
}

static AdwMessageDialog *
find_dialog (void)
{
  GListModel *toplevels = gtk_window_get_toplevels (); /* borrowed */

  for (guint i = 0; i < g_list_model_get_n_items (toplevels); i++)
    {
      g_autoptr (GObject) w = g_list_model_get_item (toplevels, i);

      if (ADW_IS_MESSAGE_DIALOG (w) && gtk_widget_get_visible (GTK_WIDGET (w)))
        {
          /* Answered, it closes: not asked twice. */
          gtk_widget_set_visible (GTK_WIDGET (w), FALSE);
          return ADW_MESSAGE_DIALOG (w);
        }
    }
  return NULL;
}

/* Unsaved changes are asked about before another kernel or closing the window loses them. */
static void
test_unsaved_changes_guard (void)
{
  WsWindow *window = ws_test_new_window ();
  WsKernelDocument *document = document_of (window);
  GtkTextIter start;
  AdwMessageDialog *dialog;

  gtk_widget_activate_action (GTK_WIDGET (window), "win.new-kernel", "s", "vector_add");
  gtk_text_buffer_get_start_iter (GTK_TEXT_BUFFER (ws_kernel_document_get_buffer (document)),
                                  &start);
  gtk_text_buffer_insert (GTK_TEXT_BUFFER (ws_kernel_document_get_buffer (document)), &start,
                          "// changed\n", -1);
  gtk_widget_activate_action (GTK_WIDGET (window), "win.new-kernel", "s", "matmul_tiled");
  ws_test_spin_for (50);
  dialog = find_dialog ();
  g_assert_nonnull (dialog);
  g_assert_cmpstr (ws_kernel_document_get_title (document), ==, "vector_add.cu");
  adw_message_dialog_response (dialog, "cancel");
  ws_test_spin_for (50);
  g_assert_cmpstr (ws_kernel_document_get_title (document), ==, "vector_add.cu");
  g_assert_true (ws_kernel_document_get_modified (document));

  /* Closing the window asks too. */
  g_assert_true (ws_kernel_actions_close_request (window));
  ws_test_spin_for (50);
  dialog = find_dialog ();
  g_assert_nonnull (dialog);
  adw_message_dialog_response (dialog, "cancel");
  ws_test_spin_for (50);

  gtk_widget_activate_action (GTK_WIDGET (window), "win.new-kernel", "s", "matmul_tiled");
  ws_test_spin_for (50);
  dialog = find_dialog ();
  g_assert_nonnull (dialog);
  adw_message_dialog_response (dialog, "discard");
  ws_test_spin_for (50);
  g_assert_cmpstr (ws_kernel_document_get_title (document), ==, "matmul_tiled.cu");
  g_assert_false (ws_kernel_document_get_modified (document));
  g_assert_false (ws_kernel_actions_close_request (window));
  gtk_window_destroy (GTK_WINDOW (window));
}

static GtkSourceView *
find_source_view (GtkWidget *widget)
{
  if (GTK_SOURCE_IS_VIEW (widget))
    return GTK_SOURCE_VIEW (widget);
  for (GtkWidget *c = gtk_widget_get_first_child (widget); c; c = gtk_widget_get_next_sibling (c))
    {
      GtkSourceView *found = find_source_view (c);

      if (found)
        return found;
    }
  return NULL;
}

/* The tooltip of the middle of `line` (1-based) as the pointer over the text would ask it. */
static char *
line_tooltip (WsSourceView *source, int line)
{
  GtkSourceView *view = find_source_view (GTK_WIDGET (source));
  GtkTextIter iter;
  int y, height, wx, wy;

  g_assert_nonnull (view);
  gtk_text_buffer_get_iter_at_line (gtk_text_view_get_buffer (GTK_TEXT_VIEW (view)), &iter,
                                    line - 1);
  gtk_text_view_get_line_yrange (GTK_TEXT_VIEW (view), &iter, &y, &height);
  gtk_text_view_buffer_to_window_coords (GTK_TEXT_VIEW (view), GTK_TEXT_WINDOW_WIDGET, 40,
                                         y + height / 2, &wx, &wy);
  g_assert_true (gtk_widget_get_has_tooltip (GTK_WIDGET (view)));
  return ws_kernel_marks_dup_tooltip_at (view, wx, wy);
}

/* Whether `line` (1-based) is wholly in the part of the source the view shows. */
static gboolean
line_in_sight (WsSourceView *source, int line)
{
  GtkSourceView *view = find_source_view (GTK_WIDGET (source));
  GdkRectangle visible;
  GtkTextIter iter;
  int y, height;

  gtk_text_view_get_visible_rect (GTK_TEXT_VIEW (view), &visible);
  gtk_text_buffer_get_iter_at_line (gtk_text_view_get_buffer (GTK_TEXT_VIEW (view)), &iter,
                                    line - 1);
  gtk_text_view_get_line_yrange (GTK_TEXT_VIEW (view), &iter, &y, &height);
  g_test_message ("line %d at %d–%d, the view shows %d–%d", line, y, y + height, visible.y,
                  visible.y + visible.height);
  return visible.height > 0 && y >= visible.y && y + height <= visible.y + visible.height;
}

/* Line 26 in sight and line 1 out of it: where the view has scrolled, once it has a size
 * (which a sanitized build on busy cores may take a while to give it). */
static gboolean
scrolled_to_26 (gpointer source)
{
  return line_in_sight (source, 26) && !line_in_sight (source, 1);
}

/* Check: the runner asked with --check-source and the file; its compile error marked on line
 * 26 (not 25), and listed in the findings panel with its place. */
static void
test_check_marks_compile_error (void)
{
  g_autofree char *dir = g_dir_make_tmp ("ws-kernel-XXXXXX", NULL);
  WsWindow *window;
  WsSourceView *source;
  GtkSourceBuffer *buffer;
  g_autofree char *args = NULL, *want_args = NULL, *tip = NULL;
  const char *mark;

  use_stand_in (dir, compile_error, 2);
  window = ws_test_new_window ();
  source = ws_test_view (window, "source");
  open_example (window, "vector_add.cu");
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.check-kernel", NULL));
  ws_test_spin_for (100);
  ws_test_spin_until (not_running, window, 10000);
  ws_test_spin_for (100);
  args = read_args (dir);
  want_args = g_strdup_printf ("--check-source\n%s\n",
                               ws_kernel_source_get_path (
                                 ws_kernel_document_get_source (document_of (window))));
  g_assert_cmpstr (args, ==, want_args);
  g_assert_true (ws_source_view_is_editing (source));
  buffer = ws_source_view_get_buffer (source);
  mark = ws_kernel_marks_get (buffer, 26, WS_MARK_ERROR);
  g_assert_cmpstr (mark, ==, "26:23: identifier \"bb\" is undefined");
  g_assert_null (ws_kernel_marks_get (buffer, 25, WS_MARK_ERROR));
  g_assert_null (ws_kernel_marks_get (buffer, 27, WS_MARK_ERROR));
  /* Readable on the line itself, not only on the gutter's icon. */
  tip = line_tooltip (source, 26);
  g_assert_cmpstr (tip, ==, "26:23: identifier \"bb\" is undefined");
  g_clear_pointer (&tip, g_free);
  tip = line_tooltip (source, 27);
  g_assert_null (tip);
  g_assert_nonnull (ws_test_find_label (ws_test_view (window, "findings_panel"),
                                        "identifier \"bb\" is undefined"));
  g_assert_nonnull (ws_test_find_label (ws_test_view (window, "findings_panel"), "x.cu:26:23"));
  g_assert_cmpstr (ws_window_get_page (window), ==, "views");
  /* The runner has ended without a GPU or a driver: the status line says so, with no stale
   * "starting the runner…" and no "?" for what the runner did not say. */
  g_assert_cmpstr (ws_window_get_status_text (window), ==, "no GPU · no NVIDIA driver");
  ws_kernel_document_close (document_of (window));
  gtk_window_destroy (GTK_WINDOW (window));
  g_unsetenv ("WARPSCOPE_RUNNER");
  remove_dir (dir);
}

/* Check and Memory Check that find nothing say so over the code, in warpscope-cli's words,
 * until the kernel is changed; one that finds an error says nothing of the kind. */
static void
test_clean_check_says_so (void)
{
  static const struct
  {
    const char *action, *recording, *note;
  } cases[] = {
    { "win.check-kernel", check_clean,
      "vector_add.cu: no errors; compiled 1 variant for sm_90 with NVRTC 13.0" },
    { "win.memcheck-kernel", memcheck_clean,
      "compute-sanitizer found no errors in this configuration." },
    { "win.check-kernel", compile_error, NULL },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *dir = g_dir_make_tmp ("ws-kernel-XXXXXX", NULL);
      WsWindow *window;
      WsSourceView *source;
      GtkTextBuffer *buffer;
      GtkTextIter end;

      use_stand_in (dir, cases[i].recording, g_str_equal (cases[i].recording, compile_error) ? 2 : 0);
      window = ws_test_new_window ();
      source = ws_test_view (window, "source");
      open_example (window, "vector_add.cu");
      g_assert_null (ws_source_view_get_note (source));
      g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), cases[i].action, NULL));
      ws_test_spin_for (100);
      ws_test_spin_until (not_running, window, 10000);
      ws_test_spin_for (100);
      g_assert_cmpstr (ws_source_view_get_note (source), ==, cases[i].note);
      g_assert_nonnull (cases[i].note == NULL
                          ? ""
                          : ws_test_find_label (GTK_WIDGET (source), cases[i].note));
      /* An edit makes it stale. */
      buffer = GTK_TEXT_BUFFER (ws_source_view_get_buffer (source));
      gtk_text_buffer_get_end_iter (buffer, &end);
      gtk_text_buffer_insert (buffer, &end, "\n", -1);
      ws_kernel_document_reread (document_of (window));
      ws_test_spin_for (50);
      g_assert_null (ws_source_view_get_note (source));
      g_assert_null (ws_test_find_label (GTK_WIDGET (source), "vector_add.cu: no errors"));
      gtk_text_buffer_undo (buffer);
      ws_kernel_document_close (document_of (window));
      gtk_window_destroy (GTK_WINDOW (window));
      g_unsetenv ("WARPSCOPE_RUNNER");
      remove_dir (dir);
    }
}

/* A header error is marked as it is typed, with no runner at all. */
static void
test_header_error_marked (void)
{
  WsWindow *window = ws_test_new_window ();
  WsKernelDocument *document = document_of (window);
  WsSourceView *source = ws_test_view (window, "source");
  WsPlan *plan = ws_test_view (window, "plan");
  GtkSourceBuffer *buffer;
  GtkTextIter start, end;

  open_example (window, "vector_add.cu");
  buffer = ws_kernel_document_get_buffer (document);
  /* Line 5 is " * size:        n = 10000000". */
  gtk_text_buffer_get_iter_at_line (GTK_TEXT_BUFFER (buffer), &start, 4);
  end = start;
  gtk_text_iter_forward_to_line_end (&end);
  gtk_text_buffer_delete (GTK_TEXT_BUFFER (buffer), &start, &end);
  gtk_text_buffer_insert (GTK_TEXT_BUFFER (buffer), &start, " * size:        n = 0", -1);
  ws_kernel_document_reread (document);
  ws_test_spin_for (50);
  g_assert_nonnull (ws_kernel_marks_get (ws_source_view_get_buffer (source), 5, WS_MARK_ERROR));
  g_assert_null (ws_kernel_marks_get (ws_source_view_get_buffer (source), 4, WS_MARK_ERROR));
  g_assert_false (ws_plan_get_valid (plan, WS_PLAN_RUN));
  g_assert_true (g_str_has_prefix (ws_plan_get_problem (plan, WS_PLAN_RUN),
                                   "The kernel's header has an error at line 5"));
  gtk_text_buffer_undo (GTK_TEXT_BUFFER (buffer));
  gtk_text_buffer_undo (GTK_TEXT_BUFFER (buffer));
  ws_kernel_document_reread (document);
  g_assert_null (ws_kernel_marks_get (ws_source_view_get_buffer (source), 5, WS_MARK_ERROR));
  g_assert_true (ws_plan_get_valid (plan, WS_PLAN_RUN));
  ws_kernel_document_close (document);
  gtk_window_destroy (GTK_WINDOW (window));
}

/* Memory Check: one configuration under --memcheck memcheck; the finding on line 24, in the
 * panel with its thread and block. */
static void
test_memcheck_marks_finding (void)
{
  g_autofree char *dir = g_dir_make_tmp ("ws-kernel-XXXXXX", NULL);
  WsWindow *window;
  WsSourceView *source;
  g_autofree char *args = NULL;
  const char *mark;

  use_stand_in (dir, memcheck, 1);
  window = ws_test_new_window ();
  source = ws_test_view (window, "source");
  open_example (window, "vector_add_oob.cu");
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.memcheck-kernel", NULL));
  ws_test_spin_for (100);
  ws_test_spin_until (not_running, window, 10000);
  ws_test_spin_for (100);
  args = read_args (dir);
  g_assert_true (g_str_has_prefix (args, "--sizes\n"));
  g_assert_nonnull (strstr (args, "\n--source\n"));
  g_assert_true (g_str_has_suffix (args, "\n--memcheck\nmemcheck\n"));
  mark = ws_kernel_marks_get (ws_source_view_get_buffer (source), 24, WS_MARK_MEMCHECK);
  g_assert_nonnull (mark);
  g_assert_true (g_str_has_prefix (mark, "Invalid __global__ read of size 4 bytes, first by "
                                         "thread (160,0,0) of block (3906,0,0), 2 times"));
  g_assert_null (ws_kernel_marks_get (ws_source_view_get_buffer (source), 23, WS_MARK_MEMCHECK));
  g_assert_nonnull (ws_test_find_label (ws_test_view (window, "findings_panel"),
                                        "vector_add_oob.cu:24: Invalid __global__ read"));
  ws_kernel_document_close (document_of (window));
  gtk_window_destroy (GTK_WINDOW (window));
  g_unsetenv ("WARPSCOPE_RUNNER");
  remove_dir (dir);
}

/* A recording of an own kernel, built here as the runner writes one: its source record. */
static char *
write_recording (const char *dir, const char *text)
{
  g_autoptr (GString) record
    = g_string_new ("{\"type\":\"source\",\"t\":1,\"path\":\"/home/student/matmul_tiled.cu\","
                    "\"sha256\":\"ab\",\"text\":");
  g_autofree char *source = NULL;
  g_autofree char *path = g_build_filename (dir, "own.jsonl", NULL);
  g_autofree char *all = NULL;

  ws_json_append_string (record, text);
  g_string_append_c (record, '}');
  source = g_strdup (record->str);
  all = g_strdup_printf (
    HELLO "%s\n"
    "{\"type\":\"run\",\"t\":5,\"id\":1,\"kernel\":\"matmul_tiled\",\"family\":\"own\","
    "\"shape\":[64,64,64],\"size\":64,\"size_text\":\"64\",\"block\":[16,16,1],"
    "\"grid\":[4,4,1],\"threads_per_block\":256,\"transfer\":\"pageable\",\"streams\":1,"
    "\"reps\":10,\"warmup\":3,\"seed\":1,\"cpu\":\"none\",\"cache\":\"warm\",\"flops\":524288,"
    "\"bytes\":49152,\"input_bytes\":32768,\"output_bytes\":16384,\"source_hash\":\"ab\","
    "\"params\":{\"TILE\":16}}\n"
    "{\"type\":\"timing\",\"t\":7,\"run\":1,\"traced\":true,\"kernel_ns\":{\"median\":5000,"
    "\"min\":4900,\"max\":5100,\"n\":10},\"e2e_ns\":{\"median\":90000,\"min\":89000,"
    "\"max\":91000,\"n\":10},\"cpu_1\":null,\"cpu_all\":null}\n"
    "{\"type\":\"done\",\"t\":9,\"runs\":1,\"failed\":0,\"dropped_records\":0,\"exit_code\":0}\n",
    source);
  g_assert_true (g_file_set_contents (path, all, -1, NULL));
  return g_steal_pointer (&path);
}

/* A recording reopens with its own kernel's source, read-only; Edit a Copy makes it the
 * kernel being written. */
static void
test_recording_shows_source (void)
{
  g_autofree char *dir = g_dir_make_tmp ("ws-kernel-XXXXXX", NULL);
  g_autofree char *text = example_text ("matmul_tiled.cu");
  g_autofree char *path = write_recording (dir, text);
  g_autoptr (GFile) file = g_file_new_for_path (path);
  WsWindow *window = ws_test_new_window ();
  WsSourceView *source = ws_test_view (window, "source");
  g_autofree char *shown = NULL, *copied = NULL;

  ws_window_open_file (window, file);
  ws_test_spin_until (ws_test_has_session, window, 10000);
  gtk_widget_activate_action (GTK_WIDGET (window), "win.show-view", "s", "source");
  ws_test_spin_for (50);
  g_assert_false (ws_source_view_is_editing (source));
  shown = buffer_text (ws_source_view_get_buffer (source));
  g_assert_cmpstr (shown, ==, text);
  g_assert_nonnull (ws_test_find_label (GTK_WIDGET (source), "matmul_tiled.cu, as the session "
                                                             "recorded it"));
  gtk_widget_activate_action (GTK_WIDGET (source), "source.edit-copy", NULL);
  ws_test_spin_for (50);
  g_assert_true (ws_source_view_is_editing (source));
  g_assert_cmpstr (ws_kernel_document_get_title (document_of (window)), ==, "matmul_tiled.cu");
  g_assert_null (ws_kernel_document_get_file (document_of (window)));
  copied = buffer_text (ws_source_view_get_buffer (source));
  g_assert_cmpstr (copied, ==, text);
  ws_kernel_document_close (document_of (window));
  gtk_window_destroy (GTK_WINDOW (window));
  remove_dir (dir);
}

/* The memory check recorded on the H200 opens as it was made: its source, the finding on
 * line 26 marked in the gutter and listed in the panel, and no run. */
static void
test_memcheck_recording (void)
{
  g_autofree char *path = g_build_filename (g_getenv ("WS_SAMPLES_DIR"),
                                            "own-vector-add-oob-memcheck-h200.jsonl", NULL);
  g_autoptr (GFile) file = g_file_new_for_path (path);
  WsWindow *window = ws_test_new_window ();
  WsSourceView *source = ws_test_view (window, "source");
  WsSession *session;
  g_autofree char *shown = NULL;
  const char *mark;

  ws_window_open_file (window, file);
  ws_test_spin_until (ws_test_has_session, window, 10000);
  session = ws_workspace_get_session (ws_window_get_workspace (window));
  g_assert_cmpuint (g_list_model_get_n_items (ws_session_get_runs (session)), ==, 0);
  /* It opens where its findings are, not on the welcome page. */
  ws_test_spin_for (50);
  g_assert_cmpstr (gtk_stack_get_visible_child_name (ws_test_view (window, "main_stack")), ==,
                   "views");
  g_assert_cmpstr (adw_view_stack_get_visible_child_name (ws_test_view (window, "views")), ==,
                   "source");
  g_assert_false (ws_source_view_is_editing (source));
  shown = buffer_text (ws_source_view_get_buffer (source));
  g_assert_cmpstr (shown, ==, ws_session_get_source_text (session, NULL, NULL));
  mark = ws_kernel_marks_get (ws_source_view_get_buffer (source), 26, WS_MARK_MEMCHECK);
  g_assert_nonnull (mark);
  g_assert_true (g_str_has_prefix (mark, "Invalid __global__ read of size 4 bytes, first by "
                                         "thread (96,0,0) of block (3906,0,0), 100 times"));
  g_assert_null (ws_kernel_marks_get (ws_source_view_get_buffer (source), 25, WS_MARK_MEMCHECK));
  g_assert_nonnull (ws_test_find_label (ws_test_view (window, "findings_panel"),
                                        "vector_add_oob.cu:26: Invalid __global__ read"));
  /* Recorded before the device record was kept: a memory check, of no named GPU. */
  g_assert_true (g_str_has_prefix (ws_window_get_status_text (window), "Memory check, 20"));
  /* No run to select, so no word about selecting one. */
  g_assert_null (ws_test_find_label (ws_test_view (window, "findings_panel"),
                                     "Select a run in the table"));
  /* For a person to look at: the source and the findings beside it, brought out as Shift+F9
   * does. The window may not be laid out yet (under the sanitizers it was not, once): the
   * pane waits for it (test-app.c, /app/panes-before-first-frame). */
  gtk_window_set_default_size (GTK_WINDOW (window), 1600, 900);
  ws_test_spin_for (200);
  if (!adw_flap_get_reveal_flap (ws_test_view (window, "findings_flap")))
    gtk_widget_activate_action (GTK_WIDGET (window), "win.toggle-findings", NULL);
  ws_test_spin_for (200);
  ws_test_screenshot (GTK_WIDGET (window), "memcheck-recording-1600x900");
  gtk_window_destroy (GTK_WINDOW (window));
}

/* The memory check's recording opens on its source scrolled to the line it found wrong (26,
 * below the first screenful at 1024×768), from the welcome page's button (win.open-sample)
 * and from a file given (what the file chooser and the command line call); the line's
 * tooltip says what was found there. */
static void
test_memcheck_recording_in_sight (void)
{
  g_autofree char *path = g_build_filename (g_getenv ("WS_SAMPLES_DIR"),
                                            "own-vector-add-oob-memcheck-h200.jsonl", NULL);

  for (guint route = 0; route < 2; route++)
    {
      WsWindow *window;
      WsSourceView *source;
      g_autofree char *tip = NULL, *none = NULL;

      ws_test_add_icons ();
      window = ws_window_new (NULL);
      gtk_window_set_default_size (GTK_WINDOW (window), 1024, 768);
      gtk_window_present (GTK_WINDOW (window));
      ws_test_spin_for (100);
      source = ws_test_view (window, "source");
      if (route == 0)
        gtk_widget_activate_action (GTK_WIDGET (window), "win.open-sample", "s", path);
      else
        {
          g_autoptr (GFile) file = g_file_new_for_path (path);

          ws_window_open_file (window, file);
        }
      ws_test_spin_until (ws_test_has_session, window, 10000);
      ws_test_spin_until (scrolled_to_26, source, 20000);
      g_assert_cmpstr (adw_view_stack_get_visible_child_name (ws_test_view (window, "views")),
                       ==, "source");
      g_assert_true (line_in_sight (source, 26));
      /* Not by chance: the file's first line is out of sight. */
      g_assert_false (line_in_sight (source, 1));
      tip = line_tooltip (source, 26);
      g_assert_nonnull (tip);
      g_assert_true (g_str_has_prefix (tip, "Invalid __global__ read of size 4 bytes"));
      none = line_tooltip (source, 25);
      g_assert_null (none);
      if (route == 0)
        ws_test_screenshot (GTK_WIDGET (window), "memcheck-recording-1024x768");
      gtk_window_destroy (GTK_WINDOW (window));
    }
}

/* Without GtkSourceView's language files (a minimal system) a kernel and a recording's source
 * still open, as plain text, with one warning; the child process has a language path of an
 * empty folder, set before the manager reads it. */
static void
test_no_language_definitions (void)
{
  if (g_test_subprocess ())
    {
      g_autofree char *empty = g_dir_make_tmp ("ws-no-languages-XXXXXX", NULL);
      const char *const path[] = { empty, NULL };
      WsWindow *window;
      WsSourceView *source;
      g_autofree char *text = example_text ("vector_add.cu"), *shown = NULL;

      gtk_source_language_manager_set_search_path (gtk_source_language_manager_get_default (),
                                                   path);
      g_test_expect_message ("Warpscope", G_LOG_LEVEL_WARNING,
                             "GtkSourceView has no CUDA, C++ or C language definition*");
      window = ws_test_new_window ();
      source = ws_test_view (window, "source");
      open_example (window, "vector_add.cu");
      g_test_assert_expected_messages ();
      g_assert_null (gtk_source_buffer_get_language (ws_source_view_get_buffer (source)));
      shown = buffer_text (ws_source_view_get_buffer (source));
      g_assert_cmpstr (shown, ==, text);
      g_assert_true (ws_source_view_is_editing (source));
      ws_kernel_document_close (document_of (window));
      gtk_window_destroy (GTK_WINDOW (window));
      g_rmdir (empty);
      return;
    }
  g_test_trap_subprocess (NULL, 60 * G_USEC_PER_SEC, G_TEST_SUBPROCESS_DEFAULT);
  g_test_trap_assert_passed ();
}

/* The runs table tells an own kernel's runs apart by their parameters, as the report does. */
static void
test_runs_show_params (void)
{
  WsWindow *window = ws_test_new_window ();

  gtk_window_set_default_size (GTK_WINDOW (window), 1600, 900);
  ws_test_open (window, "own-matmul-tiled-h200.jsonl");
  ws_test_spin_for (200);
  g_assert_nonnull (ws_test_find_label (ws_test_view (window, "runs_view"),
                                        "matmul_tiled TILE=16"));
  g_assert_nonnull (ws_test_find_label (ws_test_view (window, "runs_view"),
                                        "matmul_tiled TILE=32"));
  gtk_window_destroy (GTK_WINDOW (window));
}

int
main (int argc, char **argv)
{
  g_autofree char *cache = g_dir_make_tmp ("ws-app-cache-XXXXXX", NULL);

  g_setenv ("XDG_CACHE_HOME", cache, TRUE);
  g_unsetenv ("WARPSCOPE_RUNNER");
  gtk_test_init (&argc, &argv, NULL);
  adw_init ();
  g_test_add_func ("/app/kernel/open-kernel-params", test_open_kernel_params);
  g_test_add_func ("/app/kernel/new-kernel-edit-save", test_new_kernel_edit_save);
  g_test_add_func ("/app/kernel/unsaved-changes-guard", test_unsaved_changes_guard);
  g_test_add_func ("/app/kernel/header-error-marked", test_header_error_marked);
  g_test_add_func ("/app/kernel/check-marks-compile-error", test_check_marks_compile_error);
  g_test_add_func ("/app/kernel/memcheck-marks-finding", test_memcheck_marks_finding);
  g_test_add_func ("/app/kernel/clean-check-says-so", test_clean_check_says_so);
  g_test_add_func ("/app/kernel/recording-shows-source", test_recording_shows_source);
  g_test_add_func ("/app/kernel/memcheck-recording", test_memcheck_recording);
  g_test_add_func ("/app/kernel/memcheck-recording-in-sight", test_memcheck_recording_in_sight);
  g_test_add_func ("/app/kernel/runs-show-params", test_runs_show_params);
  g_test_add_func ("/app/kernel/no-language-definitions", test_no_language_definitions);
  return g_test_run ();
}
