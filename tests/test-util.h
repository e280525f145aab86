/* test-util.h: small helpers the GLib tests share (header only: each test is one program).
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>
#include <glib/gstdio.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* For g_ptr_array_sort, which passes pointers to the elements, not the strings. */
static inline int
ws_test_compare_strings (gconstpointer a, gconstpointer b)
{
  return g_strcmp0 (*(const char *const *) a, *(const char *const *) b);
}

/* The names in a folder that end with `suffix` ("" for all), sorted; NULL when it cannot be
 * read. */
static inline GPtrArray *
ws_test_list_dir (const char *path, const char *suffix)
{
  g_autoptr (GDir) dir = path ? g_dir_open (path, 0, NULL) : NULL;
  GPtrArray *names;
  const char *name;

  if (dir == NULL)
    return NULL;
  names = g_ptr_array_new_with_free_func (g_free);
  while ((name = g_dir_read_name (dir)) != NULL)
    if (g_str_has_suffix (name, suffix))
      g_ptr_array_add (names, g_strdup (name));
  g_ptr_array_sort (names, ws_test_compare_strings);
  return names;
}

/* TRUE while a process of group `pgid` is alive (zombies, which only wait to be reaped, do
 * not count). Read from /proc, so that it works where no one reaps orphans. */
static inline gboolean
ws_test_group_alive (int pgid)
{
  g_autoptr (GDir) dir = g_dir_open ("/proc", 0, NULL);
  const char *name;

  while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *path = NULL;
      g_autofree char *stat = NULL;
      const char *close;
      char state;
      int ppid, pgrp;

      if (!g_ascii_isdigit (name[0]))
        continue;
      path = g_build_filename ("/proc", name, "stat", NULL);
      /* "pid (comm) state ppid pgrp …"; comm may hold spaces and parentheses. */
      if (!g_file_get_contents (path, &stat, NULL, NULL)
          || (close = strrchr (stat, ')')) == NULL
          || sscanf (close + 1, " %c %d %d", &state, &ppid, &pgrp) != 3)
        continue;
      if (pgrp == pgid && state != 'Z' && state != 'X')
        return TRUE;
    }
  return FALSE;
}

/* The number a stand-in script wrote into `dir/name` (its $$: a group's leader's pid is the
 * group's id). */
static inline int
ws_test_read_number (const char *dir, const char *name)
{
  g_autofree char *path = g_build_filename (dir, name, NULL);
  g_autofree char *text = NULL;

  g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
  return atoi (text);
}

/* Waits up to `seconds` for group `pgid` to be gone; FALSE if it is still there. */
static inline gboolean
ws_test_wait_group_gone (int pgid, double seconds)
{
  gint64 end = g_get_monotonic_time () + (gint64) (seconds * G_USEC_PER_SEC);

  while (ws_test_group_alive (pgid))
    {
      if (g_get_monotonic_time () > end)
        return FALSE;
      g_usleep (20000);
    }
  return TRUE;
}

/* A recording in resources/samples (the tests are given the folder in WS_SAMPLES_DIR). */
static inline char *
ws_test_sample (const char *name)
{
  return g_build_filename (g_getenv ("WS_SAMPLES_DIR"), name, NULL);
}

/* The paths of every recording in resources/samples, sorted (empty where there is none). */
static inline GPtrArray *
ws_test_list_samples (void)
{
  g_autoptr (GPtrArray) names = ws_test_list_dir (g_getenv ("WS_SAMPLES_DIR"), ".jsonl");
  GPtrArray *paths = g_ptr_array_new_with_free_func (g_free);

  for (guint i = 0; names != NULL && i < names->len; i++)
    g_ptr_array_add (paths, ws_test_sample (g_ptr_array_index (names, i)));
  return paths;
}

/* A stand-in script `dir/name`: "#!/bin/sh" and `body`, in which "@SAMPLE@" stands for the
 * recording `sample` (NULL: none) and "@DIR@" for `dir`. */
