/* ws-figure.c: figures in physical units. A chart is drawn in points (1/72 inch) at the
 * figure's size, with its theme scaled so that the body text is the size chosen: a PDF page
 * and an SVG are then that size, and a PNG has the size times its resolution in pixels.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "ws-figure.h"

#include <glib/gi18n.h>
#include <math.h>

#define CM_PER_INCH 2.54
#define POINTS_PER_INCH 72.0
/* The charts size their text in points at 96 dpi: one user unit is a pixel (ws-chart-text.c). */
#define CHART_TEXT_DPI 96.0

static const struct
{
  const char *id;
  const char *title;
  double width_cm, height_cm, font_pt;
} presets[WS_N_FIGURE_PRESETS] = {
  [WS_FIGURE_COLUMN] = { "column", N_("One column"), 8.5, 8.0, 8 },
  [WS_FIGURE_PAGE] = { "page", N_("Page width"), 17.0, 10.0, 9 },
  /* PowerPoint's and Impress's 16:9 slide: 13.33 × 7.5 inches. */
  [WS_FIGURE_SLIDE] = { "slide", N_("Slide, 16:9"), 33.867, 19.05, 18 },
  [WS_FIGURE_CUSTOM] = { "custom", N_("Custom"), 12.0, 8.0, 10 },
};

void
ws_figure_init_preset (WsFigure *figure, WsFigurePreset preset)
{
  g_return_if_fail (figure != NULL);
  g_return_if_fail ((guint) preset < WS_N_FIGURE_PRESETS);
  *figure = (WsFigure) { preset, presets[preset].width_cm, presets[preset].height_cm,
                         presets[preset].font_pt, 300 };
}

const char *
ws_figure_preset_to_string (WsFigurePreset preset)
{
  g_return_val_if_fail ((guint) preset < WS_N_FIGURE_PRESETS, NULL);
  return presets[preset].id;
}

gboolean
ws_figure_preset_from_string (const char *name, WsFigurePreset *preset)
{
  for (guint i = 0; name != NULL && i < WS_N_FIGURE_PRESETS; i++)
    if (g_str_equal (name, presets[i].id))
      {
        *preset = (WsFigurePreset) i;
        return TRUE;
      }
  return FALSE;
}

const char *
ws_figure_preset_title (WsFigurePreset preset)
{
  g_return_val_if_fail ((guint) preset < WS_N_FIGURE_PRESETS, NULL);
  return _(presets[preset].title);
}

/* ---- settings ----------------------------------------------------------------------------- */

void
ws_figure_load (WsFigure *figure, GSettings *settings)
{
  g_autofree char *name = g_settings_get_string (settings, "export-size");
  WsFigurePreset preset = WS_FIGURE_PAGE;

  ws_figure_preset_from_string (name, &preset);
  ws_figure_init_preset (figure, preset);
  /* A preset is its numbers; custom ones are the person's. */
  if (preset == WS_FIGURE_CUSTOM)
    {
      figure->width_cm = g_settings_get_double (settings, "export-width-cm");
      figure->height_cm = g_settings_get_double (settings, "export-height-cm");
      figure->font_pt = g_settings_get_double (settings, "export-font-pt");
    }
  figure->dpi = g_settings_get_int (settings, "export-dpi");
}

void
ws_figure_save (const WsFigure *figure, GSettings *settings)
{
  g_settings_set_string (settings, "export-size", ws_figure_preset_to_string (figure->preset));
  if (figure->preset == WS_FIGURE_CUSTOM)
    {
      g_settings_set_double (settings, "export-width-cm", figure->width_cm);
      g_settings_set_double (settings, "export-height-cm", figure->height_cm);
      g_settings_set_double (settings, "export-font-pt", figure->font_pt);
    }
  g_settings_set_int (settings, "export-dpi", (int) round (figure->dpi));
}

gboolean
ws_figure_check (const WsFigure *figure, GError **error)
{
  if (!(figure->width_cm >= WS_FIGURE_MIN_CM && figure->width_cm <= WS_FIGURE_MAX_CM
        && figure->height_cm >= WS_FIGURE_MIN_CM && figure->height_cm <= WS_FIGURE_MAX_CM))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                   _("A figure of %.1f × %.1f cm cannot be drawn: width and height go from "
                     "%.0f to %.0f cm."),
                   figure->width_cm, figure->height_cm, WS_FIGURE_MIN_CM, WS_FIGURE_MAX_CM);
      return FALSE;
    }
  if (!(figure->font_pt >= WS_FIGURE_MIN_PT && figure->font_pt <= WS_FIGURE_MAX_PT))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                   _("Text of %.1f pt cannot be read or does not fit: choose from %.0f to "
                     "%.0f pt."),
                   figure->font_pt, WS_FIGURE_MIN_PT, WS_FIGURE_MAX_PT);
      return FALSE;
    }
  if (!(figure->dpi >= WS_FIGURE_MIN_DPI && figure->dpi <= WS_FIGURE_MAX_DPI))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                   _("A resolution of %.0f dpi is out of range: choose from %.0f to %.0f dpi."),
                   figure->dpi, WS_FIGURE_MIN_DPI, WS_FIGURE_MAX_DPI);
      return FALSE;
    }
  return TRUE;
}

