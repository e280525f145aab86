/* test-session-hostile.c: files and lines a careless or hostile person could hand the reader
 * (deep nesting, binary data, endless lines, odd encodings; numbers are in
 * test-session-numbers.c), each with
 * the exact answer: a clear message, no crash, bounded time and memory, the rest loaded.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <sys/resource.h>

#include "ws-record.h"
#include "test-session-fixtures.h"

/* ---- nesting ------------------------------------------------------------------------------ */

/* A million '[' in an activity line (the fast path) and in another record (the general
 * path), and 200,000 '{': each is one problem, and the lines after it load. */
static void
test_deep_nesting (void)
{
  const gsize depth = 1000000;
  g_autofree char *brackets = repeat ('[', depth);
  g_autofree char *braces = NULL;
  g_autoptr (GString) text = g_string_new (HELLO RUN);
  g_autoptr (GError) error = NULL;
  g_autoptr (WsSession) session = NULL;
  GPtrArray *problems;

  {
    GString *b = g_string_new (NULL);

    /* Five bytes a level: as many as fit in a line (WS_SESSION_MAX_LINE). */
    for (gsize i = 0; i < depth / 5; i++)
      g_string_append (b, "{\"a\":");
    braces = g_string_free (b, FALSE);
  }
  g_string_append_printf (text, "{\"type\":\"activity\",\"run\":1,\"kind\":\"kernel\",\"start\":1,"
                                "\"end\":2,\"x\":%s}\n",
                          brackets);
  g_string_append_printf (text, "{\"type\":\"a_later_record\",\"x\":%s}\n", brackets);
  g_string_append_printf (text, "{\"type\":\"a_later_record\",\"x\":%s}\n", braces);
  g_string_append (text, KERNEL DONE);
  session = load_bytes (text->str, text->len, &error);
  g_assert_no_error (error);
  problems = ws_session_get_problems (session);
  g_assert_cmpuint (problems->len, ==, 3);
  for (guint i = 0; i < 3; i++)
    {
      WsProblem *p = g_ptr_array_index (problems, i);

      g_assert_cmpuint (p->line, ==, 3 + i);
      g_assert_nonnull (strstr (p->message, "values nested deeper than 64 levels"));
    }
  g_assert_cmpuint (ws_session_get_n_activities (session), ==, 1);
  g_assert_true (ws_session_is_done (session, NULL, NULL));
}

/* 64 levels are read, 65 are not, whichever path reads them. */
static void
test_depth_limit (void)
{
  for (int levels = WS_RECORD_MAX_DEPTH - 1; levels <= WS_RECORD_MAX_DEPTH + 1; levels++)
    {
      /* The record itself is the first level. */
      g_autofree char *open = repeat ('[', (gsize) levels - 1);
      g_autofree char *close = repeat (']', (gsize) levels - 1);
      g_autofree char *fast = g_strdup_printf ("{\"type\":\"activity\",\"run\":1,\"kind\":\"kernel\","
                                               "\"start\":1,\"end\":2,\"x\":%s%s}",
                                               open, close);
      g_autofree char *general = g_strdup_printf ("{\"x\":%s%s,\"type\":\"activity\",\"run\":1,"
                                                  "\"kind\":\"kernel\",\"start\":1,\"end\":2}",
                                                  open, close);
      gboolean readable = levels <= WS_RECORD_MAX_DEPTH;
      g_autoptr (WsSession) session = fed_session ();
      g_autoptr (GError) error = NULL;
      g_autoptr (WsRecord) record = NULL;
      WsSpan a;
      guint32 run;

      g_test_message ("%d levels", levels);
      record = ws_record_parse (general, strlen (general), NULL, &error);
      g_assert_true ((record != NULL) == readable);
      if (!readable)
        g_assert_nonnull (strstr (error->message, "values nested deeper than 64 levels"));
      g_clear_error (&error);
      g_assert_true (_ws_session_parse_activity (fast, strlen (fast), &a, &run) == readable);
      g_assert_true (ws_session_feed_line (session, fast, -1, NULL) == readable);
      g_assert_true (ws_session_feed_line (session, general, -1, NULL) == readable);
      g_assert_cmpuint (ws_session_get_n_activities (session), ==, readable ? 2 : 0);
    }
}

