/* ws-cli-replay.c: `warpscope-cli replay FILE`: prints a recording on stdout with the pacing it
 * was recorded with, standing in for the runner: the app's live path can then be shown and
 * tested with no GPU. Lines go out byte for byte, but for a "replay" member in the hello.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "ws-cli.h"

#include <math.h>
#include <string.h>

#include "ws-json-writer.h"
#include "ws-protocol.h"
#include "ws-record.h"

/* The record's `t` (ms since the runner started); FALSE when the line has none. The runner
 * writes it right after the type, so the first "t" member is the record's. */
static gboolean
find_t (const char *line, double *t)
{
  const char *p = strstr (line, "\"" WS_KEY_T "\":");
  char *end;
  double value;

  if (p == NULL)
    return FALSE;
  p += sizeof "\"" WS_KEY_T "\":" - 1;
  while (*p == ' ')
    p++;
  value = g_ascii_strtod (p, &end);
  if (end == p || !isfinite (value))
    return FALSE;
  *t = value;
  return TRUE;
}

/* Read with the model's record parser, which refuses nesting deeper than
 * WS_RECORD_MAX_DEPTH: json-glib recurses once per level, and a line of a million '[' after
 * a "done" would overflow the stack. */
static gboolean
is_done_record (const char *line, gsize length)
{
  g_autoptr (WsRecord) record = NULL;

  if (strstr (line, "\"" WS_RECORD_TYPE_DONE "\"") == NULL)
    return FALSE;
  record = ws_record_parse (line, length, NULL, NULL);
  return record != NULL && ws_record_type (record, WS_RECORD_ROOT) == WS_RECORD_OBJECT
         && g_strcmp0 (ws_record_string (record, WS_RECORD_ROOT, WS_KEY_TYPE),
                       WS_RECORD_TYPE_DONE) == 0;
}

/* The hello with `"replay": {"file": …, "speed": …}` added before its closing brace, the rest
 * of the line untouched. */
static char *
mark_hello (const char *line, const char *basename, double speed, GError **error)
{
  g_autoptr (GString) member = g_string_new (",");
  g_autoptr (WsJsonWriter) json = ws_json_writer_new (member, FALSE);
  const char *end = line + strlen (line);
  g_autofree char *head = NULL;

  g_string_append (member, "\"" WS_KEY_REPLAY "\":");
  ws_json_writer_begin_object (json, NULL);
  ws_json_writer_string (json, WS_KEY_FILE, basename);
  ws_json_writer_double (json, WS_KEY_SPEED, speed);
  ws_json_writer_end_object (json);
  while (end > line && (end[-1] == ' ' || end[-1] == '\r' || end[-1] == '\t'))
    end--;
  if (end == line || end[-1] != '}')
    {
      g_set_error_literal (error, WS_SESSION_ERROR, WS_SESSION_ERROR_NOT_A_SESSION,
                           _("its hello record does not end with “}”"));
      return NULL;
    }
  head = g_strndup (line, (gsize) (end - 1 - line));
  /* A recording of a replay already says so: a second member of the same name would leave
   * readers to pick one. */
  if (strstr (head, "\"" WS_KEY_REPLAY "\":") != NULL)
    return g_strdup (line);
  return g_strdup_printf ("%s%s}%s", head, member->str, end);
}

/* The next line of `in` without its newline, NULL at the end of the file. A line longer than
 * WS_SESSION_MAX_LINE is not kept (*overlong, an empty line returned): it is read past, or,
 * with `stop`, left where it is, so that /dev/zero or a disk image costs a moment, not the
 * memory. */
