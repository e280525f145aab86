/* ws-cli-format.c: a run's times with their spread in one unit, for the tables (the numbers
 * themselves are ws-units.c's), and the exact text of a double for machine-readable output.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "ws-cli.h"

#include <math.h>
#include <stdlib.h>

char *
ws_cli_format_double (double value)
{
  char buffer[G_ASCII_DTOSTR_BUF_SIZE];

  if (!isfinite (value))
    return g_strdup ("null");
  /* Plain digits where they are short enough to read: 1000, not 1e+03. */
  if (value == 0 || (fabs (value) >= 1e-4 && fabs (value) < 1e15))
    for (int decimals = 0; decimals <= 17; decimals++)
      {
        char format[8];

        g_snprintf (format, sizeof format, "%%.%df", decimals);
        g_ascii_formatd (buffer, sizeof buffer, format, value);
        if (g_ascii_strtod (buffer, NULL) == value)
          return g_strdup (buffer);
      }
  for (int precision = 1; precision <= 17; precision++)
    {
      char format[8];

      g_snprintf (format, sizeof format, "%%.%dg", precision);
      g_ascii_formatd (buffer, sizeof buffer, format, value);
      if (g_ascii_strtod (buffer, NULL) == value)
        break;
    }
  return g_strdup (buffer);
}

/* ---- a run's times ---------------------------------------------------------------------- */

char *
ws_cli_format_stats_median (const WsStats *stats)
{
  if (stats == NULL || stats->n <= 0)
    return g_strdup (WS_UNITS_NONE);
  return ws_units_duration (stats->median);
}

char *
ws_cli_format_stats_spread (const WsStats *stats)
{
  if (stats == NULL || stats->n <= 1 || !(stats->median > 0))
    return g_strdup ("");
  return ws_units_duration_range (stats->median, stats->min, stats->max);
}

char *
ws_cli_format_stats (const WsStats *stats)
{
  g_autofree char *median = ws_cli_format_stats_median (stats);
  g_autofree char *spread = ws_cli_format_stats_spread (stats);

  if (*spread == '\0')
    return g_steal_pointer (&median);
  return g_strdup_printf ("%s %s", median, spread);
}
