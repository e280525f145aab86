/* ws-chart-format.c: the ticks of an axis, with just enough decimals to tell neighbours
 * apart, and the unit a time axis reads best in (every other number is ws-units.c's).
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "ws-chart-format-private.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

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
    return g_strdup (WS_UNITS_NONE);
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
