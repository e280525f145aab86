/* test-cli.h: what the warpscope-cli tests share: running the built CLI, the bundled
 * recordings, temporary files, stand-in runners, reading back CSV and JSON, and what a
 * terminal may be sent.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <errno.h>
#include <glib.h>
#include <glib/gstdio.h>
#include <json-glib/json-glib.h>
#include <string.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include "test-util.h"
#include "ws-session.h"

static const char *const samples[] = {
  "matmul-naive-blocks-h200.jsonl",
  "matmul-sizes-h200.jsonl",
  "vector-add-blocks-h200.jsonl",
  "vector-add-sizes-h200.jsonl",
};

typedef struct
{
  int status;  /* exit status; -1 when it died of a signal */
  char *out;
  char *err;
  double seconds;
} Result;

static inline void
result_clear (Result *r)
{
  g_clear_pointer (&r->out, g_free);
  g_clear_pointer (&r->err, g_free);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (Result, result_clear)

static inline char *
cli_path (void)
{
  return g_test_build_filename (G_TEST_BUILT, "..", "src", "cli", "warpscope-cli", NULL);
}

static inline char *
sample_path (const char *name)
{
  return ws_test_sample (name);
}

/* Runs warpscope-cli with `args` (NULL-terminated), `env` as NAME=VALUE pairs added, in `cwd`
 * (NULL: here). */
static inline void
run_cli_full (Result *r, const char *const *args, const char *const *env, const char *cwd)
{
  g_autofree char *cli = cli_path ();
  g_autoptr (GPtrArray) argv = g_ptr_array_new ();
  g_auto (GStrv) envp = g_get_environ ();
  g_autoptr (GError) error = NULL;
  gint64 start;
  int wait_status = 0;

  g_ptr_array_add (argv, cli);
  for (guint i = 0; args[i] != NULL; i++)
    g_ptr_array_add (argv, (gpointer) args[i]);
  g_ptr_array_add (argv, NULL);
  for (guint i = 0; env != NULL && env[i] != NULL; i++)
    {
      g_auto (GStrv) pair = g_strsplit (env[i], "=", 2);

      envp = g_environ_setenv (envp, pair[0], pair[1], TRUE);
    }
  memset (r, 0, sizeof *r);
  start = g_get_monotonic_time ();
  g_assert_true (g_spawn_sync (cwd, (char **) argv->pdata, envp, G_SPAWN_DEFAULT, NULL, NULL,
                               &r->out, &r->err, &wait_status, &error));
  g_assert_no_error (error);
  r->seconds = (g_get_monotonic_time () - start) / 1e6;
  r->status = WIFEXITED (wait_status) ? WEXITSTATUS (wait_status) : -1;
  g_test_message ("warpscope-cli %s → %d\n%s", args[0], r->status, r->err);
}

static inline void
run_cli (Result *r, const char *const *args)
{
  run_cli_full (r, args, NULL, NULL);
}

static inline guint
count_runs (const char *path)
{
  g_autofree char *text = NULL;
  guint n = 0;

  g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
  for (const char *p = text; (p = strstr (p, "{\"type\":\"run\"")) != NULL; p++)
    n++;
  return n;
}

static inline char *
write_temp (const char *dir, const char *name, const char *text, gssize length)
{
  char *path = g_build_filename (dir, name, NULL);

  g_assert_true (g_file_set_contents (path, text, length, NULL));
  return path;
}

/* Removes a directory the test made, and what is in it. */
static inline void
remove_dir (const char *dir)
{
  ws_test_remove_dir (dir);
}

static inline JsonNode *
parse_json (const char *text)
{
  g_autoptr (JsonParser) parser = json_parser_new ();
  g_autoptr (GError) error = NULL;

  json_parser_load_from_data (parser, text, -1, &error);
  g_assert_no_error (error);
  return json_node_copy (json_parser_get_root (parser));
}

/* ---- CSV, the way a spreadsheet reads it ------------------------------------------------- */

static inline GPtrArray *
parse_csv (const char *text)
{
  GPtrArray *rows = g_ptr_array_new_with_free_func ((GDestroyNotify) g_ptr_array_unref);
  GPtrArray *row = g_ptr_array_new_with_free_func (g_free);
  GString *field = g_string_new (NULL);
  gboolean quoted = FALSE;

  for (const char *p = text; *p != '\0'; p++)
    {
      if (quoted)
        {
          if (*p == '"' && p[1] == '"')
            g_string_append_c (field, '"'), p++;
          else if (*p == '"')
            quoted = FALSE;
          else
            g_string_append_c (field, *p);
        }
      else if (*p == '"')
        quoted = TRUE;
      else if (*p == ',')
        g_ptr_array_add (row, g_string_free (g_steal_pointer (&field), FALSE)),
          field = g_string_new (NULL);
      else if (*p == '\r' && p[1] == '\n')
        continue;
      else if (*p == '\n')
        {
          g_ptr_array_add (row, g_string_free (g_steal_pointer (&field), FALSE));
          field = g_string_new (NULL);
          g_ptr_array_add (rows, row);
          row = g_ptr_array_new_with_free_func (g_free);
        }
      else
        g_string_append_c (field, *p);
    }
  g_assert_false (quoted);
  if (field->len > 0 || row->len > 0)
    {
      g_ptr_array_add (row, g_string_free (g_steal_pointer (&field), FALSE));
      g_ptr_array_add (rows, row);
    }
  else
    {
      g_string_free (field, TRUE);
      g_ptr_array_unref (row);
    }
  return rows;
}

static const char paced[]
  = "{\"type\":\"hello\",\"t\":0,\"protocol\":1,\"runner\":\"test\"}\n"
    "{\"type\":\"error\",\"t\":200,\"run\":null,\"severity\":\"warning\",\"code\":\"x\","
    "\"message\":\"m\"}\n"
    "{\"type\":\"done\",\"t\":600,\"runs\":0,\"failed\":0,\"dropped_records\":0,"
    "\"exit_code\":0}\n";


/* A runner stand-in: records its arguments and one variable a launcher sets, prints a
 * recording, exits with `status`. */
static inline char *
write_stand_in (const char *dir, const char *recording, int status)
{
  g_autofree char *script = g_strdup_printf ("#!/bin/sh\n"
                                             "printf '%%s\\n' \"$@\" > '%s/args'\n"
                                             "printf '%%s' \"$WS_TEST_LAUNCHER\" > '%s/launcher'\n"
                                             "cat '%s'\n"
                                             "exit %d\n",
                                             dir, dir, recording, status);
  char *path = write_temp (dir, "runner.sh", script, -1);

  g_assert_cmpint (g_chmod (path, 0755), ==, 0);
  return path;
}

/* A stand-in script in `dir`; "@SAMPLE@" (vector-add-sizes-h200.jsonl) and "@DIR@" in
 * `body` stand for the recording and `dir`. Scripts write their $$ into @DIR@/pgid: the
 * first process the CLI starts leads the group. */
static inline char *
write_script (const char *dir, const char *name, const char *body)
{
  return ws_test_write_script (dir, name, body, "vector-add-sizes-h200.jsonl");
}

/* Nothing in `text` that a terminal would act on: no C0 control but newline (and tab), no
 * DEL, no C1 control, no bidirectional override or isolate, nothing that is not UTF-8. */
static inline void
assert_terminal_safe (const char *text)
{
  static const char *const forbidden[] = { "\302\200", "\302\233", "\302\235", "\302\237",
                                           "\342\200\256", "\342\200\252", "\342\201\246",
                                           "\342\201\251" };

  g_assert_true (g_utf8_validate (text, -1, NULL));
  for (const guchar *p = (const guchar *) text; *p != '\0'; p++)
    if ((*p < 0x20 && *p != '\n' && *p != '\t') || *p == 0x7f)
      g_error ("a control character (0x%02x) reaches the terminal at: %.40s", *p,
               (const char *) p);
  for (guint i = 0; i < G_N_ELEMENTS (forbidden); i++)
    g_assert_null (strstr (text, forbidden[i]));
}

/* warpscope-cli started in the background, its stdout read as it comes. */
typedef struct
{
  GPid pid;
  int out_fd, err_fd;
  GString *out, *err;
  int status;
} Background;

static inline void
background_start (Background *b, const char *const *args, const char *const *env,
                  const char *cwd)
{
  g_autofree char *cli = cli_path ();
  g_autoptr (GPtrArray) argv = g_ptr_array_new ();
  g_auto (GStrv) envp = g_get_environ ();
  g_autoptr (GError) error = NULL;

  g_ptr_array_add (argv, cli);
  for (guint i = 0; args[i] != NULL; i++)
    g_ptr_array_add (argv, (gpointer) args[i]);
  g_ptr_array_add (argv, NULL);
  for (guint i = 0; env != NULL && env[i] != NULL; i++)
    {
      g_auto (GStrv) pair = g_strsplit (env[i], "=", 2);

      envp = g_environ_setenv (envp, pair[0], pair[1], TRUE);
    }
  memset (b, 0, sizeof *b);
  b->out = g_string_new (NULL);
  b->err = g_string_new (NULL);
  g_assert_true (g_spawn_async_with_pipes (cwd, (char **) argv->pdata, envp,
                                           G_SPAWN_DO_NOT_REAP_CHILD, NULL, NULL, &b->pid, NULL,
                                           &b->out_fd, &b->err_fd, &error));
  g_assert_no_error (error);
}

/* Reads what stdout and stderr have within 50 ms; FALSE once both have ended. */
static inline gboolean
background_read (Background *b)
{
  struct pollfd pfd[2] = { { b->out_fd, POLLIN, 0 }, { b->err_fd, POLLIN, 0 } };
  int *fds[2] = { &b->out_fd, &b->err_fd };
  GString *into[2] = { b->out, b->err };

  if (b->out_fd < 0 && b->err_fd < 0)
    return FALSE;
  if (poll (pfd, 2, 50) <= 0)
    return TRUE;
  for (int i = 0; i < 2; i++)
    {
      char buf[4096];
      ssize_t n;

      if (*fds[i] < 0 || pfd[i].revents == 0)
        continue;
      n = read (*fds[i], buf, sizeof buf);
      if (n > 0)
        g_string_append_len (into[i], buf, n);
      else
        {
          close (*fds[i]);
          *fds[i] = -1;
        }
    }
  return TRUE;
}

/* Reads its stdout until `text` appears; fails after `seconds`. */
static inline void
background_wait_for (Background *b, const char *text, double seconds)
{
  gint64 end = g_get_monotonic_time () + (gint64) (seconds * G_USEC_PER_SEC);

  while (strstr (b->out->str, text) == NULL)
    {
      if (g_get_monotonic_time () > end)
        g_error ("no “%s” in the output after %.1f s: %s", text, seconds, b->out->str);
      if (!background_read (b))
        g_error ("the output ended without “%s”: %s", text, b->out->str);
    }
}

/* Waits for it to exit, reading the rest of stdout; its status, -1 when it died of a signal.
 * Fails (and kills it) after `seconds`. */
static inline int
background_wait (Background *b, double seconds)
{
  gint64 end = g_get_monotonic_time () + (gint64) (seconds * G_USEC_PER_SEC);
  int wait_status;

  for (;;)
    {
      gboolean open = background_read (b);

      if (waitpid (b->pid, &wait_status, WNOHANG) == b->pid)
        break;
      if (g_get_monotonic_time () > end)
        {
          kill (b->pid, SIGKILL);
          g_error ("warpscope-cli did not exit within %.1f s", seconds);
        }
      if (!open)
        g_usleep (10000);
    }
  while (background_read (b))
    ;
  g_spawn_close_pid (b->pid);
  b->status = WIFEXITED (wait_status) ? WEXITSTATUS (wait_status) : -1;
  return b->status;
}

static inline void
background_clear (Background *b)
{
  if (b->out != NULL)
    g_string_free (b->out, TRUE);
  if (b->err != NULL)
    g_string_free (b->err, TRUE);
  b->out = b->err = NULL;
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (Background, background_clear)
