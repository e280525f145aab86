/* main.c: the Warpscope desktop application.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <glib/gi18n.h>
#include <locale.h>

#include "ws-application.h"
#include "ws-config.h"

int
main (int argc, char **argv)
{
  g_autoptr (WsApplication) app = NULL;

  setlocale (LC_ALL, "");
  bindtextdomain (GETTEXT_PACKAGE, WS_LOCALEDIR);
  bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");
  textdomain (GETTEXT_PACKAGE);

  app = ws_application_new ();
  return g_application_run (G_APPLICATION (app), argc, argv);
}
