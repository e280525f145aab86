/* ws-memcheck.c: a memory check's findings as sentences, shared by the app and the CLI.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "ws-config.h"

#include "ws-memcheck.h"

#include <glib/gi18n-lib.h>

void
ws_memcheck_text_init (WsMemcheckText *text, const WsMemcheckFinding *m)
{
  g_autofree char *base = m->file != NULL ? g_path_get_basename (m->file) : g_strdup ("?");
  const char *message = m->message != NULL ? m->message : m->kind != NULL ? m->kind : "?";

  g_return_if_fail (text != NULL && m != NULL);
  /* The place first, as a compiler writes it, so that it reads as an error of the file. */
  text->title = m->line > 0 ? g_strdup_printf ("%s:%d: %s", base, m->line, message)
                            : g_strdup_printf ("%s: %s", base, message);
  text->numbers
    = m->has_thread
        ? g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                        "In %s, first by thread (%u,%u,%u) of block "
                                        "(%u,%u,%u); %d time",
                                        "In %s, first by thread (%u,%u,%u) of block "
                                        "(%u,%u,%u); %d times",
                                        m->count),
                           m->kernel ? m->kernel : "?", m->thread[0], m->thread[1],
                           m->thread[2], m->block[0], m->block[1], m->block[2], m->count)
        : NULL;
  text->fix = g_strcmp0 (m->tool, "racecheck") == 0
                ? _("Put __syncthreads() between the writes to shared memory and the reads of "
                    "other threads.")
                : _("Check the index against the array's length before the access (if (i < "
                    "n)): the last block usually runs past the end.");
}

void
ws_memcheck_text_clear (WsMemcheckText *text)
{
  g_clear_pointer (&text->title, g_free);
  g_clear_pointer (&text->numbers, g_free);
  text->fix = NULL;
}