static char *
read_line (GBufferedInputStream *in, gboolean stop, gsize *length, gboolean *overlong,
           GError **error)
{
  g_autoptr (GString) line = g_string_new (NULL);
  gboolean any = FALSE;

  *overlong = FALSE;
  for (;;)
    {
      const char *buf, *nl;
      gsize available, take;

      if (g_buffered_input_stream_get_available (in) == 0
          && g_buffered_input_stream_fill (in, -1, NULL, error) < 0)
        return NULL;
      buf = g_buffered_input_stream_peek_buffer (in, &available);
      if (available == 0)
        break;
      any = TRUE;
      nl = memchr (buf, '\n', available);
      take = nl != NULL ? (gsize) (nl - buf) : available;
      if (!*overlong && line->len + take > WS_SESSION_MAX_LINE)
        {
          *overlong = TRUE;
          g_string_truncate (line, 0);
          if (stop)
            break;
        }
      if (!*overlong)
        g_string_append_len (line, buf, (gssize) take);
      if (g_input_stream_skip (G_INPUT_STREAM (in), take + (nl != NULL), NULL, error) < 0)
        return NULL;
      if (nl != NULL)
        break;
    }
  if (!any)
    return NULL;
  *length = line->len;
  return g_string_free (g_steal_pointer (&line), FALSE);
}

/* The longest a replay waits for one pause of the recording, whatever its timestamps say (a
 * jump of 10^15 ms would be 31,700 years) and whatever --speed. */
#define MAX_PAUSE_MS 5000.0

typedef struct
{
  double speed;
  gboolean started, said;
  double last_t;     /* the latest recorded time, ms */
  double elapsed_ms; /* the replay's time since the first record, pauses capped */
  gint64 start_us;
} Pacing;

/* Waits until the record at recorded time `t` is due: as long after the last as the
 * recording says, divided by the speed, but never more than MAX_PAUSE_MS (said once). */
static void
pace (Pacing *p, double t, const char *path)
{
  gint64 due;

  if (!isfinite (t))
    return;
  if (!p->started)
    {
      p->started = TRUE;
      p->last_t = t;
      p->start_us = g_get_monotonic_time ();
    }
  if (t > p->last_t)
    {
      double wait_ms = (t - p->last_t) / p->speed;

      if (!(wait_ms <= MAX_PAUSE_MS))
        {
          if (!p->said)
            ws_cli_warning ("replay", _("%s: the recording pauses for %.3g s at t = %.6g ms; a "
                                        "replay waits at most %.0f s for one pause, so this "
                                        "one and any longer are shortened"),
                            path, (t - p->last_t) / 1000, t, MAX_PAUSE_MS / 1000);
          p->said = TRUE;
          wait_ms = MAX_PAUSE_MS;
        }
      p->elapsed_ms += wait_ms;
      p->last_t = t;
    }
  due = p->start_us + (gint64) (p->elapsed_ms * 1000);
  if (due > g_get_monotonic_time ())
    g_usleep ((gulong) (due - g_get_monotonic_time ()));
}

