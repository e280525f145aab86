/* ws-layout.c: the window's docking rule, a function of its size alone (libadwaita 1.2 has
 * no breakpoints: the window applies it to its flaps as it is allocated).
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "ws-layout.h"

/* The chart and its table need this much width beside a docked pane to keep more than 55%
 * of the window's area: below it a pane folds into a flap. */
#define CENTRE_WIDTH 1440
/* Below this height the table under the chart already takes what a side pane would leave. */
#define DOCK_HEIGHT 800
/* The welcome page reads well in this width beside the configuration. */
#define WELCOME_WIDTH 640

void
ws_layout_choose (WsLayoutMode mode, int width, int height, WsLayout *layout)
{
  g_return_if_fail (layout != NULL);
  *layout = (WsLayout) { FALSE, FALSE };
  switch (mode)
    {
    case WS_LAYOUT_PRESENTATION:
      return;
    case WS_LAYOUT_WELCOME:
      /* Nothing to find yet: what to run is what the page is about. */
      layout->config_docked = width >= WS_LAYOUT_CONFIG_WIDTH + WELCOME_WIDTH;
      return;
    case WS_LAYOUT_VIEWS:
    default:
      if (height < DOCK_HEIGHT)
        return;
      /* The findings first: with a session open they say what the chart means. */
      layout->findings_docked = width >= WS_LAYOUT_FINDINGS_WIDTH + CENTRE_WIDTH;
      layout->config_docked = width >= WS_LAYOUT_FINDINGS_WIDTH + WS_LAYOUT_CONFIG_WIDTH
                                         + CENTRE_WIDTH;
      return;
    }
}
