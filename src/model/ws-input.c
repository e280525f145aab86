/* ws-input.c: reading sizes and blocks as people type them.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "ws-config.h"

#include "ws-input.h"

#include <glib/gi18n-lib.h>
#include <inttypes.h>
#include <math.h>
#include <string.h>

gboolean
ws_input_parse_count (const char *text, guint64 *value, char **why)
{
  g_autofree char *clean = NULL;
  GString *s = g_string_new (NULL);
  double multiplier = 1, v;
  char *end;
  const char *p;

  for (p = text; *p != '\0'; p++)
    if (*p != ',' && *p != '_' && *p != ' ' && *p != '\'')
      g_string_append_c (s, *p);
  clean = g_string_free (s, FALSE);
  if (*clean == '\0')
    {
      *why = g_strdup (_("Type a size, such as 10000000 or 10 M."));
      return FALSE;
    }
  if (clean[0] == '-')
    {
      *why = g_strdup (_("A size counts elements: it cannot be negative."));
      return FALSE;
    }
  switch (g_ascii_toupper (clean[strlen (clean) - 1]))
    {
    case 'K': multiplier = 1e3; break;
    case 'M': multiplier = 1e6; break;
    case 'G': multiplier = 1e9; break;
    default: break;
    }
  if (multiplier > 1)
    clean[strlen (clean) - 1] = '\0';
  if (!g_ascii_isdigit (clean[0]) && clean[0] != '.')
    {
      *why = g_strdup_printf (_("“%s” is not a number."), text);
      return FALSE;
    }
  v = g_ascii_strtod (clean, &end) * multiplier;
  if (*end != '\0' || !isfinite (v))
    {
      *why = g_strdup_printf (_("“%s” is not a number."), text);
      return FALSE;
    }
  if (v != floor (v))
    {
      *why = g_strdup_printf (_("%s is not a whole number of elements."), text);
      return FALSE;
    }
  if (v < 1)
    {
      *why = g_strdup (_("A size must be at least 1."));
      return FALSE;
    }
  if (v > 9.0e15)
    {
      *why = g_strdup (_("That size is far larger than any GPU's memory."));
      return FALSE;
    }
  *value = (guint64) v;
  return TRUE;
}

/* Splits on x, X or × (U+00D7). */
static GStrv
split_dims (const char *text)
{
  g_autofree char *ascii = NULL;
  GString *s = g_string_new (NULL);

  for (const char *p = text; *p != '\0'; p = g_utf8_next_char (p))
    {
      gunichar c = g_utf8_get_char (p);

      if (c == 0x00D7 || c == 'X')
        g_string_append_c (s, 'x');
      else
        g_string_append_unichar (s, c);
    }
  ascii = g_string_free (s, FALSE);
  return g_strsplit (ascii, "x", -1);
}

gboolean
ws_input_parse_size (const char *text, guint64 dims[3], int *rank, char **why)
{
  g_auto (GStrv) parts = split_dims (text);
  guint n = g_strv_length (parts);

  if (n != 1 && n != 3)
    {
      *why = g_strdup (_("Give one size, or three for a matrix product: M×N×K, such as "
                         "512×256×1024."));
      return FALSE;
    }
  for (guint i = 0; i < n; i++)
    if (!ws_input_parse_count (g_strstrip (parts[i]), &dims[i], why))
      return FALSE;
  if (n == 1)
    dims[1] = dims[2] = dims[0];
  *rank = (int) n;
  return TRUE;
}

gboolean
ws_input_parse_block (const char *text, guint dims[3], int *rank, char **why)
{
  g_auto (GStrv) parts = split_dims (text);
  guint n = g_strv_length (parts);
  guint64 threads = 1;

  dims[0] = dims[1] = dims[2] = 1;
  if (n < 1 || n > 3)
    {
      *why = g_strdup (_("Write a block as 256, or as 16×16."));
      return FALSE;
    }
  for (guint i = 0; i < n; i++)
    {
      char *end;
      const char *part = g_strstrip (parts[i]);
      guint64 v = g_ascii_strtoull (part, &end, 10);

      if (*part == '\0' || *end != '\0')
        {
          *why = g_strdup_printf (_("“%s” is not a block: write 256, or 16×16."), text);
          return FALSE;
        }
      if (v == 0)
        {
          *why = g_strdup (_("A block needs at least one thread in each dimension."));
          return FALSE;
        }
      if (v > 1024)
        {
          *why = g_strdup_printf (_("%" PRIu64 " threads in one dimension is more "
                                    "than the 1024 a block can hold."),
                                  v);
          return FALSE;
        }
      dims[i] = (guint) v;
      threads *= v;
    }
  if (threads > 1024)
    {
      *why = g_strdup_printf (_("%u×%u is %" PRIu64 " threads, more than the 1024 a "
                                "block can hold on any CUDA GPU; try 32×32."),
                              dims[0], dims[1], threads);
      return FALSE;
    }
  *rank = (int) n;
  return TRUE;
}
