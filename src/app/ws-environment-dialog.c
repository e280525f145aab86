/* ws-environment-dialog.c: the environment dialog, built from the runner's records.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "ws-environment-dialog.h"

#include <glib/gi18n.h>

#include "ws-units.h"

struct _WsEnvironmentDialog
{
  AdwPreferencesWindow parent_instance;
};

G_DEFINE_FINAL_TYPE (WsEnvironmentDialog, ws_environment_dialog, ADW_TYPE_PREFERENCES_WINDOW)

static void
ws_environment_dialog_class_init (WsEnvironmentDialogClass *klass)
{
}

static void
ws_environment_dialog_init (WsEnvironmentDialog *self)
{
  gtk_window_set_title (GTK_WINDOW (self), _("Environment"));
  gtk_window_set_default_size (GTK_WINDOW (self), 640, 720);
  adw_preferences_window_set_search_enabled (ADW_PREFERENCES_WINDOW (self), FALSE);
}

static void
add_row (AdwPreferencesGroup *group, const char *title, const char *value)
{
  GtkWidget *row = adw_action_row_new ();
  GtkWidget *label = gtk_label_new (value ? value : "–");

  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), title);
  gtk_label_set_selectable (GTK_LABEL (label), TRUE);
  gtk_label_set_wrap (GTK_LABEL (label), TRUE);
  gtk_label_set_xalign (GTK_LABEL (label), 1);
  gtk_widget_add_css_class (label, "dim-label");
  adw_action_row_add_suffix (ADW_ACTION_ROW (row), label);
  adw_preferences_group_add (group, row);
}

static void
add_versions (AdwPreferencesPage *page, WsSession *session, const char *title,
              const char *runner_path)
{
  const WsHello *hello = session ? ws_session_get_hello (session) : NULL;
  AdwPreferencesGroup *group = ADW_PREFERENCES_GROUP (adw_preferences_group_new ());
  g_autofree char *cupti = NULL;

  adw_preferences_group_set_title (group, title);
  if (hello == NULL)
    {
      add_row (group, _("Runner"), runner_path ? runner_path
                                               : _("not built: this Warpscope has no CUDA runner"));
      adw_preferences_page_add (page, group);
      return;
    }
  if (hello->cupti_version > 0)
    cupti = g_strdup_printf ("%d", hello->cupti_version);
  add_row (group, _("Host"), hello->host);
  add_row (group, _("Recorded"), hello->time);
  add_row (group, _("NVIDIA driver supports CUDA"),
           hello->driver_found ? hello->driver_cuda : _("no driver found"));
  add_row (group, _("CUDA runtime"), hello->runtime_cuda);
  add_row (group, _("CUPTI (tracing)"), cupti ? cupti : _("not loaded"));
  add_row (group, _("Runner"), hello->runner);
  add_row (group, _("Machine code for"), hello->gpu_archs);
  adw_preferences_page_add (page, group);
}

static void
add_devices (AdwPreferencesPage *page, WsSession *session)
{
  GListModel *devices = ws_session_get_devices (session);

  for (guint i = 0; i < g_list_model_get_n_items (devices); i++)
    {
      g_autoptr (WsDevice) device = g_list_model_get_item (devices, i);
      const WsDeviceInfo *d = ws_device_get_info (device);
      AdwPreferencesGroup *group = ADW_PREFERENCES_GROUP (adw_preferences_group_new ());
      g_autofree char *title = g_strdup_printf (_("GPU %d: %s"), d->index, d->name);
      g_autofree char *cc = g_strdup_printf ("%s (%s)", d->compute_capability, d->sm);
      g_autofree char *sms = g_strdup_printf (_("%d × %d lanes, up to %d threads each"), d->sm_count,
                                              d->fp32_lanes_per_sm, d->max_threads_per_sm);
      g_autofree char *memory = ws_units_bytes ((double) d->memory_bytes);
      g_autofree char *free_memory = ws_units_bytes ((double) d->memory_free_bytes);
      g_autofree char *l2 = ws_units_bytes_binary ((double) d->l2_bytes);
      g_autofree char *measured = ws_units_gbs (d->bandwidth_measured_gbs);
      g_autofree char *theoretical = ws_units_gbs (d->bandwidth_theoretical_gbs);
      g_autofree char *h2d_pinned = ws_units_gbs (d->h2d_pinned_gbs);
      g_autofree char *d2h_pinned = ws_units_gbs (d->d2h_pinned_gbs);
      g_autofree char *h2d_pageable = ws_units_gbs (d->h2d_pageable_gbs);
      g_autofree char *d2h_pageable = ws_units_gbs (d->d2h_pageable_gbs);
      /* Translators: the GPU's memory, what of it is free, and its L2 cache: "150 GB (149 GB
       * free), L2 60 MiB". */
      g_autofree char *mem = g_strdup_printf (_("%s (%s free), L2 %s"), memory, free_memory, l2);
      /* Translators: two memory bandwidths, "4189 GB/s". */
      g_autofree char *bw = g_strdup_printf (_("%s measured, %s theoretical"), measured,
                                             theoretical);
      /* Translators: copy rates host to device and back, "55.2 GB/s". */
      g_autofree char *pinned = g_strdup_printf (_("%s in, %s out"), h2d_pinned, d2h_pinned);
      g_autofree char *pageable = g_strdup_printf (_("%s in, %s out"), h2d_pageable,
                                                   d2h_pageable);
      g_autofree char *peak = ws_units_gflops (d->fp32_peak_gflops);

      adw_preferences_group_set_title (group, title);
      add_row (group, _("Compute capability"), cc);
      add_row (group, _("Multiprocessors"), sms);
      add_row (group, _("Memory"), mem);
      add_row (group, _("Device memory bandwidth"), bw);
      add_row (group, _("Copies, pinned host memory"), pinned);
      add_row (group, _("Copies, pageable host memory"), pageable);
      add_row (group, _("FP32 peak"), peak);
      adw_preferences_page_add (page, group);
    }
}

