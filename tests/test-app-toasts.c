/* test-app-toasts.c: toasts (src/app/ws-toast.c) in a window at 1024×768: a long message's
 * title is cut between words and never ellipsized, Details shows the whole text, a short
 * message is its own title with no button; the titles ws_toast_shorten gives.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "test-app-util.h"
#include "ws-toast.h"

static gboolean
at_1024x768 (gpointer data)
{
  GdkSurface *surface = gtk_native_get_surface (GTK_NATIVE (data));

  return surface != NULL && gdk_surface_get_width (surface) == 1024
         && gdk_surface_get_height (surface) == 768;
}

static WsWindow *
new_window_1024x768 (void)
{
  WsWindow *window;

  g_object_set (gtk_settings_get_default (), "gtk-enable-animations", FALSE, NULL);
  ws_test_add_icons ();
  window = ws_window_new (NULL);
  gtk_window_set_default_size (GTK_WINDOW (window), 1024, 768);
  gtk_window_present (GTK_WINDOW (window));
  ws_test_spin_until (at_1024x768, window, 5000);
  g_assert_true (at_1024x768 (window));
  ws_test_spin_for (300);
  return window;
}

/* The toast on screen: libadwaita's AdwToastWidget under the overlay, or NULL. */
static GtkWidget *
toast_widget (GtkWidget *widget)
{
  if (g_str_equal (G_OBJECT_TYPE_NAME (widget), "AdwToastWidget") && gtk_widget_get_mapped (widget))
    return widget;
  for (GtkWidget *c = gtk_widget_get_first_child (widget); c; c = gtk_widget_get_next_sibling (c))
    {
      GtkWidget *found = toast_widget (c);

      if (found != NULL)
        return found;
    }
  return NULL;
}

static gboolean
has_toast_widget (gpointer window)
{
  return toast_widget (GTK_WIDGET (window)) != NULL;
}

/* The first label under `widget`: in libadwaita 1.2's toast, the title (in a bin that a
 * custom title would take). */
static GtkLabel *
first_label (GtkWidget *widget)
{
  if (GTK_IS_LABEL (widget))
    return GTK_LABEL (widget);
  for (GtkWidget *c = gtk_widget_get_first_child (widget); c; c = gtk_widget_get_next_sibling (c))
    {
      GtkLabel *found = first_label (c);

      if (found != NULL)
        return found;
    }
  return NULL;
}

/* The toast's title, laid out at the width the toast was given. */
static GtkLabel *
shown_title (WsWindow *window)
{
  GtkWidget *toast;
  GtkLabel *title;

  ws_test_spin_until (has_toast_widget, window, 5000);
  ws_test_spin_for (300);
  toast = toast_widget (GTK_WIDGET (window));
  g_assert_nonnull (toast);
  title = first_label (toast);
  g_assert_nonnull (title);
  return title;
}

/* The toast's own button (Details, or a caller's), or NULL when it shows none. */
static GtkButton *
shown_button (WsWindow *window)
{
  GtkWidget *toast = toast_widget (GTK_WIDGET (window));

  for (GtkWidget *c = gtk_widget_get_first_child (toast); c; c = gtk_widget_get_next_sibling (c))
    if (GTK_IS_BUTTON (c) && gtk_button_get_label (GTK_BUTTON (c)) != NULL
        && gtk_widget_get_visible (c))
      return GTK_BUTTON (c);
  return NULL;
}

static gboolean
has_toast (gpointer window)
{
  return ws_window_get_last_toast (window) != NULL;
}

static AdwMessageDialog *
open_dialog (void)
{
  GListModel *toplevels = gtk_window_get_toplevels ();

  for (guint i = 0; i < g_list_model_get_n_items (toplevels); i++)
    {
      g_autoptr (GObject) window = g_list_model_get_item (toplevels, i);

      if (ADW_IS_MESSAGE_DIALOG (window) && gtk_widget_get_visible (GTK_WIDGET (window)))
        return ADW_MESSAGE_DIALOG (window);
    }
  return NULL;
}

static gboolean
has_dialog (gpointer data)
{
  return open_dialog () != NULL;
}

