/* test-session-hostile.c: files and lines a careless or hostile person could hand the reader
 * (deep nesting, binary data, endless lines, numbers out of range, odd encodings), each with
 * the exact answer: a clear message, no crash, bounded time and memory, the rest loaded.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <glib.h>
#include <glib/gstdio.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "ws-analysis.h"
#include "ws-record.h"
#include "ws-session-private.h"

#define HELLO "{\"type\":\"hello\",\"t\":0,\"protocol\":1,\"runner\":\"0.1.0\"}\n"
#define RUN                                                                                    \
  "{\"type\":\"run\",\"t\":1,\"id\":1,\"kernel\":\"vector_add\",\"shape\":[1000],"              \
  "\"block\":[256,1,1],\"grid\":[4,1,1]}\n"
#define KERNEL                                                                                 \
  "{\"type\":\"activity\",\"t\":2,\"run\":1,\"phase\":\"sequence\",\"rep\":0,\"kind\":"        \
  "\"kernel\",\"start\":250,\"end\":450,\"name\":\"vector_add\",\"grid\":[4,1,1],"             \
  "\"block\":[256,1,1],\"stream\":7,\"correlation\":2}\n"
#define DONE "{\"type\":\"done\",\"t\":3,\"exit_code\":0}\n"

/* Under AddressSanitizer the process maps terabytes of shadow memory: no memory limit fits. */
#if defined(__SANITIZE_ADDRESS__)
#define WS_TEST_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define WS_TEST_ASAN 1
#endif
#endif

static char *
temp_path (void)
{
  char *path = NULL;
  int fd = g_file_open_tmp ("ws-hostile-XXXXXX.jsonl", &path, NULL);

  g_assert_cmpint (fd, >=, 0);
  close (fd);
  return path;
}

static char *
write_temp (const char *data, gsize length)
{
  char *path = temp_path ();

  g_assert_true (g_file_set_contents (path, data, (gssize) length, NULL));
  return path;
}

static WsSession *
load_path (const char *path, GError **error)
{
  g_autoptr (GFile) file = g_file_new_for_path (path);

  return ws_session_load (file, NULL, error);
}

static WsSession *
load_bytes (const char *data, gsize length, GError **error)
{
  g_autofree char *path = write_temp (data, length);
  WsSession *session = load_path (path, error);

  g_unlink (path);
  return session;
}

/* A session that has seen a hello and run 1, for feeding one line at a time. */
static WsSession *
fed_session (void)
{
  WsSession *session = ws_session_new (WS_SESSION_SOURCE_LIVE);
  g_auto (GStrv) lines = g_strsplit (HELLO RUN, "\n", -1);

  for (guint i = 0; lines[i] != NULL && *lines[i] != '\0'; i++)
    g_assert_true (ws_session_feed_line (session, lines[i], -1, NULL));
  return session;
}

static WsProblem *
last_problem (WsSession *session)
{
  GPtrArray *problems = ws_session_get_problems (session);

  g_assert_cmpuint (problems->len, >, 0);
  return g_ptr_array_index (problems, problems->len - 1);
}

static char *
repeat (char c, gsize n)
{
  char *s = g_malloc (n + 1);

  memset (s, c, n);
  s[n] = '\0';
  return s;
}

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
      WsActivity a;
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

/* ---- numbers ------------------------------------------------------------------------------- */

