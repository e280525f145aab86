/* ws-toast.h: every toast the app shows. libadwaita 1.2 gives a toast one line and cuts a
 * longer title where the line ends, mid-word; here the title is cut between words, and the
 * whole text is one click away (Details).
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <adwaita.h>

G_BEGIN_DECLS

/* A toast that says `text`, for the overlay `where` (NULL: one that is not shown). Its title
 * is the text when that fits on one line of `where`'s width, at most 1024 px (the smallest
 * screen the app is made for); else the text's first sentence, or as many of its words as
 * fit followed by "…". A shortened title gets a Details button that shows the whole text in
 * a dialog; a caller that sets a button of its own replaces it. */
AdwToast *ws_toast_new (GtkWidget *where, const char *text);

/* The whole text of a toast made by ws_toast_new, whatever its title shows. */
const char *ws_toast_get_text (AdwToast *toast);

/* The title for `text` on a line `width` px wide in `layout`'s font: NULL when the whole text
 * fits on one line, else the first sentence or line, else its words that fit and "…". */
char *ws_toast_shorten (PangoLayout *layout, const char *text, int width);

G_END_DECLS
