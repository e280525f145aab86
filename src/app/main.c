/* main.c: the Warpscope desktop application.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <glib/gi18n.h>
#include <glib/gstdio.h>
#include <locale.h>

#include "ws-application.h"
#include "ws-config.h"
#include "ws-i18n.h"

/* Without a GPU render node (a virtual machine, a container, Xvfb) GTK's GL renderer runs on
 * a software rasterizer that compiles its shaders at start-up: on 2 cores it costs about
 * 0.3 s before the first frame and draws no faster. Every chart is drawn with cairo anyway,
 * so there the app uses GTK's cairo renderer. GSK_RENDERER set by the user always wins. */
static void
choose_renderer (void)
{
  g_autoptr (GDir) dri = NULL;
  const char *name;

  if (g_getenv ("GSK_RENDERER") != NULL)
    return;
  dri = g_dir_open ("/dev/dri", 0, NULL);
  while (dri != NULL && (name = g_dir_read_name (dri)) != NULL)
    if (g_str_has_prefix (name, "renderD"))
      return;
  g_setenv ("GSK_RENDERER", "cairo", FALSE);
  if (g_getenv ("GDK_DEBUG") == NULL)
    g_setenv ("GDK_DEBUG", "gl-disable", FALSE);
}

int
main (int argc, char **argv)
{
  g_autoptr (WsApplication) app = NULL;

  choose_renderer ();
  setlocale (LC_ALL, "");
  ws_i18n_init ();
  textdomain (GETTEXT_PACKAGE);

  app = ws_application_new ();
  return g_application_run (G_APPLICATION (app), argc, argv);
}