/* Each line, fed after a hello and run 1, is refused with exactly this problem. */
static void
test_numbers_out_of_range (void)
{
  static const struct
  {
    const char *line;
    const char *problem;
  } cases[] = {
    { "{\"type\":\"launch\",\"run\":1,\"occupancy\":7.5}",
      "field \"occupancy\" is 7.5, outside 0–1" },
    { "{\"type\":\"launch\",\"run\":1,\"limits\":{\"warps\":-3}}",
      "field \"limits.warps\" is -3, outside 0–65535" },
    { "{\"type\":\"run\",\"id\":2,\"shape\":[18446744073709551615]}",
      "field \"shape[0]\" is 18446744073709551615, outside 1–9007199254740992" },
    { "{\"type\":\"run\",\"id\":2,\"shape\":[0]}", "field \"shape[0]\" is 0, outside 1–9007199254740992" },
    { "{\"type\":\"run\",\"id\":2,\"shape\":[1000,1e300]}",
      "field \"shape[1]\" is 1e300, outside 1–9007199254740992" },
    { "{\"type\":\"run\",\"id\":1e300}", "field \"id\" is 1e300, outside 0–2147483647" },
    { "{\"type\":\"run\",\"id\":-1}", "field \"id\" is -1, outside 0–2147483647" },
    { "{\"type\":\"run\",\"id\":2.5}", "field \"id\" is 2.5, not a whole number" },
    { "{\"type\":\"run\",\"id\":2,\"block\":[2048,1,1]}",
      "field \"block[0]\" is 2048, outside 0–1024" },
    { "{\"type\":\"run\",\"id\":2,\"seed\":-1}",
      "field \"seed\" is -1, outside 0–18446744073709551615" },
    { "{\"type\":\"run\",\"id\":2,\"flops\":-1e9}", "field \"flops\" is -1e9, outside 0–1e24" },
    { "{\"type\":\"activity\",\"run\":1,\"kind\":\"kernel\",\"start\":1e300,\"end\":1e300}",
      "field \"start\" is 1e300, outside -9007199254740992–9007199254740992" },
    { "{\"type\":\"activity\",\"run\":1,\"kind\":\"kernel\",\"start\":-9223372036854775808,"
      "\"end\":9223372036854775807}",
      "field \"start\" is -9223372036854775808, outside -9007199254740992–9007199254740992" },
    { "{\"type\":\"activity\",\"run\":1,\"kind\":\"kernel\",\"start\":200,\"end\":100}",
      "the activity ends (\"end\" 100) before it starts (\"start\" 200)" },
    { "{\"type\":\"activity\",\"run\":1,\"kind\":\"kernel\",\"start\":1,\"end\":2,\"rep\":-1}",
      "field \"rep\" is -1, outside 0–4294967295" },
    { "{\"type\":\"activity\",\"run\":1,\"kind\":\"memcpy\",\"start\":1,\"end\":2,"
      "\"bytes\":18446744073709551615}",
      "field \"bytes\" is 18446744073709551615, outside 0–9007199254740992" },
    { "{\"type\":\"activity\",\"run\":1,\"kind\":\"kernel\",\"start\":1,\"end\":2,"
      "\"grid\":[1,1,4294967296]}",
      "field \"grid[2]\" is 4294967296, outside 0–4294967295" },
    { "{\"type\":\"activity\",\"run\":1e10,\"kind\":\"kernel\",\"start\":1,\"end\":2}",
      "field \"run\" is 1e10, outside 0–2147483647" },
    { "{\"type\":\"timing\",\"run\":1,\"kernel_ns\":{\"median\":-5,\"n\":3}}",
      "field \"kernel_ns.median\" is -5, outside 0–9007199254740992" },
    { "{\"type\":\"timing\",\"run\":1,\"kernel_ns\":{\"median\":5,\"n\":2.5}}",
      "field \"kernel_ns.n\" is 2.5, not a whole number" },
    { "{\"type\":\"timing\",\"run\":1,\"cpu_all\":{\"threads\":1e300,\"median\":5}}",
      "field \"cpu_all.threads\" is 1e300, outside 0–2147483647" },
    { "{\"type\":\"verify\",\"run\":1,\"pass\":true,\"rtol\":-1}", "field \"rtol\" is -1, below 0" },
    { "{\"type\":\"verify\",\"run\":1,\"pass\":true,\"total\":1e300}",
      "field \"total\" is 1e300, outside 0–9007199254740992" },
    { "{\"type\":\"progress\",\"done\":1e300,\"total\":2}",
      "field \"done\" is 1e300, outside 0–2147483647" },
    { "{\"type\":\"done\",\"exit_code\":256}", "field \"exit_code\" is 256, outside 0–255" },
    { "{\"type\":\"error\",\"run\":1e300,\"code\":\"kernel_fault\"}",
      "field \"run\" is 1e300, outside 0–2147483647" },
    { "{\"type\":\"device\",\"name\":\"GPU\",\"warp_size\":0}",
      "field \"warp_size\" is 0, outside 1–1024" },
    { "{\"type\":\"device\",\"name\":\"GPU\",\"max_grid_dim\":[1,-1,1]}",
      "field \"max_grid_dim[1]\" is -1, outside 0–2147483647" },
    { "{\"type\":\"device\",\"name\":\"GPU\",\"bandwidth_measured_gbs\":-4800}",
      "field \"bandwidth_measured_gbs\" is -4800, outside 0–1000000" },
    { "{\"type\":\"device\",\"name\":\"GPU\",\"fp32_peak_gflops\":1e300}",
      "field \"fp32_peak_gflops\" is 1e300, outside 0–1000000000" },
    { "{\"type\":\"run\",\"id\":2,\"flops\":1e25}", "field \"flops\" is 1e25, outside 0–1e24" },
    { "{\"type\":\"kernel\",\"name\":\"k\",\"default_block\":[1e300]}",
      "field \"default_block[0]\" is 1e300, outside 0–1024" },
    /* JSON has no words for these, nor room for numbers beyond a double. */
    { "{\"type\":\"launch\",\"run\":1,\"occupancy\":NaN}",
      "column 38: NaN and Infinity are not JSON numbers (write null)" },
    { "{\"type\":\"launch\",\"run\":1,\"occupancy\":-Infinity}",
      "column 38: NaN and Infinity are not JSON numbers (write null)" },
    { "{\"type\":\"launch\",\"run\":1,\"occupancy\":1e400}",
      "column 38: a number too large to hold (beyond ±1.8e308)" },
    { "{\"type\":\"launch\",\"run\":1,\"name\":\"\\ud800\"}",
      "column 34: a \\u escape of half a character (an unpaired surrogate)" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr (WsSession) session = fed_session ();
      g_autoptr (GError) error = NULL;
      g_autofree char *expected = g_strdup_printf ("line 3: %s", cases[i].problem);
      WsRun *run = ws_session_find_run (session, 1);
      WsProblem *p;

      g_test_message ("%s", cases[i].line);
      g_assert_false (ws_session_feed_line (session, cases[i].line, -1, &error));
      g_assert_error (error, WS_SESSION_ERROR, WS_SESSION_ERROR_MALFORMED);
      p = last_problem (session);
      g_assert_cmpstr (p->message, ==, cases[i].problem);
      g_assert_cmpuint (p->line, ==, 3);
      /* The message leads to the number: the column of its first character. */
      if (!g_str_has_prefix (cases[i].problem, "column"))
        {
          g_assert_cmpuint (p->column, >, 1);
          g_assert_true (strchr ("-0123456789", cases[i].line[p->column - 1]) != NULL);
          g_assert_nonnull (strstr (error->message, cases[i].problem));
          g_assert_cmpstr (error->message, ==, expected);
        }
      /* Nothing of the refused record was used. */
      g_assert_cmpuint (g_list_model_get_n_items (ws_session_get_runs (session)), ==, 1);
      g_assert_cmpuint (ws_session_get_n_activities (session), ==, 0);
      g_assert_null (ws_run_get_launch (run));
      g_assert_null (ws_run_get_timing (run));
      g_assert_null (ws_run_get_verify (run));
      g_assert_cmpuint (ws_run_get_errors (run)->len, ==, 0);
      g_assert_cmpuint (g_list_model_get_n_items (ws_session_get_devices (session)), ==, 0);
      g_assert_null (ws_session_get_kernel (session, "k"));
      g_assert_false (ws_session_get_progress (session, NULL, NULL));
      g_assert_false (ws_session_is_done (session, NULL, NULL));
      /* And the stream goes on. */
      g_assert_true (ws_session_feed_line (session, KERNEL, -1, NULL));
      g_assert_cmpuint (ws_session_get_n_activities (session), ==, 1);
    }
}

/* The extremes that are allowed are read exactly. */
static void
test_numbers_at_the_edge (void)
{
  g_autoptr (WsSession) session = fed_session ();
  const char *lines[] = {
    "{\"type\":\"run\",\"id\":2147483647,\"seed\":18446744073709551615,\"shape\":[9007199254740992]}",
    "{\"type\":\"launch\",\"run\":2147483647,\"occupancy\":1,\"registers\":65535}",
    "{\"type\":\"activity\",\"run\":2147483647,\"kind\":\"kernel\",\"start\":-9007199254740992,"
    "\"end\":9007199254740992,\"rep\":4294967295}",
    "{\"type\":\"done\",\"exit_code\":255,\"dropped_records\":9007199254740992}",
  };
  WsRun *run;
  guint n;
  const WsActivity *a;
  gint64 dropped;
  int exit_code;

  for (guint i = 0; i < G_N_ELEMENTS (lines); i++)
    g_assert_true (ws_session_feed_line (session, lines[i], -1, NULL));
  g_assert_cmpuint (ws_session_get_problems (session)->len, ==, 0);
  run = ws_session_find_run (session, G_MAXINT32);
  g_assert_nonnull (run);
  g_assert_cmpuint (ws_run_get_config (run)->seed, ==, G_MAXUINT64);
  g_assert_cmpuint (ws_run_get_config (run)->shape[0], ==, WS_ACTIVITY_MAX_TIME_NS);
  g_assert_cmpfloat (ws_run_get_launch (run)->occupancy, ==, 1.0);
  a = ws_run_get_activities (run, &n);
  g_assert_cmpuint (n, ==, 1);
  g_assert_cmpint (a[0].start, ==, -WS_ACTIVITY_MAX_TIME_NS);
  g_assert_cmpint (ws_activity_duration (&a[0]), ==, 2 * WS_ACTIVITY_MAX_TIME_NS);
  g_assert_cmpuint (a[0].rep, ==, G_MAXUINT32);
  g_assert_true (ws_session_is_done (session, &exit_code, &dropped));
  g_assert_cmpint (exit_code, ==, 255);
  g_assert_cmpint (dropped, ==, WS_ACTIVITY_MAX_TIME_NS);
}

/* Every integer the fast path reads: at the ends of its range it reads what the general path
 * reads, one beyond it leaves the line to the general path, which refuses it. */
static void
test_fast_path_ranges (void)
{
  static const struct
  {
    const char *field;
    gint64 min, max;
  } fields[] = {
    { "run", 0, G_MAXINT32 },
    { "rep", 0, G_MAXUINT32 },
    { "start", -WS_ACTIVITY_MAX_TIME_NS, 0 }, /* the end is 0 */
    { "end", 0, WS_ACTIVITY_MAX_TIME_NS },    /* the start is 0 */
    { "bytes", 0, WS_ACTIVITY_MAX_TIME_NS },
    { "stream", 0, G_MAXUINT32 },
    { "correlation", 0, G_MAXUINT32 },
    { "registers", 0, G_MAXUINT16 },
    { "static_smem", 0, 1 << 29 },
    { "dynamic_smem", 0, 1 << 29 },
    { "threads", 0, G_MAXUINT16 },
  };

  for (guint i = 0; i < G_N_ELEMENTS (fields); i++)
    for (int k = 0; k < 4; k++)
      {
        gint64 v = k == 0 ? fields[i].min - 1 : k == 1 ? fields[i].min
                   : k == 2                       ? fields[i].max
                                                  : fields[i].max + 1;
        gboolean in_range = k == 1 || k == 2;
        gboolean start_end = g_str_equal (fields[i].field, "start") || g_str_equal (fields[i].field, "end");
        /* Run 1 exists; other ids are announced first. */
        g_autofree char *line = g_strdup_printf (
          "{\"type\":\"activity\",\"kind\":\"kernel\"%s,\"%s\":%" G_GINT64_FORMAT "}",
          start_end ? (g_str_equal (fields[i].field, "start") ? ",\"end\":0" : ",\"start\":0")
                    : "",
          fields[i].field, v);
        g_autofree char *moved = g_strdup_printf ("{\"x\":0,%s", line + 1);
        g_autoptr (WsSession) session = fed_session ();
        WsActivity fast;
        guint32 run;
        guint n;

        g_test_message ("%s", line);
        if (g_str_equal (fields[i].field, "run") && in_range)
          {
            g_autofree char *announce = g_strdup_printf ("{\"type\":\"run\",\"id\":%" G_GINT64_FORMAT "}", v);

            ws_session_feed_line (session, announce, -1, NULL);
          }
        g_assert_true (_ws_session_parse_activity (line, strlen (line), &fast, &run) == in_range);
        g_assert_true (ws_session_feed_line (session, line, -1, NULL) == in_range);
        g_assert_true (ws_session_feed_line (session, moved, -1, NULL) == in_range);
        g_assert_cmpuint (ws_session_get_n_activities (session), ==, in_range ? 2 : 0);
        g_assert_cmpuint (ws_session_get_problems (session)->len, ==, in_range ? 0 : 2);
        if (in_range)
          {
            WsRun *r = ws_session_find_run (session, g_str_equal (fields[i].field, "run") ? (int) v : 1);
            const WsActivity *a = ws_run_get_activities (r, &n);

            g_assert_cmpuint (n, ==, 2);
            g_assert_cmpmem (&a[0], sizeof *a, &a[1], sizeof *a);
          }
      }
}

/* The fast path takes only what the general path takes: junk in a field it skips is not let
 * through. */
static void
test_fast_path_strict (void)
{
  static const struct
  {
    const char *x;
    gboolean valid;
  } values[] = {
    { "tru", FALSE },     { "nul", FALSE },  { "[1,]", FALSE },    { "[1 2]", FALSE },
    { "1x", FALSE },      { "-", FALSE },    { "1.", FALSE },      { "1e", FALSE },
    { "\"\x01\"", FALSE }, { "1e400", FALSE }, { "[[1],[2", FALSE }, { "\"\xc3\x28\"", FALSE },
    { "true", TRUE },     { "null", TRUE },  { "[1,[2,[]]]", TRUE }, { "-1.5e-7", TRUE },
    { "[]", TRUE },       { "\"é\"", TRUE }, { "1E+20", TRUE },    { "\"a\\\"b\"", TRUE },
  };

  for (guint i = 0; i < G_N_ELEMENTS (values); i++)
    {
      g_autofree char *line = g_strdup_printf ("{\"type\":\"activity\",\"run\":1,\"kind\":\"kernel\","
                                               "\"start\":1,\"end\":2,\"x\":%s}",
                                               values[i].x);
      g_autoptr (WsSession) session = fed_session ();
      WsActivity a;
      guint32 run;

      g_test_message ("%s", line);
      if (!values[i].valid)
        g_assert_false (_ws_session_parse_activity (line, strlen (line), &a, &run));
      g_assert_true (ws_session_feed_line (session, line, -1, NULL) == values[i].valid);
      g_assert_cmpuint (ws_session_get_n_activities (session), ==, values[i].valid);
      g_assert_cmpuint (ws_session_get_problems (session)->len, ==, !values[i].valid);
    }
}

/* A name given twice means its last value on both paths, as for json-glib. */
static void
test_duplicate_names (void)
{
  const char *line = "{\"type\":\"activity\",\"run\":1,\"kind\":\"memcpy\",\"start\":5,\"end\":9,"
                     "\"start\":1,\"kind\":\"kernel\"}";
  g_autofree char *moved = g_strdup_printf ("{\"x\":0,%s", line + 1);
  g_autoptr (WsSession) session = fed_session ();
  const WsActivity *a;
  guint n;

  g_assert_true (ws_session_feed_line (session, line, -1, NULL));
  g_assert_true (ws_session_feed_line (session, moved, -1, NULL));
  a = ws_run_get_activities (ws_session_find_run (session, 1), &n);
  g_assert_cmpuint (n, ==, 2);
  for (guint i = 0; i < n; i++)
    {
      g_assert_cmpint (a[i].start, ==, 1);
      g_assert_cmpuint (a[i].kind, ==, WS_ACTIVITY_KERNEL);
    }
}

/* A grid whose three dimensions multiply past 2^64 is not judged: 30041 × 409891 ×
 * 2996173443 is 2 × 2^64 + 1, which once wrapped around to one block, "a small grid". */
static void
test_huge_grid (void)
{
  g_autoptr (WsSession) session = ws_session_new (WS_SESSION_SOURCE_LIVE);
  const char *lines[] = {
    HELLO,
    "{\"type\":\"device\",\"name\":\"GPU\",\"sm_count\":132,\"max_threads_per_sm\":2048,"
    "\"max_blocks_per_sm\":32}",
    "{\"type\":\"run\",\"id\":1,\"kernel\":\"k\",\"shape\":[1000],\"block\":[256,1,1],"
    "\"grid\":[30041,409891,2996173443]}",
    "{\"type\":\"launch\",\"run\":1,\"threads_per_block\":256,\"active_blocks_per_sm\":7,"
    "\"occupancy\":1}",
    "{\"type\":\"verify\",\"run\":1,\"pass\":true}",
    "{\"type\":\"timing\",\"run\":1,\"kernel_ns\":{\"median\":1000}}",
    DONE,
  };
  g_autoptr (GPtrArray) findings = NULL;

  for (guint i = 0; i < G_N_ELEMENTS (lines); i++)
    g_assert_true (ws_session_feed_line (session, lines[i], -1, NULL));
  findings = ws_analyze_session (session);
  for (guint i = 0; i < findings->len; i++)
    {
      WsFinding *f = g_ptr_array_index (findings, i);

      g_assert_cmpint (f->kind, !=, WS_FINDING_SMALL_GRID);
      g_assert_cmpint (f->kind, !=, WS_FINDING_TAIL_EFFECT);
    }
}

/* The longest activities the reader takes, many of them: sums of their times stay right
 * (the copies' total once overflowed into a negative time, and the small-copies finding
 * vanished), and a window over all time has a positive span. */
static void
test_longest_activities (void)
{
  g_autoptr (WsSession) session = fed_session ();
  g_autoptr (GPtrArray) findings = NULL;
  gboolean small_copies = FALSE;
  WsTotals t;

  for (guint i = 0; i < 600; i++)
    {
      g_autofree char *line = g_strdup_printf (
        "{\"type\":\"activity\",\"run\":1,\"phase\":\"sequence\",\"kind\":\"memcpy\","
        "\"start\":-9007199254740992,\"end\":9007199254740992,\"direction\":\"htod\","
        "\"bytes\":1000,\"host_memory\":\"pinned\",\"stream\":7,\"correlation\":%u}",
        i);

      g_assert_true (ws_session_feed_line (session, line, -1, NULL));
    }
  g_assert_true (ws_session_feed_line (session, "{\"type\":\"verify\",\"run\":1,\"pass\":true}",
                                       -1, NULL));
  g_assert_true (ws_session_feed_line (session, "{\"type\":\"timing\",\"run\":1,"
                                                "\"kernel_ns\":{\"median\":1000}}",
                                       -1, NULL));
  ws_session_end (session);
  findings = ws_analyze_session (session);
  for (guint i = 0; i < findings->len; i++)
    small_copies |= ((WsFinding *) g_ptr_array_index (findings, i))->kind == WS_FINDING_SMALL_COPIES;
  g_assert_true (small_copies);
  ws_session_get_window_totals (session, G_MININT64, G_MAXINT64, &t);
  g_assert_cmpint (t.span_ns, >, 0);
  g_assert_cmpint (t.copy_ns, ==, 2 * WS_ACTIVITY_MAX_TIME_NS);
  g_assert_cmpint (t.idle_ns, ==, t.span_ns - t.copy_ns);
}

/* The parser keeps integers exact up to 2^64 - 1, long numbers whole, and hands out no
 * number its C type cannot hold. */
static void
test_record_numbers (void)
{
  g_autofree char *zeros = repeat ('0', 80);
  g_autofree char *text = g_strdup_printf ("{\"big\":18446744073709551615,\"min\":-9223372036854775808,"
                                           "\"huge\":1e300,\"tiny\":0.%s1,\"half\":2.5,"
                                           "\"list\":[1e300,-1e300,7]}",
                                           zeros);
  g_autoptr (GError) error = NULL;
  g_autoptr (WsRecord) r = ws_record_parse (text, strlen (text), NULL, &error);
  gint64 list[3];

  g_assert_no_error (error);
  g_assert_cmpuint (ws_record_uint (r, WS_RECORD_ROOT, "big", 0), ==, G_MAXUINT64);
  g_assert_cmpint (ws_record_int (r, WS_RECORD_ROOT, "big", -1), ==, -1);
  g_assert_cmpint (ws_record_int (r, WS_RECORD_ROOT, "min", 0), ==, G_MININT64);
  g_assert_cmpuint (ws_record_uint (r, WS_RECORD_ROOT, "min", 7), ==, 7);
  g_assert_cmpint (ws_record_int (r, WS_RECORD_ROOT, "huge", -1), ==, -1);
  g_assert_cmpfloat (ws_record_double (r, WS_RECORD_ROOT, "huge", 0), ==, 1e300);
  /* 84 characters: all of them count. */
  g_assert_cmpfloat_with_epsilon (ws_record_double (r, WS_RECORD_ROOT, "tiny", 0) * 1e81, 1.0,
                                  1e-12);
  g_assert_cmpint (ws_record_int (r, WS_RECORD_ROOT, "half", 0), ==, 2);
  g_assert_cmpuint (ws_record_ints (r, WS_RECORD_ROOT, "list", list, 3), ==, 3);
  g_assert_cmpint (list[0], ==, 0);
  g_assert_cmpint (list[1], ==, 0);
  g_assert_cmpint (list[2], ==, 7);
  g_assert_cmpuint (ws_record_offset (r, ws_record_member (r, WS_RECORD_ROOT, "huge")), ==,
                    (guint) (strstr (text, "1e300") - text));
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
      "version reads protocol 1 and older. Update Warpscope to open it" },
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
  g_test_add_func ("/session-hostile/numbers-out-of-range", test_numbers_out_of_range);
  g_test_add_func ("/session-hostile/numbers-at-the-edge", test_numbers_at_the_edge);
  g_test_add_func ("/session-hostile/fast-path-ranges", test_fast_path_ranges);
  g_test_add_func ("/session-hostile/fast-path-strict", test_fast_path_strict);
  g_test_add_func ("/session-hostile/duplicate-names", test_duplicate_names);
  g_test_add_func ("/session-hostile/huge-grid", test_huge_grid);
  g_test_add_func ("/session-hostile/longest-activities", test_longest_activities);
  g_test_add_func ("/session-hostile/record-numbers", test_record_numbers);
  g_test_add_func ("/session-hostile/hello", test_hello);
  g_test_add_func ("/session-hostile/bom-crlf", test_bom_crlf);
  g_test_add_func ("/session-hostile/truncated", test_truncated);
  g_test_add_func ("/session-hostile/many-bad-lines", test_many_bad_lines);
  g_test_add_func ("/session-hostile/async", test_async);
  return g_test_run ();
}
