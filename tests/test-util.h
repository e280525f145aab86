/* test-util.h: small helpers the GLib tests share (header only: each test is one program).
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

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
