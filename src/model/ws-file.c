/* ws-file.c: files written whole or not at all, and the checks made before writing one.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "ws-config.h"

#include "ws-file.h"

#include <errno.h>
#include <fcntl.h>
#include <gio/gunixoutputstream.h>
#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>
#include <limits.h>
#include <signal.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Links are followed this far, as the kernel does (ELOOP). */
#define MAX_LINK_HOPS 40

static gboolean
set_errno_error (GError **error, int saved, const char *format, const char *path)
{
  g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved), format, path,
               g_strerror (saved));
  return FALSE;
}

/* ---- temporary files removed when a signal ends the program ------------------------------ */

/* A program killed by Ctrl+C while it saves would leave ".name.XXXXXX" beside the target.
 * While a write is under way, SIGINT, SIGTERM and SIGHUP (when nothing else handles them: a
 * main loop's g_unix_signal_add handles them itself, and the write finishes) go to a handler
 * that unlinks the temporary files and raises the signal again with its default action. The
 * handler may run on any thread and only reads fixed buffers: no allocation, no lock. */
#define MAX_TEMP_FILES 8

static char temp_paths[MAX_TEMP_FILES][PATH_MAX];
static volatile sig_atomic_t temp_used[MAX_TEMP_FILES];
static const int cleanup_signals[] = { SIGINT, SIGTERM, SIGHUP };
static struct sigaction saved_actions[G_N_ELEMENTS (cleanup_signals)];
static gboolean installed[G_N_ELEMENTS (cleanup_signals)];
static guint n_writing;
static GMutex temp_lock;

static void
cleanup_handler (int signum)
{
  struct sigaction action;

  for (int i = 0; i < MAX_TEMP_FILES; i++)
    if (temp_used[i])
      unlink (temp_paths[i]);
  memset (&action, 0, sizeof action);
  action.sa_handler = SIG_DFL;
  sigemptyset (&action.sa_mask);
  sigaction (signum, &action, NULL);
  /* Blocked until this handler returns, then delivered with the default action: the program
   * ends by the signal it got, as it would have without us. */
  raise (signum);
}

static void
install_cleanup (void)
{
  for (guint s = 0; s < G_N_ELEMENTS (cleanup_signals); s++)
    {
      struct sigaction current, action;

      if (sigaction (cleanup_signals[s], NULL, &current) != 0
          || (current.sa_flags & SA_SIGINFO) || current.sa_handler != SIG_DFL)
        continue;
      memset (&action, 0, sizeof action);
      action.sa_handler = cleanup_handler;
      sigemptyset (&action.sa_mask);
      for (guint o = 0; o < G_N_ELEMENTS (cleanup_signals); o++)
        sigaddset (&action.sa_mask, cleanup_signals[o]);
      if (sigaction (cleanup_signals[s], &action, &saved_actions[s]) == 0)
        installed[s] = TRUE;
    }
}

static void
uninstall_cleanup (void)
{
  for (guint s = 0; s < G_N_ELEMENTS (cleanup_signals); s++)
    {
      struct sigaction current;

      if (!installed[s])
        continue;
      installed[s] = FALSE;
      /* Someone who took the signal over since keeps it. */
      if (sigaction (cleanup_signals[s], NULL, &current) == 0
          && !(current.sa_flags & SA_SIGINFO) && current.sa_handler == cleanup_handler)
        sigaction (cleanup_signals[s], &saved_actions[s], NULL);
    }
}

/* The slot taken, or -1 when the path cannot be kept (too long, too many writes at once):
 * the write goes on, only without the clean-up. */
static int
register_temp (const char *path)
{
  int slot = -1;
  gsize length = strlen (path);

  g_mutex_lock (&temp_lock);
  for (int i = 0; i < MAX_TEMP_FILES && length < PATH_MAX; i++)
    if (!temp_used[i])
      {
        memcpy (temp_paths[i], path, length + 1);
        temp_used[i] = 1;
        slot = i;
        break;
      }
  if (n_writing++ == 0)
    install_cleanup ();
  g_mutex_unlock (&temp_lock);
  return slot;
}

