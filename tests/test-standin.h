/* test-standin.h: a stand-in runner that answers as N GPUs, for the tests of sweeps spread
 * over several GPUs (here, through ssh, through Slurm). From a bundled recording, the test
 * writes what each of N runners given --shard K/N would print: the recording's hello and
 * catalog, a device record of its own (index and UUID of that GPU), the runs at positions
 * K, K+N, … with their records, and progress over its share as the runner writes it; a
 * script then replays the one its arguments ask for with `warpscope-cli replay`.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>
#include <glib/gstdio.h>
#include <json-glib/json-glib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define STANDIN_SAMPLE "vector-add-blocks-h200.jsonl"

static inline char *
standin_sample_path (void)
{
  return g_build_filename (g_getenv ("WS_SAMPLES_DIR"), STANDIN_SAMPLE, NULL);
}

static inline char *
standin_cli_path (void)
{
  return g_test_build_filename (G_TEST_BUILT, "..", "src", "cli", "warpscope-cli", NULL);
}

/* The UUID the stand-in gives the GPU of share `k`. */
static inline char *
standin_uuid (guint k)
{
  return g_strdup_printf ("GPU-standin-%u", k);
}

static inline char *
object_line (JsonObject *object)
{
  g_autoptr (JsonNode) node = json_node_init_object (json_node_alloc (), object);

  return json_to_string (node, FALSE);
}

/* Writes `dir`/share-K-of-N.jsonl for every K: what `--shard K/N --device D` prints, D being
 * K (one host) or 0 when `all_device_0` (Slurm: each job sees its GPU as device 0). Also
 * `dir`/device-info-N.jsonl: --device-info of a host with N GPUs. */
static inline void
standin_write_shares (const char *dir, guint n, gboolean all_device_0)
{
  g_autofree char *sample = standin_sample_path ();
  g_autofree char *text = NULL;
  g_auto (GStrv) lines = NULL;
  g_autoptr (GString) info = g_string_new (NULL);
  g_autofree char *info_path = g_strdup_printf ("%s/device-info-%u.jsonl", dir, n);

  g_assert_true (g_file_get_contents (sample, &text, NULL, NULL));
  lines = g_strsplit (text, "\n", -1);
  for (guint k = 0; k < n; k++)
    {
      g_autoptr (GString) out = g_string_new (NULL);
      g_autofree char *path = g_strdup_printf ("%s/share-%u-of-%u.jsonl", dir, k, n);
      guint share = 0, done = 0;
      gboolean in_share = FALSE;

      /* The share's size first, as the runner gives it at once. */
      for (guint i = 0; lines[i] != NULL; i++)
        if (strstr (lines[i], "{\"type\":\"run\"") == lines[i])
          {
            g_autoptr (JsonNode) node = json_from_string (lines[i], NULL);
            gint64 id = json_object_get_int_member (json_node_get_object (node), "id");

            share += (guint) ((id - 1) % n == k);
          }
      for (guint i = 0; lines[i] != NULL; i++)
        {
          g_autoptr (JsonNode) node = NULL;
          JsonObject *o;
          const char *type;
          gint64 run;
          double t;

          if (*lines[i] == '\0')
            continue;
          node = json_from_string (lines[i], NULL);
          g_assert_nonnull (node);
          o = json_node_get_object (node);
          type = json_object_get_string_member (o, "type");
          t = json_object_get_double_member_with_default (o, "t", 0);
          if (g_str_equal (type, "progress"))
            continue;
          if (g_str_equal (type, "device"))
            {
              g_autofree char *uuid = standin_uuid (k);
              g_autofree char *line = NULL;

              json_object_set_int_member (o, "index", all_device_0 ? 0 : k);
              json_object_set_string_member (o, "uuid", uuid);
              line = object_line (o);
              g_string_append_printf (out, "%s\n", line);
              if (!all_device_0)
                {
                  json_object_set_double_member (o, "t", t + k);
                  g_free (line);
                  line = object_line (o);
                  g_string_append_printf (info, "%s\n", line);
                }
              continue;
            }
          if (g_str_equal (type, "run"))
            {
              run = json_object_get_int_member (o, "id");
              if (in_share)
                g_string_append_printf (out,
                                        "{\"type\":\"progress\",\"t\":%.3f,\"done\":%u,"
                                        "\"total\":%u}\n",
                                        t, ++done, share);
              else if (done == 0 && (run - 1) % n == k)
                g_string_append_printf (out,
                                        "{\"type\":\"progress\",\"t\":%.3f,\"done\":0,"
                                        "\"total\":%u}\n",
                                        t, share);
              in_share = (run - 1) % n == k;
            }
          else if (g_str_equal (type, "done"))
            {
              if (in_share)
                g_string_append_printf (out,
                                        "{\"type\":\"progress\",\"t\":%.3f,\"done\":%u,"
                                        "\"total\":%u}\n",
                                        t, ++done, share);
              g_string_append_printf (out,
                                      "{\"type\":\"done\",\"t\":%.3f,\"runs\":%u,\"failed\":0,"
                                      "\"dropped_records\":0,\"exit_code\":0}\n",
                                      t, share);
              continue;
            }
          else if (json_object_has_member (o, "run")
                   && !JSON_NODE_HOLDS_NULL (json_object_get_member (o, "run")))
            {
              if (!in_share)
                continue;
            }
          else if (!g_str_equal (type, "hello") && !g_str_equal (type, "kernel"))
            continue;
          if (!g_str_equal (type, "run") || in_share)
            g_string_append_printf (out, "%s\n", lines[i]);
        }
      g_assert_true (g_file_set_contents (path, out->str, -1, NULL));
    }
  if (!all_device_0)
    {
      g_autoptr (GString) whole = g_string_new (NULL);

      g_string_append_printf (whole, "%s\n%s", lines[0], info->str);
      g_string_append (whole, "{\"type\":\"done\",\"t\":500,\"runs\":0,\"failed\":0,"
                              "\"dropped_records\":0,\"exit_code\":0}\n");
      g_assert_true (g_file_set_contents (info_path, whole->str, -1, NULL));
    }
}

