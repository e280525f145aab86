/* ws-export-dialog.c: the export dialog. A chart is a figure: its size in centimetres from a
 * preset (one column, page width, a slide) or the person's own, its text in points, a PNG's
 * resolution in dots per inch; the file is named for the session and the chart and goes to
 * the folder shown, never over a file there without asking (ws-chart-export, ws-saved-file).
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "ws-export-dialog.h"

#include <glib/gi18n.h>

#include "ws-chart-export.h"
#include "ws-saved-file.h"

struct _WsExportDialog
{
  AdwWindow parent_instance;

  /* template */
  AdwComboRow *chart_row, *theme_row, *size_row;
  AdwActionRow *format_row, *width_row, *height_row, *font_row, *dpi_row, *folder_row;
  AdwPreferencesGroup *size_group;
  AdwEntryRow *name_row;
  GtkWidget *format_box, *export_button;

  GtkToggleButton *format_buttons[5];
  GtkSpinButton *width_spin, *height_spin, *font_spin, *dpi_spin;
  GSettings *settings;
  GPtrArray *sessions;
  WsChartOptions options;
  WsFigure figure;
  GFile *folder;
  char *default_name; /* what the name row holds until the person types another */
  gboolean syncing;
  GtkFileChooserNative *chooser;
};

G_DEFINE_FINAL_TYPE (WsExportDialog, ws_export_dialog, ADW_TYPE_WINDOW)

static const struct
{
  WsExportFormat format;
  const char *label;
  const char *about;
} formats[] = {
  { WS_EXPORT_PNG, "PNG", N_("An image: the size times the resolution in pixels, for slides and the web") },
  { WS_EXPORT_SVG, "SVG", N_("Vector, its text kept as text: for reports, and to edit in Inkscape") },
  { WS_EXPORT_PDF, "PDF", N_("Vector: for LaTeX and for print") },
  { WS_EXPORT_CSV, "CSV", N_("The numbers behind the chart, a row a run, for a spreadsheet") },
  { WS_EXPORT_TRACE, N_("Trace"), N_("The whole session as a Chrome trace, for Perfetto and chrome://tracing") },
};

static const char *theme_names[] = { N_("Light"), N_("Dark"), N_("Print"), NULL };

WsExportFormat
ws_export_dialog_get_format (WsExportDialog *self)
{
  g_return_val_if_fail (WS_IS_EXPORT_DIALOG (self), WS_EXPORT_PNG);
  for (guint i = 0; i < G_N_ELEMENTS (formats); i++)
    if (gtk_toggle_button_get_active (self->format_buttons[i]))
      return formats[i].format;
  return WS_EXPORT_PNG;
}

void
ws_export_dialog_set_format (WsExportDialog *self, WsExportFormat format)
{
  g_return_if_fail (WS_IS_EXPORT_DIALOG (self));
  for (guint i = 0; i < G_N_ELEMENTS (formats); i++)
    if (formats[i].format == format)
      gtk_toggle_button_set_active (self->format_buttons[i], TRUE);
}

static gboolean
is_figure (WsExportFormat format)
{
  return format == WS_EXPORT_PNG || format == WS_EXPORT_SVG || format == WS_EXPORT_PDF;
}

static WsChartKind
chosen_chart (WsExportDialog *self)
{
  return (WsChartKind) adw_combo_row_get_selected (self->chart_row);
}

/* ---- what the rows show ------------------------------------------------------------------- */

static void
show_figure (WsExportDialog *self)
{
  WsExportFormat format = ws_export_dialog_get_format (self);
  g_autofree char *pixels = NULL;
  int w, h;

  self->syncing = TRUE;
  adw_combo_row_set_selected (self->size_row, self->figure.preset);
  gtk_spin_button_set_value (self->width_spin, self->figure.width_cm);
  gtk_spin_button_set_value (self->height_spin, self->figure.height_cm);
  gtk_spin_button_set_value (self->font_spin, self->figure.font_pt);
  gtk_spin_button_set_value (self->dpi_spin, self->figure.dpi);
  self->syncing = FALSE;
  ws_figure_get_pixels (&self->figure, &w, &h);
  /* Translators: a PNG's size: "2008 × 1181 pixels". */
  pixels = g_strdup_printf (_("%d × %d pixels"), w, h);
  adw_action_row_set_subtitle (self->dpi_row, format == WS_EXPORT_PNG ? pixels : _("PNG only"));
  gtk_widget_set_sensitive (GTK_WIDGET (self->dpi_row), format == WS_EXPORT_PNG);
}

