/* test-errors.c: docs/errors.md run as a test. Each row of its tables is a command, run from
 * the build tree in a folder of hostile fixtures built here, with the exit status and the
 * message it must give; and none may crash, hang or lose data.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <errno.h>
#include <fcntl.h>
#include <glib.h>
#include <glib/gstdio.h>
#include <poll.h>
#include <signal.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "test-app-util.h"
#include "test-errors-fixtures.h"
#include "ws-session.h"
#include "ws-window.h"

/* A row that takes longer than this hangs. The slowest rows wait out a one-second --timeout
 * and the two seconds the CLI gives a runner to end after SIGTERM. */
#define ROW_SECONDS 30

/* The header of the tables whose rows are tests, and of the one that names the fixtures. */
#define ROWS_HEADER "| id | command | exit | message |"
#define FIXTURES_HEADER "| fixture | what it is |"

typedef struct
{
  char *id;
  char *command;
  int exit_code;   /* -1: the app, which does not exit */
  GPtrArray *messages;
  guint line;      /* in docs/errors.md */
} Row;

typedef struct
{
  char *path;      /* relative to the fixtures folder */
  GFileType type;
  guint mode;
  goffset size;
  gint64 mtime_ns;
  guint64 inode;
  char *content;   /* a checksum, or a link's target; NULL for a large file */
} Entry;

static GPtrArray *rows;          /* Row */
static GPtrArray *doc_fixtures;  /* names in the fixtures table */
static GPtrArray *doc_problems;  /* what is wrong with the page itself */
static char *doc_counts;         /* the line with the counts */
static char *scratch;            /* configuration, caches: outside the fixtures */
static GHashTable *baseline;     /* path → Entry, before any row ran */
static guint n_crashes, n_hangs, n_lost, n_run;

/* ---- reading docs/errors.md --------------------------------------------------------------- */

/* The cells of a table line; "\|" is a | inside a cell. */
static GPtrArray *
split_cells (const char *line)
{
  GPtrArray *cells = g_ptr_array_new_with_free_func (g_free);
  g_autoptr (GString) cell = NULL;

  for (const char *p = line; *p != '\0'; p++)
    {
      if (*p == '\\' && p[1] == '|')
        {
          if (cell != NULL)
            g_string_append_c (cell, '|');
          p++;
        }
      else if (*p == '|')
        {
          if (cell != NULL)
            g_ptr_array_add (cells, g_strstrip (g_string_free (g_steal_pointer (&cell), FALSE)));
          cell = g_string_new (NULL);
        }
      else if (cell != NULL)
        g_string_append_c (cell, *p);
    }
  return cells;
}

/* The code spans of a cell: `a` and `b` → a, b. */
static GPtrArray *
code_spans (const char *cell)
{
  GPtrArray *spans = g_ptr_array_new_with_free_func (g_free);
  const char *p = cell;

  while ((p = strchr (p, '`')) != NULL)
    {
      const char *end = strchr (p + 1, '`');

      if (end == NULL)
        break;
      g_ptr_array_add (spans, g_strndup (p + 1, end - p - 1));
      p = end + 1;
    }
  return spans;
}

static void
row_free (Row *row)
{
  g_free (row->id);
  g_free (row->command);
  g_ptr_array_unref (row->messages);
  g_free (row);
}

