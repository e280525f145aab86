/* ws-chart-format.c: numbers as people read them on a chart: durations with an adaptive
 * unit, SI bytes and GB/s, sizes in K/M/G, ticks with just enough decimals.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "ws-chart-format-private.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* Decimals that give `sig` significant digits for a value of this magnitude. */
static int
decimals_for (double value, int sig)
{
  int magnitude;

  if (!(value > 0) || !isfinite (value))
    return 0;
  magnitude = (int) floor (log10 (value));
  return CLAMP (sig - 1 - magnitude, 0, 9);
}

/* Groups the thousands of the integer part with commas: "4,189.3". */
static char *
group_thousands (const char *digits)
{
  GString *out = g_string_new (NULL);
  const char *p = digits;
  const char *dot;
  gsize int_len;

  if (*p == '-')
    g_string_append_c (out, *p++);
  dot = strchr (p, '.');
  int_len = dot ? (gsize) (dot - p) : strlen (p);
  for (gsize i = 0; i < int_len; i++)
    {
      if (i > 0 && (int_len - i) % 3 == 0)
        g_string_append_c (out, ',');
      g_string_append_c (out, p[i]);
    }
  g_string_append (out, p + int_len);
  return g_string_free (out, FALSE);
}

/* printf with a C locale decimal point, whatever the locale: the charts are read beside
 * tables the CLI prints, which use one. */
static char *
fixed (double value, int decimals)
{
  char buf[G_ASCII_DTOSTR_BUF_SIZE];
  char format[16];

  g_snprintf (format, sizeof format, "%%.%df", CLAMP (decimals, 0, 12));
  g_ascii_formatd (buf, sizeof buf, format, value);
  if (strcmp (buf, "-0") == 0)
    return g_strdup ("0");
  return g_strdup (buf);
}

/* "1.23e+18": for numbers too large for their digits to mean anything. */
static char *
exponent (double value, int digits)
{
  char buf[G_ASCII_DTOSTR_BUF_SIZE];
  char format[16];

  g_snprintf (format, sizeof format, "%%.%de", CLAMP (digits - 1, 0, 16));
  return g_strdup (g_ascii_formatd (buf, sizeof buf, format, value));
}

char *
_ws_format_sig (double value, int digits)
{
  g_autofree char *plain = NULL;

  if (!isfinite (value))
    return g_strdup ("–");
  /* Beyond a million billion the digits are noise to a reader: the exponent says it. */
  if (fabs (value) >= 1e15)
    return exponent (value, digits);
  if (value != 0)
    {
      /* Round first, so that 0.9999 with 3 digits is "1.00", not "1.000". */
      double unit = pow (10, floor (log10 (fabs (value))) - (digits - 1));

      value = round (value / unit) * unit;
    }
  plain = fixed (value, decimals_for (fabs (value), digits));
  return group_thousands (plain);
}

/* value in `unit`s with 3 significant digits; NULL when it rounds up to 1000 units, so the
 * caller moves to the next unit ("1000 µs" reads "1.00 ms"). */
static char *
three_digits (double value, const char *unit, gboolean last)
{
  int decimals = decimals_for (value, 3);
  double rounded = round (value * pow (10, decimals)) / pow (10, decimals);
  g_autofree char *number = NULL;

  if (rounded >= 1000 && !last)
    return NULL;
  number = _ws_format_sig (value, 3);
  return g_strdup_printf ("%s %s", number, unit);
}

char *
_ws_format_duration (double ns)
{
  static const struct
  {
    const char *unit;
    double size;
  } units[] = { { "ns", 1 }, { "µs", 1e3 }, { "ms", 1e6 }, { "s", 1e9 } };

  if (!isfinite (ns))
    return g_strdup ("–");
  if (fabs (ns) < 1)
    return g_strdup ("0 ns");
  for (guint i = 0; i < G_N_ELEMENTS (units); i++)
    {
      gboolean last = i + 1 == G_N_ELEMENTS (units);

      if (fabs (ns) < units[i].size * 1000 || last)
        {
          char *s = three_digits (fabs (ns) / units[i].size, units[i].unit, last);

          if (s != NULL)
            return s;
        }
    }
  g_return_val_if_reached (NULL);
}