/* A file that is not there, in folders whose names make the message longer than a line. */
static void
test_toasts_long (void)
{
  g_autofree char *path = g_build_filename (g_get_tmp_dir (), "warpscope-recordings",
                                            "from the classroom server of the second semester",
                                            "vector add with every block size we tried",
                                            "the-sweep-that-was-not-copied.jsonl", NULL);
  g_autoptr (GFile) file = g_file_new_for_path (path);
  WsWindow *window = new_window_1024x768 ();
  AdwToastOverlay *overlay = ws_test_view (window, "toasts");
  const char *whole;
  g_autofree char *title = NULL;
  GtkLabel *label;
  GtkButton *details;
  AdwMessageDialog *dialog;
  AdwToast *plain;

  ws_window_open_file (window, file);
  ws_test_spin_until (has_toast, window, 10000);
  whole = ws_window_get_last_toast (window);
  g_assert_nonnull (strstr (whole, "the-sweep-that-was-not-copied.jsonl"));

  /* The title: words of the message, whole ones, not cut by the line's end. */
  label = shown_title (window);
  g_assert_false (pango_layout_is_ellipsized (gtk_label_get_layout (label)));
  title = g_strdup (gtk_label_get_text (label));
  g_assert_true (g_str_has_suffix (title, "…"));
  title[strlen (title) - strlen ("…")] = '\0';
  g_assert_cmpuint (strlen (title), >, 0);
  g_assert_true (g_str_has_prefix (whole, title));
  g_assert_true (strchr (" ,;:", whole[strlen (title)]) != NULL);
  ws_test_screenshot (GTK_WIDGET (window), "toast-long-1024x768");

  /* Details: the whole message. */
  details = shown_button (window);
  g_assert_nonnull (details);
  g_assert_cmpstr (gtk_button_get_label (details), ==, "_Details");
  gtk_widget_activate (GTK_WIDGET (details));
  ws_test_spin_until (has_dialog, NULL, 5000);
  dialog = open_dialog ();
  g_assert_nonnull (dialog);
  g_assert_cmpstr (adw_message_dialog_get_body (dialog), ==, whole);
  g_assert_true (gtk_window_get_transient_for (GTK_WINDOW (dialog)) == GTK_WINDOW (window));
  ws_test_spin_for (300);
  ws_test_screenshot (GTK_WIDGET (dialog), "toast-long-details");
  gtk_window_destroy (GTK_WINDOW (dialog));

  /* What the check above would see of libadwaita's own toast with the same words: cut. */
  plain = adw_toast_new (whole);
  adw_toast_overlay_add_toast (overlay, g_object_ref (plain));
  ws_test_spin_for (300);
  label = shown_title (window);
  g_assert_cmpstr (gtk_label_get_text (label), ==, whole);
  g_assert_true (pango_layout_is_ellipsized (gtk_label_get_layout (label)));
  adw_toast_dismiss (plain);
  g_object_unref (plain);
  gtk_window_destroy (GTK_WINDOW (window));
}

/* A short message is the title itself, with no button; markup characters are text. */
static void
test_toasts_short (void)
{
  WsWindow *window = new_window_1024x768 ();
  GtkLabel *label;

  ws_window_show_toast (window, "Runs 1 & 2 <kept>");
  label = shown_title (window);
  g_assert_cmpstr (gtk_label_get_text (label), ==, "Runs 1 & 2 <kept>");
  g_assert_false (pango_layout_is_ellipsized (gtk_label_get_layout (label)));
  g_assert_null (shown_button (window));
  g_assert_cmpstr (ws_window_get_last_toast (window), ==, "Runs 1 & 2 <kept>");
  gtk_window_destroy (GTK_WINDOW (window));
}

/* The titles themselves, in a label's font, at widths measured from the words. */
static void
test_toasts_shorten (void)
{
  GtkWidget *probe = g_object_ref_sink (gtk_label_new (NULL));
  g_autoptr (PangoLayout) layout = gtk_widget_create_pango_layout (probe, NULL);
  const char *two = "The runner stopped. Its last words were about the device.";
  int first, all;
  g_autofree char *fits = NULL, *sentence = NULL, *words = NULL, *line = NULL, *none = NULL;

  pango_layout_set_text (layout, "The runner stopped.", -1);
  pango_layout_get_pixel_size (layout, &first, NULL);
  pango_layout_set_text (layout, two, -1);
  pango_layout_get_pixel_size (layout, &all, NULL);

  fits = ws_toast_shorten (layout, two, all);
  g_assert_null (fits);
  sentence = ws_toast_shorten (layout, two, all - 1);
  g_assert_cmpstr (sentence, ==, "The runner stopped.");
  words = ws_toast_shorten (layout, two, first - 1);
  g_assert_cmpstr (words, ==, "The runner…");
  line = ws_toast_shorten (layout, "Cannot start\nsee the log", all);
  g_assert_cmpstr (line, ==, "Cannot start");
  none = ws_toast_shorten (layout, "/a/path/that/is/one/word/wider/than/the/line", 10);
  g_assert_cmpstr (none, ==, "This message is too long for one line.");
  g_object_unref (probe);
}

int
main (int argc, char **argv)
{
  g_autofree char *cache = g_dir_make_tmp ("ws-app-cache-XXXXXX", NULL);
  int status;

  g_setenv ("XDG_CACHE_HOME", cache, TRUE);
  gtk_test_init (&argc, &argv, NULL);
  adw_init ();
  g_test_add_func ("/app/toasts/long", test_toasts_long);
  g_test_add_func ("/app/toasts/short", test_toasts_short);
  g_test_add_func ("/app/toasts/shorten", test_toasts_shorten);
  status = g_test_run ();
  ws_test_remove_tree (cache);
  return status;
}