static void
read_doc (void)
{
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "..", "docs", "errors.md", NULL);
  g_autofree char *text = NULL;
  g_auto (GStrv) lines = NULL;
  g_autoptr (GHashTable) ids = g_hash_table_new (g_str_hash, g_str_equal);
  enum { NONE, ROWS, FIXTURES } table = NONE;
  g_autoptr (GError) error = NULL;

  rows = g_ptr_array_new_with_free_func ((GDestroyNotify) row_free);
  doc_fixtures = g_ptr_array_new_with_free_func (g_free);
  doc_problems = g_ptr_array_new_with_free_func (g_free);
  if (!g_file_get_contents (path, &text, NULL, &error))
    {
      g_ptr_array_add (doc_problems, g_strdup (error->message));
      return;
    }
  lines = g_strsplit (text, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      const char *line = lines[i];
      g_autoptr (GPtrArray) cells = NULL;

      if (g_str_has_prefix (line, "crashes "))
        {
          g_free (doc_counts);
          doc_counts = g_strdup (line);
        }
      if (g_str_has_prefix (line, ROWS_HEADER))
        {
          table = ROWS;
          continue;
        }
      if (g_str_has_prefix (line, FIXTURES_HEADER))
        {
          table = FIXTURES;
          continue;
        }
      if (line[0] != '|')
        {
          table = NONE;
          continue;
        }
      if (table == NONE || g_str_has_prefix (line, "|---"))
        continue;
      cells = split_cells (line);
      if (table == FIXTURES)
        {
          g_autoptr (GPtrArray) names = cells->len == 2 ? code_spans (cells->pdata[0]) : NULL;

          if (names == NULL || names->len != 1)
            g_ptr_array_add (doc_problems,
                             g_strdup_printf ("line %u: a fixture row is `name` | what", i + 1));
          else
            g_ptr_array_add (doc_fixtures, g_strdup (names->pdata[0]));
          continue;
        }
      {
        g_autoptr (GPtrArray) command = cells->len == 4 ? code_spans (cells->pdata[1]) : NULL;
        g_autoptr (GPtrArray) messages = cells->len == 4 ? code_spans (cells->pdata[3]) : NULL;
        const char *id = cells->len == 4 ? cells->pdata[0] : "";
        const char *code = cells->len == 4 ? cells->pdata[2] : "";
        char *end = NULL;
        gint64 exit_code = g_ascii_strtoll (code, &end, 10);
        Row *row;

        if (g_str_equal (code, "—"))
          exit_code = -1, end = (char *) code + strlen (code);
        if (command == NULL || command->len != 1 || messages->len == 0 || *id == '\0'
            || end == code || *end != '\0' || exit_code < -1 || exit_code > 255)
          {
            g_ptr_array_add (doc_problems,
                             g_strdup_printf ("line %u: a row is id | `command` | exit status "
                                              "(or — for the app) | `message`…: %s",
                                              i + 1, line));
            continue;
          }
        if (!g_hash_table_add (ids, (gpointer) g_intern_string (id)))
          g_ptr_array_add (doc_problems,
                           g_strdup_printf ("line %u: the id %s is used twice", i + 1, id));
        row = g_new0 (Row, 1);
        row->id = g_strdup (id);
        row->command = g_strdup (command->pdata[0]);
        row->exit_code = (int) exit_code;
        row->messages = g_steal_pointer (&messages);
        row->line = i + 1;
        g_ptr_array_add (rows, row);
      }
    }
}

/* ---- what is in the fixtures folder ------------------------------------------------------- */

static void
entry_free (Entry *e)
{
  g_free (e->path);
  g_free (e->content);
  g_free (e);
}

static void
scan (const char *relative, GHashTable *into)
{
  g_autofree char *dir = relative ? g_build_filename (fixtures, relative, NULL)
                                  : g_strdup (fixtures);
  g_autoptr (GDir) d = g_dir_open (dir, 0, NULL);
  const char *name;

  while (d != NULL && (name = g_dir_read_name (d)) != NULL)
    {
      g_autofree char *path = g_build_filename (dir, name, NULL);
      Entry *e = g_new0 (Entry, 1);
      GStatBuf st;

      e->path = relative ? g_build_filename (relative, name, NULL) : g_strdup (name);
      g_assert_cmpint (lstat (path, &st), ==, 0);
      e->mode = st.st_mode & 07777;
      e->size = st.st_size;
      e->mtime_ns = (gint64) st.st_mtim.tv_sec * 1000000000 + st.st_mtim.tv_nsec;
      e->inode = st.st_ino;
      if (S_ISLNK (st.st_mode))
        {
          e->type = G_FILE_TYPE_SYMBOLIC_LINK;
          e->content = g_file_read_link (path, NULL);
        }
      else if (S_ISDIR (st.st_mode))
        e->type = G_FILE_TYPE_DIRECTORY;
      else
        {
          g_autofree char *text = NULL;
          gsize length = 0;

          e->type = G_FILE_TYPE_REGULAR;
          /* Root reads a file of mode 0; the 2 GB sparse file is compared by size and time. */
          if (st.st_size <= 64 * 1024 * 1024 && g_file_get_contents (path, &text, &length, NULL))
            e->content = g_compute_checksum_for_data (G_CHECKSUM_SHA256, (guchar *) text, length);
        }
      g_hash_table_insert (into, e->path, e);
      if (e->type == G_FILE_TYPE_DIRECTORY && (e->mode & 0400))
        scan (e->path, into);
    }
}

