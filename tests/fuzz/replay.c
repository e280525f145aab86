/* replay.c: a fuzz target without libFuzzer, for the unit suite: every file in the
 * directories given (the target's corpus and the crashers kept as regressions) is fed to
 * LLVMFuzzerTestOneInput, one GLib test each, so that any compiler builds it and CI replays
 * every committed input. A directory that does not exist has no inputs; a file given is one
 * input (a crasher replayed by hand: replay-session session crash-1234…).
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <glib.h>
#include <string.h>

#include "fuzz-support.h"

static void
replay (gconstpointer data)
{
  const char *path = data;
  g_autoptr (GError) error = NULL;
  g_autofree char *contents = NULL;
  gsize length;
  guint8 *copy;

  g_assert_true (g_file_get_contents (path, &contents, &length, &error));
  g_assert_no_error (error);
  /* In an allocation of its own size, as libFuzzer hands it over: a read past the end is
   * one AddressSanitizer sees. */
  copy = g_malloc (MAX (length, 1));
  memcpy (copy, contents, length);
  LLVMFuzzerTestOneInput (copy, length);
  g_free (copy);
}

static void
add_directory (const char *target, const char *dir)
{
  g_autoptr (GDir) d = g_dir_open (dir, 0, NULL);
  g_autoptr (GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
  g_autofree char *parent = g_path_get_dirname (dir);
  g_autofree char *group = g_path_get_basename (parent);
  const char *name;

  if (d == NULL)
    return;
  while ((name = g_dir_read_name (d)) != NULL)
    if (name[0] != '.' && !g_str_has_suffix (name, ".md"))
      g_ptr_array_add (names, g_strdup (name));
  g_ptr_array_sort (names, (GCompareFunc) g_ascii_strcasecmp);
  for (guint i = 0; i < names->len; i++)
    {
      const char *file = g_ptr_array_index (names, i);
      g_autofree char *test = g_strdup_printf ("/fuzz/%s/%s/%s", target, group, file);

      g_test_add_data_func_full (test, g_build_filename (dir, file, NULL), replay, g_free);
    }
}

int
main (int argc, char **argv)
{
  const char *target;

  g_test_init (&argc, &argv, NULL);
  if (argc < 2)
    g_error ("usage: %s TARGET [DIRECTORY|FILE…]", argv[0]);
  target = argv[1];
  LLVMFuzzerInitialize (&argc, &argv);
  for (int i = 2; i < argc; i++)
    if (g_file_test (argv[i], G_FILE_TEST_IS_REGULAR))
      {
        g_autofree char *base = g_path_get_basename (argv[i]);
        g_autofree char *test = g_strdup_printf ("/fuzz/%s/given/%s", target, base);

        g_test_add_data_func_full (test, g_strdup (argv[i]), replay, g_free);
      }
    else
      add_directory (target, argv[i]);
  return g_test_run ();
}
