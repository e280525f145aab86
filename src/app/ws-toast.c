/* ws-toast.c: every toast the app shows: its title cut between words, the whole text behind
 * Details.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "ws-toast.h"

#include <glib/gi18n.h>

#include "ws-label.h"

/* The smallest screen the app is made for: a title that fits there fits on any screen. */
#define WIDEST_PX 1024
/* What a toast takes of its overlay's width besides its title, in libadwaita 1.2: its margins
 * and padding, the Details button and the close button (about 180 px in the default font),
 * with room for a larger one. */
#define AROUND_TITLE_PX 240

static int
width_of (PangoLayout *layout, const char *text, int length)
{
  int width;

  pango_layout_set_text (layout, text, length);
  pango_layout_get_pixel_size (layout, &width, NULL);
  return width;
}

/* The words of text[0, end) that fit in `width` with "…" after them, or NULL when not even
 * the first does. The words end before a space; what ends them (", :") stays out. */
static char *
words_that_fit (PangoLayout *layout, const char *text, const char *end, int width)
{
  g_autofree char *fit = NULL;

  for (const char *p = text; p < end; p = g_utf8_next_char (p))
    {
      const char *last = p;
      g_autofree char *words = NULL;

      if (!g_unichar_isspace (g_utf8_get_char (p)))
        continue;
      while (last > text && strchr (" ,;:", last[-1]) != NULL)
        last--;
      if (last == text)
        continue;
      words = g_strdup_printf ("%.*s…", (int) (last - text), text);
      if (width_of (layout, words, -1) > width)
        break;
      g_free (fit);
      fit = g_steal_pointer (&words);
    }
  return g_steal_pointer (&fit);
}

char *
ws_toast_shorten (PangoLayout *layout, const char *text, int width)
{
  const char *end = ws_label_first_sentence_end (text);
  char *words;

  g_return_val_if_fail (PANGO_IS_LAYOUT (layout), NULL);
  g_return_val_if_fail (text != NULL, NULL);
  if (strchr (text, '\n') == NULL && width_of (layout, text, -1) <= width)
    return NULL;
  if (width_of (layout, text, (int) (end - text)) <= width)
    return g_strstrip (g_strndup (text, end - text));
  words = words_that_fit (layout, text, end, width);
  /* A first word wider than the line (a long path alone) is not cut either. */
  return words != NULL ? words : g_strdup (_("This message is too long for one line."));
}

/* ---- Details ------------------------------------------------------------------------------ */

static void
details_activated (GSimpleAction *action, GVariant *param, gpointer data)
{
  GtkRoot *root = gtk_widget_get_root (GTK_WIDGET (data));
  GtkWidget *dialog = adw_message_dialog_new (GTK_IS_WINDOW (root) ? GTK_WINDOW (root) : NULL,
                                              NULL, g_variant_get_string (param, NULL));

  adw_message_dialog_add_response (ADW_MESSAGE_DIALOG (dialog), "close", _("_Close"));
  adw_message_dialog_set_close_response (ADW_MESSAGE_DIALOG (dialog), "close");
  gtk_window_present (GTK_WINDOW (dialog));
}

/* The toast's button finds toast.details by walking up from the toast to the overlay; the
 * overlay gets it with its first toast that needs it. */
static void
add_details_action (GtkWidget *where)
{
  static const GActionEntry entries[] = { { "details", details_activated, "s", NULL, NULL } };
  GSimpleActionGroup *group;

  if (g_object_get_data (G_OBJECT (where), "ws-toast-actions") != NULL)
    return;
  group = g_simple_action_group_new ();
  g_action_map_add_action_entries (G_ACTION_MAP (group), entries, G_N_ELEMENTS (entries), where);
  gtk_widget_insert_action_group (where, "toast", G_ACTION_GROUP (group));
  g_object_set_data_full (G_OBJECT (where), "ws-toast-actions", group, g_object_unref);
}

/* ---- the toast ---------------------------------------------------------------------------- */

static char *
title_for (GtkWidget *where, const char *text)
{
  int width = gtk_widget_get_width (where);
  g_autoptr (PangoLayout) layout = gtk_widget_create_pango_layout (where, NULL);
  g_autoptr (PangoAttrList) bold = pango_attr_list_new ();

  /* The title is a "heading" label: the widget's font, bold. */
  pango_attr_list_insert (bold, pango_attr_weight_new (PANGO_WEIGHT_BOLD));
  pango_layout_set_attributes (layout, bold);
  if (width <= 0 || width > WIDEST_PX)
    width = WIDEST_PX;
  return ws_toast_shorten (layout, text, width - AROUND_TITLE_PX);
}

AdwToast *
ws_toast_new (GtkWidget *where, const char *text)
{
  g_autofree char *title = NULL, *markup = NULL;
  AdwToast *toast;

  g_return_val_if_fail (where == NULL || GTK_IS_WIDGET (where), NULL);
  g_return_val_if_fail (text != NULL, NULL);
  if (where != NULL)
    title = title_for (where, text);
  /* A toast's title is markup: an error's "&" or "<" is text. */
  markup = g_markup_escape_text (title != NULL ? title : text, -1);
  toast = adw_toast_new (markup);
  g_object_set_data_full (G_OBJECT (toast), "ws-toast-text", g_strdup (text), g_free);
  if (title != NULL)
    {
      add_details_action (where);
      adw_toast_set_button_label (toast, _("_Details"));
      adw_toast_set_action_name (toast, "toast.details");
      adw_toast_set_action_target_value (toast, g_variant_new_string (text));
    }
  return toast;
}

const char *
ws_toast_get_text (AdwToast *toast)
{
  g_return_val_if_fail (ADW_IS_TOAST (toast), NULL);
  return g_object_get_data (G_OBJECT (toast), "ws-toast-text");
}
