/* ws-window-control.c: the window driven from outside, for tests of the app on a real GPU
 * where there is no accessibility bus: with WARPSCOPE_CONTROL=PATH set, the window reads
 * commands, one a line, from the FIFO at PATH (made when missing) and answers each with one
 * JSON line appended to PATH.out. Unset, nothing here runs. DEVELOPERS.md lists the commands.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "ws-window-private.h"

#include <errno.h>
#include <fcntl.h>
#include <glib-unix.h>
#include <glib/gstdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ws-environment.h"
#include "ws-json-writer.h"
#include "ws-plan.h"
#include "ws-run-controller.h"
#include "ws-takeaway.h"
#include "ws-trace-dialog.h"
#include "ws-trace.h"

typedef struct
{
  WsWindow *window; /* not held: the control goes with it */
  int fd;
  guint watch;
  GString *pending;
  char *answers;
} Control;

#define CONTROL_KEY "ws-control"

/* One JSON line; appended and closed each time, so a reader sees whole lines at once. */
static void
answer (Control *c, GString *line)
{
  FILE *f = fopen (c->answers, "a");

  if (f == NULL)
    {
      g_warning ("WARPSCOPE_CONTROL: cannot write %s: %s", c->answers, g_strerror (errno));
      return;
    }
  fprintf (f, "%s\n", line->str);
  fclose (f);
}

static void
answer_result (Control *c, const char *command, const char *error)
{
  g_autoptr (GString) out = g_string_new (NULL);
  g_autoptr (WsJsonWriter) w = ws_json_writer_new (out, FALSE);

  ws_json_writer_begin_object (w, NULL);
  ws_json_writer_string (w, "command", command);
  ws_json_writer_bool (w, "ok", error == NULL);
  if (error != NULL)
    ws_json_writer_string (w, "error", error);
  ws_json_writer_end_object (w);
  answer (c, out);
}

static void
add_titles (WsJsonWriter *w, const char *name, GPtrArray *findings)
{
  ws_json_writer_begin_array (w, name);
  for (guint i = 0; findings != NULL && i < findings->len; i++)
    ws_json_writer_string (w, NULL, ((WsFinding *) g_ptr_array_index (findings, i))->title);
  ws_json_writer_end_array (w);
}

static const char *const environment_states[] = { "no-runner", "probing", "ready", "unusable" };

/* The session as the views show it: its runs, a traced program's kernels and copies, what
 * the analysis found, a memory check's lines. */
static void
add_session (WsWindow *self, WsJsonWriter *w)
{
  WsSession *session = ws_workspace_get_session (self->workspace);
  WsSessionAnalysis *analysis = ws_workspace_get_analysis (self->workspace);
  WsRun *run = ws_workspace_get_selected_run (self->workspace);
  WsTrace *trace = session ? ws_session_get_trace (session) : NULL;
  GPtrArray *memcheck = session ? ws_session_get_memcheck_findings (session) : NULL;
  guint kernels = 0, copies = 0;

  ws_json_writer_uint (w, "runs", session ? g_list_model_get_n_items (ws_session_get_runs (session)) : 0);
  ws_json_writer_int (w, "run", ws_workspace_get_run (self->workspace));
  ws_json_writer_bool (w, "analysed", ws_workspace_is_analysed (self->workspace));
  if (trace != NULL)
    ws_trace_count (trace, &kernels, &copies);
  ws_json_writer_bool (w, "trace", ws_workspace_has_trace (self->workspace));
  ws_json_writer_uint (w, "trace_kernels", kernels);
  ws_json_writer_uint (w, "trace_copies", copies);
  add_titles (w, "findings", run ? ws_workspace_get_findings (self->workspace, run) : NULL);
  if (trace != NULL && analysis != NULL && ws_workspace_is_analysed (self->workspace))
    {
      g_autoptr (GPtrArray) found = ws_session_analysis_dup_trace_findings (analysis);

      add_titles (w, "trace_findings", found);
    }
  ws_json_writer_begin_array (w, "memcheck");
  for (guint i = 0; memcheck != NULL && i < memcheck->len; i++)
    {
      WsMemcheckFinding *m = g_ptr_array_index (memcheck, i);
      g_autofree char *where = g_strdup_printf ("%s:%d %s", m->file ? m->file : "", m->line,
                                                m->kind ? m->kind : "");

      ws_json_writer_string (w, NULL, where);
    }
  ws_json_writer_end_array (w);
}

