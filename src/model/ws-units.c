/* ws-units.c: every number a person reads, in one place (the rules are in ws-units.h).
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "ws-config.h"

#include "ws-units.h"

#include <math.h>
#include <string.h>

typedef struct
{
  const char *name;
  double size;
} Unit;

/* ---- digits ------------------------------------------------------------------------------ */

/* Digits after the point so that `value` shows `significant` digits, counting the digit that
 * rounding may carry in: 99.96 at three digits prints "100", not "100.0". */
static int
decimals_for (double value, int significant)
{
  int magnitude;

  if (value == 0 || !isfinite (value))
    return 0;
  magnitude = (int) floor (log10 (fabs (value)));
  if (fabs (value) >= pow (10, magnitude + 1) - 0.5 * pow (10, magnitude + 1 - significant))
    magnitude++;
  return CLAMP (significant - 1 - magnitude, 0, 12);
}

/* printf with '.' as the decimal point, whatever the locale; never "-0". */
static char *
fixed (double value, int decimals)
{
  char buf[G_ASCII_DTOSTR_BUF_SIZE];
  char format[16];

  g_snprintf (format, sizeof format, "%%.%df", CLAMP (decimals, 0, 12));
  g_ascii_formatd (buf, sizeof buf, format, value);
  if (buf[0] == '-' && strspn (buf + 1, "0.") == strlen (buf + 1))
    return g_strdup (buf + 1);
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

/* Groups the thousands of the integer part with commas: "4,189.3". */
static char *
group_thousands (char *digits)
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
  g_free (digits);
  return g_string_free (out, FALSE);
}

char *
ws_units_fixed (double value, int decimals)
{
  if (!isfinite (value))
    return g_strdup (WS_UNITS_NONE);
  return group_thousands (fixed (value, decimals));
}

char *
ws_units_number (double value, int digits)
{
  if (!isfinite (value))
    return g_strdup (WS_UNITS_NONE);
  /* Beyond a million billion the digits are noise to a reader: the exponent says it. */
  if (fabs (value) >= 1e15)
    return exponent (value, digits);
  if (value != 0 && fabs (value) >= pow (10, digits))
    {
      /* Digits beyond the significant ones are noise: 4189.3 reads "4,190". */
      double unit = pow (10, floor (log10 (fabs (value))) - (digits - 1));

      value = round (value / unit) * unit;
    }
  return group_thousands (fixed (value, decimals_for (value, digits)));
}

/* `value` (in the first unit's size) in the unit it reads best in, three significant digits;
 * the first unit shows whole numbers when `whole_first`. */
static char *
scaled (double value, const Unit *units, guint n, gboolean whole_first)
{
  guint i = 0;
  double v;
  g_autofree char *number = NULL;

  while (i + 1 < n && value >= units[i + 1].size)
    i++;
  /* 999.7 of a unit prints as 1000: that is 1.00 of the next. */
  if (i + 1 < n && value / units[i].size >= 999.5)
    i++;
  v = value / units[i].size;
  if (i == 0 && whole_first)
    number = fixed (v, 0);
  else
    number = ws_units_number (v, 3);
  return g_strdup_printf ("%s %s", number, units[i].name);
}

/* ---- durations --------------------------------------------------------------------------- */

static const Unit time_units[] = {
  { "ns", 1 }, { "µs", 1e3 }, { "ms", 1e6 }, { "s", 1e9 },
};

char *
ws_units_duration (double ns)
{
  if (!(ns > 0) || !isfinite (ns))
    return g_strdup (WS_UNITS_NONE);
  return scaled (ns, time_units, G_N_ELEMENTS (time_units), TRUE);
}

char *
ws_units_duration_range (double median_ns, double min_ns, double max_ns)
{
  guint i = 0;
  int decimals;
  g_autofree char *low = NULL;
  g_autofree char *high = NULL;

  if (!(median_ns > 0) || !isfinite (median_ns) || !isfinite (min_ns) || !isfinite (max_ns))
    return g_strdup ("");
  while (i + 1 < G_N_ELEMENTS (time_units) && median_ns >= time_units[i + 1].size)
    i++;
  if (i + 1 < G_N_ELEMENTS (time_units) && median_ns / time_units[i].size >= 999.5)
    i++;
  decimals = i == 0 ? 0 : decimals_for (median_ns / time_units[i].size, 3);
  low = fixed (min_ns / time_units[i].size, decimals);
  high = fixed (max_ns / time_units[i].size, decimals);
  /* "(191–191)" hides a spread that is there: show it with a digit or two more. */
  for (int more = 1; more <= 2 && max_ns > min_ns && g_str_equal (low, high); more++)
    {
      g_free (low);
      g_free (high);
      low = fixed (min_ns / time_units[i].size, decimals + more);
      high = fixed (max_ns / time_units[i].size, decimals + more);
    }
  return g_strdup_printf ("(%s–%s)", low, high);
}

