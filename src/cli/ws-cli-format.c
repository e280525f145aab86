/* ws-cli-format.c: numbers for people: durations in ns/µs/ms/s with their spread in the same
 * unit, speedups, rates, sizes; and the exact text of a double for machine-readable output.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "ws-cli.h"

#include <math.h>
#include <stdlib.h>

#define NOT_MEASURED "—"

/* Digits after the point so that `value` shows `significant` digits. */
static int
decimals_for (double value, int significant)
{
  int magnitude;

  if (value == 0 || !isfinite (value))
    return 0;
  magnitude = (int) floor (log10 (fabs (value)));
  /* 99.96 at three digits rounds to 100.0: count the digits of what will be printed. */
  if (fabs (value) >= pow (10, magnitude + 1) - 0.5 * pow (10, magnitude + 1 - significant))
    magnitude++;
  return MAX (significant - 1 - magnitude, 0);
}

static char *
format_fixed (double value, int decimals)
{
  char format[16];
  char buffer[G_ASCII_DTOSTR_BUF_SIZE];

  g_snprintf (format, sizeof format, "%%.%df", CLAMP (decimals, 0, 12));
  return g_strdup (g_ascii_formatd (buffer, sizeof buffer, format, value));
}

char *
ws_cli_format_significant (double value, int significant)
{
  return format_fixed (value, decimals_for (value, significant));
}

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

/* ---- durations --------------------------------------------------------------------------- */

typedef struct
{
  double scale;
  const char *unit;
} Unit;

static const Unit units[] = {
  { 1, "ns" }, { 1e3, "µs" }, { 1e6, "ms" }, { 1e9, "s" },
};

/* The unit a duration reads best in, and its digits after the point (three significant). */
static const Unit *
choose_unit (double ns, int *decimals)
{
  guint i = 0;

  while (i + 1 < G_N_ELEMENTS (units) && ns >= units[i + 1].scale)
    i++;
  *decimals = decimals_for (ns / units[i].scale, 3);
  /* 999.7 ns prints as 1000 ns: that is 1.00 µs. */
  if (i + 1 < G_N_ELEMENTS (units) && *decimals == 0
      && round (ns / units[i].scale) >= 1000)
    {
      i++;
      *decimals = decimals_for (ns / units[i].scale, 3);
    }
  if (i == 0)
    *decimals = 0; /* CUPTI counts whole nanoseconds */
  return &units[i];
}

char *
ws_cli_format_duration (double ns)
{
  const Unit *unit;
  g_autofree char *number = NULL;
  int decimals;

  if (!(ns > 0) || !isfinite (ns))
    return g_strdup (NOT_MEASURED);
  unit = choose_unit (ns, &decimals);
  number = format_fixed (ns / unit->scale, decimals);
  return g_strdup_printf ("%s %s", number, unit->unit);
}

char *
ws_cli_format_stats_median (const WsStats *stats)
{
  if (stats == NULL || stats->n <= 0)
    return g_strdup (NOT_MEASURED);
  return ws_cli_format_duration (stats->median);
}

char *
ws_cli_format_stats_spread (const WsStats *stats)
{
  const Unit *unit;
  g_autofree char *low = NULL;
  g_autofree char *high = NULL;
  int decimals;

  if (stats == NULL || stats->n <= 1 || !(stats->median > 0))
    return g_strdup ("");
  unit = choose_unit (stats->median, &decimals);
  low = format_fixed (stats->min / unit->scale, decimals);
  high = format_fixed (stats->max / unit->scale, decimals);
  /* "(191–191)" hides a spread that is there: show it with a digit or two more. */
  for (int more = 1; more <= 2 && stats->max > stats->min && g_str_equal (low, high); more++)
    {
      g_free (low);
      g_free (high);
      low = format_fixed (stats->min / unit->scale, decimals + more);
      high = format_fixed (stats->max / unit->scale, decimals + more);
    }
  return g_strdup_printf ("(%s–%s)", low, high);
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

/* ---- ratios and rates -------------------------------------------------------------------- */

char *
ws_cli_format_speedup (double speedup)
{
  g_autofree char *number = NULL;

  if (!(speedup > 0) || !isfinite (speedup))
    return g_strdup (NOT_MEASURED);
  if (speedup >= 100)
    number = format_fixed (speedup, 0);
  else if (speedup >= 1)
    number = ws_cli_format_significant (speedup, 3);
  else
    {
      /* Two digits say enough below 1×, unless 0.997 would read as "1.0": slower must stay
       * visibly below 1. */
      number = ws_cli_format_significant (speedup, 2);
      if (g_ascii_strtod (number, NULL) >= 1)
        {
          g_free (number);
          number = format_fixed (speedup, 3);
        }
    }
  return g_strdup_printf ("%s×", number);
}

char *
ws_cli_format_gbs (double gbs)
{
  g_autofree char *number = NULL;

  if (!(gbs > 0) || !isfinite (gbs))
    return g_strdup (NOT_MEASURED);
  number = gbs >= 100 ? format_fixed (gbs, 0) : ws_cli_format_significant (gbs, 3);
  return g_strdup_printf ("%s GB/s", number);
}

char *
ws_cli_format_gflops (double gflops)
{
  g_autofree char *number = NULL;

  if (!(gflops > 0) || !isfinite (gflops))
    return g_strdup (NOT_MEASURED);
  if (gflops >= 1000)
    {
      number = ws_cli_format_significant (gflops / 1000, 3);
      return g_strdup_printf ("%s TFLOP/s", number);
    }
  number = ws_cli_format_significant (gflops, 3);
  return g_strdup_printf ("%s GFLOP/s", number);
}

char *
ws_cli_format_percent (double fraction)
{
  double percent = fraction * 100;

  if (!isfinite (percent))
    return g_strdup (NOT_MEASURED);
  if (fabs (percent - round (percent)) < 0.05)
    return g_strdup_printf ("%d%%", (int) round (percent));
  return g_strdup_printf ("%.1f%%", percent);
}

/* ---- sizes ------------------------------------------------------------------------------- */

char *
ws_cli_format_bytes (double bytes)
{
  static const char *const names[] = { "KiB", "MiB", "GiB", "TiB" };
  double value = bytes;
  int i = -1;

  if (!(bytes >= 0) || !isfinite (bytes))
    return g_strdup (NOT_MEASURED);
  if (bytes < 1024)
    return g_strdup_printf (g_dngettext (NULL, "%.0f byte", "%.0f bytes", (gulong) bytes),
                            bytes);
  while (value >= 1024 && i + 1 < (int) G_N_ELEMENTS (names))
    {
      value /= 1024;
      i++;
    }
  if (fabs (value - round (value)) < 0.05)
    return g_strdup_printf ("%.0f %s", value, names[i]);
  return g_strdup_printf ("%.1f %s", value, names[i]);
}

char *
ws_cli_format_size (double size, int shape_rank)
{
  double rounded;
  g_autofree char *text = NULL;

  if (!(size > 0) || !isfinite (size))
    return g_strdup (NOT_MEASURED);
  /* An interpolated size is an estimate: two digits say as much as it knows. */
  rounded = size >= 10 ? round (size / pow (10, floor (log10 (size)) - 1))
                             * pow (10, floor (log10 (size)) - 1)
                       : round (size);
  text = ws_format_grouped ((guint64) MAX (rounded, 1));
  if (shape_rank == 3)
    return g_strdup_printf ("≈ %s³", text);
  return g_strdup_printf ("n ≈ %s", text);
}
