/* test-file.c: files written whole or not at all: permissions kept, links followed, the
 * temporary file gone after a failure or a signal, and the checks made before writing.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <errno.h>
#include <glib.h>
#include <glib/gstdio.h>
#include <signal.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "test-util.h"
#include "ws-file.h"

static gboolean
write_text_cb (GOutputStream *stream, gpointer data, GError **error)
{
  return g_output_stream_write_all (stream, data, strlen (data), NULL, NULL, error);
}

static gboolean
fail_cb (GOutputStream *stream, gpointer data, GError **error)
{
  g_output_stream_write_all (stream, "half", 4, NULL, NULL, NULL);
  g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_FAILED, "stopped half way");
  return FALSE;
}

/* Half a file written, then the signal a Ctrl+C or a kill would send. */
static gboolean
signal_cb (GOutputStream *stream, gpointer data, GError **error)
{
  g_output_stream_write_all (stream, "half", 4, NULL, NULL, NULL);
  g_output_stream_flush (stream, NULL, NULL);
  raise (GPOINTER_TO_INT (data));
  return TRUE;
}

static gboolean
write_path (const char *path, WsWriteFunc func, gpointer data, GError **error)
{
  g_autoptr (GFile) file = g_file_new_for_path (path);

  return ws_file_write_atomic (file, func, data, error);
}

static char *
read_text (const char *path)
{
  char *text = NULL;

  g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
  return text;
}

/* Only the names given: no ".name.XXXXXX" left behind. */
static void
assert_only (const char *dir, const char *const *names)
{
  g_autoptr (GPtrArray) have = ws_test_list_dir (dir, "");
  guint n = 0;

  while (names[n] != NULL)
    n++;
  for (guint i = 0; i < have->len; i++)
    g_assert_true (g_strv_contains (names, g_ptr_array_index (have, i)));
  g_assert_cmpuint (have->len, ==, n);
}

static void
remove_dir (const char *dir)
{
  g_autoptr (GPtrArray) names = ws_test_list_dir (dir, "");

  for (guint i = 0; names != NULL && i < names->len; i++)
    {
      g_autofree char *path = g_build_filename (dir, g_ptr_array_index (names, i), NULL);

      g_remove (path);
    }
  g_rmdir (dir);
}