static void
unregister_temp (int slot)
{
  g_mutex_lock (&temp_lock);
  if (slot >= 0)
    temp_used[slot] = 0;
  if (--n_writing == 0)
    uninstall_cleanup ();
  g_mutex_unlock (&temp_lock);
}

/* ---- paths ------------------------------------------------------------------------------- */

char *
ws_file_resolve_links (const char *path, GError **error)
{
  g_autofree char *current = NULL;

  g_return_val_if_fail (path != NULL, NULL);
  current = g_strdup (path);
  for (int hops = 0;; hops++)
    {
      struct stat st;
      g_autofree char *target = NULL;
      g_autofree char *dir = NULL;

      if (lstat (current, &st) != 0 || !S_ISLNK (st.st_mode))
        return g_steal_pointer (&current);
      if (hops == MAX_LINK_HOPS)
        {
          set_errno_error (error, ELOOP, _("%s cannot be written: %s"), path);
          return NULL;
        }
      target = g_file_read_link (current, error);
      if (target == NULL)
        return NULL;
      if (g_path_is_absolute (target))
        {
          g_free (current);
          current = g_steal_pointer (&target);
          continue;
        }
      dir = g_path_get_dirname (current);
      g_free (current);
      current = g_build_filename (dir, target, NULL);
    }
}

gboolean
ws_file_check_writable (const char *path, GError **error)
{
  g_autofree char *target = NULL;
  g_autofree char *dir = NULL;
  struct stat st;

  if (path == NULL || *path == '\0')
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_INVALID_FILENAME,
                           _("the file name is empty: give the name of the file to write"));
      return FALSE;
    }
  target = ws_file_resolve_links (path, error);
  if (target == NULL)
    return FALSE;
  if (stat (target, &st) == 0)
    {
      if (S_ISDIR (st.st_mode))
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_IS_DIRECTORY,
                       _("%s is a folder: give the name of a file to write in it"), path);
          return FALSE;
        }
      if (!S_ISREG (st.st_mode))
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_REGULAR_FILE,
                       _("%s is not a regular file (a device or a pipe): give the name of a "
                         "file to write"),
                       path);
          return FALSE;
        }
    }
  dir = g_path_get_dirname (target);
  if (!g_path_is_absolute (dir))
    {
      /* "." names no folder a person can look for. */
      char *absolute = g_canonicalize_filename (dir, NULL);

      g_free (dir);
      dir = absolute;
    }
  if (stat (dir, &st) != 0)
    {
      int saved = errno;

      if (saved == ENOENT)
        g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND,
                     /* Translators: the file, then its folder. */
                     _("%s cannot be written: there is no folder %s. Create it, or give a "
                       "file in a folder that exists"),
                     path, dir);
      else
        g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved),
                     /* Translators: the file, its folder, then why. */
                     _("%s cannot be written: the folder %s cannot be used (%s)"), path, dir,
                     g_strerror (saved));
      return FALSE;
    }
  if (!S_ISDIR (st.st_mode))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_DIRECTORY,
                   _("%s cannot be written: %s is not a folder"), path, dir);
      return FALSE;
    }
  /* The file is written beside the target and renamed over it: the folder must be writable,
   * whether or not the file is. */
  if (access (dir, W_OK | X_OK) != 0)
    {
      int saved = errno;

      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved),
                   /* Translators: the file, its folder, then why. */
                   _("%s cannot be written: the folder %s is not writable (%s). Give a file "
                     "in a folder you can write to"),
                   path, dir, g_strerror (saved));
      return FALSE;
    }
  return TRUE;
}

