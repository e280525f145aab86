/* main.c: the Warpscope desktop application.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <glib/gi18n.h>
#include <locale.h>

#include "ws-application.h"
#include "ws-config.h"
#include "ws-i18n.h"

int
main (int argc, char **argv)
{
  g_autoptr (WsApplication) app = NULL;

  setlocale (LC_ALL, "");
  ws_i18n_init ();
  textdomain (GETTEXT_PACKAGE);

  app = ws_application_new ();
  return g_application_run (G_APPLICATION (app), argc, argv);
}
