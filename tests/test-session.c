/* test-session.c: reading and writing sessions: the bundled recordings, round trips, atomic
 * saves, and every kind of bad file.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <glib.h>
#include <glib/gstdio.h>
#include <json-glib/json-glib.h>
#include <string.h>
#include <unistd.h>

#include "ws-format.h"
#include "ws-units.h"
#include "ws-session-private.h"
#include "ws-trace.h"
#include "test-session-util.h"

static WsSession *
load_text (const char *text, GError **error)
{
  g_autofree char *path = NULL;
  int fd = g_file_open_tmp ("ws-test-XXXXXX.jsonl", &path, NULL);
  g_autoptr (GFile) file = NULL;
  WsSession *session;

  g_assert_cmpint (fd, >=, 0);
  close (fd);
  g_assert_true (g_file_set_contents (path, text, -1, NULL));
  file = g_file_new_for_path (path);
  session = ws_session_load (file, NULL, error);
  g_unlink (path);
  return session;
}

/* Counts the lines of a type in a file, the way a person would with grep. */
static guint
count_type (const char *path, const char *type)
{
  g_autofree char *text = NULL;
  g_autofree char *needle = g_strdup_printf ("\"type\":\"%s\"", type);
  g_auto (GStrv) lines = NULL;
  guint n = 0;

  g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
  lines = g_strsplit (text, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    n += strstr (lines[i], needle) != NULL;
  return n;
}

/* A memory-check session: the runner exits 1 when compute-sanitizer found errors, and every
 * finding names its kernel and a line that the session's own copy of the source has. */
static void
check_memcheck_sample (WsSession *session, const char *path)
{
  GPtrArray *findings = ws_session_get_memcheck_findings (session);
  const char *text = ws_session_get_source_text (session, NULL, NULL);
  g_auto (GStrv) lines = NULL;
  int exit_code = -1;

  g_assert_null (ws_session_get_device (session));
  g_assert_cmpuint (ws_session_get_n_activities (session), ==, 0);
  g_assert_cmpuint (ws_session_get_problems (session)->len, ==, 0);
  g_assert_cmpuint (findings->len, ==, count_type (path, "memcheck"));
  g_assert_cmpuint (findings->len, >, 0);
  g_assert_true (ws_session_is_done (session, &exit_code, NULL));
  g_assert_cmpint (exit_code, ==, 1);
  g_assert_nonnull (text);
  lines = g_strsplit (text, "\n", -1);
  for (guint i = 0; i < findings->len; i++)
    {
      WsMemcheckFinding *f = g_ptr_array_index (findings, i);

      g_assert_nonnull (f->kernel);
      g_assert_cmpint (f->line, >, 0);
      g_assert_cmpint (f->line, <=, (int) g_strv_length (lines));
      /* The line is the kernel's access, not a comment of the header. */
      g_assert_nonnull (strstr (lines[f->line - 1], "["));
    }
}

static void
test_samples_load (void)
{
  g_autoptr (GPtrArray) paths = ws_test_list_samples ();

  if (paths->len == 0)
    {
      g_test_skip ("no recordings in resources/samples");
      return;
    }
  for (guint i = 0; i < paths->len; i++)
    {
      const char *path = g_ptr_array_index (paths, i);
      g_autoptr (WsSession) session = ws_test_load_file (path);
      GListModel *runs = ws_session_get_runs (session);
      WsDevice *device = ws_session_get_device (session);
      int exit_code = -1;

      g_test_message ("%s", path);
      /* A memory check (run --memcheck) times nothing: no device record, no run, only what
       * compute-sanitizer found, each at a line of the recorded source. */
      if (g_list_model_get_n_items (runs) == 0 && count_type (path, "memcheck") > 0)
        {
          check_memcheck_sample (session, path);
          continue;
        }
      g_assert_nonnull (device);
      /* Every sample names the real GPU it was recorded on. */
      g_assert_true (g_str_has_prefix (ws_device_get_name (device), "NVIDIA"));
      g_assert_cmpuint (g_list_model_get_n_items (runs), ==, count_type (path, "run"));
      g_assert_cmpuint (ws_session_get_n_activities (session), ==, count_type (path, "activity"));
      g_assert_cmpuint (ws_session_get_problems (session)->len, ==, 0);
      if (ws_session_get_trace (session) != NULL)
        {
          /* A traced program: recorded by the library alone, no done record; through the
           * runner's --trace, a done record with its exit code. Every process closed its
           * records (tests/test-trace.c reads them). */
          if (count_type (path, "done") == 0)
            g_assert_false (ws_session_is_done (session, NULL, NULL));
          else
            g_assert_true (ws_session_is_done (session, NULL, NULL));
          g_assert_cmpuint (ws_trace_get_processes (ws_session_get_trace (session))->len, ==,
                            count_type (path, "trace_end"));
          continue;
        }
      g_assert_cmpfloat (ws_device_get_info (device)->bandwidth_measured_gbs, >, 0);
      g_assert_true (ws_session_is_done (session, &exit_code, NULL));
      g_assert_cmpint (exit_code, ==, 0);
      for (guint r = 0; r < g_list_model_get_n_items (runs); r++)
        {
          g_autoptr (WsRun) run = g_list_model_get_item (runs, r);
          guint n;
          const WsSpan *a = ws_run_get_activities (run, &n);

          const WsRunConfig *c = ws_run_get_config (run);

          g_assert_cmpint (ws_run_get_state (run), ==, WS_RUN_STATE_COMPLETE);
          /* Library kernels (cuBLAS) choose their own launch: no block, no launch record. */
          g_assert_cmpint (c->has_block, ==, !c->library);
          g_assert_cmpint (c->has_grid, ==, !c->library);
          if (c->has_block)
            g_assert_nonnull (ws_run_get_launch (run));
          g_assert_cmpfloat (ws_run_get_kernel_ns (run), >, 0);
          g_assert_cmpuint (n, >, 0);
          for (guint j = 1; j < n; j++)
            g_assert_cmpint (a[j - 1].start, <=, a[j].start);
        }
      {
        g_autofree char *date = ws_session_dup_date (session);

        g_assert_nonnull (date);
        g_assert_cmpuint (strlen (date), ==, 10);
      }
    }
}

/* The fast path for activity lines reads exactly what the general parser reads. */
static void
test_fast_path (void)
{
  g_autoptr (GPtrArray) paths = ws_test_list_samples ();
  guint compared = 0;

  for (guint i = 0; i < paths->len; i++)
    {
      g_autofree char *text = NULL;
      g_auto (GStrv) lines = NULL;

      g_assert_true (g_file_get_contents (g_ptr_array_index (paths, i), &text, NULL, NULL));
      lines = g_strsplit (text, "\n", -1);
      for (guint l = 0; lines[l] != NULL; l++)
        {
          WsSpan fast, slow;
          guint32 fast_run, slow_run = 0;
          g_autoptr (WsSession) s = ws_session_new (WS_SESSION_SOURCE_RECORDING);
          g_autoptr (GError) error = NULL;

          if (strstr (lines[l], "\"type\":\"activity\"") == NULL)
            continue;
          g_assert_true (_ws_session_parse_activity (lines[l], strlen (lines[l]), &fast, &fast_run));
          /* The slow path: the same line, through the general parser (ws-record.c). */
          g_assert_true (ws_session_feed_line (
            s, "{\"type\":\"hello\",\"protocol\":1}", -1, &error));
          {
            g_autofree char *run = g_strdup_printf ("{\"type\":\"run\",\"id\":%u}", fast_run);

            g_assert_true (ws_session_feed_line (s, run, -1, &error));
          }
          {
            /* Reorder the keys so the fast path refuses it and the general parser reads it. */
            g_autofree char *moved = g_strdup_printf ("{\"x\":{},%s", lines[l] + 1);

            g_assert_false (_ws_session_parse_activity (moved, strlen (moved), &slow, &slow_run));
            g_assert_true (ws_session_feed_line (s, moved, -1, &error));
            g_assert_no_error (error);
          }
          {
            WsRun *run = ws_session_find_run (s, (int) fast_run);
            guint n;
            const WsSpan *a = ws_run_get_activities (run, &n);

            g_assert_cmpuint (n, ==, 1);
            slow = a[0];
          }
          g_assert_cmpint (fast.start, ==, slow.start);
          g_assert_cmpint (fast.end, ==, slow.end);
          g_assert_cmpuint (fast.bytes, ==, slow.bytes);
          g_assert_true (fast.name == slow.name);
          g_assert_true (fast.detail == slow.detail);
          g_assert_cmpuint (fast.kind, ==, slow.kind);
          g_assert_cmpuint (fast.phase, ==, slow.phase);
          g_assert_cmpuint (fast.direction, ==, slow.direction);
          g_assert_cmpuint (fast.host_memory, ==, slow.host_memory);
          g_assert_cmpuint (fast.rep, ==, slow.rep);
          g_assert_cmpuint (fast.stream, ==, slow.stream);
          g_assert_cmpmem (fast.grid, sizeof fast.grid, slow.grid, sizeof slow.grid);
          g_assert_cmpmem (fast.block, sizeof fast.block, slow.block, sizeof slow.block);
          if (++compared >= 400)
            return;
        }
    }
  if (compared == 0)
    g_test_skip ("no recordings in resources/samples");
}

/* Parses each line of a stream into JSON objects, dropping the t of activities (the model
 * does not keep it). */
static GPtrArray *
records_of (const char *text)
{
  g_auto (GStrv) lines = g_strsplit (text, "\n", -1);
  GPtrArray *records = g_ptr_array_new_with_free_func (g_free);

  for (guint i = 0; lines[i] != NULL; i++)
    {
      g_autoptr (JsonParser) parser = json_parser_new ();
      g_autoptr (GError) error = NULL;
      JsonObject *o;
      g_autoptr (JsonNode) copy = NULL;

      if (lines[i][0] == '\0')
        continue;
      json_parser_load_from_data (parser, lines[i], -1, &error);
      g_assert_no_error (error);
      copy = json_node_copy (json_parser_get_root (parser));
      o = json_node_get_object (copy);
      if (g_strcmp0 (json_object_get_string_member (o, "type"), "activity") == 0)
        json_object_remove_member (o, "t");
      g_ptr_array_add (records, json_to_string (copy, FALSE));
    }
  return records;
}

static void
test_round_trip (void)
{
  g_autoptr (GPtrArray) paths = ws_test_list_samples ();

  if (paths->len == 0)
    {
      g_test_skip ("no recordings in resources/samples");
      return;
    }
  for (guint i = 0; i < paths->len; i++)
    {
      const char *path = g_ptr_array_index (paths, i);
      g_autoptr (WsSession) session = ws_test_load_file (path);
      g_autofree char *original = NULL;
      g_autofree char *written = ws_test_write_to_string (session);
      g_autoptr (GPtrArray) a = NULL, b = NULL;

      g_assert_true (g_file_get_contents (path, &original, NULL, NULL));
      a = records_of (original);
      b = records_of (written);
      g_assert_cmpuint (a->len, ==, b->len);
      for (guint r = 0; r < a->len; r++)
        g_assert_cmpstr (g_ptr_array_index (a, r), ==, g_ptr_array_index (b, r));
    }
}

static const char minimal[]
  = "{\"type\":\"hello\",\"t\":0,\"protocol\":1,\"runner\":\"0.1.0\",\"time\":\"2026-11-29T17:30:06Z\"}\n"
    "{\"type\":\"device\",\"t\":1,\"index\":0,\"name\":\"Test GPU\",\"sm\":\"sm_90\",\"sm_count\":132,"
    "\"future_field\":{\"kept\":true}}\n"
    "{\"type\":\"run\",\"t\":2,\"id\":1,\"kernel\":\"vector_add\",\"shape\":[1000],\"size\":1000,"
    "\"block\":[256,1,1],\"grid\":[4,1,1],\"transfer\":\"pinned\"}\n"
    "{\"type\":\"activity\",\"t\":3,\"run\":1,\"phase\":\"sequence\",\"rep\":0,\"kind\":\"memcpy\","
    "\"start\":100,\"end\":300,\"direction\":\"htod\",\"bytes\":8000,\"host_memory\":\"pinned\","
    "\"stream\":7,\"correlation\":1}\n"
    "{\"type\":\"activity\",\"t\":3,\"run\":1,\"phase\":\"sequence\",\"rep\":0,\"kind\":\"kernel\","
    "\"start\":250,\"end\":450,\"name\":\"vector_add\",\"grid\":[4,1,1],\"block\":[256,1,1],"
    "\"registers\":16,\"static_smem\":0,\"dynamic_smem\":0,\"stream\":7,\"correlation\":2}\n"
    "{\"type\":\"activity\",\"t\":3,\"run\":1,\"phase\":\"sequence\",\"rep\":0,\"kind\":\"memcpy\","
    "\"start\":500,\"end\":600,\"direction\":\"dtoh\",\"bytes\":4000,\"host_memory\":\"pinned\","
    "\"stream\":7,\"correlation\":3}\n"
    "{\"type\":\"a_later_record\",\"t\":4,\"what\":\"unknown\"}\n";

/* Two streams one after the other (recordings joined with cat): the second one's runs are
 * announced after the first done record, and their activities must be written after them,
 * or reading the saved file back drops them. */
static void
test_round_trip_after_done (void)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *text = g_strconcat (
    minimal, "{\"type\":\"done\",\"t\":5,\"exit_code\":0}\n",
    "{\"type\":\"run\",\"t\":6,\"id\":2,\"kernel\":\"vector_add\",\"shape\":[1000],"
    "\"size\":1000,\"block\":[128,1,1],\"grid\":[8,1,1],\"transfer\":\"pinned\"}\n"
    "{\"type\":\"activity\",\"t\":7,\"run\":2,\"phase\":\"sequence\",\"rep\":0,"
    "\"kind\":\"kernel\",\"start\":900,\"end\":950,\"name\":\"vector_add\",\"stream\":7}\n"
    "{\"type\":\"activity\",\"t\":7,\"run\":2,\"phase\":\"sequence\",\"rep\":0,"
    "\"kind\":\"memcpy\",\"start\":960,\"end\":990,\"direction\":\"dtoh\",\"bytes\":4000,"
    "\"stream\":7}\n"
    "{\"type\":\"done\",\"t\":8,\"exit_code\":0}\n",
    NULL);
  g_autoptr (WsSession) session = load_text (text, &error);
  g_autoptr (WsSession) again = NULL;
  g_autofree char *written = NULL;
  guint n;

  g_assert_no_error (error);
  g_assert_cmpuint (ws_session_get_n_activities (session), ==, 5);
  written = ws_test_write_to_string (session);
  again = load_text (written, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (ws_session_get_n_activities (again), ==, 5);
  ws_run_get_activities (ws_session_find_run (again, 2), &n);
  g_assert_cmpuint (n, ==, 2);
  /* Run 2's activities come after its run record. */
  g_assert_true (strstr (written, "\"run\":2,\"phase\"") > strstr (written, "\"id\":2,"));
}

static void
test_unknown_kept (void)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *text = g_strconcat (minimal, "{\"type\":\"done\",\"t\":5,\"exit_code\":0}\n", NULL);
  g_autoptr (WsSession) session = load_text (text, &error);
  g_autofree char *written = NULL;

  g_assert_no_error (error);
  g_assert_cmpuint (ws_session_get_problems (session)->len, ==, 0);
  written = ws_test_write_to_string (session);
  /* Fields and records of later versions go back out unchanged. */
  g_assert_nonnull (strstr (written, "\"future_field\":{\"kept\":true}"));
  g_assert_nonnull (strstr (written, "{\"type\":\"a_later_record\",\"t\":4,\"what\":\"unknown\"}"));
}