/* ---- bytes ------------------------------------------------------------------------------- */

/* "512 B": the unit's symbol, as kB and MB are, short enough for a chart's label. */
static char *
whole_bytes (double bytes)
{
  g_autofree char *number = fixed (bytes, 0);

  return g_strdup_printf ("%s B", number);
}

char *
ws_units_bytes (double bytes)
{
  static const Unit units[] = {
    { "B", 1 },     { "kB", 1e3 },  { "MB", 1e6 },  { "GB", 1e9 },
    { "TB", 1e12 }, { "PB", 1e15 },
  };

  if (!(bytes >= 0) || !isfinite (bytes))
    return g_strdup (WS_UNITS_NONE);
  if (bytes < 999.5)
    return whole_bytes (bytes);
  return scaled (bytes, units, G_N_ELEMENTS (units), FALSE);
}

char *
ws_units_bytes_binary (double bytes)
{
  static const char *const names[] = { "KiB", "MiB", "GiB", "TiB" };
  double value = bytes;
  int i = -1;

  if (!(bytes >= 0) || !isfinite (bytes))
    return g_strdup (WS_UNITS_NONE);
  if (bytes < 1024)
    return whole_bytes (bytes);
  while (value >= 1024 && i + 1 < (int) G_N_ELEMENTS (names))
    {
      value /= 1024;
      i++;
    }
  /* 48 KiB are 48 KiB, not "48.0": the hardware's sizes are whole numbers of them. */
  if (fabs (value - round (value)) < 0.05)
    {
      g_autofree char *number = fixed (value, 0);

      return g_strdup_printf ("%s %s", number, names[i]);
    }
  {
    g_autofree char *number = fixed (value, 1);

    return g_strdup_printf ("%s %s", number, names[i]);
  }
}

/* ---- rates ------------------------------------------------------------------------------- */

char *
ws_units_gbs (double gbs)
{
  g_autofree char *number = NULL;

  if (!(gbs > 0) || !isfinite (gbs))
    return g_strdup (WS_UNITS_NONE);
  /* Ceilings read as measured ("4175 GB/s"), not rounded to three digits ("4180"). */
  if (gbs >= 99.95 && gbs < 1e15)
    number = fixed (gbs, 0);
  else
    number = ws_units_number (gbs, 3);
  return g_strdup_printf ("%s GB/s", number);
}

char *
ws_units_gflops (double gflops)
{
  static const Unit units[] = {
    { "GFLOP/s", 1 }, { "TFLOP/s", 1e3 }, { "PFLOP/s", 1e6 },
  };

  if (!(gflops > 0) || !isfinite (gflops))
    return g_strdup (WS_UNITS_NONE);
  return scaled (gflops, units, G_N_ELEMENTS (units), FALSE);
}

char *
ws_units_flop (double flop)
{
  static const Unit units[] = {
    { "FLOP", 1 },     { "kFLOP", 1e3 },  { "MFLOP", 1e6 },
    { "GFLOP", 1e9 },  { "TFLOP", 1e12 }, { "PFLOP", 1e15 },
  };

  if (!(flop >= 0) || !isfinite (flop))
    return g_strdup (WS_UNITS_NONE);
  return scaled (flop, units, G_N_ELEMENTS (units), TRUE);
}

/* ---- counts ------------------------------------------------------------------------------ */

char *
ws_units_grouped (guint64 count)
{
  return group_thousands (g_strdup_printf ("%" G_GUINT64_FORMAT, count));
}

char *
ws_units_count (double count)
{
  double whole = round (count);

  if (!isfinite (count))
    return g_strdup (WS_UNITS_NONE);
  if (fabs (whole) >= 1e18)
    return exponent (count, 3);
  if (whole < 0)
    {
      g_autofree char *digits = ws_units_grouped ((guint64) -whole);

      return g_strdup_printf ("-%s", digits);
    }
  return ws_units_grouped ((guint64) whole);
}

static const char *const count_suffix[] = { "", " K", " M", " G", " T" };