static void
show_name (WsExportDialog *self)
{
  WsSession *session = self->sessions->len ? g_ptr_array_index (self->sessions, 0) : NULL;
  g_autofree char *name = ws_figure_default_name (session, chosen_chart (self),
                                                  ws_export_dialog_get_format (self));
  const char *now = gtk_editable_get_text (GTK_EDITABLE (self->name_row));

  /* A name the person typed is theirs; the one we gave follows the chart and the format. */
  if (self->default_name == NULL || g_str_equal (now, self->default_name) || *now == '\0')
    gtk_editable_set_text (GTK_EDITABLE (self->name_row), name);
  g_free (self->default_name);
  self->default_name = g_steal_pointer (&name);
}

static void
show_folder (WsExportDialog *self)
{
  g_autofree char *path = g_file_get_path (self->folder);

  adw_action_row_set_subtitle (self->folder_row, path ? path : "");
}

static void
format_toggled_cb (WsExportDialog *self)
{
  WsExportFormat format = ws_export_dialog_get_format (self);

  for (guint i = 0; i < G_N_ELEMENTS (formats); i++)
    if (formats[i].format == format)
      adw_action_row_set_subtitle (self->format_row, _(formats[i].about));
  gtk_widget_set_sensitive (GTK_WIDGET (self->size_group), is_figure (format));
  gtk_widget_set_sensitive (GTK_WIDGET (self->theme_row), is_figure (format));
  gtk_widget_set_sensitive (GTK_WIDGET (self->chart_row), format != WS_EXPORT_TRACE);
  show_figure (self);
  show_name (self);
}

static void
size_chosen_cb (WsExportDialog *self)
{
  WsFigurePreset preset = (WsFigurePreset) adw_combo_row_get_selected (self->size_row);
  double dpi = self->figure.dpi;

  if (self->syncing || preset == self->figure.preset)
    return;
  /* Custom starts from what is shown; a preset is its own numbers. */
  if (preset == WS_FIGURE_CUSTOM)
    self->figure.preset = WS_FIGURE_CUSTOM;
  else
    ws_figure_init_preset (&self->figure, preset);
  self->figure.dpi = dpi;
  show_figure (self);
}

static void
number_changed_cb (WsExportDialog *self)
{
  WsFigure now = self->figure;

  if (self->syncing)
    return;
  now.width_cm = gtk_spin_button_get_value (self->width_spin);
  now.height_cm = gtk_spin_button_get_value (self->height_spin);
  now.font_pt = gtk_spin_button_get_value (self->font_spin);
  now.dpi = gtk_spin_button_get_value (self->dpi_spin);
  if (now.width_cm != self->figure.width_cm || now.height_cm != self->figure.height_cm
      || now.font_pt != self->figure.font_pt)
    now.preset = WS_FIGURE_CUSTOM;
  self->figure = now;
  show_figure (self);
}

/* ---- writing ------------------------------------------------------------------------------ */

static WsThemeKind
chosen_theme (WsExportDialog *self)
{
  return (WsThemeKind) adw_combo_row_get_selected (self->theme_row);
}

gboolean
ws_export_dialog_write (WsExportDialog *self, GFile *file, GError **error)
{
  WsChartOptions options = self->options;

  g_return_val_if_fail (WS_IS_EXPORT_DIALOG (self), FALSE);
  options.kind = chosen_chart (self);
  return ws_chart_export_write (&self->figure, chosen_theme (self), self->sessions, &options,
                                ws_export_dialog_get_format (self), file, error);
}