static GHashTable *
snapshot (void)
{
  GHashTable *entries = g_hash_table_new_full (g_str_hash, g_str_equal, NULL,
                                               (GDestroyNotify) entry_free);

  scan (NULL, entries);
  return entries;
}

/* A file a row left: it must be one its message names, and whole. */
static gboolean
check_new_file (const Row *row, const char *relative, GString *why)
{
  g_autofree char *path = fixture (relative);
  g_autofree char *base = g_path_get_basename (relative);
  g_autofree char *text = NULL;
  g_autoptr (GFile) file = NULL;
  g_autoptr (WsSession) session = NULL;
  g_autoptr (GError) error = NULL;
  gboolean named = FALSE;
  gsize length;

  if (base[0] == '.')
    {
      g_string_append_printf (why, "a temporary file is left behind: %s\n", relative);
      return FALSE;
    }
  for (guint i = 0; i < row->messages->len; i++)
    named |= strstr (row->messages->pdata[i], relative) != NULL;
  if (!named)
    {
      g_string_append_printf (why, "it wrote %s, which its message does not name\n", relative);
      return FALSE;
    }
  if (!g_str_has_suffix (relative, ".jsonl"))
    return TRUE;
  /* A saved session is whole: every line ends, and it reads back. */
  g_assert_true (g_file_get_contents (path, &text, &length, NULL));
  if (length == 0 || text[length - 1] != '\n')
    {
      g_string_append_printf (why, "%s is cut short: its last line has no end\n", relative);
      return FALSE;
    }
  file = g_file_new_for_path (path);
  session = ws_session_load (file, NULL, &error);
  if (session == NULL)
    {
      g_string_append_printf (why, "%s does not read back: %s\n", relative, error->message);
      return FALSE;
    }
  return TRUE;
}

/* Compares the folder with the baseline, removes what the row wrote; FALSE, saying why, when
 * something was lost or left behind. */
static gboolean
check_nothing_lost (const Row *row, GString *why)
{
  g_autoptr (GHashTable) now = snapshot ();
  g_autoptr (GPtrArray) added = g_ptr_array_new_with_free_func (g_free);
  GHashTableIter iter;
  Entry *e;
  gboolean ok = TRUE;

  g_hash_table_iter_init (&iter, baseline);
  while (g_hash_table_iter_next (&iter, NULL, (gpointer *) &e))
    {
      Entry *n = g_hash_table_lookup (now, e->path);

      if (n == NULL)
        g_string_append_printf (why, "%s is gone\n", e->path), ok = FALSE;
      else if (n->type != e->type || n->mode != e->mode || n->size != e->size
               || n->inode != e->inode || g_strcmp0 (n->content, e->content) != 0
               || (e->type == G_FILE_TYPE_REGULAR && n->mtime_ns != e->mtime_ns))
        g_string_append_printf (why, "%s was changed\n", e->path), ok = FALSE;
    }
  g_hash_table_iter_init (&iter, now);
  while (g_hash_table_iter_next (&iter, NULL, (gpointer *) &e))
    if (!g_hash_table_contains (baseline, e->path))
      {
        ok &= check_new_file (row, e->path, why);
        g_ptr_array_add (added, g_strdup (e->path));
      }
  /* Deepest first. */
  for (guint i = added->len; i > 0; i--)
    {
      g_autofree char *path = fixture (added->pdata[i - 1]);

      g_remove (path);
    }
  return ok;
}

/* ---- running a row ------------------------------------------------------------------------ */

typedef struct
{
  int status;  /* exit status, or -1 */
  int signal;  /* the signal that ended it, or 0 */
  gboolean hung;
  gboolean left_running; /* it ended, but a process it started still held its output */
  GString *out, *err;
} Outcome;

static void
new_group (gpointer data)
{
  setpgid (0, 0);
}

/* The program's word: after the NAME=VALUE words a shell would take as the environment. */
static guint
program_word (char **words)
{
  guint first = 0;

  while (words[first] != NULL && strchr (words[first], '=') != NULL
         && g_ascii_isupper (words[first][0]))
    first++;
  g_assert_nonnull (words[first]);
  return first;
}

