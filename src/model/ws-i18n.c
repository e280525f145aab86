/* ws-i18n.c: where the programs find their translations, and whether they run from the build
 * tree.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "ws-config.h"

#include "ws-i18n.h"

#include <glib/gi18n-lib.h>

gboolean
ws_running_from_build_tree (void)
{
  static gsize answer = 0;

  /* An installed copy must not pick up what a build tree that happens to exist holds. */
  if (g_once_init_enter (&answer))
    {
      g_autofree char *self = g_file_read_link ("/proc/self/exe", NULL);

      g_once_init_leave (&answer, self != NULL && g_str_has_prefix (self, WS_BUILD_ROOT G_DIR_SEPARATOR_S)
                                    ? 2 : 1);
    }
  return answer == 2;
}

const char *
ws_i18n_get_localedir (void)
{
  static gsize dir = 0;

  if (g_once_init_enter (&dir))
    {
      const char *override = g_getenv ("WARPSCOPE_LOCALEDIR");
      const char *found;

      if (override != NULL && *override != '\0')
        found = g_intern_string (override);
      else if (ws_running_from_build_tree () && g_file_test (WS_BUILD_LOCALEDIR, G_FILE_TEST_IS_DIR))
        found = WS_BUILD_LOCALEDIR;
      else
        found = WS_LOCALEDIR;
      g_once_init_leave (&dir, (gsize) found);
    }
  return (const char *) dir;
}

void
ws_i18n_init (void)
{
  bindtextdomain (GETTEXT_PACKAGE, ws_i18n_get_localedir ());
  bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");
}

const char *
ws_i18n_kernel_text (const char *english)
{
  return english != NULL && *english != '\0' ? g_dgettext (GETTEXT_PACKAGE, english) : english;
}
