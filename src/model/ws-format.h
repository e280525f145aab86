/* ws-format.h: numbers for people, shared by the model, the app and the CLI.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* "10,000,000": digits in groups of three. */
char *ws_format_grouped (guint64 value);

G_END_DECLS