static void
test_write (void)
{
  g_autofree char *dir = g_dir_make_tmp ("ws-file-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "s.jsonl", NULL);
  g_autofree char *text = NULL;
  g_autoptr (GError) error = NULL;
  const char *const only[] = { "s.jsonl", NULL };
  mode_t mask = umask (022);
  struct stat st;

  umask (mask);
  g_assert_true (write_path (path, write_text_cb, "first", &error));
  g_assert_no_error (error);
  /* A new file: 0666 less the umask, as any program makes one. */
  g_assert_cmpint (g_stat (path, &st), ==, 0);
  g_assert_cmpint (st.st_mode & 0777, ==, 0666 & ~mask);
  /* A failure leaves the old file and no temporary one. */
  g_assert_false (write_path (path, fail_cb, NULL, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_FAILED);
  text = read_text (path);
  g_assert_cmpstr (text, ==, "first");
  assert_only (dir, only);
  remove_dir (dir);
}

/* A session kept private (0600) stays private when it is saved again; so does an odd mode. */
static void
test_keeps_mode (void)
{
  g_autofree char *dir = g_dir_make_tmp ("ws-file-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "s.jsonl", NULL);
  const mode_t modes[] = { 0600, 0640, 0604 };

  for (guint i = 0; i < G_N_ELEMENTS (modes); i++)
    {
      g_autoptr (GError) error = NULL;
      struct stat st;

      g_assert_true (g_file_set_contents (path, "old", -1, NULL));
      g_assert_cmpint (g_chmod (path, modes[i]), ==, 0);
      g_assert_true (write_path (path, write_text_cb, "new", &error));
      g_assert_no_error (error);
      g_assert_cmpint (g_stat (path, &st), ==, 0);
      g_assert_cmpint (st.st_mode & 07777, ==, modes[i]);
    }
  remove_dir (dir);
}

/* Writing through a link replaces the file it points to; the link stays a link. Relative
 * links, chains of links and a link to a file not yet there all lead to their target. */
static void
test_follows_links (void)
{
  g_autofree char *dir = g_dir_make_tmp ("ws-file-XXXXXX", NULL);
  g_autofree char *target = g_build_filename (dir, "target.jsonl", NULL);
  g_autofree char *link = g_build_filename (dir, "link.jsonl", NULL);
  g_autofree char *chain = g_build_filename (dir, "chain.jsonl", NULL);
  g_autofree char *dangling = g_build_filename (dir, "dangling.jsonl", NULL);
  g_autofree char *created = g_build_filename (dir, "created.jsonl", NULL);
  g_autofree char *loop = g_build_filename (dir, "loop", NULL);
  g_autoptr (GError) error = NULL;
  const char *const all[] = { "target.jsonl", "link.jsonl", "chain.jsonl", "dangling.jsonl",
                              "created.jsonl", "loop", NULL };
  struct stat st;

  g_assert_true (g_file_set_contents (target, "old", -1, NULL));
  g_assert_cmpint (g_chmod (target, 0600), ==, 0);
  g_assert_cmpint (symlink ("target.jsonl", link), ==, 0);
  g_assert_cmpint (symlink (link, chain), ==, 0);
  g_assert_cmpint (symlink ("created.jsonl", dangling), ==, 0);
  g_assert_cmpint (symlink ("loop", loop), ==, 0);

  g_assert_true (write_path (link, write_text_cb, "through the link", &error));
  g_assert_no_error (error);
  g_assert_cmpint (lstat (link, &st), ==, 0);
  g_assert_true (S_ISLNK (st.st_mode));
  {
    g_autofree char *text = read_text (target);

    g_assert_cmpstr (text, ==, "through the link");
  }
  g_assert_cmpint (g_stat (target, &st), ==, 0);
  g_assert_cmpint (st.st_mode & 0777, ==, 0600);

  g_assert_true (write_path (chain, write_text_cb, "through the chain", &error));
  g_assert_no_error (error);
  {
    g_autofree char *text = read_text (target);

    g_assert_cmpstr (text, ==, "through the chain");
  }
  g_assert_true (write_path (dangling, write_text_cb, "made", &error));
  g_assert_no_error (error);
  g_assert_cmpint (lstat (dangling, &st), ==, 0);
  g_assert_true (S_ISLNK (st.st_mode));
  {
    g_autofree char *text = read_text (created);

    g_assert_cmpstr (text, ==, "made");
  }
  g_assert_false (write_path (loop, write_text_cb, "never", &error));
  g_assert_nonnull (error);
  g_assert_nonnull (strstr (error->message, "cannot be written"));
  g_assert_nonnull (strstr (error->message, g_strerror (ELOOP)));
  assert_only (dir, all);
  remove_dir (dir);
}

/* Killed while it writes: the temporary file is gone, the old file is whole, and the program
 * still ends by the signal it got. */
static void
test_signal_removes_temp (gconstpointer data)
{
  int signum = GPOINTER_TO_INT (data);
  g_autofree char *dir = NULL, *path = NULL, *text = NULL;
  const char *const only[] = { "s.jsonl", NULL };

  if (g_test_subprocess ())
    {
      write_path (g_getenv ("WS_TEST_FILE"), signal_cb, GINT_TO_POINTER (signum), NULL);
      g_assert_not_reached ();
      return;
    }
  dir = g_dir_make_tmp ("ws-file-XXXXXX", NULL);
  path = g_build_filename (dir, "s.jsonl", NULL);
  g_assert_true (g_file_set_contents (path, "whole", -1, NULL));
  /* The subprocess inherits the environment. */
  g_setenv ("WS_TEST_FILE", path, TRUE);
  g_test_trap_subprocess (NULL, 0, G_TEST_SUBPROCESS_DEFAULT);
  g_test_trap_assert_failed ();
  text = read_text (path);
  g_assert_cmpstr (text, ==, "whole");
  assert_only (dir, only);
  remove_dir (dir);
}

static void
test_check_writable (void)
{
  g_autofree char *dir = g_dir_make_tmp ("ws-file-XXXXXX", NULL);
  g_autofree char *ok = g_build_filename (dir, "s.jsonl", NULL);
  g_autofree char *missing = g_build_filename (dir, "no", "such", "s.jsonl", NULL);
  g_autofree char *under_file = NULL;
  g_autofree char *link_to_dir = g_build_filename (dir, "folder-link", NULL);
  const struct
  {
    const char *path;
    int code;
    const char *names; /* in the message */
  } cases[] = {
    { "", G_IO_ERROR_INVALID_FILENAME, "empty" },
    { dir, G_IO_ERROR_IS_DIRECTORY, dir },
    { link_to_dir, G_IO_ERROR_IS_DIRECTORY, link_to_dir },
    { missing, G_IO_ERROR_NOT_FOUND, missing },
    { "/dev/null", G_IO_ERROR_NOT_REGULAR_FILE, "/dev/null" },
  };

  g_assert_true (g_file_set_contents (ok, "x", -1, NULL));
  under_file = g_build_filename (ok, "s.jsonl", NULL);
  g_assert_cmpint (symlink (dir, link_to_dir), ==, 0);
  g_assert_true (ws_file_check_writable (ok, NULL));
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr (GError) error = NULL;

      g_assert_false (ws_file_check_writable (cases[i].path, &error));
      g_assert_error (error, G_IO_ERROR, cases[i].code);
      g_assert_nonnull (strstr (error->message, cases[i].names));
    }
  {
    g_autoptr (GError) error = NULL;

    g_assert_false (ws_file_check_writable (under_file, &error));
    g_assert_nonnull (strstr (error->message, "not a folder"));
  }
  /* A folder that may not be written; root may write anywhere. */
  if (geteuid () != 0)
    {
      g_autoptr (GError) error = NULL;
      g_autofree char *locked = g_build_filename (dir, "locked", NULL);
      g_autofree char *inside = g_build_filename (locked, "s.jsonl", NULL);

      g_assert_cmpint (g_mkdir (locked, 0500), ==, 0);
      g_assert_false (ws_file_check_writable (inside, &error));
      g_assert_nonnull (strstr (error->message, "not writable"));
      g_rmdir (locked);
    }
  g_remove (link_to_dir);
  remove_dir (dir);
}

static void
test_same (void)
{
  g_autofree char *dir = g_dir_make_tmp ("ws-file-XXXXXX", NULL);
  g_autofree char *a = g_build_filename (dir, "a.jsonl", NULL);
  g_autofree char *b = g_build_filename (dir, "b.jsonl", NULL);
  g_autofree char *soft = g_build_filename (dir, "soft", NULL);
  g_autofree char *hard = g_build_filename (dir, "hard", NULL);
  g_autofree char *dotted = g_build_filename (dir, ".", "a.jsonl", NULL);
  g_autofree char *missing = g_build_filename (dir, "missing", NULL);

  g_assert_true (g_file_set_contents (a, "a", -1, NULL));
  g_assert_true (g_file_set_contents (b, "a", -1, NULL));
  g_assert_cmpint (symlink ("a.jsonl", soft), ==, 0);
  g_assert_cmpint (link (a, hard), ==, 0);
  g_assert_true (ws_file_same (a, a));
  g_assert_true (ws_file_same (a, dotted));
  g_assert_true (ws_file_same (soft, a));
  g_assert_true (ws_file_same (hard, a));
  g_assert_false (ws_file_same (a, b));
  g_assert_false (ws_file_same (a, missing));
  remove_dir (dir);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/file/write", test_write);
  g_test_add_func ("/file/keeps-mode", test_keeps_mode);
  g_test_add_func ("/file/follows-links", test_follows_links);
  g_test_add_data_func ("/file/signal-removes-temp/int", GINT_TO_POINTER (SIGINT),
                        test_signal_removes_temp);
  g_test_add_data_func ("/file/signal-removes-temp/term", GINT_TO_POINTER (SIGTERM),
                        test_signal_removes_temp);
  g_test_add_data_func ("/file/signal-removes-temp/hup", GINT_TO_POINTER (SIGHUP),
                        test_signal_removes_temp);
  g_test_add_func ("/file/check-writable", test_check_writable);
  g_test_add_func ("/file/same", test_same);
  return g_test_run ();
}
