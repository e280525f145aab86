/* test-app-export.c: charts as figures for reports. A PDF of one column at 8 pt is 8.5 cm
 * wide with 8 pt text (read back with poppler), an SVG says its size in points, a PNG has the
 * size times its resolution in pixels; files are named for the session and the chart and
 * never replace another without asking; once written, a toast says where, and Show in Folder
 * asks the file manager (here a stand-in on a private bus), else the portal. The chart menu
 * is on every chart, and Copy as PNG puts the chart on the clipboard.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <gio/gunixfdlist.h>
#include <glib/gstdio.h>
#include <unistd.h>
#include <math.h>
#if __has_include(<poppler.h>)
#include <poppler.h>
#define HAVE_POPPLER 1
#endif

#include "test-app-util.h"
#include "ws-chart-actions.h"
#include "ws-chart-export.h"
#include "ws-chart-menu.h"
#include "ws-export-dialog.h"
#include "ws-occupancy-view.h"
#include "ws-saved-file.h"

static char *folder; /* where the tests export to */

/* "Saved NAME in FOLDER", as the toast says it. */
static const char *
saved (const char *name)
{
  static char *text;
  g_autofree char *where = g_path_get_basename (folder);

  g_free (text);
  text = g_strdup_printf ("Saved %s in %s", name, where);
  return text;
}

static GPtrArray *
vector_add (void)
{
  GPtrArray *sessions = g_ptr_array_new_with_free_func (g_object_unref);

  g_ptr_array_add (sessions, ws_test_load_sample ("vector-add-sizes-h200.jsonl"));
  return sessions;
}

static GFile *
out_file (const char *name)
{
  g_autofree char *path = g_build_filename (folder, name, NULL);

  return g_file_new_for_path (path);
}

static GFile *
write_figure (WsFigurePreset preset, WsExportFormat format, const char *name)
{
  g_autoptr (GPtrArray) sessions = vector_add ();
  g_autoptr (GError) error = NULL;
  GFile *file = out_file (name);
  WsChartOptions options;
  WsFigure figure;

  ws_figure_init_preset (&figure, preset);
  ws_chart_options_init (&options, WS_CHART_SPEEDUP, NULL, 100, 100);
  g_assert_true (ws_chart_export_write (&figure, WS_THEME_PRINT, sessions, &options, format,
                                        file, &error));
  g_assert_no_error (error);
  return file;
}

/* ---- figures in physical units ------------------------------------------------------------ */

/* One column, 8 pt: a page 8.5 cm (241 pt) wide whose labels are 8 pt, titles larger. */
static void
test_pdf_one_column (void)
{
#ifdef HAVE_POPPLER
  g_autoptr (GFile) file = write_figure (WS_FIGURE_COLUMN, WS_EXPORT_PDF, "column.pdf");
  g_autofree char *uri = g_file_get_uri (file);
  g_autoptr (GError) error = NULL;
  PopplerDocument *doc = poppler_document_new_from_file (uri, NULL, &error);
  PopplerPage *page;
  g_autofree char *text = NULL;
  GList *attributes;
  const char *axis, *title;
  double w, h, axis_pt = 0, title_pt = 0;
  glong axis_at, title_at;

  g_assert_no_error (error);
  page = poppler_document_get_page (doc, 0);
  poppler_page_get_size (page, &w, &h);
  g_assert_cmpfloat_with_epsilon (w, 8.5 / 2.54 * 72, 0.01);
  g_assert_cmpfloat_with_epsilon (h, 8.0 / 2.54 * 72, 0.01);
  text = poppler_page_get_text (page);
  axis = strstr (text, "Problem size n");
  title = strstr (text, "Speedup over the CPU");
  g_assert_nonnull (axis);
  g_assert_nonnull (title);
  axis_at = g_utf8_pointer_to_offset (text, axis);
  title_at = g_utf8_pointer_to_offset (text, title);
  attributes = poppler_page_get_text_attributes (page);
  for (GList *l = attributes; l != NULL; l = l->next)
    {
      PopplerTextAttributes *a = l->data;

      if (a->start_index <= axis_at && axis_at <= a->end_index)
        axis_pt = a->font_size;
      if (a->start_index <= title_at && title_at <= a->end_index)
        title_pt = a->font_size;
    }
  /* The axis title is body text: 8 pt, as asked; the chart's title is larger. */
  g_assert_cmpfloat_with_epsilon (axis_pt, 8.0, 0.05);
  g_assert_cmpfloat (title_pt, >, 10);
  g_list_free_full (attributes, (GDestroyNotify) poppler_text_attributes_free);
  g_object_unref (page);
  g_object_unref (doc);
#else
  g_test_skip ("poppler-glib is not installed");
#endif
}

