/* test-cli.h: what the warpscope-cli tests share: running the built CLI, the bundled
 * recordings, temporary files, a stand-in runner, and reading back CSV and JSON.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <errno.h>
#include <glib.h>
#include <glib/gstdio.h>
#include <json-glib/json-glib.h>
#include <string.h>
#include <sys/wait.h>

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
  return g_build_filename (g_getenv ("WS_SAMPLES_DIR"), name, NULL);
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
  g_autoptr (GDir) d = g_dir_open (dir, 0, NULL);
  const char *name;

  while (d != NULL && (name = g_dir_read_name (d)) != NULL)
    {
      g_autofree char *path = g_build_filename (dir, name, NULL);

      g_remove (path);
    }
  g_rmdir (dir);
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
