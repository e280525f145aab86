/* ws-column-widths.c: a column view's widths, measured once.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "ws-column-widths.h"

static int
natural_width (GtkWidget *widget)
{
  int natural = 0;

  gtk_widget_measure (widget, GTK_ORIENTATION_HORIZONTAL, -1, NULL, &natural, NULL, NULL);
  return natural;
}

/* What a widget's margins, border and padding add to its content's width (as GTK adds them to
 * what its measure function says), whatever width its column is given. */
static int
horizontal_extra (GtkWidget *widget)
{
  GtkStyleContext *style = gtk_widget_get_style_context (widget);
  GtkBorder margin, border, padding;

  gtk_style_context_get_margin (style, &margin);
  gtk_style_context_get_border (style, &border);
  gtk_style_context_get_padding (style, &padding);
  return margin.left + margin.right + border.left + border.right + padding.left + padding.right
         + gtk_widget_get_margin_start (widget) + gtk_widget_get_margin_end (widget);
}

int
ws_column_widths_for_text (GtkWidget *child, const char *text)
{
  GtkWidget *cell;
  g_autoptr (PangoLayout) layout = NULL;
  g_autoptr (PangoAttrList) attrs = NULL;
  int width;

  g_return_val_if_fail (GTK_IS_WIDGET (child), -1);
  cell = gtk_widget_get_parent (child);
  if (cell == NULL || !gtk_widget_get_mapped (cell))
    return -1;
  /* The cells' font, with the tabular figures of the style class "numeric". */
  layout = gtk_widget_create_pango_layout (child, text);
  attrs = pango_attr_list_new ();
  pango_attr_list_insert (attrs, pango_attr_font_features_new ("tnum=1"));
  pango_layout_set_attributes (layout, attrs);
  pango_layout_get_pixel_size (layout, &width, NULL);
  return width + horizontal_extra (cell) + horizontal_extra (child);
}

gboolean
ws_column_widths_for_titles (GtkColumnView *view, int *widths, guint n_columns)
{
  GtkWidget *header = gtk_widget_get_first_child (GTK_WIDGET (view)), *title;
  guint n = 0;
  int extra;

  g_return_val_if_fail (GTK_IS_COLUMN_VIEW (view), FALSE);
  /* GTK 4.8: a "header" whose children are the columns' titles, "button"s, in their order,
   * each holding a box of a label and the sort arrow. */
  if (header == NULL || g_strcmp0 (gtk_widget_get_css_name (header), "header") != 0)
    return FALSE;
  for (title = gtk_widget_get_first_child (header); title; title = gtk_widget_get_next_sibling (title))
    if (g_strcmp0 (gtk_widget_get_css_name (title), "button") != 0
        || gtk_widget_get_first_child (title) == NULL || n++ == n_columns)
      return FALSE;
  if (n != n_columns)
    return FALSE;
  /* A hidden column's title measures nothing, but its box does, and a shown title that is not
   * the first (which lacks the separator the others have) gives the padding around it. */
  extra = -1;
  for (title = gtk_widget_get_first_child (header); title; title = gtk_widget_get_next_sibling (title))
    if (gtk_widget_get_visible (title) && (extra < 0 || title != gtk_widget_get_first_child (header)))
      extra = natural_width (title) - natural_width (gtk_widget_get_first_child (title));
  title = gtk_widget_get_first_child (header);
  for (guint c = 0; c < n_columns; c++, title = gtk_widget_get_next_sibling (title))
    widths[c] = gtk_widget_get_visible (title)
                  ? natural_width (title)
                  : natural_width (gtk_widget_get_first_child (title)) + MAX (extra, 0);
  return TRUE;
}