/* The PNG's pixels are its size in inches times its resolution. */
static void
test_png_by_dpi (void)
{
  g_autoptr (GFile) file = write_figure (WS_FIGURE_COLUMN, WS_EXPORT_PNG, "column.png");
  g_autoptr (GError) error = NULL;
  g_autoptr (GdkTexture) texture = gdk_texture_new_from_file (file, &error);
  WsFigure figure;
  int w, h;

  g_assert_no_error (error);
  ws_figure_init_preset (&figure, WS_FIGURE_COLUMN);
  g_assert_cmpfloat (figure.dpi, ==, 300);
  ws_figure_get_pixels (&figure, &w, &h);
  g_assert_cmpint (w, ==, 1004); /* 8.5 cm at 300 dpi */
  g_assert_cmpint (h, ==, 945);  /* 8 cm */
  g_assert_cmpint (gdk_texture_get_width (texture), ==, w);
  g_assert_cmpint (gdk_texture_get_height (texture), ==, h);
}

/* An SVG says its size in points, and keeps the drawing's coordinates in its viewBox. */
static void
test_svg_in_points (void)
{
  g_autoptr (GFile) file = write_figure (WS_FIGURE_PAGE, WS_EXPORT_SVG, "page.svg");
  g_autofree char *svg = NULL;
  g_autoptr (GRegex) size = g_regex_new ("<svg[^>]* width=\"([0-9.]+)pt\" height=\"([0-9.]+)pt\""
                                         "[^>]* viewBox=\"0 0 ([0-9.]+) ([0-9.]+)\"",
                                         0, 0, NULL);
  g_autoptr (GMatchInfo) match = NULL;
  g_autofree char *w = NULL, *vw = NULL;

  g_assert_true (g_file_load_contents (file, NULL, &svg, NULL, NULL, NULL));
  g_assert_true (g_regex_match (size, svg, 0, &match));
  w = g_match_info_fetch (match, 1);
  vw = g_match_info_fetch (match, 3);
  g_assert_cmpfloat_with_epsilon (g_ascii_strtod (w, NULL), 17.0 / 2.54 * 72, 0.01);
  g_assert_cmpstr (w, ==, vw);
}

static void
test_figure_limits (void)
{
  g_autoptr (GError) error = NULL;
  WsFigure figure;

  ws_figure_init_preset (&figure, WS_FIGURE_CUSTOM);
  g_assert_true (ws_figure_check (&figure, NULL));
  figure.font_pt = 1;
  g_assert_false (ws_figure_check (&figure, &error));
  g_assert_nonnull (strstr (error->message, "pt"));
}

/* ---- names -------------------------------------------------------------------------------- */