gboolean
ws_file_same (const char *a, const char *b)
{
  struct stat sa, sb;

  if (a == NULL || b == NULL || stat (a, &sa) != 0 || stat (b, &sb) != 0)
    return FALSE;
  return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

/* ---- writing ----------------------------------------------------------------------------- */

static gboolean
write_remote (GFile *file, WsWriteFunc func, gpointer user_data, GError **error)
{
  /* Not a local file (a GVfs location): GIO's replace writes a temporary file there and
   * renames it on close, which is the same promise. */
  g_autoptr (GFileOutputStream) out = g_file_replace (file, NULL, FALSE,
                                                      G_FILE_CREATE_REPLACE_DESTINATION, NULL,
                                                      error);

  if (out == NULL)
    return FALSE;
  if (!func (G_OUTPUT_STREAM (out), user_data, error))
    {
      g_autoptr (GCancellable) cancel = g_cancellable_new ();

      /* Closing a cancelled stream abandons the temporary file. */
      g_cancellable_cancel (cancel);
      g_output_stream_close (G_OUTPUT_STREAM (out), cancel, NULL);
      return FALSE;
    }
  return g_output_stream_close (G_OUTPUT_STREAM (out), NULL, error);
}

/* A file that exists is replaced by one with its permissions (a 0600 session stays 0600) and,
 * where we may, its group and owner; a new one gets 0666 less the umask, as any new file. The
 * temporary file is made 0600 and only then opened up, so that no one reads it half-written
 * with wider permissions than the target's. */
static int
open_temp (char *tmpl, const char *target, GError **error)
{
  struct stat st;
  gboolean exists = stat (target, &st) == 0 && S_ISREG (st.st_mode);
  int fd = g_mkstemp_full (tmpl, O_WRONLY, exists ? 0600 : 0666);
  g_autofree char *dir = NULL;

  if (fd < 0)
    {
      int saved = errno;

      dir = g_path_get_dirname (target);
      set_errno_error (error, saved, _("Cannot write in %s: %s"), dir);
      return -1;
    }
  if (exists)
    {
      /* Ownership is kept where the system lets us; permissions always. */
      if ((st.st_uid != geteuid () || st.st_gid != getegid ())
          && fchown (fd, st.st_uid, st.st_gid) != 0 && fchown (fd, (uid_t) -1, st.st_gid) != 0)
        g_debug ("%s: its owner and group are not kept: %s", target, g_strerror (errno));
      if (fchmod (fd, st.st_mode & 07777) != 0)
        {
          int saved = errno;

          close (fd);
          g_unlink (tmpl);
          set_errno_error (error, saved, _("Cannot write %s: %s"), target);
          return -1;
        }
    }
  return fd;
}

gboolean
ws_file_write_atomic (GFile *file, WsWriteFunc func, gpointer user_data, GError **error)
{
  g_autofree char *path = g_file_get_path (file);
  g_autofree char *target = NULL, *dir = NULL, *base = NULL, *tmpl = NULL;
  g_autoptr (GOutputStream) stream = NULL;
  gboolean ok;
  int fd, slot;

  if (path == NULL)
    return write_remote (file, func, user_data, error);

  /* Writing through a link replaces the file it points to, and the link stays. */
  target = ws_file_resolve_links (path, error);
  if (target == NULL)
    return FALSE;
  dir = g_path_get_dirname (target);
  base = g_path_get_basename (target);
  tmpl = g_strdup_printf ("%s/.%s.XXXXXX", dir, base);
  fd = open_temp (tmpl, target, error);
  if (fd < 0)
    return FALSE;
  slot = register_temp (tmpl);
  stream = g_unix_output_stream_new (fd, TRUE);
  ok = func (stream, user_data, error);
  if (ok && fsync (fd) != 0)
    ok = set_errno_error (error, errno, _("Cannot write %s: %s"), path);
  if (!g_output_stream_close (stream, NULL, ok ? error : NULL))
    ok = FALSE;
  if (ok && g_rename (tmpl, target) != 0)
    ok = set_errno_error (error, errno, _("Cannot save %s: %s"), path);
  if (!ok)
    g_unlink (tmpl);
  unregister_temp (slot);
  return ok;
}
