/* ws-format.c: numbers for people.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "ws-format.h"

#include <string.h>

char *
ws_format_grouped (guint64 value)
{
  g_autofree char *digits = g_strdup_printf ("%" G_GUINT64_FORMAT, value);
  GString *out = g_string_new (NULL);
  gsize n = strlen (digits);

  for (gsize i = 0; i < n; i++)
    {
      if (i > 0 && (n - i) % 3 == 0)
        g_string_append_c (out, ',');
      g_string_append_c (out, digits[i]);
    }
  return g_string_free (out, FALSE);
}

char *
ws_format_duration (double ns)
{
  if (!(ns > 0))
    return g_strdup ("–");
  if (ns < 1e3)
    return g_strdup_printf ("%.0f ns", ns);
  if (ns < 1e6)
    return g_strdup_printf ("%.1f µs", ns / 1e3);
  if (ns < 1e9)
    return g_strdup_printf ("%.2f ms", ns / 1e6);
  return g_strdup_printf ("%.2f s", ns / 1e9);
}