/* ---- binary data and endless lines ---------------------------------------------------------- */

static gint64
elapsed_ms_loading (const char *path, GError **error, WsSession **session)
{
  gint64 t0 = g_get_monotonic_time ();

  *session = load_path (path, error);
  return (g_get_monotonic_time () - t0) / 1000;
}

/* /dev/zero, a 64 MiB file of zeros and a 2 GB sparse file are refused at their first bytes. */
static void
test_zeros (void)
{
  const char *paths[] = { "/dev/zero", NULL, NULL };
  const gint64 sizes[] = { 0, 64 << 20, G_GINT64_CONSTANT (2) << 30 };

  for (guint i = 0; i < G_N_ELEMENTS (paths); i++)
    {
      g_autofree char *path = i > 0 ? temp_path () : g_strdup (paths[i]);
      g_autoptr (GError) error = NULL;
      g_autoptr (WsSession) session = NULL;
      gint64 ms;

      if (i > 0)
        {
          FILE *f = g_fopen (path, "r+");

          g_assert_nonnull (f);
          g_assert_cmpint (ftruncate (fileno (f), sizes[i]), ==, 0);
          fclose (f);
        }
      ms = elapsed_ms_loading (path, &error, &session);
      g_test_message ("%s: %" G_GINT64_FORMAT " ms", path, ms);
      g_assert_null (session);
      g_assert_error (error, WS_SESSION_ERROR, WS_SESSION_ERROR_NOT_A_SESSION);
      g_assert_true (g_str_has_prefix (error->message, path));
      g_assert_nonnull (strstr (error->message, ": this is not a Warpscope session: it holds "
                                                "binary data (a NUL byte at byte 1)"));
      g_assert_cmpint (ms, <, 1000);
      if (i > 0)
        g_unlink (path);
    }
}

static void
test_not_text (void)
{
  static const struct
  {
    const char *text;
    gsize len;
    const char *message;
  } cases[] = {
#define TEXT(literal) literal, sizeof (literal) - 1
    { TEXT ("\xff\xfe{\0\"\0t\0"), "binary data (a NUL byte at byte 4)" },
    { TEXT ("\xff\xfe\n"), "it is not UTF-8 text (byte 1 is not)" },
    { TEXT ("{\"type\":\"hello\",\"protocol\":1,\"host\":\"\xc3\x28\"}\n"),
      "it is not UTF-8 text (byte 38 is not)" },
    /* A character cut by the end of the file is not UTF-8 either. */
    { TEXT ("{\"type\":\"hello\",\"protocol\":1}\n\xe2\x82"), "it is not UTF-8 text (byte 31 is not)" },
#undef TEXT
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr (GError) error = NULL;
      g_autoptr (WsSession) session = load_bytes (cases[i].text, cases[i].len, &error);

      g_assert_null (session);
      g_assert_error (error, WS_SESSION_ERROR, WS_SESSION_ERROR_NOT_A_SESSION);
      if (strstr (error->message, cases[i].message) == NULL)
        g_error ("case %u: \"%s\" lacks \"%s\"", i, error->message, cases[i].message);
    }
}

/* Past the first bytes, a line with a NUL or bad UTF-8 is one problem; the rest loads. */
static void
test_binary_line_later (void)
{
  g_autoptr (GString) text = g_string_new (HELLO RUN);
  g_autoptr (GError) error = NULL;
  g_autoptr (WsSession) session = NULL;
  GPtrArray *problems;
  guint first_bad;

  /* Enough good lines to fill the first 4 KiB. */
  for (guint i = 0; i < 40; i++)
    g_string_append (text, KERNEL);
  first_bad = 43;
  {
    static const char nul_line[] = "{\"type\":\"progress\",\"done\":1\0}\n";

    g_string_append_len (text, nul_line, sizeof nul_line - 1);
  }
  g_string_append (text, "{\"type\":\"activity\",\"run\":1,\"kind\":\"kernel\",\"start\":1,\"end\":2,"
                         "\"name\":\"\xff\"}\n");
  g_string_append (text, "{\"type\":\"activity\",\"run\":1,\"kind\":\"kernel\",\"start\":1,\"end\":2,"
                         "\"x\":\"\x01\"}\n");
  g_string_append (text, KERNEL DONE);
  session = load_bytes (text->str, text->len, &error);
  g_assert_no_error (error);
  problems = ws_session_get_problems (session);
  g_assert_cmpuint (problems->len, ==, 3);
  g_assert_cmpuint (((WsProblem *) g_ptr_array_index (problems, 0))->line, ==, first_bad);
  g_assert_cmpstr (((WsProblem *) g_ptr_array_index (problems, 0))->message, ==,
                   "column 28: a NUL byte: binary data, not text");
  g_assert_cmpstr (((WsProblem *) g_ptr_array_index (problems, 1))->message, ==,
                   "column 70: bytes that are not UTF-8");
  g_assert_cmpstr (((WsProblem *) g_ptr_array_index (problems, 2))->message, ==,
                   "column 67: a control character inside a string");
  g_assert_cmpuint (ws_session_get_n_activities (session), ==, 41);
}