GFile *
ws_export_dialog_dup_file (WsExportDialog *self)
{
  const char *name = gtk_editable_get_text (GTK_EDITABLE (self->name_row));

  g_return_val_if_fail (WS_IS_EXPORT_DIALOG (self), NULL);
  if (*name == '\0' || strchr (name, '/') != NULL)
    return NULL;
  return g_file_get_child (self->folder, name);
}

static void
remember (WsExportDialog *self)
{
  g_autofree char *folder = g_file_get_path (self->folder);

  ws_figure_save (&self->figure, self->settings);
  g_settings_set_string (self->settings, "export-format",
                         ws_export_format_to_string (ws_export_dialog_get_format (self)));
  g_settings_set_string (self->settings, "export-theme", ws_theme_kind_to_string (chosen_theme (self)));
  g_settings_set_string (self->settings, "export-folder", folder ? folder : "");
}

static void
fail (WsExportDialog *self, const char *message)
{
  GtkWidget *dialog = adw_message_dialog_new (GTK_WINDOW (self), _("The export failed"), message);

  adw_message_dialog_add_response (ADW_MESSAGE_DIALOG (dialog), "close", _("_Close"));
  gtk_window_present (GTK_WINDOW (dialog));
}

static void
confirmed_cb (GObject *source, GAsyncResult *result, gpointer data)
{
  g_autoptr (WsExportDialog) self = data;
  g_autoptr (GError) error = NULL;
  g_autoptr (GFile) file = ws_saved_file_confirm_finish (result, &error);
  GtkWindow *parent = gtk_window_get_transient_for (GTK_WINDOW (self));
  g_autofree char *uri = NULL;

  if (file == NULL)
    return;
  if (!ws_export_dialog_write (self, file, &error))
    {
      fail (self, error->message);
      return;
    }
  remember (self);
  uri = g_file_get_uri (file);
  if (parent != NULL)
    gtk_widget_activate_action (GTK_WIDGET (parent), "chart.exported", "s", uri);
  gtk_window_destroy (GTK_WINDOW (self));
}

static void
export_clicked_cb (WsExportDialog *self)
{
  g_autoptr (GFile) file = ws_export_dialog_dup_file (self);
  g_autoptr (GError) error = NULL;

  if (file == NULL)
    {
      fail (self, _("Give the file a name, without “/” in it."));
      return;
    }
  if (is_figure (ws_export_dialog_get_format (self)) && !ws_figure_check (&self->figure, &error))
    {
      fail (self, error->message);
      return;
    }
  ws_saved_file_confirm_async (GTK_WINDOW (self), file, NULL, confirmed_cb, g_object_ref (self));
}

/* ---- the folder --------------------------------------------------------------------------- */

static void
folder_chosen_cb (GtkNativeDialog *chooser, int response, WsExportDialog *self)
{
  g_autoptr (GFile) folder = NULL;

  if (response != GTK_RESPONSE_ACCEPT
      || (folder = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (chooser))) == NULL)
    return;
  g_set_object (&self->folder, folder);
  show_folder (self);
}

static void
choose_folder_cb (WsExportDialog *self)
{
  g_clear_object (&self->chooser);
  self->chooser = gtk_file_chooser_native_new (_("Export to Folder"), GTK_WINDOW (self),
                                               GTK_FILE_CHOOSER_ACTION_SELECT_FOLDER,
                                               _("_Select"), _("_Cancel"));
  gtk_file_chooser_set_current_folder (GTK_FILE_CHOOSER (self->chooser), self->folder, NULL);
  g_signal_connect (self->chooser, "response", G_CALLBACK (folder_chosen_cb), self);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (self->chooser));
}

/* ---- boilerplate -------------------------------------------------------------------------- */