/* ---- drawing ------------------------------------------------------------------------------ */

void
ws_figure_apply (const WsFigure *figure, WsThemeKind theme, WsChartOptions *options,
                 WsTheme **owned)
{
  const WsTheme *base = ws_theme_get (theme);

  g_return_if_fail (figure != NULL && options != NULL && owned != NULL);
  options->width = figure->width_cm / CM_PER_INCH * POINTS_PER_INCH;
  options->height = figure->height_cm / CM_PER_INCH * POINTS_PER_INCH;
  /* The base theme's body text is font_size points at 96 dpi, that many 1/96 inch units on
   * the surface; in points it must be font_pt of them. */
  *owned = ws_theme_scaled (base, figure->font_pt / (base->font_size * CHART_TEXT_DPI
                                                     / POINTS_PER_INCH));
  options->theme = *owned;
}

void
ws_figure_get_pixels (const WsFigure *figure, int *width, int *height)
{
  *width = (int) ceil (figure->width_cm / CM_PER_INCH * figure->dpi - 1e-6);
  *height = (int) ceil (figure->height_cm / CM_PER_INCH * figure->dpi - 1e-6);
}

GBytes *
ws_figure_render (const WsFigure *figure, GPtrArray *sessions, const WsChartOptions *options,
                  WsThemeKind theme, WsExportFormat format, GError **error)
{
  g_autofree WsTheme *owned = NULL;
  WsChartOptions sized = *options;

  if (!ws_figure_check (figure, error))
    return NULL;
  ws_figure_apply (figure, theme, &sized, &owned);
  return ws_export_chart_to_bytes_for_print (sessions, &sized, format, figure->dpi, error);
}

/* ---- names -------------------------------------------------------------------------------- */

char *
ws_figure_default_name (WsSession *session, WsChartKind chart, WsExportFormat format)
{
  GFile *file = session ? ws_session_get_file (session) : NULL;
  g_autofree char *base = file && ws_session_get_source (session) != WS_SESSION_SOURCE_LIVE
                            ? g_file_get_basename (file)
                            : g_strdup ("warpscope");
  char *dot = strrchr (base, '.');

  if (dot != NULL && dot != base)
    *dot = '\0';
  return g_strdup_printf ("%s-%s%s", base,
                          format == WS_EXPORT_TRACE ? "trace" : ws_chart_kind_to_string (chart),
                          ws_export_format_extension (format));
}

GFile *
ws_figure_default_folder (GSettings *settings)
{
  g_autofree char *last = settings ? g_settings_get_string (settings, "export-folder") : NULL;
  const char *pictures = g_get_user_special_dir (G_USER_DIRECTORY_PICTURES);

  if (last != NULL && *last && g_file_test (last, G_FILE_TEST_IS_DIR))
    return g_file_new_for_path (last);
  if (pictures != NULL && g_file_test (pictures, G_FILE_TEST_IS_DIR))
    return g_file_new_for_path (pictures);
  return g_file_new_for_path (g_get_home_dir ());
}

GFile *
ws_figure_unused_file (GFile *file)
{
  g_autofree char *name = g_file_get_basename (file);
  g_autoptr (GFile) folder = g_file_get_parent (file);
  const char *dot = strrchr (name, '.');
  g_autofree char *stem = g_strndup (name, dot && dot != name ? (gsize) (dot - name) : strlen (name));
  const char *extension = dot && dot != name ? dot : "";

  if (!g_file_query_exists (file, NULL))
    return g_object_ref (file);
  for (guint i = 2; i < 10000; i++)
    {
      g_autofree char *other = g_strdup_printf ("%s-%u%s", stem, i, extension);
      g_autoptr (GFile) candidate = g_file_get_child (folder, other);

      if (!g_file_query_exists (candidate, NULL))
        return g_steal_pointer (&candidate);
    }
  return g_object_ref (file);
}