static void
test_default_names (void)
{
  g_autoptr (GPtrArray) sessions = vector_add ();
  WsSession *session = g_ptr_array_index (sessions, 0);
  g_autoptr (WsSession) live = ws_session_new (WS_SESSION_SOURCE_LIVE);
  g_autofree char *svg = ws_figure_default_name (session, WS_CHART_SPEEDUP, WS_EXPORT_SVG);
  g_autofree char *trace = ws_figure_default_name (session, WS_CHART_TIMELINE, WS_EXPORT_TRACE);
  g_autofree char *unsaved = ws_figure_default_name (live, WS_CHART_BLOCKS, WS_EXPORT_PNG);
  g_autoptr (GFile) taken = out_file ("taken.svg");
  g_autoptr (GFile) other = NULL;
  g_autofree char *other_name = NULL;

  g_assert_cmpstr (svg, ==, "vector-add-sizes-h200-speedup.svg");
  g_assert_cmpstr (trace, ==, "vector-add-sizes-h200-trace.json");
  g_assert_cmpstr (unsaved, ==, "warpscope-blocks.png");
  g_assert_true (g_file_replace_contents (taken, "x", 1, NULL, FALSE, 0, NULL, NULL, NULL));
  other = ws_figure_unused_file (taken);
  other_name = g_file_get_basename (other);
  g_assert_cmpstr (other_name, ==, "taken-2.svg");
}

/* ---- the window --------------------------------------------------------------------------- */

static WsWindow *
window_on_speedup (void)
{
  WsWindow *window = ws_test_new_window ();
  g_autoptr (GSettings) settings = g_settings_new ("org.warpscope.Warpscope");

  g_settings_set_string (settings, "export-folder", folder);
  ws_test_open (window, "vector-add-sizes-h200.jsonl");
  gtk_widget_activate_action (GTK_WIDGET (window), "win.show-view", "s", "speedup");
  ws_test_spin_for (100);
  return window;
}

static gboolean
file_exists (gpointer file)
{
  return g_file_query_exists (file, NULL);
}

static gboolean
toasted (gpointer window)
{
  return ws_chart_actions_get_last_toast (ws_test_view (window, "chart_actions")) != NULL;
}

/* The toplevel of `type` shown now, if any. */
static GtkWindow *
find_window (GType type)
{
  GListModel *all = gtk_window_get_toplevels ();

  for (guint i = 0; i < g_list_model_get_n_items (all); i++)
    {
      g_autoptr (GtkWindow) w = g_list_model_get_item (all, i);

      if (G_TYPE_CHECK_INSTANCE_TYPE (w, type) && gtk_widget_get_visible (GTK_WIDGET (w)))
        return w;
    }
  return NULL;
}

static gboolean
asking (gpointer data)
{
  return find_window (ADW_TYPE_MESSAGE_DIALOG) != NULL;
}

/* From the chart on screen to a file in one step: named for the session and the chart, in
 * the export folder, said in a toast. */
static void
test_export_as (void)
{
  WsWindow *window = window_on_speedup ();
  WsChartActions *actions = ws_test_view (window, "chart_actions");
  g_autoptr (GFile) file = out_file ("vector-add-sizes-h200-speedup.svg");
  g_autofree char *svg = NULL;

  g_file_delete (file, NULL, NULL);
  gtk_widget_activate_action (GTK_WIDGET (window), "chart.export-as", "s", "svg");
  ws_test_spin_until (file_exists, file, 5000);
  ws_test_spin_until (toasted, window, 5000);
  ws_test_spin_for (300);
  ws_test_screenshot (GTK_WIDGET (window), "export-toast");
  g_assert_true (g_file_load_contents (file, NULL, &svg, NULL, NULL, NULL));
  g_assert_nonnull (strstr (svg, "Speedup over the CPU"));
  g_assert_cmpstr (ws_chart_actions_get_last_toast (actions), ==,
                   saved ("vector-add-sizes-h200-speedup.svg"));
  gtk_window_destroy (GTK_WINDOW (window));
}

/* A file of that name is there: nothing is written until the person answers; keep both
 * writes beside it, replace writes over it, cancel writes nothing. */
