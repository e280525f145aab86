/* bench-relay-parse.c: what reading each line of a traced program's stream would cost the
 * runner's relay if it parsed the line instead of splicing it: every line of FILE parsed by
 * the model's record parser (ws_record_parse, a flat array of nodes in one allocation), the
 * fastest general JSON reader in the tree, best of five passes (tools/bench-relay.sh,
 * docs/benchmarks.md).
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <glib.h>
#include <stdio.h>
#include <string.h>

#include "ws-record.h"

int
main (int argc, char **argv)
{
  g_autofree char *text = NULL;
  g_auto (GStrv) lines = NULL;
  gsize n = 0;
  double best = G_MAXDOUBLE;

  if (argc != 2 || !g_file_get_contents (argv[1], &text, NULL, NULL))
    {
      fprintf (stderr, "usage: bench-relay-parse FILE (one JSON record a line)\n");
      return 2;
    }
  lines = g_strsplit (text, "\n", -1);
  for (int pass = 0; pass < 5; pass++)
    {
      gint64 t0 = g_get_monotonic_time ();

      n = 0;
      for (gsize i = 0; lines[i] != NULL; i++)
        {
          WsRecord *r;

          if (lines[i][0] == '\0')
            continue;
          r = ws_record_parse (lines[i], strlen (lines[i]), NULL, NULL);
          if (r == NULL)
            {
              fprintf (stderr, "line %zu is not JSON\n", i + 1);
              return 1;
            }
          ws_record_free (r);
          n++;
        }
      best = MIN (best, (double) (g_get_monotonic_time () - t0) * 1e3);
    }
  printf ("parse  %zu lines  %.0f ns a line  (%.1f ms)\n", n, best / (double) n, best / 1e6);
  return 0;
}
