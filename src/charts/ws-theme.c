/* ws-theme.c: the three chart themes (light, dark, print) and their scaled copies.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "ws-theme.h"

#include <string.h>

/* Hues follow Okabe and Ito's palette ("Color Universal Design", 2008), which stays
 * distinguishable with deuteranopia, protanopia and tritanopia: copies are blues (H2D a deep
 * blue, D2H a sky blue, other copies a navy), kernels orange and vermillion, the CPU a bluish
 * green. Within a family the members differ in lightness, which survives every kind of colour
 * blindness; tests/test-charts-basics.c checks the families apart under simulated deuteranopia and
 * protanopia. */
#define RGB(hex)                                                                              \
  { ((hex) >> 16 & 0xff) / 255.0, ((hex) >> 8 & 0xff) / 255.0, ((hex) & 0xff) / 255.0, 1.0 }

/* clang-format off */
static const WsTheme light = {
  .kind = WS_THEME_LIGHT,
  .background = RGB (0xffffff), .foreground = RGB (0x1a1a1a), .muted = RGB (0x595959),
  .grid = RGB (0xe4e4e4), .axis = RGB (0x4d4d4d),
  .h2d = RGB (0x0072b2), .d2h = RGB (0x56b4e9), .other_copy = RGB (0x1f4e79),
  .memset = RGB (0xcc79a7), .kernel = RGB (0xe69f00), .kernel_alt = RGB (0xd55e00),
  .cpu = RGB (0x009e73), .sync = RGB (0x9a9a9a), .idle = RGB (0xdadada),
  .highlight = RGB (0x000000),
  .severity = { RGB (0x4f81b8), RGB (0xb89600), RGB (0xd55e00), RGB (0xc0282d) },
  .series = { RGB (0x0072b2), RGB (0xe69f00), RGB (0x009e73), RGB (0xcc79a7),
              RGB (0x56b4e9), RGB (0xd55e00), RGB (0x666666), RGB (0xb8a200) },
  .font_family = NULL, .font_size = 11, .title_size = 16, .line_width = 1.5, .text_scale = 1.0,
};

/* The same hues lifted in lightness so that they keep their contrast on a dark background. */
static const WsTheme dark = {
  .kind = WS_THEME_DARK,
  .background = RGB (0x1e1e1e), .foreground = RGB (0xededed), .muted = RGB (0xa8a8a8),
  .grid = RGB (0x383838), .axis = RGB (0xbdbdbd),
  .h2d = RGB (0x3d9be0), .d2h = RGB (0x8fd0f5), .other_copy = RGB (0x6f8fc8),
  .memset = RGB (0xe08ec0), .kernel = RGB (0xf0aa20), .kernel_alt = RGB (0xff7a33),
  .cpu = RGB (0x2ec08f), .sync = RGB (0x8a8a8a), .idle = RGB (0x3c3c3c),
  .highlight = RGB (0xffffff),
  .severity = { RGB (0x7fb0e6), RGB (0xe6c84a), RGB (0xff8a3d), RGB (0xff5a5f) },
  .series = { RGB (0x3d9be0), RGB (0xf0aa20), RGB (0x2ec08f), RGB (0xe08ec0),
              RGB (0x8fd0f5), RGB (0xff7a33), RGB (0xb0b0b0), RGB (0xf0e442) },
  .font_family = NULL, .font_size = 11, .title_size = 16, .line_width = 1.5, .text_scale = 1.0,
};

/* Paper: black text and axes, tints instead of full-strength fills (the charts outline every
 * filled shape in print, so that the tints still read on a greyscale printer). */
static const WsTheme print = {
  .kind = WS_THEME_PRINT,
  .background = RGB (0xffffff), .foreground = RGB (0x000000), .muted = RGB (0x3c3c3c),
  .grid = RGB (0xd2d2d2), .axis = RGB (0x000000),
  .h2d = RGB (0x7fb1d6), .d2h = RGB (0xb5dbf3), .other_copy = RGB (0x8fa6bc),
  .memset = RGB (0xe85a78), .kernel = RGB (0xf2cf80), .kernel_alt = RGB (0xeaae80),
  .cpu = RGB (0x80ceb9), .sync = RGB (0xd0d0d0), .idle = RGB (0xf0f0f0),
  .highlight = RGB (0x000000),
  .severity = { RGB (0x2f5f94), RGB (0x7a6400), RGB (0xa04400), RGB (0x9c1c20) },
  .series = { RGB (0x005a8c), RGB (0xb87e00), RGB (0x007a59), RGB (0xcc6ea0),
              RGB (0x2f8cc0), RGB (0xa84a00), RGB (0x404040), RGB (0x8a7a00) },
  .font_family = NULL, .font_size = 11, .title_size = 16, .line_width = 1.75, .text_scale = 1.0,
};
/* clang-format on */

static const char *const kind_names[] = { "light", "dark", "print" };

const WsTheme *
ws_theme_get (WsThemeKind kind)
{
  switch (kind)
    {
    case WS_THEME_DARK:
      return &dark;
    case WS_THEME_PRINT:
      return &print;
    case WS_THEME_LIGHT:
    default:
      return &light;
    }
}

WsTheme *
ws_theme_scaled (const WsTheme *theme, double scale)
{
  WsTheme *copy;

  g_return_val_if_fail (theme != NULL, NULL);
  if (!(scale > 0))
    scale = 1.0;
  copy = g_memdup2 (theme, sizeof *theme);
  copy->font_size *= scale;
  copy->title_size *= scale;
  copy->line_width *= scale;
  copy->text_scale *= scale;
  return copy;
}

gboolean
ws_theme_kind_from_string (const char *name, WsThemeKind *kind)
{
  g_return_val_if_fail (name != NULL, FALSE);
  for (guint i = 0; i < G_N_ELEMENTS (kind_names); i++)
    if (g_ascii_strcasecmp (name, kind_names[i]) == 0)
      {
        if (kind != NULL)
          *kind = (WsThemeKind) i;
        return TRUE;
      }
  return FALSE;
}

const char *
ws_theme_kind_to_string (WsThemeKind kind)
{
  if ((guint) kind < G_N_ELEMENTS (kind_names))
    return kind_names[kind];
  return NULL;
}