static void
test_never_overwrites (void)
{
  WsWindow *window = window_on_speedup ();
  g_autoptr (GFile) file = out_file ("vector-add-sizes-h200-speedup.pdf");
  g_autoptr (GFile) beside = out_file ("vector-add-sizes-h200-speedup-2.pdf");
  const char *answers[] = { "cancel", "keep", "replace" };
  g_autofree char *contents = NULL;

  g_file_delete (beside, NULL, NULL);
  for (guint i = 0; i < G_N_ELEMENTS (answers); i++)
    {
      AdwMessageDialog *question;

      g_assert_true (g_file_replace_contents (file, "mine", 4, NULL, FALSE, 0, NULL, NULL, NULL));
      gtk_widget_activate_action (GTK_WIDGET (window), "chart.export-as", "s", "pdf");
      ws_test_spin_until (asking, NULL, 5000);
      question = ADW_MESSAGE_DIALOG (find_window (ADW_TYPE_MESSAGE_DIALOG));
      g_assert_nonnull (question);
      g_assert_true (adw_message_dialog_has_response (question, "replace"));
      g_assert_true (g_file_load_contents (file, NULL, &contents, NULL, NULL, NULL));
      g_assert_cmpstr (contents, ==, "mine");
      g_clear_pointer (&contents, g_free);
      adw_message_dialog_response (question, answers[i]);
      gtk_window_destroy (GTK_WINDOW (question));
      ws_test_spin_for (200);
      g_assert_true (g_file_load_contents (file, NULL, &contents, NULL, NULL, NULL));
      if (g_str_equal (answers[i], "replace"))
        g_assert_true (g_str_has_prefix (contents, "%PDF"));
      else
        g_assert_cmpstr (contents, ==, "mine");
      g_clear_pointer (&contents, g_free);
      g_assert_true (g_file_query_exists (beside, NULL) == (i >= 1));
    }
  gtk_window_destroy (GTK_WINDOW (window));
}

/* The dialog: the chart's default name and the export folder, sizes with their units, and
 * the file written where it says. */
static void
test_dialog (void)
{
  WsWindow *window = window_on_speedup ();
  g_autoptr (GSettings) settings = g_settings_new ("org.warpscope.Warpscope");
  g_autoptr (GFile) file = NULL;
  g_autoptr (GFile) expected = out_file ("vector-add-sizes-h200-speedup.svg");
  WsExportDialog *dialog;

  g_settings_set_string (settings, "export-format", "png");
  g_settings_set_string (settings, "export-size", "column");
  gtk_widget_activate_action (GTK_WIDGET (window), "chart.export", NULL);
  ws_test_spin_for (200);
  dialog = WS_EXPORT_DIALOG (find_window (WS_TYPE_EXPORT_DIALOG));
  g_assert_nonnull (dialog);
  g_assert_nonnull (ws_test_find_label (GTK_WIDGET (dialog), "cm"));
  g_assert_nonnull (ws_test_find_label (GTK_WIDGET (dialog), "pt"));
  g_assert_nonnull (ws_test_find_label (GTK_WIDGET (dialog), "1004 × 945 pixels"));
  ws_export_dialog_set_format (dialog, WS_EXPORT_SVG);
  ws_test_spin_for (100);
  ws_test_screenshot (GTK_WIDGET (dialog), "export-dialog");
  file = ws_export_dialog_dup_file (dialog);
  g_assert_true (g_file_equal (file, expected));
  g_file_delete (file, NULL, NULL);
  gtk_widget_activate (GTK_WIDGET (gtk_window_get_default_widget (GTK_WINDOW (dialog))));
  ws_test_spin_until (file_exists, file, 5000);
  g_assert_true (g_file_query_exists (file, NULL));
  ws_test_spin_until (toasted, window, 5000);
  ws_test_spin_for (100);
  g_assert_null (find_window (WS_TYPE_EXPORT_DIALOG));
  g_assert_cmpstr (ws_chart_actions_get_last_toast (ws_test_view (window, "chart_actions")), ==,
                   saved ("vector-add-sizes-h200-speedup.svg"));
  g_settings_reset (settings, "export-size");
  gtk_window_destroy (GTK_WINDOW (window));
}

