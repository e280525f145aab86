/* ws-label.c: the views' labels made in code, one way (see ws-label.h).
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "ws-label.h"

GtkWidget *
ws_label_new (const char *text, const char *css, float xalign)
{
  GtkWidget *label = gtk_label_new (text);

  gtk_label_set_xalign (GTK_LABEL (label), xalign);
  if (css != NULL)
    gtk_widget_add_css_class (label, css);
  return label;
}

GtkWidget *
ws_label_new_wrapped (const char *text, const char *css)
{
  GtkWidget *label = ws_label_new (text, css, 0);

  gtk_label_set_wrap (GTK_LABEL (label), TRUE);
  gtk_label_set_wrap_mode (GTK_LABEL (label), PANGO_WRAP_WORD_CHAR);
  return label;
}

char *
ws_label_menu_text (const char *text)
{
  g_auto (GStrv) parts = g_strsplit (text, "_", -1);

  return g_strjoinv ("__", parts);
}

const char *
ws_label_first_sentence_end (const char *text)
{
  for (const char *p = text; *p != '\0'; p++)
    {
      if (*p == '\n')
        return p;
      if ((*p == '.' || *p == '!' || *p == '?') && p[1] == ' ')
        return p + 1;
      /* Chinese and Japanese end a sentence with a full-width mark and no space. */
      if ((g_str_has_prefix (p, "。") || g_str_has_prefix (p, "！") || g_str_has_prefix (p, "？"))
          && p[3] != '\0')
        return p + 3;
    }
  return text + strlen (text);
}