char *
_ws_format_bytes (double bytes)
{
  static const char *const units[] = { "B", "kB", "MB", "GB", "TB", "PB" };
  double v = bytes;

  if (!isfinite (bytes) || bytes < 0)
    return g_strdup ("–");
  if (bytes < 1000)
    return g_strdup_printf ("%.0f B", bytes);
  for (guint i = 0; i < G_N_ELEMENTS (units); i++, v /= 1000)
    {
      gboolean last = i + 1 == G_N_ELEMENTS (units);

      if (v < 1000 || last)
        {
          char *s = three_digits (v, units[i], last);

          if (s != NULL)
            return s;
        }
    }
  g_return_val_if_reached (NULL);
}

char *
_ws_format_gbs (double gbs)
{
  g_autofree char *number = _ws_format_sig (gbs, 3);

  return g_strdup_printf ("%s GB/s", number);
}

char *
_ws_format_count (double value)
{
  static const char *const suffix[] = { "", " K", " M", " G", " T" };
  double v = fabs (value);
  guint i = 0;

  if (!isfinite (value))
    return g_strdup ("–");
  /* Past a million T the suffix no longer helps. */
  if (v >= 1e18)
    return _ws_format_sig (value, 3);
  /* Sizes people type as round numbers (1e3, 1e7) read as 1 K and 10 M; sizes that are
   * not (1024, 4096, the edges of matrices) are written out below 10,000. */
  if (v < 10000 && v != round (v / 1000) * 1000)
    {
      if (v == round (v))
        return g_strdup_printf ("%.0f", value);
      return _ws_format_sig (value, 3);
    }
  while (v >= 1000 && i + 1 < G_N_ELEMENTS (suffix))
    {
      v /= 1000;
      i++;
    }
  if (v == round (v))
    return g_strdup_printf ("%s%.0f%s", value < 0 ? "-" : "", v, suffix[i]);
  {
    g_autofree char *number = _ws_format_sig (v, 3);

    return g_strdup_printf ("%s%s%s", value < 0 ? "-" : "", number, suffix[i]);
  }
}

char *
_ws_format_count_approx (double value)
{
  static const char *const suffix[] = { "", " K", " M", " G", " T" };
  double v = fabs (value);
  g_autofree char *number = NULL;
  guint i = 0;

  if (!isfinite (value))
    return g_strdup ("–");
  while (v >= 1000 && i + 1 < G_N_ELEMENTS (suffix))
    {
      v /= 1000;
      i++;
    }
  number = _ws_format_sig (v, 2);
  return g_strdup_printf ("%s%s%s", value < 0 ? "-" : "", number, suffix[i]);
}

char *
_ws_format_percent (double fraction)
{
  double pct = fraction * 100;

  if (!isfinite (pct))
    return g_strdup ("–");
  if (pct != 0 && fabs (pct) < 1)
    {
      g_autofree char *s = fixed (pct, 1);

      return g_strdup_printf ("%s%%", s);
    }
  return g_strdup_printf ("%.0f%%", pct);
}

const char *
_ws_time_unit (double step_ns, double *ns_per_unit)
{
  const char *unit = "s";
  double size = 1e9;

  if (step_ns < 1e3)
    unit = "ns", size = 1;
  else if (step_ns < 1e6)
    unit = "µs", size = 1e3;
  else if (step_ns < 1e9)
    unit = "ms", size = 1e6;
  if (ns_per_unit)
    *ns_per_unit = size;
  return unit;
}

char *
_ws_format_tick (double value, double step)
{
  g_autofree char *plain = NULL;
  int decimals = 0;

  if (!isfinite (value))
    return g_strdup ("–");
  if (fabs (value) >= 1e15)
    return exponent (value, 3);
  /* Tiny steps would need a dozen decimals: the exponent reads better. */
  if (step > 0 && step < 1e-4)
    {
      char buf[G_ASCII_DTOSTR_BUF_SIZE];

      if (fabs (value) < step * 1e-2)
        return g_strdup ("0");
      return g_strdup (g_ascii_formatd (buf, sizeof buf, "%.3g", value));
    }
  if (step > 0 && isfinite (step))
    decimals = CLAMP ((int) -floor (log10 (step) + 1e-9), 0, 9);
  /* A value within a hundredth of a step of zero is zero, not "-0.0" or "1e-17". */
  if (step > 0 && fabs (value) < step * 1e-2)
    value = 0;
  plain = fixed (value, decimals);
  return group_thousands (plain);
}