static void
ws_export_dialog_dispose (GObject *object)
{
  WsExportDialog *self = WS_EXPORT_DIALOG (object);

  g_clear_object (&self->settings);
  g_clear_object (&self->chooser);
  g_clear_object (&self->folder);
  g_clear_pointer (&self->sessions, g_ptr_array_unref);
  g_clear_pointer (&self->default_name, g_free);
  gtk_widget_dispose_template (GTK_WIDGET (self), WS_TYPE_EXPORT_DIALOG);
  G_OBJECT_CLASS (ws_export_dialog_parent_class)->dispose (object);
}

static void
ws_export_dialog_class_init (WsExportDialogClass *klass)
{
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  G_OBJECT_CLASS (klass)->dispose = ws_export_dialog_dispose;
  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/org/warpscope/Warpscope/ui/ws-export-dialog.ui");
  gtk_widget_class_bind_template_child (widget_class, WsExportDialog, chart_row);
  gtk_widget_class_bind_template_child (widget_class, WsExportDialog, theme_row);
  gtk_widget_class_bind_template_child (widget_class, WsExportDialog, size_row);
  gtk_widget_class_bind_template_child (widget_class, WsExportDialog, format_row);
  gtk_widget_class_bind_template_child (widget_class, WsExportDialog, width_row);
  gtk_widget_class_bind_template_child (widget_class, WsExportDialog, height_row);
  gtk_widget_class_bind_template_child (widget_class, WsExportDialog, font_row);
  gtk_widget_class_bind_template_child (widget_class, WsExportDialog, dpi_row);
  gtk_widget_class_bind_template_child (widget_class, WsExportDialog, folder_row);
  gtk_widget_class_bind_template_child (widget_class, WsExportDialog, size_group);
  gtk_widget_class_bind_template_child (widget_class, WsExportDialog, name_row);
  gtk_widget_class_bind_template_child (widget_class, WsExportDialog, format_box);
  gtk_widget_class_bind_template_child (widget_class, WsExportDialog, export_button);
  gtk_widget_class_bind_template_callback (widget_class, export_clicked_cb);
  gtk_widget_class_bind_template_callback (widget_class, choose_folder_cb);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Escape, 0, "window.close", NULL);
}

/* A number with its unit beside it, as the row's suffix. */
static GtkSpinButton *
unit_spin (AdwActionRow *row, double lo, double hi, double step, guint digits, const char *unit,
           const char *accessible)
{
  GtkWidget *spin = gtk_spin_button_new_with_range (lo, hi, step);
  GtkWidget *label = gtk_label_new (unit);

  gtk_spin_button_set_digits (GTK_SPIN_BUTTON (spin), digits);
  gtk_widget_set_valign (spin, GTK_ALIGN_CENTER);
  gtk_widget_add_css_class (label, "dim-label");
  gtk_label_set_width_chars (GTK_LABEL (label), 3);
  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_accessible_update_property (GTK_ACCESSIBLE (spin), GTK_ACCESSIBLE_PROPERTY_LABEL, accessible,
                                  -1);
  adw_action_row_add_suffix (row, spin);
  adw_action_row_add_suffix (row, label);
  return GTK_SPIN_BUTTON (spin);
}

static void
fill_combo (AdwComboRow *row, const char *const *names, guint n)
{
  g_autoptr (GtkStringList) list = gtk_string_list_new (NULL);

  for (guint i = 0; i < n; i++)
    gtk_string_list_append (list, names[i]);
  adw_combo_row_set_model (row, G_LIST_MODEL (list));
}