/* The stand-in runner, `dir`/runner.sh: writes its arguments (one per line) to
 * `dir`/args-K and its pid to `dir`/pid-K, then replays its share at `speed` (0: at once).
 * With --device-info it replays device-info-N.jsonl. `extra` (may be NULL) runs first, with
 * $k and $n set: a test makes one share fail there. */
static inline char *
standin_write_runner (const char *dir, guint n, double speed, const char *extra)
{
  g_autofree char *cli = standin_cli_path ();
  g_autofree char *script = NULL;
  char *path = g_build_filename (dir, "runner.sh", NULL);
  char speed_text[G_ASCII_DTOSTR_BUF_SIZE];

  g_ascii_dtostr (speed_text, sizeof speed_text, speed);
  script = g_strdup_printf ("#!/bin/sh\n"
                            "k=0 n=%u info=\n"
                            "for a in \"$@\"; do case $a in --device-info) info=1 ;; esac; done\n"
                            "prev=\n"
                            "for a in \"$@\"; do\n"
                            "  [ \"$prev\" = --shard ] && k=${a%%/*} && n=${a#*/}\n"
                            "  prev=$a\n"
                            "done\n"
                            "printf '%%s\\n' \"$@\" > '%s/args-'$k\n"
                            "echo $$ > '%s/pid-'$k\n"
                            "if [ -n \"$info\" ]; then exec '%s' replay --speed 0 "
                            "'%s/device-info-%u.jsonl'; fi\n"
                            "%s\n"
                            "exec '%s' replay --speed %s '%s/share-'$k'-of-'$n'.jsonl'\n",
                            n, dir, dir, cli, dir, n, extra != NULL ? extra : "", cli,
                            speed_text, dir);
  g_assert_true (g_file_set_contents (path, script, -1, NULL));
  g_assert_cmpint (g_chmod (path, 0755), ==, 0);
  return path;
}

/* Whether process `pid` is alive (not a zombie), from /proc. */
static inline gboolean
standin_pid_alive (int pid)
{
  g_autofree char *path = g_strdup_printf ("/proc/%d/stat", pid);
  g_autofree char *stat = NULL;
  const char *close;

  if (pid <= 0 || !g_file_get_contents (path, &stat, NULL, NULL)
      || (close = strrchr (stat, ')')) == NULL)
    return FALSE;
  return close[2] != 'Z' && close[2] != 'X';
}

/* The pid the stand-in of share `k` wrote, 0 when it did not start. */
static inline int
standin_pid (const char *dir, guint k)
{
  g_autofree char *path = g_strdup_printf ("%s/pid-%u", dir, k);
  g_autofree char *text = NULL;

  return g_file_get_contents (path, &text, NULL, NULL) ? atoi (text) : 0;
}