/* A line of exactly WS_SESSION_MAX_LINE bytes is read; one byte more is a problem, skipped,
 * whether fed by a live client or read from a file; the next line is read. */
static void
test_line_limit (void)
{
  const char *head = "{\"type\":\"a_later_record\",\"pad\":\"";
  const char *tail = "\"}";

  for (gsize extra = 0; extra <= 1; extra++)
    {
      gsize pad = WS_SESSION_MAX_LINE + extra - strlen (head) - strlen (tail);
      g_autofree char *filler = repeat ('x', pad);
      g_autofree char *line = g_strconcat (head, filler, tail, NULL);
      g_autofree char *file_text = g_strconcat (HELLO RUN, line, "\r\n", KERNEL DONE, NULL);
      g_autoptr (WsSession) live = fed_session ();
      g_autoptr (WsSession) loaded = NULL;
      g_autoptr (GError) error = NULL;

      g_assert_cmpuint (strlen (line), ==, WS_SESSION_MAX_LINE + extra);
      g_assert_true (ws_session_feed_line (live, line, -1, &error) == (extra == 0));
      if (extra)
        {
          g_assert_error (error, WS_SESSION_ERROR, WS_SESSION_ERROR_MALFORMED);
          g_assert_cmpstr (error->message, ==,
                           "line 3: the line is longer than 1 MiB, the most a reader takes (no "
                           "record is that long); it was skipped");
          g_assert_cmpuint (last_problem (live)->line, ==, 3);
        }
      g_clear_error (&error);
      loaded = load_bytes (file_text, strlen (file_text), &error);
      g_assert_no_error (error);
      g_assert_cmpuint (ws_session_get_problems (loaded)->len, ==, extra);
      if (extra)
        {
          g_assert_cmpuint (last_problem (loaded)->line, ==, 3);
          g_assert_nonnull (strstr (last_problem (loaded)->message, "longer than 1 MiB"));
        }
      g_assert_cmpuint (ws_session_get_n_activities (loaded), ==, 1);
      g_assert_true (ws_session_is_done (loaded, NULL, NULL));
    }
  /* A client that dropped the line itself says so. */
  {
    g_autoptr (WsSession) live = fed_session ();
    g_autoptr (WsSession) fresh = ws_session_new (WS_SESSION_SOURCE_LIVE);
    g_autoptr (GError) error = NULL;

    g_assert_false (ws_session_feed_overlong_line (live, &error));
    g_assert_error (error, WS_SESSION_ERROR, WS_SESSION_ERROR_MALFORMED);
    g_assert_cmpuint (ws_session_get_problems (live)->len, ==, 1);
    g_clear_error (&error);
    g_assert_false (ws_session_feed_overlong_line (fresh, &error));
    g_assert_error (error, WS_SESSION_ERROR, WS_SESSION_ERROR_NOT_A_SESSION);
    g_assert_cmpstr (error->message, ==,
                     "this is not a Warpscope session: line 1 is longer than 1 MiB, and no "
                     "record is that long");
    g_clear_error (&error);
    /* And nothing after that is read. */
    g_assert_false (ws_session_feed_line (fresh, HELLO, -1, &error));
    g_assert_error (error, WS_SESSION_ERROR, WS_SESSION_ERROR_NOT_A_SESSION);
  }
}

/* 64 MiB without a newline: as the first line, refused within a second; after the hello, one
 * problem, the rest loaded, and never more than a few MiB held for it. */