static void
test_totals (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (WsSession) session = load_text (minimal, &error);
  WsRun *run = ws_session_find_run (session, 1);
  WsTotals t;

  g_assert_no_error (error);
  ws_run_get_totals (run, &t);
  /* Copies 100–300 and 500–600, kernel 250–450: they overlap 250–300, nothing runs 450–500. */
  g_assert_cmpint (t.span_ns, ==, 500);
  g_assert_cmpint (t.copy_ns, ==, 300);
  g_assert_cmpint (t.h2d_ns, ==, 200);
  g_assert_cmpint (t.d2h_ns, ==, 100);
  g_assert_cmpint (t.kernel_ns, ==, 200);
  g_assert_cmpint (t.overlap_ns, ==, 50);
  g_assert_cmpint (t.idle_ns, ==, 50);
  ws_session_get_window_totals (session, 200, 520, &t);
  g_assert_cmpint (t.span_ns, ==, 320);
  g_assert_cmpint (t.copy_ns, ==, 120);
  g_assert_cmpint (t.kernel_ns, ==, 200);
  g_assert_cmpint (t.overlap_ns, ==, 50);
  g_assert_cmpint (t.idle_ns, ==, 50);
  /* The stream had no done record: the run is incomplete, and that is said. */
  g_assert_cmpint (ws_run_get_state (run), ==, WS_RUN_STATE_INCOMPLETE);
  g_assert_cmpuint (ws_session_get_problems (session)->len, ==, 1);
}