static char *
program_path (const char *name)
{
  if (g_str_equal (name, "warpscope-cli"))
    return g_test_build_filename (G_TEST_BUILT, "..", "src", "cli", "warpscope-cli", NULL);
  if (g_str_equal (name, "warpscope-runner") && g_getenv ("WS_RUNNER") != NULL)
    return g_strdup (g_getenv ("WS_RUNNER"));
  return NULL;
}

static void
run_command (char **words, Outcome *o)
{
  g_auto (GStrv) envp = g_get_environ ();
  g_autofree char *program = NULL;
  g_autofree char *targets = g_build_filename (scratch, "targets.conf", NULL);
  g_autoptr (GError) error = NULL;
  gint64 end = g_get_monotonic_time () + ROW_SECONDS * G_USEC_PER_SEC;
  int fds[2] = { -1, -1 };
  GString *into[2] = { o->out, o->err };
  int wait_status = 0;
  gboolean exited = FALSE;
  guint first = 0;
  GPid pid;

  /* As on a machine without a GPU, whatever this one has; nothing of a person's own. */
  envp = g_environ_setenv (envp, "WARPSCOPE_LIBCUDA", "/nonexistent/libcuda.so.1", TRUE);
  envp = g_environ_setenv (envp, "WARPSCOPE_TARGETS", targets, TRUE);
  envp = g_environ_setenv (envp, "XDG_CONFIG_HOME", scratch, TRUE);
  envp = g_environ_setenv (envp, "XDG_CACHE_HOME", scratch, TRUE);
  envp = g_environ_setenv (envp, "HOME", scratch, TRUE);
  if (g_getenv ("WS_RUNNER") != NULL)
    envp = g_environ_setenv (envp, "WARPSCOPE_RUNNER", g_getenv ("WS_RUNNER"), TRUE);
  first = program_word (words);
  for (guint i = 0; i < first; i++)
    {
      g_auto (GStrv) pair = g_strsplit (words[i], "=", 2);

      envp = g_environ_setenv (envp, pair[0], pair[1], TRUE);
    }
  program = program_path (words[first]);
  g_assert_nonnull (program);
  g_free (words[first]);
  words[first] = g_steal_pointer (&program);
  if (!g_spawn_async_with_pipes (fixtures, words + first, envp,
                                 G_SPAWN_DO_NOT_REAP_CHILD | G_SPAWN_STDIN_FROM_DEV_NULL,
                                 new_group, NULL, &pid, NULL, &fds[0], &fds[1], &error))
    g_error ("%s", error->message);
  for (;;)
    {
      struct pollfd pfd[2] = { { fds[0], POLLIN, 0 }, { fds[1], POLLIN, 0 } };

      if (!exited && waitpid (pid, &wait_status, WNOHANG) == pid)
        {
          /* It has ended: read what is left, not what a process it left behind may hold. */
          exited = TRUE;
          end = MIN (end, g_get_monotonic_time () + G_USEC_PER_SEC);
        }
      if (exited && fds[0] < 0 && fds[1] < 0)
        break;
      if (g_get_monotonic_time () > end)
        {
          if (!exited)
            {
              o->hung = TRUE;
              kill (-pid, SIGKILL);
              waitpid (pid, &wait_status, 0);
            }
          break;
        }
      if (fds[0] < 0 && fds[1] < 0)
        {
          g_usleep (10000);
          continue;
        }
      if (poll (pfd, 2, 50) <= 0)
        continue;
      for (int i = 0; i < 2; i++)
        {
          char buf[65536];
          ssize_t n;

          if (fds[i] < 0 || pfd[i].revents == 0)
            continue;
          n = read (fds[i], buf, sizeof buf);
          if (n > 0)
            g_string_append_len (into[i], buf, n);
          else
            close (fds[i]), fds[i] = -1;
        }
    }
  /* Something it started outlived it, holding its output: a process left running. */
  if (exited && (fds[0] >= 0 || fds[1] >= 0))
    o->left_running = TRUE;
  for (int i = 0; i < 2; i++)
    if (fds[i] >= 0)
      close (fds[i]);
  if (!o->hung)
    {
      o->status = WIFEXITED (wait_status) ? WEXITSTATUS (wait_status) : -1;
      o->signal = WIFSIGNALED (wait_status) ? WTERMSIG (wait_status) : 0;
    }
}