static void
test_endless_line (void)
{
  const gsize size = 64 << 20;
  g_autofree char *filler = repeat ('a', size);

  {
    g_autofree char *path = write_temp (filler, size);
    g_autoptr (GError) error = NULL;
    g_autoptr (WsSession) session = NULL;
    gint64 ms = elapsed_ms_loading (path, &error, &session);

    g_test_message ("a 64 MiB first line: %" G_GINT64_FORMAT " ms", ms);
    g_assert_null (session);
    g_assert_error (error, WS_SESSION_ERROR, WS_SESSION_ERROR_NOT_A_SESSION);
    g_assert_nonnull (strstr (error->message, "line 1 is longer than 1 MiB"));
    g_assert_cmpint (ms, <, 1000);
    g_unlink (path);
  }
  if (g_test_subprocess ())
    {
      g_autofree char *text = g_strconcat (HELLO RUN, filler, "\n", KERNEL DONE, NULL);
      g_autofree char *path = write_temp (text, strlen (text));
      g_autoptr (GError) error = NULL;
      g_autoptr (WsSession) session = NULL;
      struct rlimit limit;
      g_autofree char *statm = NULL;
      gulong pages_data = 0, dummy;

      g_clear_pointer (&text, g_free);
      g_clear_pointer (&filler, g_free);
#ifndef WS_TEST_ASAN
      /* Data segment now, plus 32 MiB: half of the line, were it held. */
      g_assert_true (g_file_get_contents ("/proc/self/statm", &statm, NULL, NULL));
      g_assert_cmpint (sscanf (statm, "%lu %lu %lu %lu %lu %lu", &dummy, &dummy, &dummy,
                               &dummy, &dummy, &pages_data),
                       ==, 6);
      limit.rlim_cur = limit.rlim_max = pages_data * (gulong) sysconf (_SC_PAGESIZE) + (32 << 20);
      g_assert_cmpint (setrlimit (RLIMIT_DATA, &limit), ==, 0);
#endif
      session = load_path (path, &error);
      g_unlink (path);
      g_assert_no_error (error);
      g_assert_cmpuint (ws_session_get_problems (session)->len, ==, 1);
      g_assert_cmpuint (last_problem (session)->line, ==, 3);
      g_assert_cmpuint (ws_session_get_n_activities (session), ==, 1);
      g_assert_true (ws_session_is_done (session, NULL, NULL));
      return;
    }
  g_test_trap_subprocess (NULL, 0, G_TEST_SUBPROCESS_DEFAULT);
  g_test_trap_assert_passed ();
}

/* ---- the first record ----------------------------------------------------------------------- */