static void
test_malformed_lines (void)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *text = g_strconcat (minimal,
                                       "{\"type\":\"verify\",\"run\":1,\"pass\":tru}\n"
                                       "not json at all\n"
                                       "[1,2,3]\n"
                                       "{\"type\":\"timing\",\"run\":99}\n"
                                       "{\"type\":\"verify\",\"t\":6,\"run\":1,\"pass\":true}\n"
                                       "{\"type\":\"timing\",\"t\":7,\"run\":1,\"kernel_ns\":"
                                       "{\"median\":200,\"min\":190,\"max\":220,\"n\":3}}\n"
                                       "{\"type\":\"done\",\"t\":8,\"exit_code\":0}\n"
                                       "{\"type\":\"activity\",\"run\":1,\"kind\":\"kern",
                                       NULL);
  g_autoptr (WsSession) session = load_text (text, &error);
  GPtrArray *problems;
  WsProblem *p;

  g_assert_no_error (error);
  problems = ws_session_get_problems (session);
  g_assert_cmpuint (problems->len, ==, 5);
  p = g_ptr_array_index (problems, 0);
  g_assert_cmpuint (p->line, ==, 8);
  g_assert_cmpuint (p->column, >, 30);
  p = g_ptr_array_index (problems, 3);
  g_assert_cmpuint (p->line, ==, 11);
  g_assert_nonnull (strstr (p->message, "run 99"));
  p = g_ptr_array_index (problems, 4); /* the truncated last line */
  g_assert_cmpuint (p->line, ==, 15);
  /* The rest still loaded. */
  g_assert_cmpint (ws_run_get_state (ws_session_find_run (session, 1)), ==, WS_RUN_STATE_COMPLETE);
  g_assert_cmpfloat (ws_run_get_kernel_ns (ws_session_find_run (session, 1)), ==, 200);
}