static void
answer_state (Control *c)
{
  WsWindow *self = c->window;
  g_autoptr (GString) out = g_string_new (NULL);
  g_autoptr (WsJsonWriter) w = ws_json_writer_new (out, FALSE);
  WsEnvironmentState state = ws_environment_get_state (self->environment);
  g_autofree char *summary = ws_plan_dup_run_summary (self->plan);

  ws_json_writer_begin_object (w, NULL);
  ws_json_writer_string (w, "command", "state");
  ws_json_writer_string (w, "page", gtk_stack_get_visible_child_name (self->main_stack));
  ws_json_writer_string (w, "view", adw_view_stack_get_visible_child_name (self->views));
  ws_json_writer_string (w, "environment", state < G_N_ELEMENTS (environment_states)
                                             ? environment_states[state] : "");
  ws_json_writer_string (w, "environment_title", ws_environment_get_title (self->environment));
  ws_json_writer_bool (w, "running", ws_run_controller_is_running (self->controller));
  ws_json_writer_bool (w, "run_enabled",
                       gtk_widget_get_sensitive (_ws_window_child (self, "run_button")));
  ws_json_writer_string (w, "status", ws_window_get_status_text (self));
  ws_json_writer_string (w, "toast", self->last_toast);
  ws_json_writer_string (w, "kernel", ws_plan_get_kernel (self->plan));
  ws_json_writer_string (w, "plan", summary);
  ws_json_writer_string (w, "headline",
                         ws_takeaway_get_headline (WS_TAKEAWAY (_ws_window_child (self, "takeaway"))));
  add_session (self, w);
  ws_json_writer_end_object (w);
  answer (c, out);
}

/* Trace a Program… as a person fills it in: "trace CWD<TAB>COMMAND[<TAB>SWEEP]". */
static const char *
start_trace (WsWindow *self, const char *args)
{
  g_auto (GStrv) fields = g_strsplit (args, "\t", 3);
  g_autoptr (GList) windows = NULL;

  if (fields[0] == NULL || fields[1] == NULL)
    return "trace takes CWD<TAB>COMMAND[<TAB>SWEEP]";
  gtk_widget_activate_action (GTK_WIDGET (self), "win.trace", NULL);
  windows = gtk_window_list_toplevels ();
  for (GList *l = windows; l != NULL; l = l->next)
    if (WS_IS_TRACE_DIALOG (l->data)
        && gtk_window_get_transient_for (GTK_WINDOW (l->data)) == GTK_WINDOW (self))
      {
        ws_trace_dialog_set_fields (l->data, fields[1], fields[0], "", fields[2] ? fields[2] : "");
        return ws_trace_dialog_start (l->data) ? NULL : ws_trace_dialog_get_message (l->data);
      }
  return "Trace a Program… did not open";
}

/* "set KEY VALUE": a setting (the sidebar's fields are bound to them), VALUE read as the
 * key's type (GVariant text: 'vector_add', 1024, true). */
static char *
set_setting (WsWindow *self, const char *args)
{
  g_auto (GStrv) kv = g_strsplit (args, " ", 2);
  g_autoptr (GSettingsSchema) schema = NULL;
  g_autoptr (GSettingsSchemaKey) key = NULL;
  g_autoptr (GVariant) value = NULL;
  g_autoptr (GError) error = NULL;

  if (kv[0] == NULL || kv[1] == NULL)
    return g_strdup ("set takes KEY VALUE");
  g_object_get (self->settings, "settings-schema", &schema, NULL);
  if (!g_settings_schema_has_key (schema, kv[0]))
    return g_strdup_printf ("no setting %s", kv[0]);
  key = g_settings_schema_get_key (schema, kv[0]);
  value = g_variant_parse (g_settings_schema_key_get_value_type (key), kv[1], NULL, NULL, &error);
  if (value == NULL)
    return g_strdup (error->message);
  if (!g_settings_set_value (self->settings, kv[0], value))
    return g_strdup_printf ("%s does not take %s", kv[0], kv[1]);
  return NULL;
}

