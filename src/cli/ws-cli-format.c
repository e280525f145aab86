/* ws-cli-format.c: a run's times with their spread in one unit, for the tables (the numbers
 * themselves are ws-units.c's).
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "ws-cli.h"

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