static void
test_hello (void)
{
  static const struct
  {
    const char *text;
    WsSessionError code;
    const char *message;
  } cases[] = {
    { "{\"type\":\"hello\",\"protocol\":1e300}\n", WS_SESSION_ERROR_NOT_A_SESSION,
      "this is not a Warpscope session: in its hello record, field \"protocol\" is 1e300, "
      "outside 1–2147483647" },
    { "{\"type\":\"hello\",\"protocol\":1.5}\n", WS_SESSION_ERROR_NOT_A_SESSION,
      "this is not a Warpscope session: in its hello record, field \"protocol\" is 1.5, not a "
      "whole number" },
    { "{\"type\":\"hello\",\"protocol\":-1}\n", WS_SESSION_ERROR_NOT_A_SESSION,
      "this is not a Warpscope session: in its hello record, field \"protocol\" is -1, outside "
      "1–2147483647" },
    { "{\"type\":\"hello\",\"protocol\":\"1\"}\n", WS_SESSION_ERROR_NOT_A_SESSION,
      "this is not a Warpscope session: its hello record names no protocol" },
    { "{\"type\":\"hello\",\"protocol\":2147483647,\"runner\":\"9\"}\n",
      WS_SESSION_ERROR_NEWER_PROTOCOL,
      "this session was written by a newer Warpscope (protocol 2147483647, runner 9); this "
      "version reads protocol " G_STRINGIFY (WS_SESSION_PROTOCOL) " and older. Update Warpscope to "
      "open it" },
    { "{\"type\":\"hello\",\"protocol\":1,\"cupti_version\":1e300}\n",
      WS_SESSION_ERROR_NOT_A_SESSION,
      "this is not a Warpscope session: in its hello record, field \"cupti_version\" is 1e300, "
      "outside 0–2147483647" },
    /* Without a hello. */
    { RUN KERNEL DONE, WS_SESSION_ERROR_NOT_A_SESSION,
      "this is not a Warpscope session: its first record is \"run\", not the runner's hello" },
    { "[" HELLO, WS_SESSION_ERROR_NOT_A_SESSION,
      "this is not a Warpscope session: line 1 is not JSON (column 54: ',' or ']' was "
      "expected)" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr (GError) error = NULL;
      g_autoptr (WsSession) session = load_bytes (cases[i].text, strlen (cases[i].text), &error);

      g_assert_null (session);
      g_assert_error (error, WS_SESSION_ERROR, (int) cases[i].code);
      if (!g_str_has_suffix (error->message, cases[i].message))
        g_error ("case %u: \"%s\" does not end in \"%s\"", i, error->message, cases[i].message);
    }
}

/* ---- encodings, line ends, truncation -------------------------------------------------------- */

static char *
sample_path (const char *name)
{
  return g_build_filename (g_getenv ("WS_SAMPLES_DIR"), name, NULL);
}

/* Lines of only spaces and tabs, before the hello and between records, are blank lines: the
 * recording reads as the original does, with no problem; a file of nothing else is empty. */
static void
test_whitespace_lines (void)
{
  g_autofree char *path = sample_path ("vector-add-sizes-h200.jsonl");
  g_autofree char *text = NULL;
  g_auto (GStrv) lines = NULL;
  g_autoptr (GString) padded = g_string_new ("   \t\n\t\n");
  g_autoptr (WsSession) original = NULL, read = NULL, blank = NULL;
  g_autoptr (GError) error = NULL;

  if (!g_file_get_contents (path, &text, NULL, NULL))
    {
      g_test_skip ("recording missing");
      return;
    }
  lines = g_strsplit (text, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    g_string_append_printf (padded, "%s\n%s", lines[i], i % 7 == 0 ? "  \t \r\n" : "");
  original = load_path (path, &error);
  g_assert_no_error (error);
  read = load_bytes (padded->str, padded->len, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (ws_session_get_problems (read)->len, ==, 0);
  g_assert_cmpuint (ws_session_get_n_activities (read), ==,
                    ws_session_get_n_activities (original));
  g_assert_cmpuint (g_list_model_get_n_items (ws_session_get_runs (read)), ==,
                    g_list_model_get_n_items (ws_session_get_runs (original)));
  g_assert_true (ws_session_is_done (read, NULL, NULL));
  blank = load_bytes (" \n\t\t\n  \t\n", 9, &error);
  g_assert_null (blank);
  g_assert_error (error, WS_SESSION_ERROR, WS_SESSION_ERROR_EMPTY);
  /* Fed live, the same. */
  {
    g_autoptr (WsSession) session = fed_session ();
    guint before = ws_session_get_problems (session)->len;

    g_assert_true (ws_session_feed_line (session, " \t  ", -1, NULL));
    g_assert_cmpuint (ws_session_get_problems (session)->len, ==, before);
    /* Anything else on the line is not blank. */
    g_assert_false (ws_session_feed_line (session, " \t x", -1, NULL));
  }
}

/* A recording saved by a Windows editor (a byte order mark, CRLF line ends) reads as the
 * original does. */
static void
test_bom_crlf (void)
{
  g_autofree char *path = sample_path ("vector-add-sizes-h200.jsonl");
  g_autofree char *text = NULL;
  g_auto (GStrv) lines = NULL;
  g_autofree char *joined = NULL;
  g_autofree char *windows = NULL;
  g_autoptr (WsSession) original = NULL, converted = NULL;
  g_autoptr (GError) error = NULL;

  if (!g_file_get_contents (path, &text, NULL, NULL))
    {
      g_test_skip ("recording missing");
      return;
    }
  lines = g_strsplit (text, "\n", -1);
  joined = g_strjoinv ("\r\n", lines);
  windows = g_strconcat ("\xEF\xBB\xBF", joined, NULL);
  original = load_path (path, &error);
  g_assert_no_error (error);
  converted = load_bytes (windows, strlen (windows), &error);
  g_assert_no_error (error);
  g_assert_cmpuint (ws_session_get_problems (converted)->len, ==, 0);
  g_assert_cmpuint (ws_session_get_n_activities (converted), ==,
                    ws_session_get_n_activities (original));
  g_assert_cmpuint (g_list_model_get_n_items (ws_session_get_runs (converted)), ==,
                    g_list_model_get_n_items (ws_session_get_runs (original)));
  g_assert_cmpstr (ws_device_get_name (ws_session_get_device (converted)), ==, "NVIDIA H200");
  /* A mark is only taken at the very start. */
  {
    g_autoptr (WsSession) session = fed_session ();

    g_assert_false (ws_session_feed_line (session, "\xEF\xBB\xBF" KERNEL, -1, NULL));
  }
}

/* A recording cut short (a full disk, a killed runner): the cut line and the missing end are
 * said, every run before is kept. */
static void
test_truncated (void)
{
  g_autofree char *path = sample_path ("vector-add-sizes-h200.jsonl");
  g_autofree char *text = NULL;
  gsize length;
  char *last_activity, *cut;
  g_autoptr (GError) error = NULL;
  g_autoptr (WsSession) session = NULL;
  GPtrArray *problems;

  if (!g_file_get_contents (path, &text, &length, NULL))
    {
      g_test_skip ("recording missing");
      return;
    }
  last_activity = g_strrstr (text, "{\"type\":\"activity\"");
  /* Cut in the middle of the last activity record, inside the name of its kind. */
  cut = strstr (last_activity, "\"kind\":\"") + 10;
  session = load_bytes (text, (gsize) (cut - text), &error);
  g_assert_no_error (error);
  problems = ws_session_get_problems (session);
  g_assert_cmpuint (problems->len, ==, 2);
  g_assert_true (g_str_has_suffix (((WsProblem *) g_ptr_array_index (problems, 0))->message,
                                  ": a string that does not end"));
  g_assert_cmpuint (((WsProblem *) g_ptr_array_index (problems, 0))->column, ==,
                    (guint) (cut - last_activity) + 1);
  g_assert_nonnull (strstr (((WsProblem *) g_ptr_array_index (problems, 1))->message,
                            "there is no done record"));
  g_assert_false (ws_session_is_done (session, NULL, NULL));
  g_assert_cmpuint (g_list_model_get_n_items (ws_session_get_runs (session)), >, 1);
}

/* Two runs of one id: the first is kept whole, the second and what names its id after it
 * (launch, timing, verification, activities) are problems, not silent replacements. */
static void
test_run_twice (void)
{
  g_autofree char *path = sample_path ("vector-add-sizes-h200.jsonl");
  g_autofree char *text = NULL;
  g_autoptr (GString) twice = NULL;
  g_autoptr (WsSession) session = NULL;
  g_autoptr (WsSession) original = NULL;
  g_autoptr (GError) error = NULL;
  GPtrArray *problems;
  WsRun *first, *kept;
  guint n_first, n_kept;

  g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
  original = load_bytes (text, strlen (text), &error);
  g_assert_no_error (error);
  twice = g_string_new (text);
  g_string_replace (twice, "\"id\":2,", "\"id\":1,", 0);
  g_string_replace (twice, "\"run\":2,", "\"run\":1,", 0);
  session = load_bytes (twice->str, twice->len, &error);
  g_assert_no_error (error);
  first = ws_session_find_run (original, 1);
  kept = ws_session_find_run (session, 1);
  g_assert_nonnull (kept);
  g_assert_cmpuint (g_list_model_get_n_items (ws_session_get_runs (session)), ==, 11);
  g_assert_cmpfloat (ws_run_get_kernel_ns (kept), ==, ws_run_get_kernel_ns (first));
  g_assert_cmpfloat (ws_run_get_timing (kept)->e2e.median, ==,
                     ws_run_get_timing (first)->e2e.median);
  ws_run_get_activities (first, &n_first);
  ws_run_get_activities (kept, &n_kept);
  g_assert_cmpuint (n_kept, ==, n_first);
  problems = ws_session_get_problems (session);
  g_assert_cmpuint (problems->len, >=, 1);
  g_assert_nonnull (strstr (((WsProblem *) g_ptr_array_index (problems, 0))->message,
                            "run 1 is announced twice"));
}

/* A hello followed by a hundred thousand bad lines: a thousand are listed, the rest
 * counted. */
static void
test_many_bad_lines (void)
{
  const guint n = 100000;
  g_autoptr (GString) text = g_string_new (HELLO);
  g_autoptr (GError) error = NULL;
  g_autoptr (WsSession) session = NULL;
  GPtrArray *problems;

  for (guint i = 0; i < n; i++)
    g_string_append (text, "x\n");
  session = load_bytes (text->str, text->len, &error);
  g_assert_no_error (error);
  problems = ws_session_get_problems (session);
  g_assert_cmpuint (ws_session_get_n_bad_lines (session), ==, n);
  /* The listed ones, the count of the others, the missing done record. */
  g_assert_cmpuint (problems->len, ==, WS_SESSION_MAX_PROBLEMS + 2);
  g_assert_cmpuint (((WsProblem *) g_ptr_array_index (problems, WS_SESSION_MAX_PROBLEMS - 1))->line,
                    ==, WS_SESSION_MAX_PROBLEMS + 1);
  g_assert_cmpstr (((WsProblem *) g_ptr_array_index (problems, WS_SESSION_MAX_PROBLEMS))->message,
                   ==, "and 99000 more lines could not be read (only the first 1000 are listed)");
}

/* ---- the app's path ------------------------------------------------------------------------- */

static void
loaded_cb (GObject *source, GAsyncResult *result, gpointer data)
{
  GAsyncResult **out = data;

  *out = g_object_ref (result);
}

/* The app loads in a thread through the same reader: the deep line and the zeros give the same
 * answers there. */
static void
test_async (void)
{
  g_autofree char *brackets = repeat ('[', 1000000);
  g_autofree char *text = g_strdup_printf (HELLO RUN "{\"type\":\"activity\",\"run\":1,\"kind\":"
                                           "\"kernel\",\"start\":1,\"end\":2,\"x\":%s}\n" KERNEL,
                                           brackets);
  g_autofree char *path = write_temp (text, strlen (text));
  const char *paths[] = { path, "/dev/zero" };

  for (guint i = 0; i < G_N_ELEMENTS (paths); i++)
    {
      g_autoptr (GFile) file = g_file_new_for_path (paths[i]);
      g_autoptr (GAsyncResult) result = NULL;
      g_autoptr (GError) error = NULL;
      g_autoptr (WsSession) session = NULL;

      ws_session_load_async (file, NULL, loaded_cb, &result);
      while (result == NULL)
        g_main_context_iteration (NULL, TRUE);
      session = ws_session_load_finish (result, &error);
      if (i == 0)
        {
          g_assert_no_error (error);
          g_assert_cmpuint (ws_session_get_n_activities (session), ==, 1);
          g_assert_nonnull (strstr (((WsProblem *) g_ptr_array_index (ws_session_get_problems (session), 0))->message,
                                    "nested deeper than 64 levels"));
        }
      else
        g_assert_error (error, WS_SESSION_ERROR, WS_SESSION_ERROR_NOT_A_SESSION);
    }
  g_unlink (path);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/session-hostile/deep-nesting", test_deep_nesting);
  g_test_add_func ("/session-hostile/depth-limit", test_depth_limit);
  g_test_add_func ("/session-hostile/zeros", test_zeros);
  g_test_add_func ("/session-hostile/not-text", test_not_text);
  g_test_add_func ("/session-hostile/binary-line-later", test_binary_line_later);
  g_test_add_func ("/session-hostile/line-limit", test_line_limit);
  g_test_add_func ("/session-hostile/endless-line", test_endless_line);
  g_test_add_func ("/session-hostile/hello", test_hello);
  g_test_add_func ("/session-hostile/bom-crlf", test_bom_crlf);
  g_test_add_func ("/session-hostile/whitespace-lines", test_whitespace_lines);
  g_test_add_func ("/session-hostile/truncated", test_truncated);
  g_test_add_func ("/session-hostile/many-bad-lines", test_many_bad_lines);
  g_test_add_func ("/session-hostile/run-twice", test_run_twice);
  g_test_add_func ("/session-hostile/async", test_async);
  return g_test_run ();
}
