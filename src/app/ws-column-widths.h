/* ws-column-widths.h: widths for a GtkColumnView's columns measured once, from their titles
 * and the widest texts their cells can hold, so that the column view need not measure every
 * row it binds (GTK 4.8's gtk_column_view_column_measure skips the cells of a column of fixed
 * width).
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

/* The width a cell needs to show `text` in the font of `child`, the child of a cell of `view`
 * that is on screen (an inscription or a label of the style class "numeric"), padding and
 * border included; -1 while `child` is not on screen. */
int ws_column_widths_for_text (GtkWidget *child, const char *text);

/* The width each title of `view` needs, its sort arrow included, in `widths` (one per
 * column, hidden ones too); FALSE, and nothing written, where the header is not built as GTK
 * 4.8 builds it. Measure before fixing any width: a title of fixed width measures that. */
gboolean ws_column_widths_for_titles (GtkColumnView *view, int *widths, guint n_columns);

G_END_DECLS