/* Every chart has the menu on a right click, and the header's export button too. */
static void
test_chart_menu (void)
{
  WsWindow *window = window_on_speedup ();
  const char *charts[] = { "timeline", "speedup", "blocks", "breakdown", "roofline" };
  GMenuModel *menu = ws_chart_menu_get_model ();
  g_autoptr (GPtrArray) actions = g_ptr_array_new_with_free_func (g_free);
  GtkWidget *calculator = ws_occupancy_view_get_chart (ws_test_view (window, "occupancy"));

  for (guint s = 0; s < (guint) g_menu_model_get_n_items (menu); s++)
    {
      g_autoptr (GMenuModel) section = g_menu_model_get_item_link (menu, s, G_MENU_LINK_SECTION);

      for (guint i = 0; i < (guint) g_menu_model_get_n_items (section); i++)
        {
          char *action = NULL;

          g_menu_model_get_item_attribute (section, i, G_MENU_ATTRIBUTE_ACTION, "s", &action);
          g_ptr_array_add (actions, action);
        }
    }
  g_assert_true (g_ptr_array_find_with_equal_func (actions, "chart.copy", g_str_equal, NULL));
  g_assert_true (g_ptr_array_find_with_equal_func (actions, "chart.export", g_str_equal, NULL));
  g_assert_true (g_ptr_array_find_with_equal_func (actions, "chart.export-as", g_str_equal, NULL));
  for (guint i = 0; i <= G_N_ELEMENTS (charts); i++)
    {
      GtkWidget *chart = i < G_N_ELEMENTS (charts) ? ws_test_view (window, charts[i]) : calculator;
      GtkWidget *popover = NULL;

      for (GtkWidget *c = gtk_widget_get_first_child (chart); c; c = gtk_widget_get_next_sibling (c))
        if (GTK_IS_POPOVER_MENU (c))
          popover = c;
      g_assert_nonnull (popover);
      g_assert_true (gtk_popover_menu_get_menu_model (GTK_POPOVER_MENU (popover)) == menu);
    }
  g_assert_true (adw_split_button_get_menu_model (ws_test_view (window, "export_button")) == menu);
  gtk_window_destroy (GTK_WINDOW (window));
}

static void
texture_read_cb (GObject *source, GAsyncResult *result, gpointer data)
{
  GdkTexture **texture = data;

  *texture = gdk_clipboard_read_texture_finish (GDK_CLIPBOARD (source), result, NULL);
}

static gboolean
not_null (gpointer data)
{
  return *(gpointer *) data != NULL;
}

/* Copy as PNG: the chart as it is on screen, twice as sharp. */
static void
test_copy (void)
{
  WsWindow *window = window_on_speedup ();
  GtkWidget *chart = ws_test_view (window, "speedup");
  GdkClipboard *clipboard = gtk_widget_get_clipboard (GTK_WIDGET (window));
  g_autoptr (GdkTexture) texture = NULL;

  gtk_widget_activate_action (GTK_WIDGET (window), "chart.copy", NULL);
  gdk_clipboard_read_texture_async (clipboard, NULL, texture_read_cb, &texture);
  ws_test_spin_until (not_null, &texture, 5000);
  g_assert_nonnull (texture);
  g_assert_cmpint (gdk_texture_get_width (texture), ==, 2 * gtk_widget_get_width (chart));
  g_assert_cmpint (gdk_texture_get_height (texture), ==, 2 * gtk_widget_get_height (chart));
  gtk_window_destroy (GTK_WINDOW (window));
}

/* ---- show in folder ----------------------------------------------------------------------- */

static const char file_manager_xml[] =
  "<node><interface name='org.freedesktop.FileManager1'>"
  "<method name='ShowItems'><arg type='as' direction='in'/><arg type='s' direction='in'/></method>"
  "</interface></node>";