static char *
activate (WsWindow *self, const char *args)
{
  g_auto (GStrv) parts = g_strsplit (args, " ", 2);
  g_autoptr (GVariant) param = NULL;
  g_autoptr (GError) error = NULL;

  if (parts[0] == NULL)
    return g_strdup ("action takes NAME [PARAMETER]");
  if (parts[1] != NULL
      && (param = g_variant_parse (NULL, parts[1], NULL, NULL, &error)) == NULL)
    return g_strdup (error->message);
  if (!gtk_widget_activate_action_variant (GTK_WIDGET (self), parts[0], param))
    return g_strdup_printf ("no action %s", parts[0]);
  return NULL;
}

static gboolean
close_idle (gpointer window)
{
  gtk_window_close (GTK_WINDOW (window));
  return G_SOURCE_REMOVE;
}

static void
run_command (Control *c, const char *line)
{
  WsWindow *self = c->window;
  const char *space = strchr (line, ' ');
  g_autofree char *verb = space ? g_strndup (line, space - line) : g_strdup (line);
  const char *args = space ? space + 1 : "";
  g_autofree char *error = NULL;

  if (g_str_equal (verb, "state"))
    {
      answer_state (c);
      return;
    }
  if (g_str_equal (verb, "action"))
    error = activate (self, args);
  else if (g_str_equal (verb, "set"))
    error = set_setting (self, args);
  else if (g_str_equal (verb, "param"))
    {
      g_auto (GStrv) kv = g_strsplit (args, " ", 2);

      if (kv[0] == NULL || kv[1] == NULL)
        error = g_strdup ("param takes NAME VALUES");
      else
        ws_plan_set_param (self->plan, kv[0], kv[1]);
    }
  else if (g_str_equal (verb, "open") || g_str_equal (verb, "save"))
    {
      g_autoptr (GFile) file = g_file_new_for_commandline_arg (args);

      if (g_str_equal (verb, "open"))
        ws_window_open_file (self, file);
      else
        _ws_window_save_to (self, file);
    }
  else if (g_str_equal (verb, "trace"))
    error = g_strdup (start_trace (self, args));
  else if (g_str_equal (verb, "close"))
    /* After this command's answer, not under the reading of it. */
    g_idle_add_full (G_PRIORITY_DEFAULT, close_idle, g_object_ref (self), g_object_unref);
  else
    error = g_strdup_printf ("unknown command %s: state, action, set, param, open, save, trace "
                             "or close", verb);
  answer_result (c, line, error);
}

static gboolean
readable_cb (int fd, GIOCondition condition, gpointer data)
{
  Control *c = data;
  char buf[4096];
  ssize_t n;
  char *nl;

  while ((n = read (fd, buf, sizeof buf)) > 0)
    g_string_append_len (c->pending, buf, n);
  while ((nl = strchr (c->pending->str, '\n')) != NULL)
    {
      g_autofree char *line = g_strndup (c->pending->str, nl - c->pending->str);

      g_string_erase (c->pending, 0, nl - c->pending->str + 1);
      g_strstrip (line);
      if (line[0] != '\0')
        run_command (c, line);
    }
  return G_SOURCE_CONTINUE;
}

static void
control_free (gpointer data)
{
  Control *c = data;

  g_clear_handle_id (&c->watch, g_source_remove);
  if (c->fd >= 0)
    close (c->fd);
  g_string_free (c->pending, TRUE);
  g_free (c->answers);
  g_free (c);
}

void
_ws_window_control_init (WsWindow *self)
{
  const char *path = g_getenv ("WARPSCOPE_CONTROL");
  Control *c;
  int fd;

  if (path == NULL || path[0] == '\0')
    return;
  if (mkfifo (path, 0600) != 0 && errno != EEXIST)
    {
      g_warning ("WARPSCOPE_CONTROL: cannot make the FIFO %s: %s", path, g_strerror (errno));
      return;
    }
  /* Read and write: the FIFO stays open between the writers, and opening it does not wait. */
  fd = g_open (path, O_RDWR | O_NONBLOCK | O_CLOEXEC, 0);
  if (fd < 0)
    {
      g_warning ("WARPSCOPE_CONTROL: cannot open %s: %s", path, g_strerror (errno));
      return;
    }
  c = g_new0 (Control, 1);
  c->window = self;
  c->fd = fd;
  c->pending = g_string_new (NULL);
  c->answers = g_strconcat (path, ".out", NULL);
  c->watch = g_unix_fd_add (fd, G_IO_IN, readable_cb, c);
  g_object_set_data_full (G_OBJECT (self), CONTROL_KEY, c, control_free);
}