static void
test_bad_files (void)
{
  struct
  {
    const char *text;
    gsize len;
    WsSessionError code;
    const char *phrase;
  } cases[] = {
    /* The length of each text from its literal, NULs included, less the terminating one. */
#define TEXT(literal) literal, sizeof (literal) - 1
    { TEXT (""), WS_SESSION_ERROR_EMPTY, "empty" },
    { TEXT ("\n\n"), WS_SESSION_ERROR_EMPTY, "empty" },
    { TEXT ("\x89PNG\r\n\x1a\n\0\0\0\rIHDR\0\0\0\x10"), WS_SESSION_ERROR_NOT_A_SESSION,
      "binary data (a NUL byte at byte 9)" },
    { TEXT ("GIF89a\n"), WS_SESSION_ERROR_NOT_A_SESSION, "not JSON" },
    { TEXT ("{\"type\":\"run\",\"id\":1}\n"), WS_SESSION_ERROR_NOT_A_SESSION, "hello" },
    { TEXT ("{\"type\":\"hello\",\"protocol\":99,\"runner\":\"9.0\"}\n"),
      WS_SESSION_ERROR_NEWER_PROTOCOL, "newer Warpscope" },
    { TEXT ("{\"type\":\"hello\"}\n"), WS_SESSION_ERROR_NOT_A_SESSION, "no protocol" },
#undef TEXT
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *path = NULL;
      int fd = g_file_open_tmp ("ws-test-XXXXXX.jsonl", &path, NULL);
      g_autoptr (GFile) file = g_file_new_for_path (path);
      g_autoptr (GError) error = NULL;
      g_autoptr (WsSession) session = NULL;

      g_assert_cmpint (write (fd, cases[i].text, cases[i].len), ==, (gssize) cases[i].len);
      close (fd);
      session = ws_session_load (file, NULL, &error);
      g_assert_null (session);
      g_assert_error (error, WS_SESSION_ERROR, (int) cases[i].code);
      if (strstr (error->message, cases[i].phrase) == NULL)
        g_error ("case %u: \"%s\" lacks \"%s\"", i, error->message, cases[i].phrase);
      /* The message names the file. */
      g_assert_nonnull (strstr (error->message, path));
      g_unlink (path);
    }
  {
    g_autoptr (GFile) missing = g_file_new_for_path ("/nonexistent/session.jsonl");
    g_autoptr (GError) error = NULL;

    g_assert_null (ws_session_load (missing, NULL, &error));
    g_assert_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND);
  }
}

