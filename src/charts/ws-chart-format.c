/* ws-chart-format.c: the ticks of an axis, with just enough decimals to tell neighbours
 * apart, and the unit a time axis reads best in (the digits themselves are ws-units.c's).
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "ws-chart-format-private.h"

#include <math.h>

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
  int decimals = 0;

  if (!isfinite (value))
    return g_strdup (WS_UNITS_NONE);
  if (fabs (value) >= 1e15)
    return ws_units_number (value, 3); /* "1.23e+18" */
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
  return ws_units_fixed (value, decimals);
}
