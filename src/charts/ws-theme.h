/* ws-theme.h: colours, fonts and line widths for the charts: light, dark and print, and a
 * larger variant for projectors. Colour-blind safe: copies in one hue family (blues), kernels
 * in another (oranges), CPU in a third (greens), checked for deuteranopia and protanopia.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef enum
{
  WS_THEME_LIGHT,
  WS_THEME_DARK,
  WS_THEME_PRINT, /* white paper, darker lines, no fills that waste toner */
} WsThemeKind;

typedef struct
{
  double r, g, b, a;
} WsColor;

typedef struct
{
  WsThemeKind kind;
  WsColor background, foreground, muted, grid, axis;
  WsColor h2d, d2h, other_copy, memset, kernel, kernel_alt, cpu, sync, idle;
  WsColor highlight;           /* outline of spans a finding points at */
  WsColor severity[4];         /* info, low, medium, high */
  WsColor series[8];           /* for lines: distinguishable, colour-blind safe */
  const char *font_family;     /* NULL: whatever fontconfig gives ("sans-serif") */
  double font_size;            /* points at scale 1 */
  double title_size;
  double line_width;
  double text_scale;           /* 1.0; larger in presentation mode */
} WsTheme;

const WsTheme *ws_theme_get (WsThemeKind kind);
/* A copy with text and lines scaled (presentation mode); free with g_free. */
WsTheme *ws_theme_scaled (const WsTheme *theme, double scale);
gboolean ws_theme_kind_from_string (const char *name, WsThemeKind *kind);
const char *ws_theme_kind_to_string (WsThemeKind kind);

G_END_DECLS