static const char portal_xml[] =
  "<node><interface name='org.freedesktop.portal.OpenURI'>"
  "<method name='OpenDirectory'><arg type='s' direction='in'/><arg type='h' direction='in'/>"
  "<arg type='a{sv}' direction='in'/><arg type='o' direction='out'/></method>"
  "</interface></node>";

static char *shown; /* what the stand-ins were asked to show */

static void
stand_in_called (GDBusConnection *bus, const char *sender, const char *path, const char *iface,
                 const char *method, GVariant *args, GDBusMethodInvocation *invocation,
                 gpointer data)
{
  g_free (shown);
  if (g_str_equal (method, "ShowItems"))
    {
      g_autofree const char **uris = NULL;

      g_variant_get (args, "(^a&ss)", &uris, NULL);
      shown = g_strdup (uris[0]);
      g_dbus_method_invocation_return_value (invocation, NULL);
      return;
    }
  {
    GUnixFDList *fds = g_dbus_message_get_unix_fd_list (g_dbus_method_invocation_get_message (invocation));
    int fd = g_unix_fd_list_get (fds, 0, NULL);
    g_autofree char *link = g_strdup_printf ("/proc/self/fd/%d", fd);

    shown = g_file_read_link (link, NULL);
    close (fd);
    g_dbus_method_invocation_return_value (invocation,
                                           g_variant_new ("(o)", "/org/freedesktop/portal/desktop/request/1"));
  }
}

static guint
stand_in (GDBusConnection *bus, const char *xml, const char *path, const char *name, guint *owner)
{
  g_autoptr (GDBusNodeInfo) info = g_dbus_node_info_new_for_xml (xml, NULL);
  static const GDBusInterfaceVTable vtable = { stand_in_called };
  guint id = g_dbus_connection_register_object (bus, path, info->interfaces[0], &vtable, NULL,
                                                NULL, NULL);

  *owner = g_bus_own_name_on_connection (bus, name, G_BUS_NAME_OWNER_FLAGS_NONE, NULL, NULL,
                                         NULL, NULL);
  ws_test_spin_for (100);
  return id;
}

static void
shown_cb (GObject *source, GAsyncResult *result, gpointer data)
{
  int *how = data;
  WsShownBy by;

  *how = ws_saved_file_show_finish (result, &by, NULL) ? (int) by : -2;
}

static gboolean
answered (gpointer data)
{
  return *(int *) data != -1;
}

static void
test_show_in_folder (void)
{
  g_autoptr (GDBusConnection) bus = g_bus_get_sync (G_BUS_TYPE_SESSION, NULL, NULL);
  g_autoptr (GFile) file = write_figure (WS_FIGURE_COLUMN, WS_EXPORT_SVG, "shown.svg");
  g_autofree char *uri = g_file_get_uri (file);
  g_autofree char *path = g_file_get_path (file);
  guint fm_owner, portal_owner, fm, portal;
  int how = -1;

  if (bus == NULL)
    {
      g_test_skip ("no session bus");
      return;
    }
  /* The file manager selects the file. */
  fm = stand_in (bus, file_manager_xml, "/org/freedesktop/FileManager1",
                 "org.freedesktop.FileManager1", &fm_owner);
  ws_saved_file_show_async (NULL, file, NULL, shown_cb, &how);
  ws_test_spin_until (answered, &how, 5000);
  g_assert_cmpint (how, ==, WS_SHOWN_BY_FILE_MANAGER);
  g_assert_cmpstr (shown, ==, uri);
  g_bus_unown_name (fm_owner);
  g_dbus_connection_unregister_object (bus, fm);
  ws_test_spin_for (100);

  /* Without one (a sandbox), the portal is given the file itself. */
  portal = stand_in (bus, portal_xml, "/org/freedesktop/portal/desktop",
                     "org.freedesktop.portal.Desktop", &portal_owner);
  how = -1;
  ws_saved_file_show_async (NULL, file, NULL, shown_cb, &how);
  ws_test_spin_until (answered, &how, 5000);
  g_assert_cmpint (how, ==, WS_SHOWN_BY_PORTAL);
  g_assert_cmpstr (shown, ==, path);
  g_bus_unown_name (portal_owner);
  g_dbus_connection_unregister_object (bus, portal);
}