int
ws_cli_replay (int argc, char **argv)
{
  double speed = 1;
  GOptionEntry entries[] = {
    { "speed", 'x', 0, G_OPTION_ARG_DOUBLE, &speed,
      N_("Play X times as fast as recorded (default 1; 0: as fast as possible)"), "X" },
    { NULL }
  };
  g_autoptr (GOptionContext) context = NULL;
  g_autoptr (GFile) file = NULL;
  g_autoptr (GFileInputStream) base = NULL;
  g_autoptr (GInputStream) data = NULL;
  g_autoptr (WsSession) check = NULL;
  g_autoptr (GError) error = NULL;
  g_autofree char *basename = NULL;
  const char *path;
  gboolean have_hello = FALSE, done = FALSE;
  Pacing pacing = { .speed = speed };

  context = ws_cli_context_new (
    "replay", _("FILE"),
    _("Prints a recorded session on stdout as the runner printed it, with its original pacing "
      "(each record's “t”), so that it can stand in for the runner: WARPSCOPE_RUNNER or the "
      "app's live path can point at it with no GPU. The hello record gains "
      "\"replay\": {\"file\": NAME, \"speed\": X}; every other line is copied byte for byte."),
    _("Exit status: 0 the whole recording, up to its done record, was printed; 1 the file "
      "could not be read, is empty, is not a session, was written by a newer Warpscope, or "
      "ends without a done record (what it holds is printed first); 2 bad arguments."),
    entries);
  if (!ws_cli_parse (context, "replay", &argc, &argv))
    return WS_CLI_EXIT_USAGE;
  if (argc < 2)
    return ws_cli_usage_error ("replay", _("which recording? Give a session file (.jsonl)."));
  if (argc > 2)
    return ws_cli_usage_error ("replay", _("one file at a time; “%s” is one too many."),
                               argv[2]);
  if (!isfinite (speed) || speed < 0)
    return ws_cli_usage_error ("replay", _("--speed must be 0 (as fast as possible) or a "
                                           "positive factor such as 0.5, 1 or 10."));
  path = argv[1];
  file = g_file_new_for_commandline_arg (path);
  basename = g_file_get_basename (file);
  base = g_file_read (file, NULL, &error);
  if (base == NULL)
    {
      if (strstr (error->message, basename) == NULL)
        g_prefix_error (&error, "%s: ", path);
      ws_cli_error ("replay", "%s", error->message);
      return WS_CLI_EXIT_FAILED;
    }
  data = g_buffered_input_stream_new_sized (G_INPUT_STREAM (base), 64 * 1024);
  /* The hello goes through the model, so that a file it would refuse is refused here with
   * its words, before anything is printed. */
  check = ws_session_new (WS_SESSION_SOURCE_REPLAY);

  for (;;)
    {
      gsize length = 0;
      gboolean overlong;
      g_autofree char *line = read_line (G_BUFFERED_INPUT_STREAM (data), !have_hello, &length,
                                         &overlong, &error);
      g_autofree char *marked = NULL;
      const char *text;
      double t;

      if (error != NULL)
        {
          ws_cli_error ("replay", "%s: %s", path, error->message);
          return WS_CLI_EXIT_FAILED;
        }
      if (line == NULL)
        break;
      if (overlong)
        {
          /* Before the hello, the model refuses the file; after it, the line is left out. */
          ws_session_feed_overlong_line (check, &error);
          if (!have_hello)
            {
              ws_cli_error ("replay", "%s: %s", path, error->message);
              return WS_CLI_EXIT_FAILED;
            }
          ws_cli_warning ("replay", "%s: %s", path, error->message);
          g_clear_error (&error);
          continue;
        }
      text = line;
      if (!have_hello)
        {
          if (strspn (line, " \t\r") == length)
            continue; /* blank lines before the hello */
          if (!ws_session_feed_line (check, line, (gssize) length, &error)
              || (marked = mark_hello (line, basename, speed, &error)) == NULL)
            {
              ws_cli_error ("replay", "%s: %s", path, error->message);
              return WS_CLI_EXIT_FAILED;
            }
          have_hello = TRUE;
          text = marked;
          length = strlen (marked);
        }
      if (speed > 0 && find_t (line, &t))
        pace (&pacing, t, path);
      fwrite (text, 1, length, stdout);
      fputc ('\n', stdout);
      /* A reader follows the stream as it comes, as it would a live runner. */
      if (speed > 0)
        fflush (stdout);
      if (is_done_record (text, length))
        {
          done = TRUE;
          break;
        }
    }
  if (fflush (stdout) != 0)
    return WS_CLI_EXIT_FAILED;
  if (!have_hello)
    {
      ws_cli_error ("replay", _("%s: the file is empty: it holds no records"), path);
      return WS_CLI_EXIT_FAILED;
    }
  if (!done)
    {
      ws_cli_error ("replay", _("%s: the recording ends without a done record: it was cut "
                                "short, and its last run may be incomplete"),
                    path);
      return WS_CLI_EXIT_FAILED;
    }
  return WS_CLI_EXIT_OK;
}