static gboolean
app_has_answered (gpointer window)
{
  return ws_window_get_last_toast (window) != NULL;
}

/* `warpscope FILE`: the file opened in a window, as the command line and Open… do; what the
 * window says is its toast. */
static void
open_in_app (char **words, Outcome *o)
{
  g_autofree char *path = NULL;
  g_autoptr (GFile) file = NULL;
  WsWindow *window;
  gint64 start = g_get_monotonic_time ();

  g_assert_nonnull (words[1]);
  g_assert_null (words[2]);
  path = g_build_filename (fixtures, words[1], NULL);
  file = g_file_new_for_path (g_path_is_absolute (words[1]) ? words[1] : path);
  window = ws_test_new_window ();
  ws_window_open_file (window, file);
  ws_test_spin_until (app_has_answered, window, ROW_SECONDS * 1000);
  if (ws_window_get_last_toast (window) != NULL)
    g_string_append (o->err, ws_window_get_last_toast (window));
  else
    o->hung = g_get_monotonic_time () - start >= ROW_SECONDS * G_USEC_PER_SEC;
  gtk_window_destroy (GTK_WINDOW (window));
  ws_test_spin_for (50);
}

/* Rows that start the real runner are left out where it is not built (no CUDA toolkit), and
 * rows that need a folder root could write anyway are left out for root. */
static const char *
why_left_out (char **words)
{
  guint first = program_word (words);

  if (g_getenv ("WS_RUNNER") == NULL)
    {
      if (g_str_equal (words[first], "warpscope-runner"))
        return "warpscope-runner is not built here";
      if (g_str_equal (words[first], "warpscope-cli") && words[first + 1] != NULL
          && g_strv_contains ((const char *const[]) { "run", "devices", "kernels", "trace",
                                                      NULL },
                              words[first + 1])
          && !g_strv_contains ((const char *const *) words, "--runner"))
        return "this row starts warpscope-runner, which is not built here";
    }
  if (geteuid () == 0)
    for (guint i = first; words[i] != NULL; i++)
      if (g_str_has_prefix (words[i], "locked/") || g_str_equal (words[i], "unreadable.jsonl"))
        return "root reads and writes where the row's fixture forbids it";
  return NULL;
}

static void
test_row (gconstpointer data)
{
  const Row *row = data;
  g_auto (GStrv) words = NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (GString) why = g_string_new (NULL);
  Outcome o = { .status = -1, .out = g_string_new (NULL), .err = g_string_new (NULL) };
  const char *left_out;

  if (!g_shell_parse_argv (row->command, NULL, &words, &error))
    g_error ("docs/errors.md:%u: %s", row->line, error->message);
  if ((left_out = why_left_out (words)) != NULL)
    {
      g_test_skip (left_out);
      g_string_free (o.out, TRUE);
      g_string_free (o.err, TRUE);
      return;
    }
  n_run++;
  /* Each row starts with no saved targets. */
  {
    g_autofree char *targets = g_build_filename (scratch, "targets.conf", NULL);

    g_remove (targets);
  }
  if (g_str_equal (words[program_word (words)], "warpscope"))
    open_in_app (words, &o);
  else
    run_command (words, &o);
  g_test_message ("%s → %d\nstdout: %.2000s\nstderr: %.4000s", row->command, o.status,
                  o.out->str, o.err->str);
  if (g_getenv ("WS_ERRORS_SHOW") != NULL)
    g_printerr ("== %s: %s → %d\n%.600s%.1500s\n", row->id, row->command, o.status, o.out->str,
                o.err->str);
  if (o.hung)
    n_hangs++, g_string_append_printf (why, "it did not end within %d s\n", ROW_SECONDS);
  else if (o.left_running)
    n_hangs++, g_string_append (why, "it left a process running that holds its output\n");
  else if (o.signal != 0)
    n_crashes++, g_string_append_printf (why, "it died of signal %d (%s)\n", o.signal,
                                         g_strsignal (o.signal));
  else if (row->exit_code >= 0 && o.status != row->exit_code)
    g_string_append_printf (why, "it exited %d, not %d\n", o.status, row->exit_code);
  for (guint i = 0; i < row->messages->len; i++)
    if (strstr (o.err->str, row->messages->pdata[i]) == NULL
        && strstr (o.out->str, row->messages->pdata[i]) == NULL)
      g_string_append_printf (why, "it did not say “%s”\n", (char *) row->messages->pdata[i]);
  if (!check_nothing_lost (row, why))
    n_lost++;
  /* Every row runs, whichever fails. */
  if (why->len > 0)
    g_test_fail_printf ("docs/errors.md:%u, %s: `%s`\n%sstdout: %.2000s\nstderr: %.4000s",
                        row->line, row->id, row->command, why->str, o.out->str, o.err->str);
  g_string_free (o.out, TRUE);
  g_string_free (o.err, TRUE);
}