static inline char *
ws_test_write_script (const char *dir, const char *name, const char *body, const char *sample)
{
  g_autofree char *recording = sample != NULL ? ws_test_sample (sample) : NULL;
  g_autoptr (GString) text = g_string_new ("#!/bin/sh\n");
  char *path = g_build_filename (dir, name, NULL);

  g_string_append (text, body);
  if (recording != NULL)
    g_string_replace (text, "@SAMPLE@", recording, 0);
  g_string_replace (text, "@DIR@", dir, 0);
  g_assert_true (g_file_set_contents (path, text->str, -1, NULL));
  g_assert_cmpint (g_chmod (path, 0755), ==, 0);
  return path;
}

/* Removes a folder the test made, and what is in it (never through a link). */
static inline void
ws_test_remove_dir (const char *dir)
{
  g_autoptr (GDir) d = g_dir_open (dir, 0, NULL);
  const char *name;

  while (d != NULL && (name = g_dir_read_name (d)) != NULL)
    {
      g_autofree char *path = g_build_filename (dir, name, NULL);

      if (g_file_test (path, G_FILE_TEST_IS_DIR) && !g_file_test (path, G_FILE_TEST_IS_SYMLINK))
        {
          g_chmod (path, 0700);
          ws_test_remove_dir (path);
        }
      else
        g_remove (path);
    }
  g_rmdir (dir);
}

/* The tests of traced programs need the runner and the stand-in for the driver. */
static inline gboolean
ws_test_have_runner (void)
{
  if (g_getenv ("WS_RUNNER") != NULL && g_getenv ("WS_FAKE_CUDA") != NULL)
    return TRUE;
  g_test_skip ("built without the runner (no CUDA toolkit)");
  return FALSE;
}

/* A stand-in session of one vector add run whose GPU counters were read (no bundled recording
 * has counters yet): achieved occupancy 78.2% of the theoretical 100%, 80.1 MB read and 40 MB
 * written, 10⁷ FP32 adds, 31.99 threads per instruction, 2 passes in 1.5 ms. Written into
 * `dir` as counters.jsonl; returns its path. */
static inline char *
ws_test_write_counted_session (const char *dir)
{
  char *path = g_build_filename (dir, "counters.jsonl", NULL);
  const char *text =
    "{\"type\":\"hello\",\"t\":0,\"protocol\":1,\"runner\":\"0.1.0\","
    "\"driver_found\":true}\n"
    "{\"type\":\"run\",\"id\":1,\"kernel\":\"vector_add\","
    "\"family\":\"vector_add\",\"shape\":[10000000,1,1],\"size\":10000000,"
    "\"block\":[256,1,1],\"grid\":[39063,1,1],\"flops\":1e7,"
    "\"bytes\":1.2e8,\"cpu\":\"none\"}\n"
    "{\"type\":\"launch\",\"run\":1,\"registers\":12,\"threads_per_block\":256,"
    "\"warps_per_block\":8,\"active_blocks_per_sm\":8,\"active_warps_per_sm\":64,"
    "\"max_warps_per_sm\":64,\"occupancy\":1,\"limiter\":\"warps\","
    "\"blocks\":39063}\n"
    "{\"type\":\"verify\",\"run\":1,\"pass\":true,\"method\":\"all\"}\n"
    "{\"type\":\"timing\",\"run\":1,\"kernel_ns\":{\"median\":37400,\"n\":10}}\n"
    "{\"type\":\"counters\",\"run\":1,\"chip\":\"GH100\",\"groups\":\"basic\","
    "\"passes\":2,\"cost_ns\":1500000,\"values\":{\"achieved_occupancy\":78.2,"
    "\"dram_bytes_read\":80100000,\"dram_bytes_write\":40000000,"
    "\"fp32_add\":10000000,\"fp32_mul\":0,\"fp32_fma\":0,"
    "\"threads_per_instruction\":31.99}}\n"
    "{\"type\":\"done\",\"runs\":1,\"failed\":0,\"exit_code\":0}\n";

  g_assert_true (g_file_set_contents (path, text, -1, NULL));
  return path;
}
