/* ws-chart-export.c: one way to write a chart, whoever asks: the dialog, the header's menu, a
 * chart's own menu. A file that is there already is replaced only when the person says so.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "ws-chart-export.h"

#include <glib/gi18n.h>

#include "ws-file.h"
#include "ws-saved-file.h"

static gboolean
write_bytes_cb (GOutputStream *stream, gpointer data, GError **error)
{
  GBytes *bytes = data;

  return g_output_stream_write_all (stream, g_bytes_get_data (bytes, NULL),
                                    g_bytes_get_size (bytes), NULL, NULL, error);
}

gboolean
ws_chart_export_write (const WsFigure *figure, WsThemeKind theme, GPtrArray *sessions,
                       const WsChartOptions *options, WsExportFormat format, GFile *file,
                       GError **error)
{
  g_autoptr (GBytes) bytes = NULL;
  WsChartOptions chart = *options;

  g_return_val_if_fail (figure != NULL && options != NULL && G_IS_FILE (file), FALSE);
  /* What the figure shows is the chart, never the screen's outlines. */
  chart.highlight = NULL;
  switch (format)
    {
    case WS_EXPORT_TRACE:
      if (sessions == NULL || sessions->len == 0)
        {
          g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                               _("There is no session to export as a trace."));
          return FALSE;
        }
      return ws_export_trace (g_ptr_array_index (sessions, 0), file, error);
    case WS_EXPORT_CSV:
      return ws_export_csv (sessions, &chart, file, error);
    case WS_EXPORT_PNG:
    case WS_EXPORT_SVG:
    case WS_EXPORT_PDF:
    default:
      bytes = ws_figure_render (figure, sessions, &chart, theme, format, error);
      return bytes != NULL && ws_file_write_atomic (file, write_bytes_cb, bytes, error);
    }
}

/* ---- with the export settings ------------------------------------------------------------- */

typedef struct
{
  GSettings *settings;
  GPtrArray *sessions;
  WsChartOptions options;
  WsExportFormat format;
} Job;

static void
job_free (Job *job)
{
  g_clear_object (&job->settings);
  g_clear_pointer (&job->sessions, g_ptr_array_unref);
  g_free (job);
}

static void
confirmed_cb (GObject *source, GAsyncResult *result, gpointer data)
{
  g_autoptr (GTask) task = data;
  Job *job = g_task_get_task_data (task);
  GError *error = NULL;
  g_autoptr (GFile) file = ws_saved_file_confirm_finish (result, &error);
  g_autofree char *theme_name = g_settings_get_string (job->settings, "export-theme");
  WsThemeKind theme = WS_THEME_LIGHT;
  WsFigure figure;

  if (file == NULL)
    {
      if (error != NULL)
        g_task_return_error (task, error);
      else
        g_task_return_pointer (task, NULL, NULL);
      return;
    }
  ws_theme_kind_from_string (theme_name, &theme);
  ws_figure_load (&figure, job->settings);
  if (!ws_chart_export_write (&figure, theme, job->sessions, &job->options, job->format, file,
                              &error))
    g_task_return_error (task, error);
  else
    g_task_return_pointer (task, g_steal_pointer (&file), g_object_unref);
}

void
ws_chart_export_async (GtkWindow *parent, GSettings *settings, GPtrArray *sessions,
                       const WsChartOptions *options, WsExportFormat format,
                       GCancellable *cancellable, GAsyncReadyCallback callback, gpointer data)
{
  GTask *task = g_task_new (parent, cancellable, callback, data);
  Job *job = g_new0 (Job, 1);
  WsSession *session = sessions && sessions->len ? g_ptr_array_index (sessions, 0) : NULL;
  g_autoptr (GFile) folder = ws_figure_default_folder (settings);
  g_autofree char *name = ws_figure_default_name (session, options->kind, format);
  g_autoptr (GFile) file = g_file_get_child (folder, name);

  job->settings = g_object_ref (settings);
  job->sessions = g_ptr_array_ref (sessions);
  job->options = *options;
  job->options.highlight = NULL;
  job->format = format;
  g_task_set_task_data (task, job, (GDestroyNotify) job_free);
  ws_saved_file_confirm_async (parent, file, cancellable, confirmed_cb, task);
}

GFile *
ws_chart_export_finish (GAsyncResult *result, GError **error)
{
  return g_task_propagate_pointer (G_TASK (result), error);
}

/* ---- the clipboard ------------------------------------------------------------------------ */

gboolean
ws_chart_export_copy (GtkWidget *widget, GPtrArray *sessions, const WsChartOptions *options,
                      GError **error)
{
  WsChartOptions chart = *options;
  g_autoptr (GBytes) png = NULL;
  g_autoptr (GdkTexture) texture = NULL;

  chart.highlight = NULL;
  png = ws_export_chart_to_bytes (sessions, &chart, WS_EXPORT_PNG, 2, error);
  if (png == NULL || (texture = gdk_texture_new_from_bytes (png, error)) == NULL)
    return FALSE;
  gdk_clipboard_set_texture (gtk_widget_get_clipboard (widget), texture);
  return TRUE;
}