/* ---- the page itself ----------------------------------------------------------------------- */

/* The page is well formed, names exactly the fixtures built here, and every fixture was
 * built. */
static void
test_doc (void)
{
  for (guint i = 0; i < doc_problems->len; i++)
    g_test_message ("docs/errors.md: %s", (char *) doc_problems->pdata[i]);
  g_assert_cmpuint (doc_problems->len, ==, 0);
  g_assert_cmpuint (rows->len, >, 0);
  for (guint i = 0; built[i] != NULL; i++)
    {
      g_autofree char *path = fixture (built[i]);
      GStatBuf st;

      if (!g_ptr_array_find_with_equal_func (doc_fixtures, built[i], g_str_equal, NULL))
        g_error ("docs/errors.md does not describe the fixture %s", built[i]);
      g_assert_cmpint (lstat (path, &st), ==, 0);
    }
  for (guint i = 0; i < doc_fixtures->len; i++)
    if (!g_strv_contains (built, doc_fixtures->pdata[i]))
      g_error ("docs/errors.md names a fixture the test does not build: %s",
               (char *) doc_fixtures->pdata[i]);
  /* Every entry of the folder is a fixture the page describes. */
  {
    GHashTableIter iter;
    Entry *e;

    g_hash_table_iter_init (&iter, baseline);
    while (g_hash_table_iter_next (&iter, NULL, (gpointer *) &e))
      if (strchr (e->path, '/') == NULL)
        g_assert_true (g_strv_contains (built, e->path));
  }
}

/* The counts the page ends with are the ones measured. Runs last. */
static void
test_counts (void)
{
  g_autofree char *want = g_strdup_printf ("crashes %u, hangs %u, data lost %u (%u rows)",
                                           n_crashes, n_hangs, n_lost, rows->len);

  g_assert_nonnull (doc_counts);
  if (n_run == 0)
    {
      g_test_skip ("no row ran");
      return;
    }
  g_assert_cmpstr (doc_counts, ==, want);
}

int
main (int argc, char **argv)
{
  g_autofree char *top = g_dir_make_tmp ("ws-errors-XXXXXX", NULL);
  int status;

  gtk_test_init (&argc, &argv, NULL);
  adw_init ();
  fixtures = g_build_filename (top, "fixtures", NULL);
  scratch = g_build_filename (top, "home", NULL);
  g_assert_cmpint (g_mkdir (fixtures, 0755), ==, 0);
  g_assert_cmpint (g_mkdir (scratch, 0755), ==, 0);
  /* Nothing of a person's own cache or settings: the app's too. */
  g_setenv ("XDG_CACHE_HOME", scratch, TRUE);
  g_setenv ("XDG_DATA_HOME", scratch, TRUE);
  read_doc ();
  build_fixtures ();
  baseline = snapshot ();
  g_test_add_func ("/errors/doc", test_doc);
  for (guint i = 0; i < rows->len; i++)
    {
      Row *row = g_ptr_array_index (rows, i);
      g_autofree char *name = g_strdup_printf ("/errors/row/%s", row->id);

      g_test_add_data_func (name, row, test_row);
    }
  g_test_add_func ("/errors/summary/counts", test_counts);
  status = g_test_run ();

  ws_test_remove_dir (top);
  g_hash_table_unref (baseline);
  g_ptr_array_unref (rows);
  g_ptr_array_unref (doc_fixtures);
  g_ptr_array_unref (doc_problems);
  g_free (doc_counts);
  g_free (fixtures);
  g_free (scratch);
  return status;
}