/* The toast says which file and which folder, and offers both. */
static void
test_toast (void)
{
  g_autoptr (GFile) file = out_file ("vector-add-sizes-h200-speedup.svg");
  g_autofree char *uri = g_file_get_uri (file);
  g_autofree char *text = NULL;
  AdwToast *toast = g_object_ref_sink (ws_saved_file_toast (file, &text));
  GtkWidget *title = adw_toast_get_custom_title (toast);
  GtkWidget *show = gtk_widget_get_last_child (title);

  g_assert_cmpstr (text, ==, saved ("vector-add-sizes-h200-speedup.svg"));
  g_assert_true (GTK_IS_LABEL (gtk_widget_get_first_child (title)));
  g_assert_cmpstr (gtk_label_get_text (GTK_LABEL (gtk_widget_get_first_child (title))), ==, text);
  g_assert_cmpstr (adw_toast_get_button_label (toast), ==, "_Open");
  g_assert_cmpstr (adw_toast_get_action_name (toast), ==, "chart.open-file");
  g_assert_cmpstr (g_variant_get_string (adw_toast_get_action_target_value (toast), NULL), ==, uri);
  g_assert_true (GTK_IS_BUTTON (show));
  g_assert_cmpstr (gtk_actionable_get_action_name (GTK_ACTIONABLE (show)), ==, "chart.show-file");
  g_object_unref (toast);
}

int
main (int argc, char **argv)
{
  g_autofree char *cache = g_dir_make_tmp ("ws-app-export-cache-XXXXXX", NULL);
  GTestDBus *bus = NULL; /* stopped, not finalized: that would wait for GTK's connection */
  int status;

  g_setenv ("XDG_CACHE_HOME", cache, TRUE);
  folder = g_dir_make_tmp ("ws-app-export-XXXXXX", NULL);
  /* A bus of our own, where the file manager and the portal are stand-ins. */
  if (g_find_program_in_path ("dbus-daemon") != NULL)
    {
      /* It unsets DISPLAY, against D-Bus's X11 autolaunch; the tests need the display. */
      g_autofree char *display = g_strdup (g_getenv ("DISPLAY"));

      bus = g_test_dbus_new (G_TEST_DBUS_NONE);
      g_test_dbus_up (bus);
      if (display != NULL)
        g_setenv ("DISPLAY", display, TRUE);
      /* That bus has no accessibility bus on it. */
      g_setenv ("GTK_A11Y", "none", TRUE);
    }
  gtk_test_init (&argc, &argv, NULL);
  adw_init ();
  g_test_add_func ("/app/export/pdf-one-column", test_pdf_one_column);
  g_test_add_func ("/app/export/png-by-dpi", test_png_by_dpi);
  g_test_add_func ("/app/export/svg-in-points", test_svg_in_points);
  g_test_add_func ("/app/export/figure-limits", test_figure_limits);
  g_test_add_func ("/app/export/default-names", test_default_names);
  g_test_add_func ("/app/export/export-as", test_export_as);
  g_test_add_func ("/app/export/never-overwrites", test_never_overwrites);
  g_test_add_func ("/app/export/dialog", test_dialog);
  g_test_add_func ("/app/export/chart-menu", test_chart_menu);
  g_test_add_func ("/app/export/copy", test_copy);
  g_test_add_func ("/app/export/toast", test_toast);
  if (bus != NULL)
    g_test_add_func ("/app/export/show-in-folder", test_show_in_folder);
  status = g_test_run ();
  /* GTK keeps its connection to the bus to the end: stop the daemon without waiting for it. */
  if (bus != NULL)
    g_test_dbus_stop (bus);
  ws_test_remove_tree (folder);
  ws_test_remove_tree (cache);
  return status;
}