char *
ws_units_count_short (double count)
{
  double v = fabs (count);
  guint i = 0;
  g_autofree char *number = NULL;

  if (!isfinite (count))
    return g_strdup (WS_UNITS_NONE);
  /* Past a million T the suffix no longer helps. */
  if (v >= 1e18)
    return ws_units_number (count, 3);
  /* Sizes people type as round numbers (1e3, 1e7) read as 1 K and 10 M; sizes that are
   * not (1024, 4096, the edges of matrices) are written out below 10,000. */
  if (v < 10000 && v != round (v / 1000) * 1000)
    {
      if (v == round (v))
        return fixed (count, 0);
      return ws_units_number (count, 3);
    }
  while (v >= 1000 && i + 1 < G_N_ELEMENTS (count_suffix))
    {
      v /= 1000;
      i++;
    }
  number = v == round (v) ? fixed (v, 0) : ws_units_number (v, 3);
  return g_strdup_printf ("%s%s%s", count < 0 ? "-" : "", number, count_suffix[i]);
}

char *
ws_units_count_approx (double count)
{
  double v = fabs (count);
  g_autofree char *number = NULL;
  guint i = 0;

  if (!isfinite (count))
    return g_strdup (WS_UNITS_NONE);
  while (v >= 1000 && i + 1 < G_N_ELEMENTS (count_suffix))
    {
      v /= 1000;
      i++;
    }
  number = ws_units_number (v, 2);
  return g_strdup_printf ("%s%s%s", count < 0 ? "-" : "", number, count_suffix[i]);
}

/* ---- percent and ratio ------------------------------------------------------------------- */

char *
ws_units_percent (double fraction)
{
  double percent = fraction * 100;
  g_autofree char *number = NULL;

  if (!isfinite (percent))
    return g_strdup (WS_UNITS_NONE);
  /* Whole percentages, but "100%" or "0%" for what is not quite either would mislead: a
   * decimal there. */
  if (percent > 99.5 && percent < 100)
    number = fixed (floor (percent * 10) / 10, 1);
  else if (percent != 0 && fabs (percent) < 0.05)
    number = ws_units_number (percent, 1);
  else if (percent != 0 && fabs (percent) < 1)
    number = fixed (percent, 1);
  else
    number = fixed (percent, 0);
  return g_strdup_printf ("%s%%", number);
}

char *
ws_units_ratio (double ratio)
{
  g_autofree char *number = NULL;

  if (!(ratio > 0) || !isfinite (ratio))
    return g_strdup (WS_UNITS_NONE);
  if (ratio >= 99.95)
    number = ratio < 1e15 ? fixed (ratio, 0) : exponent (ratio, 3); /* "1996×", as GB/s */
  else if (ratio >= 1)
    number = ws_units_number (ratio, 3);
  else
    {
      /* Two digits say enough below 1×, unless 0.997 would read as "1.0": slower must stay
       * visibly below 1. */
      number = ws_units_number (ratio, 2);
      if (g_ascii_strtod (number, NULL) >= 1)
        {
          g_free (number);
          number = fixed (ratio, 3);
        }
    }
  return g_strdup_printf ("%s×", number);
}

/* ---- sizes and blocks -------------------------------------------------------------------- */

char *
ws_units_shape (const guint64 *s, int rank)
{
  if (rank <= 1)
    {
      g_autofree char *n = ws_units_grouped (s[0]);

      return g_strdup_printf ("n = %s", n);
    }
  if (rank == 2)
    return g_strdup_printf ("%" G_GUINT64_FORMAT "×%" G_GUINT64_FORMAT, s[0], s[1]);
  if (s[0] == s[1] && s[1] == s[2])
    return g_strdup_printf ("%" G_GUINT64_FORMAT "³", s[0]);
  return g_strdup_printf ("%" G_GUINT64_FORMAT "×%" G_GUINT64_FORMAT "×%" G_GUINT64_FORMAT, s[0],
                          s[1], s[2]);
}

char *
ws_units_size_estimate (double size, int rank)
{
  double rounded;
  g_autofree char *text = NULL;

  if (!(size > 0) || !isfinite (size) || size >= 1e19)
    return g_strdup (WS_UNITS_NONE);
  /* An interpolated size is an estimate: two digits say as much as it knows. */
  rounded = size >= 10 ? round (size / pow (10, floor (log10 (size)) - 1))
                             * pow (10, floor (log10 (size)) - 1)
                       : round (size);
  text = ws_units_grouped ((guint64) MAX (rounded, 1));
  if (rank == 3)
    return g_strdup_printf ("≈ %s³", text);
  return g_strdup_printf ("n ≈ %s", text);
}

char *
ws_units_block (const guint *b)
{
  if (b[2] > 1)
    return g_strdup_printf ("%u×%u×%u", b[0], b[1], b[2]);
  if (b[1] > 1)
    return g_strdup_printf ("%u×%u", b[0], b[1]);
  return g_strdup_printf ("%u", b[0]);
}
