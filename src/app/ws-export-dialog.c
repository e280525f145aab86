/* ws-export-dialog.c: the export dialog. The chart is drawn by the same routine as on screen,
 * onto an image, SVG or PDF surface; every file is written atomically by ws-export.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "ws-export-dialog.h"

#include <glib/gi18n.h>

#include "ws-export.h"

struct _WsExportDialog
{
  AdwWindow parent_instance;
  GSettings *settings;
  GPtrArray *sessions;
  WsChartOptions options;
  AdwComboRow *chart_row, *format_row, *theme_row;
  GtkSpinButton *width_spin, *height_spin;
  GtkFileChooserNative *chooser;
};

G_DEFINE_FINAL_TYPE (WsExportDialog, ws_export_dialog, ADW_TYPE_WINDOW)

enum
{
  FORMAT_PNG_1,
  FORMAT_PNG_2,
  FORMAT_PNG_3,
  FORMAT_SVG,
  FORMAT_PDF,
  FORMAT_CSV,
  FORMAT_TRACE,
};

static const char *format_names[] = { N_("PNG image, 1×"), N_("PNG image, 2× (sharp on HiDPI)"),
                                      N_("PNG image, 3× (print)"), N_("SVG (vector, text as text)"),
                                      N_("PDF (vector, for reports)"),
                                      N_("CSV: the runs behind the chart"),
                                      N_("Chrome trace (Perfetto, chrome://tracing)"), NULL };
static const char *theme_names[] = { N_("Light"), N_("Dark"), N_("Print"), NULL };

static WsExportFormat
selected_format (WsExportDialog *self, double *scale)
{
  guint f = adw_combo_row_get_selected (self->format_row);

  *scale = f <= FORMAT_PNG_3 ? f + 1 : 1;
  switch (f)
    {
    case FORMAT_SVG: return WS_EXPORT_SVG;
    case FORMAT_PDF: return WS_EXPORT_PDF;
    case FORMAT_CSV: return WS_EXPORT_CSV;
    case FORMAT_TRACE: return WS_EXPORT_TRACE;
    default: return WS_EXPORT_PNG;
    }
}

gboolean
ws_export_dialog_write (WsExportDialog *self, GFile *file, GError **error)
{
  WsChartOptions options = self->options;
  double scale;
  WsExportFormat format = selected_format (self, &scale);

  options.kind = (WsChartKind) adw_combo_row_get_selected (self->chart_row);
  options.theme = ws_theme_get ((WsThemeKind) adw_combo_row_get_selected (self->theme_row));
  options.width = gtk_spin_button_get_value (self->width_spin);
  options.height = gtk_spin_button_get_value (self->height_spin);
  options.highlight = NULL;
  if (format == WS_EXPORT_TRACE)
    return ws_export_trace (g_ptr_array_index (self->sessions, 0), file, error);
  if (format == WS_EXPORT_CSV)
    return ws_export_csv (self->sessions, &options, file, error);
  return ws_export_chart (self->sessions, &options, format, scale, file, error);
}

static void
remember (WsExportDialog *self)
{
  static const char *formats[] = { "png", "png", "png", "svg", "pdf", "csv", "trace" };
  guint f = adw_combo_row_get_selected (self->format_row);

  g_settings_set_string (self->settings, "export-format", formats[MIN (f, 6)]);
  g_settings_set_int (self->settings, "export-scale", f <= FORMAT_PNG_3 ? (int) f + 1 : 2);
  g_settings_set_int (self->settings, "export-width", gtk_spin_button_get_value_as_int (self->width_spin));
  g_settings_set_int (self->settings, "export-height", gtk_spin_button_get_value_as_int (self->height_spin));
  g_settings_set_string (self->settings, "export-theme",
                         ws_theme_kind_to_string ((WsThemeKind) adw_combo_row_get_selected (self->theme_row)));
}

static void
chooser_response_cb (GtkNativeDialog *chooser, int response, WsExportDialog *self)
{
  g_autoptr (GFile) file = NULL;
  g_autoptr (GFile) folder = NULL;
  g_autoptr (GError) error = NULL;

  if (response != GTK_RESPONSE_ACCEPT)
    return;
  file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (chooser));
  folder = g_file_get_parent (file);
  if (folder != NULL)
    {
      g_autofree char *path = g_file_get_path (folder);

      g_settings_set_string (self->settings, "export-folder", path ? path : "");
    }
  remember (self);
  if (!ws_export_dialog_write (self, file, &error))
    {
      GtkWidget *dialog = adw_message_dialog_new (GTK_WINDOW (self), _("The export failed"),
                                                  error->message);

      adw_message_dialog_add_response (ADW_MESSAGE_DIALOG (dialog), "close", _("Close"));
      gtk_window_present (GTK_WINDOW (dialog));
      return;
    }
  gtk_window_destroy (GTK_WINDOW (self));
}

static void
export_clicked_cb (WsExportDialog *self)
{
  double scale;
  WsExportFormat format = selected_format (self, &scale);
  WsChartKind kind = (WsChartKind) adw_combo_row_get_selected (self->chart_row);
  g_autofree char *folder = g_settings_get_string (self->settings, "export-folder");
  g_autofree char *name = g_strdup_printf ("warpscope-%s%s",
                                           format == WS_EXPORT_TRACE ? "trace"
                                                                     : ws_chart_kind_to_string (kind),
                                           ws_export_format_extension (format));

  g_clear_object (&self->chooser);
  self->chooser = gtk_file_chooser_native_new (_("Export"), GTK_WINDOW (self),
                                               GTK_FILE_CHOOSER_ACTION_SAVE, _("_Export"),
                                               _("_Cancel"));
  gtk_file_chooser_set_current_name (GTK_FILE_CHOOSER (self->chooser), name);
  if (folder != NULL && *folder != '\0' && g_file_test (folder, G_FILE_TEST_IS_DIR))
    {
      g_autoptr (GFile) dir = g_file_new_for_path (folder);

      gtk_file_chooser_set_current_folder (GTK_FILE_CHOOSER (self->chooser), dir, NULL);
    }
  g_signal_connect (self->chooser, "response", G_CALLBACK (chooser_response_cb), self);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (self->chooser));
}

static void
ws_export_dialog_dispose (GObject *object)
{
  WsExportDialog *self = WS_EXPORT_DIALOG (object);

  g_clear_object (&self->settings);
  g_clear_object (&self->chooser);
  g_clear_pointer (&self->sessions, g_ptr_array_unref);
  G_OBJECT_CLASS (ws_export_dialog_parent_class)->dispose (object);
}

static void
ws_export_dialog_class_init (WsExportDialogClass *klass)
{
  G_OBJECT_CLASS (klass)->dispose = ws_export_dialog_dispose;
}

static void
ws_export_dialog_init (WsExportDialog *self)
{
}

static AdwComboRow *
combo (AdwPreferencesGroup *group, const char *title, const char *const *names, gboolean translate)
{
  g_autoptr (GtkStringList) list = gtk_string_list_new (NULL);
  GtkWidget *row = adw_combo_row_new ();

  for (guint i = 0; names[i] != NULL; i++)
    gtk_string_list_append (list, translate ? _(names[i]) : names[i]);
  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), title);
  adw_combo_row_set_model (ADW_COMBO_ROW (row), G_LIST_MODEL (list));
  adw_preferences_group_add (group, row);
  return ADW_COMBO_ROW (row);
}

static GtkSpinButton *
spin (AdwPreferencesGroup *group, const char *title, double lo, double hi, double value)
{
  GtkWidget *row = adw_action_row_new ();
  GtkWidget *button = gtk_spin_button_new_with_range (lo, hi, 10);

  gtk_spin_button_set_value (GTK_SPIN_BUTTON (button), value);
  gtk_widget_set_valign (button, GTK_ALIGN_CENTER);
  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), title);
  adw_action_row_add_suffix (ADW_ACTION_ROW (row), button);
  gtk_accessible_update_property (GTK_ACCESSIBLE (button), GTK_ACCESSIBLE_PROPERTY_LABEL, title, -1);
  adw_preferences_group_add (group, row);
  return GTK_SPIN_BUTTON (button);
}

GtkWidget *
ws_export_dialog_new (GtkWindow *parent, GSettings *settings, GPtrArray *sessions,
                      const WsChartOptions *options)
{
  WsExportDialog *self = g_object_new (WS_TYPE_EXPORT_DIALOG, "transient-for", parent, "modal",
                                       TRUE, "title", _("Export"), "default-width", 520, NULL);
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
  GtkWidget *header = adw_header_bar_new ();
  GtkWidget *page = adw_preferences_page_new ();
  AdwPreferencesGroup *group = ADW_PREFERENCES_GROUP (adw_preferences_group_new ());
  GtkWidget *button = gtk_button_new_with_label (_("Export…"));
  const char *charts[WS_N_CHARTS + 1];
  g_autofree char *format = g_settings_get_string (settings, "export-format");
  g_autofree char *theme = g_settings_get_string (settings, "export-theme");
  WsThemeKind theme_kind = WS_THEME_LIGHT;

  self->settings = g_object_ref (settings);
  self->sessions = g_ptr_array_ref (sessions);
  self->options = *options;
  for (int i = 0; i < WS_N_CHARTS; i++)
    charts[i] = ws_chart_kind_title ((WsChartKind) i);
  charts[WS_N_CHARTS] = NULL;

  self->chart_row = combo (group, _("Chart"), charts, FALSE);
  adw_combo_row_set_selected (self->chart_row, options->kind);
  self->format_row = combo (group, _("Format"), format_names, TRUE);
  if (g_str_equal (format, "svg"))
    adw_combo_row_set_selected (self->format_row, FORMAT_SVG);
  else if (g_str_equal (format, "pdf"))
    adw_combo_row_set_selected (self->format_row, FORMAT_PDF);
  else if (g_str_equal (format, "csv"))
    adw_combo_row_set_selected (self->format_row, FORMAT_CSV);
  else if (g_str_equal (format, "trace"))
    adw_combo_row_set_selected (self->format_row, FORMAT_TRACE);
  else
    adw_combo_row_set_selected (self->format_row,
                                CLAMP (g_settings_get_int (settings, "export-scale"), 1, 3) - 1);
  self->width_spin = spin (group, _("Width"), 200, 10000, g_settings_get_int (settings, "export-width"));
  self->height_spin = spin (group, _("Height"), 150, 10000,
                            g_settings_get_int (settings, "export-height"));
  self->theme_row = combo (group, _("Theme"), theme_names, TRUE);
  ws_theme_kind_from_string (theme, &theme_kind);
  adw_combo_row_set_selected (self->theme_row, theme_kind);
  adw_preferences_page_add (ADW_PREFERENCES_PAGE (page), group);

  gtk_widget_add_css_class (button, "suggested-action");
  g_signal_connect_swapped (button, "clicked", G_CALLBACK (export_clicked_cb), self);
  adw_header_bar_pack_end (ADW_HEADER_BAR (header), button);
  gtk_box_append (GTK_BOX (box), header);
  gtk_box_append (GTK_BOX (box), page);
  adw_window_set_content (ADW_WINDOW (self), box);
  return GTK_WIDGET (self);
}
