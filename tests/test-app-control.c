/* test-app-control.c: the window driven through WARPSCOPE_CONTROL, as the gpu-app suite drives
 * it on a GPU machine (tests/gpu-app/): commands written to the FIFO, one JSON answer a line in
 * FIFO.out; the state a command reports; actions, settings, files; every bad command answered
 * with what to write instead, and the window still there.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <fcntl.h>
#include <glib/gstdio.h>
#include <unistd.h>

#include "test-app-util.h"

typedef struct
{
  char *dir, *fifo, *out;
  guint n_read; /* answers already returned */
} Control;

/* One FIFO for the whole program: the environment is set before any thread starts. */
static Control control;

static void
control_init (Control *c)
{
  c->dir = g_dir_make_tmp ("ws-control-XXXXXX", NULL);
  c->fifo = g_build_filename (c->dir, "control", NULL);
  c->out = g_strconcat (c->fifo, ".out", NULL);
  c->n_read = 0;
  g_setenv ("WARPSCOPE_CONTROL", c->fifo, TRUE);
}

typedef struct
{
  Control *c;
  char *line;
} Waiting;

static gboolean
answered (gpointer data)
{
  Waiting *w = data;
  g_autofree char *text = NULL;
  g_auto (GStrv) lines = NULL;

  if (!g_file_get_contents (w->c->out, &text, NULL, NULL))
    return FALSE;
  lines = g_strsplit (text, "\n", -1);
  if (g_strv_length (lines) <= w->c->n_read + 1) /* the last is after the final newline */
    return FALSE;
  w->line = g_strdup (lines[w->c->n_read]);
  return TRUE;
}

/* Writes `command`, waits for its answer and returns it. */
static char *
send (Control *c, const char *command)
{
  g_autofree char *line = g_strconcat (command, "\n", NULL);
  int fd = g_open (c->fifo, O_WRONLY | O_NONBLOCK, 0);
  Waiting w = { c, NULL };

  g_assert_cmpint (fd, >=, 0);
  g_assert_cmpint (write (fd, line, strlen (line)), ==, (gssize) strlen (line));
  close (fd);
  ws_test_spin_until (answered, &w, 20000);
  g_assert_nonnull (w.line);
  c->n_read++;
  return w.line;
}

static void
assert_has (const char *text, const char *part)
{
  if (text == NULL || strstr (text, part) == NULL)
    g_error ("“%s” is not in:\n%s", part, text ? text : "(null)");
}

typedef struct
{
  Control *c;
  const char *part;
} Until;

static gboolean
state_has (gpointer data)
{
  Until *u = data;
  g_autofree char *state = send (u->c, "state");

  return strstr (state, u->part) != NULL;
}

/* A recording opened, a view shown, the session saved, a setting changed, the window closed:
 * each answered, the state reporting what the window shows. */
static void
test_control_drive (void)
{
  Control *c = &control;
  WsWindow *window;
  g_autofree char *sample = ws_test_sample ("vector-add-blocks-h200.jsonl");
  g_autofree char *open = g_strconcat ("open ", sample, NULL);
  g_autofree char *saved = NULL, *save = NULL, *state = NULL, *answer = NULL;
  Until until;

  window = ws_test_new_window ();
  g_object_add_weak_pointer (G_OBJECT (window), (gpointer *) &window);
  state = send (c, "state");
  assert_has (state, "\"command\":\"state\"");
  assert_has (state, "\"page\":\"welcome\"");
  assert_has (state, "\"runs\":0");
  g_clear_pointer (&state, g_free);

  answer = send (c, open);
  assert_has (answer, "\"ok\":true");
  g_clear_pointer (&answer, g_free);
  until = (Until){ c, "\"page\":\"views\"" };
  ws_test_spin_until (state_has, &until, 30000);
  state = send (c, "state");
  assert_has (state, "\"page\":\"views\"");
  g_assert_null (strstr (state, "\"runs\":0"));
  g_clear_pointer (&state, g_free);

  answer = send (c, "action win.show-view 'breakdown'");
  assert_has (answer, "\"ok\":true");
  g_clear_pointer (&answer, g_free);
  state = send (c, "state");
  assert_has (state, "\"view\":\"breakdown\"");
  g_clear_pointer (&state, g_free);

  saved = g_build_filename (c->dir, "saved.jsonl", NULL);
  save = g_strconcat ("save ", saved, NULL);
  answer = send (c, save);
  assert_has (answer, "\"ok\":true");
  g_clear_pointer (&answer, g_free);
  g_assert_true (g_file_test (saved, G_FILE_TEST_IS_REGULAR));
  g_assert_true (g_str_has_prefix (ws_window_get_last_toast (window), "Saved as saved.jsonl"));

  answer = send (c, "set reps 7");
  assert_has (answer, "\"ok\":true");
  g_clear_pointer (&answer, g_free);

  answer = send (c, "close");
  assert_has (answer, "\"ok\":true");
  ws_test_spin_for (300);
  g_assert_null (window);
}

/* What a script can get wrong: each answered with what to write, nothing done, the window kept. */
static void
test_control_errors (void)
{
  static const struct
  {
    const char *command, *words;
  } cases[] = {
    { "launch", "unknown command launch: state, action, set, param, open, save, trace or close" },
    { "action", "action takes NAME [PARAMETER]" },
    { "action win.no-such-thing", "no action win.no-such-thing" },
    { "action win.show-view 'unclosed", "\"ok\":false" },
    { "set reps", "set takes KEY VALUE" },
    { "set no-such-key 1", "no setting no-such-key" },
    { "set reps 'seven'", "\"ok\":false" },
    { "param TILE", "param takes NAME VALUES" },
    { "trace only-a-folder", "trace takes CWD<TAB>COMMAND[<TAB>SWEEP]" },
  };
  Control *c = &control;
  WsWindow *window;

  window = ws_test_new_window ();
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *answer = send (c, cases[i].command);

      assert_has (answer, "\"ok\":false");
      assert_has (answer, cases[i].words);
    }
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (window)));
  gtk_window_destroy (GTK_WINDOW (window));
}

int
main (int argc, char **argv)
{
  g_autofree char *cache = NULL;
  int status;

  cache = g_dir_make_tmp ("ws-app-cache-XXXXXX", NULL);
  g_setenv ("XDG_CACHE_HOME", cache, TRUE);
  control_init (&control);
  gtk_test_init (&argc, &argv, NULL);
  adw_init ();
  g_test_add_func ("/app/control/drive", test_control_drive);
  g_test_add_func ("/app/control/errors", test_control_errors);
  status = g_test_run ();
  ws_test_remove_tree (control.dir);
  return status;
}