static void
test_save_atomic (void)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("ws-save-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "session.jsonl", NULL);
  g_autofree char *blocker = g_build_filename (dir, "not-a-dir", NULL);
  g_autofree char *inside = g_build_filename (blocker, "session.jsonl", NULL);
  g_autoptr (GFile) file = g_file_new_for_path (path);
  g_autoptr (GFile) bad = g_file_new_for_path (inside);
  g_autoptr (WsSession) session = load_text (minimal, &error);
  g_autoptr (WsSession) again = NULL;
  g_autoptr (GDir) listing = NULL;
  const char *name;
  guint files = 0;

  g_assert_no_error (error);
  g_assert_true (g_file_set_contents (path, "the old contents\n", -1, NULL));
  g_assert_true (ws_session_save (session, file, NULL, &error));
  g_assert_no_error (error);
  again = ws_session_load (file, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (ws_session_get_n_activities (again), ==, 3);
  /* No temporary file is left beside it. */
  listing = g_dir_open (dir, 0, NULL);
  while ((name = g_dir_read_name (listing)) != NULL)
    files++;
  g_assert_cmpuint (files, ==, 1);
  /* A save that cannot happen fails with an error and touches nothing. */
  g_assert_true (g_file_set_contents (blocker, "a file where a folder should be", -1, NULL));
  g_assert_false (ws_session_save (session, bad, NULL, &error));
  g_assert_nonnull (error);
  g_clear_error (&error);
  g_unlink (blocker);
  g_unlink (path);
  g_rmdir (dir);
}

static void
test_series (void)
{
  g_autofree char *sizes = ws_test_sample ("vector-add-sizes-h200.jsonl");
  g_autofree char *blocks = ws_test_sample ("vector-add-blocks-h200.jsonl");
  g_autoptr (WsSession) s1 = NULL, s2 = NULL;
  g_autoptr (GPtrArray) by_size = NULL, by_block = NULL;

  if (!g_file_test (sizes, G_FILE_TEST_EXISTS) || !g_file_test (blocks, G_FILE_TEST_EXISTS))
    {
      g_test_skip ("recordings missing");
      return;
    }
  s1 = ws_test_load_file (sizes);
  by_size = ws_session_get_series (s1, WS_SERIES_BY_SIZE, 2);
  g_assert_cmpuint (by_size->len, ==, 2); /* pageable and pinned */
  for (guint i = 0; i < by_size->len; i++)
    {
      WsSeries *series = g_ptr_array_index (by_size, i);

      g_assert_cmpuint (series->runs->len, ==, 6);
      for (guint r = 1; r < series->runs->len; r++)
        g_assert_cmpfloat (ws_run_get_config (g_ptr_array_index (series->runs, r - 1))->size, <,
                           ws_run_get_config (g_ptr_array_index (series->runs, r))->size);
    }
  s2 = ws_test_load_file (blocks);
  by_block = ws_session_get_series (s2, WS_SERIES_BY_BLOCK, 2);
  g_assert_cmpuint (by_block->len, ==, 1);
  g_assert_cmpuint (((WsSeries *) g_ptr_array_index (by_block, 0))->runs->len, ==, 32);
  /* Pinned copies of 10^7 floats take less time than pageable ones in the same recording. */
  {
    WsSeries *pageable = g_ptr_array_index (by_size, 0), *pinned = g_ptr_array_index (by_size, 1);
    WsRun *a = g_ptr_array_index (pageable->runs, 4), *b = g_ptr_array_index (pinned->runs, 4);

    g_assert_cmpstr (pageable->transfer, ==, "pageable");
    g_assert_cmpfloat (ws_run_get_timing (b)->h2d.median, <, ws_run_get_timing (a)->h2d.median);
  }
}

static void
test_live_feed (void)
{
  g_autoptr (WsSession) session = ws_session_new (WS_SESSION_SOURCE_LIVE);
  g_auto (GStrv) lines = g_strsplit (minimal, "\n", -1);
  guint added = 0;
  g_autoptr (GError) error = NULL;

  for (guint i = 0; lines[i] != NULL; i++)
    {
      guint before = g_list_model_get_n_items (ws_session_get_runs (session));

      g_assert_true (ws_session_feed_line (session, lines[i], -1, &error));
      g_assert_no_error (error);
      added += g_list_model_get_n_items (ws_session_get_runs (session)) - before;
    }
  g_assert_cmpuint (added, ==, 1);
  g_assert_true (ws_session_feed_line (session, "{\"type\":\"verify\",\"run\":1,\"pass\":false}",
                                       -1, &error));
  g_assert_cmpint (ws_run_get_state (ws_session_find_run (session, 1)), ==, WS_RUN_STATE_RUNNING);
  g_assert_true (ws_session_feed_line (session, "{\"type\":\"timing\",\"run\":1}", -1, &error));
  g_assert_cmpint (ws_run_get_state (ws_session_find_run (session, 1)), ==, WS_RUN_STATE_FAILED);
}

static void
test_format (void)
{
  static const struct
  {
    guint64 value;
    const char *text;
  } grouped[] = { { 0, "0" }, { 999, "999" }, { 1000, "1,000" }, { 10000000, "10,000,000" },
                  { 123456789012, "123,456,789,012" } };
  static const struct
  {
    double ns;
    const char *text;
  } durations[] = { { 0, "—" }, { -5, "—" }, { 512, "512 ns" }, { 37420, "37.4 µs" },
                    { 12230000, "12.2 ms" }, { 2.5e9, "2.50 s" } };

  for (guint i = 0; i < G_N_ELEMENTS (grouped); i++)
    {
      g_autofree char *text = ws_units_grouped (grouped[i].value);

      g_assert_cmpstr (text, ==, grouped[i].text);
    }
  for (guint i = 0; i < G_N_ELEMENTS (durations); i++)
    {
      g_autofree char *text = ws_units_duration (durations[i].ns);

      g_assert_cmpstr (text, ==, durations[i].text);
    }
}

/* How a run's block is named: a library call (cuBLAS) launches blocks of its own choosing and
 * has none to name. */
static void
test_block_labels (void)
{
  g_autofree char *matmul = ws_test_sample ("matmul-ladder-h200.jsonl");
  g_autofree char *vector = ws_test_sample ("vector-add-sizes-h200.jsonl");
  g_autoptr (WsSession) m = ws_test_load_file (matmul);
  g_autoptr (WsSession) v = ws_test_load_file (vector);
  guint n = g_list_model_get_n_items (ws_session_get_runs (m));
  gboolean saw_library = FALSE, saw_2d = FALSE;

  for (guint i = 0; i < n; i++)
    {
      g_autoptr (WsRun) run = g_list_model_get_item (ws_session_get_runs (m), i);
      g_autofree char *label = ws_run_dup_block_label (run);
      g_autofree char *phrase = ws_run_dup_block_phrase (run);

      if (g_str_equal (ws_run_get_config (run)->kernel, "matmul_cublas"))
        {
          saw_library = TRUE;
          g_assert_cmpstr (label, ==, "");
          g_assert_cmpstr (phrase, ==, "");
        }
      else if (g_str_equal (label, "16×16"))
        {
          saw_2d = TRUE;
          g_assert_cmpstr (phrase, ==, "16×16 block");
        }
    }
  g_assert_true (saw_library && saw_2d);
  {
    WsRun *run = ws_session_find_run (v, 1);
    g_autofree char *phrase = ws_run_dup_block_phrase (run);

    g_assert_cmpstr (phrase, ==, "256 threads");
  }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/session/samples-load", test_samples_load);
  g_test_add_func ("/session/fast-path", test_fast_path);
  g_test_add_func ("/session/round-trip", test_round_trip);
  g_test_add_func ("/session/unknown-kept", test_unknown_kept);
  g_test_add_func ("/session/round-trip-after-done", test_round_trip_after_done);
  g_test_add_func ("/session/totals", test_totals);
  g_test_add_func ("/session/malformed-lines", test_malformed_lines);
  g_test_add_func ("/session/bad-files", test_bad_files);
  g_test_add_func ("/session/save-atomic", test_save_atomic);
  g_test_add_func ("/session/series", test_series);
  g_test_add_func ("/session/live-feed", test_live_feed);
  g_test_add_func ("/session/format", test_format);
  g_test_add_func ("/session/block-labels", test_block_labels);
  return g_test_run ();
}
