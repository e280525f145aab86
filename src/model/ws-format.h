/* ws-format.h: numbers for people, shared by the model, the app and the CLI.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* "10,000,000": digits in groups of three. */
char *ws_format_grouped (guint64 value);

/* "37.4 µs", "12.23 ms": a duration in nanoseconds with a unit that suits it; "–" when it is
 * not positive (not measured). */
char *ws_format_duration (double ns);

G_END_DECLS
