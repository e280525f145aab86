/* ws-label.h: the labels the views build in code (the findings panel's cards, the traced
 * program's tables, the presentation's callouts), made one way: aligned, with a style class,
 * and wrapped where a sentence may be longer than the pane.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

/* One line of `text` (NULL: none yet), aligned by `xalign` (0 left, 1 right), with the style
 * class `css` when it is not NULL. */
GtkWidget *ws_label_new (const char *text, const char *css, float xalign);
/* The same at the left, wrapped between words, or inside a word too long for the width (a
 * template name, a path). */
GtkWidget *ws_label_new_wrapped (const char *text, const char *css);
/* A menu item's label that shows `text` as it is: GTK reads a menu label's '_' as the mark of
 * its mnemonic, so each is doubled (TILE_Y, my_run.jsonl). */
char *ws_label_menu_text (const char *text);
/* Where the first sentence or line of `text` ends: after the mark of ". ", "! " or "? ", after
 * a full-width "。", "！" or "？", or at a line's end; the text's end when it is one sentence. */
const char *ws_label_first_sentence_end (const char *text);

G_END_DECLS