static void
ws_export_dialog_init (WsExportDialog *self)
{
  GtkToggleButton *first = NULL;
  const char *sizes[WS_N_FIGURE_PRESETS];

  gtk_widget_init_template (GTK_WIDGET (self));
  for (guint i = 0; i < G_N_ELEMENTS (formats); i++)
    {
      const char *label = i == G_N_ELEMENTS (formats) - 1 ? _(formats[i].label) : formats[i].label;
      GtkWidget *button = gtk_toggle_button_new_with_label (label);

      if (first != NULL)
        gtk_toggle_button_set_group (GTK_TOGGLE_BUTTON (button), first);
      else
        first = GTK_TOGGLE_BUTTON (button);
      gtk_widget_set_tooltip_text (button, _(formats[i].about));
      g_signal_connect_swapped (button, "toggled", G_CALLBACK (format_toggled_cb), self);
      gtk_box_append (GTK_BOX (self->format_box), button);
      self->format_buttons[i] = GTK_TOGGLE_BUTTON (button);
    }
  for (guint i = 0; i < WS_N_FIGURE_PRESETS; i++)
    sizes[i] = ws_figure_preset_title ((WsFigurePreset) i);
  fill_combo (self->size_row, sizes, WS_N_FIGURE_PRESETS);
  /* Translators: units after numbers: centimetres, points (of type), dots per inch. */
  self->width_spin = unit_spin (self->width_row, WS_FIGURE_MIN_CM, WS_FIGURE_MAX_CM, 0.5, 1,
                                _("cm"), _("Width in centimetres"));
  self->height_spin = unit_spin (self->height_row, WS_FIGURE_MIN_CM, WS_FIGURE_MAX_CM, 0.5, 1,
                                 _("cm"), _("Height in centimetres"));
  self->font_spin = unit_spin (self->font_row, WS_FIGURE_MIN_PT, WS_FIGURE_MAX_PT, 0.5, 1,
                               _("pt"), _("Text size in points"));
  self->dpi_spin = unit_spin (self->dpi_row, WS_FIGURE_MIN_DPI, WS_FIGURE_MAX_DPI, 50, 0,
                              _("dpi"), _("Resolution in dots per inch"));
  g_signal_connect_swapped (self->size_row, "notify::selected", G_CALLBACK (size_chosen_cb), self);
  g_signal_connect_swapped (self->width_spin, "value-changed", G_CALLBACK (number_changed_cb), self);
  g_signal_connect_swapped (self->height_spin, "value-changed", G_CALLBACK (number_changed_cb), self);
  g_signal_connect_swapped (self->font_spin, "value-changed", G_CALLBACK (number_changed_cb), self);
  g_signal_connect_swapped (self->dpi_spin, "value-changed", G_CALLBACK (number_changed_cb), self);
  g_signal_connect_swapped (self->chart_row, "notify::selected", G_CALLBACK (show_name), self);
  gtk_window_set_default_widget (GTK_WINDOW (self), self->export_button);
}

GtkWidget *
ws_export_dialog_new (GtkWindow *parent, GSettings *settings, GPtrArray *sessions,
                      const WsChartOptions *options)
{
  WsExportDialog *self = g_object_new (WS_TYPE_EXPORT_DIALOG, "transient-for", parent, NULL);
  g_autofree char *format_name = g_settings_get_string (settings, "export-format");
  g_autofree char *theme_name = g_settings_get_string (settings, "export-theme");
  WsExportFormat format = WS_EXPORT_PNG;
  WsThemeKind theme = WS_THEME_LIGHT;
  const char *charts[WS_N_CHARTS], *themes[G_N_ELEMENTS (theme_names) - 1];

  self->settings = g_object_ref (settings);
  self->sessions = g_ptr_array_ref (sessions);
  self->options = *options;
  self->folder = ws_figure_default_folder (settings);
  ws_figure_load (&self->figure, settings);
  for (int i = 0; i < WS_N_CHARTS; i++)
    charts[i] = ws_chart_kind_title ((WsChartKind) i);
  fill_combo (self->chart_row, charts, WS_N_CHARTS);
  adw_combo_row_set_selected (self->chart_row, options->kind);
  for (guint i = 0; i < G_N_ELEMENTS (themes); i++)
    themes[i] = _(theme_names[i]);
  fill_combo (self->theme_row, themes, G_N_ELEMENTS (themes));
  ws_theme_kind_from_string (theme_name, &theme);
  adw_combo_row_set_selected (self->theme_row, theme);
  ws_export_format_from_string (format_name, &format);
  ws_export_dialog_set_format (self, format);
  format_toggled_cb (self);
  show_folder (self);
  gtk_widget_grab_focus (GTK_WIDGET (self->export_button));
  return GTK_WIDGET (self);
}