static void
add_problems (AdwPreferencesPage *page, WsSession *session)
{
  GPtrArray *errors = ws_session_get_errors (session);
  AdwPreferencesGroup *group;

  if (errors->len == 0)
    return;
  group = ADW_PREFERENCES_GROUP (adw_preferences_group_new ());
  adw_preferences_group_set_title (group, _("What is wrong, and how to fix it"));
  for (guint i = 0; i < errors->len; i++)
    {
      WsRunnerError *e = g_ptr_array_index (errors, i);
      GtkWidget *row = adw_action_row_new ();
      GtkWidget *icon = gtk_image_new_from_icon_name (e->severity == WS_ERROR_SEVERITY_ERROR
                                                        ? "dialog-error-symbolic"
                                                        : "dialog-warning-symbolic");
      g_autofree char *title = g_markup_escape_text (e->code_name, -1);
      g_autofree char *message = g_markup_escape_text (e->message, -1);

      adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), title);
      adw_action_row_set_subtitle (ADW_ACTION_ROW (row), message);
      adw_action_row_set_subtitle_lines (ADW_ACTION_ROW (row), 0);
      adw_action_row_add_prefix (ADW_ACTION_ROW (row), icon);
      adw_preferences_group_add (group, row);
    }
  adw_preferences_page_add (page, group);
}

GtkWidget *
ws_environment_dialog_new (WsSession *environment, WsSession *session, const char *runner_path)
{
  WsEnvironmentDialog *self = g_object_new (WS_TYPE_ENVIRONMENT_DIALOG, NULL);
  AdwPreferencesPage *here = ADW_PREFERENCES_PAGE (adw_preferences_page_new ());

  adw_preferences_page_set_title (here, _("This computer"));
  adw_preferences_page_set_icon_name (here, "computer-symbolic");
  add_versions (here, environment, _("Versions"), runner_path);
  if (environment != NULL)
    {
      add_problems (here, environment);
      add_devices (here, environment);
    }
  adw_preferences_window_add (ADW_PREFERENCES_WINDOW (self), here);

  if (session != NULL && session != environment && ws_session_get_hello (session) != NULL
      && ws_session_get_source (session) != WS_SESSION_SOURCE_LIVE)
    {
      AdwPreferencesPage *recorded = ADW_PREFERENCES_PAGE (adw_preferences_page_new ());

      adw_preferences_page_set_title (recorded, _("The recording"));
      adw_preferences_page_set_icon_name (recorded, "document-open-symbolic");
      add_versions (recorded, session, _("Where it was recorded"), NULL);
      add_problems (recorded, session);
      add_devices (recorded, session);
      adw_preferences_window_add (ADW_PREFERENCES_WINDOW (self), recorded);
    }
  return GTK_WIDGET (self);
}
