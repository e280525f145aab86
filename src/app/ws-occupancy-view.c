/* ws-occupancy-view.c: the interactive occupancy calculator.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "ws-occupancy-view.h"

#include <glib/gi18n.h>

#include "ws-chart-view.h"
#include "ws-occupancy.h"
#include "ws-trace.h"
#include "ws-units.h"

struct _WsOccupancyView
{
  WsView parent_instance;
  GtkWidget *box;
  GtkDropDown *arch_dropdown;
  GtkLabel *block_label, *regs_label, *smem_label, *result_label;
  GtkScale *block_scale, *regs_scale, *smem_scale;
  GtkButton *from_run_button;
  WsChartView *chart;
  WsSession *filled; /* weak: the traced session whose longest kernel was put in */
};

G_DEFINE_FINAL_TYPE (WsOccupancyView, ws_occupancy_view, WS_TYPE_VIEW)

static const WsArchLimits *
selected_arch (WsOccupancyView *self)
{
  guint n;
  const WsArchLimits *const *all = ws_arch_limits_all (&n);
  guint i = gtk_drop_down_get_selected (self->arch_dropdown);

  return i < n ? all[i] : ws_arch_limits_lookup ("sm_90");
}

static void
update (WsOccupancyView *self)
{
  const WsArchLimits *arch = selected_arch (self);
  WsOccupancyInput in = {
    .threads_per_block = (int) gtk_range_get_value (GTK_RANGE (self->block_scale)),
    .registers_per_thread = (int) gtk_range_get_value (GTK_RANGE (self->regs_scale)),
    .smem_per_block = (int) gtk_range_get_value (GTK_RANGE (self->smem_scale)) * 1024,
  };
  WsOccupancy out;
  g_autoptr (GError) error = NULL;
  g_autofree char *block = g_strdup_printf (_("Threads per block: %d"), in.threads_per_block);
  g_autofree char *regs = g_strdup_printf (_("Registers per thread: %d"), in.registers_per_thread);
  g_autofree char *smem = g_strdup_printf (_("Shared memory per block: %d KiB"),
                                           in.smem_per_block / 1024);

  gtk_label_set_text (self->block_label, block);
  gtk_label_set_text (self->regs_label, regs);
  gtk_label_set_text (self->smem_label, smem);
  gtk_adjustment_set_upper (gtk_range_get_adjustment (GTK_RANGE (self->smem_scale)),
                            arch->smem_per_block_optin / 1024);
  if (ws_occupancy_compute (arch, &in, &out, &error))
    {
      g_autofree char *occupancy = ws_units_percent (out.occupancy);
      g_autofree char *text = g_strdup_printf (
        /* TRANSLATORS: the first is a percentage, "50%" */
        _("<b>%s occupancy</b> on %s (%s): %d blocks of %d warps = %d of %d warps per SM, "
          "limited by %s."),
        occupancy, arch->arch, arch->family, out.active_blocks, out.warps_per_block,
        out.active_warps, out.max_warps, ws_limiter_describe (out.limiter));

      gtk_label_set_markup (self->result_label, text);
      gtk_widget_remove_css_class (GTK_WIDGET (self->result_label), "error");
    }
  else
    {
      gtk_label_set_text (self->result_label, error->message);
      gtk_widget_add_css_class (GTK_WIDGET (self->result_label), "error");
    }
  ws_chart_view_set_occupancy (self->chart, arch->arch, in.threads_per_block,
                               in.registers_per_thread, in.smem_per_block);
}

GtkWidget *
ws_occupancy_view_get_chart (WsOccupancyView *self)
{
  g_return_val_if_fail (WS_IS_OCCUPANCY_VIEW (self), NULL);
  return GTK_WIDGET (self->chart);
}

void
ws_occupancy_view_set_configuration (WsOccupancyView *self, int block, int registers,
                                     int smem_bytes)
{
  gtk_range_set_value (GTK_RANGE (self->block_scale), block);
  gtk_range_set_value (GTK_RANGE (self->regs_scale), MAX (registers, 1));
  gtk_range_set_value (GTK_RANGE (self->smem_scale), (smem_bytes + 1023) / 1024);
  update (self);
}

static WsRun *
selected_run (WsOccupancyView *self)
{
  WsWorkspace *workspace = ws_view_get_workspace (WS_VIEW (self));

  return workspace ? ws_workspace_get_selected_run (workspace) : NULL;
}

static WsTrace *
trace_of (WsOccupancyView *self)
{
  WsWorkspace *workspace = ws_view_get_workspace (WS_VIEW (self));

  return workspace && ws_workspace_has_trace (workspace)
           ? ws_session_get_trace (ws_workspace_get_session (workspace))
           : NULL;
}

static void
select_arch (WsOccupancyView *self, const char *sm)
{
  guint n;
  const WsArchLimits *const *all = ws_arch_limits_all (&n);

  for (guint i = 0; sm != NULL && i < n; i++)
    if (ws_arch_limits_lookup (sm) == all[i])
      gtk_drop_down_set_selected (self->arch_dropdown, i);
}

/* The calculator set to a traced kernel's launch, on the GPU it ran on. */
static gboolean
from_trace (WsOccupancyView *self)
{
  WsTrace *trace = trace_of (self);
  g_autoptr (GPtrArray) kernels = trace ? ws_trace_collect_kernels (trace, WS_TRACE_ALL_PROGRAMS)
                                        : NULL;
  const WsTraceKernel *k = NULL;

  for (guint i = 0; kernels != NULL && i < kernels->len; i++)
    if (k == NULL || ((WsTraceKernel *) g_ptr_array_index (kernels, i))->total_ns > k->total_ns)
      k = g_ptr_array_index (kernels, i);
  if (k == NULL)
    return FALSE;
  if (k->device_info != NULL)
    select_arch (self, k->device_info->sm);
  ws_occupancy_view_set_configuration (self, (int) ws_trace_kernel_threads (k), (int) k->registers,
                                       (int) (k->static_smem + k->dynamic_smem));
  return TRUE;
}

static void
from_run_cb (WsOccupancyView *self)
{
  WsRun *run = selected_run (self);
  const WsLaunch *l = run ? ws_run_get_launch (run) : NULL;

  if (l != NULL)
    ws_occupancy_view_set_configuration (self, l->threads_per_block, l->registers,
                                         l->static_smem + l->dynamic_smem);
  else
    from_trace (self);
}

/* A traced program has no runs to pick: the button takes its longest kernel, and the calculator
 * starts there once, so its registers are the kernel's, not the calculator's defaults. */
static void
run_changed_cb (WsOccupancyView *self)
{
  WsRun *run = selected_run (self);
  WsTrace *trace = trace_of (self);
  WsWorkspace *workspace = ws_view_get_workspace (WS_VIEW (self));
  WsSession *session = workspace ? ws_workspace_get_session (workspace) : NULL;

  gtk_button_set_label (self->from_run_button,
                        trace ? _("Use the longest kernel") : _("Use the selected run"));
  gtk_widget_set_tooltip_text (
    GTK_WIDGET (self->from_run_button),
    trace ? _("Take the block size, registers and shared memory of the traced program's kernel "
              "that took the most time")
          : _("Take the block size, registers and shared memory of the run selected in the table"));
  if (trace != NULL && session != self->filled && from_trace (self))
    g_set_weak_pointer (&self->filled, session);
  gtk_widget_set_sensitive (GTK_WIDGET (self->from_run_button),
                            (run != NULL && ws_run_get_launch (run) != NULL)
                              || (trace != NULL && self->filled == session));
}

/* The session's GPU architecture. */
static void
session_changed_cb (WsOccupancyView *self)
{
  WsWorkspace *workspace = ws_view_get_workspace (WS_VIEW (self));
  WsSession *session = ws_workspace_get_session (workspace);
  WsDevice *device = session ? ws_session_get_device (session) : NULL;

  if (device != NULL)
    select_arch (self, ws_device_get_info (device)->sm);
  update (self);
  run_changed_cb (self);
}

static void
ws_occupancy_view_workspace_changed (WsView *view, WsWorkspace *workspace)
{
  WsOccupancyView *self = WS_OCCUPANCY_VIEW (view);

  /* The chart draws in the workspace's presentation mode. */
  ws_view_set_workspace (WS_VIEW (self->chart), workspace);
  if (workspace != NULL)
    {
      g_signal_connect_swapped (workspace, "notify::session", G_CALLBACK (session_changed_cb), self);
      g_signal_connect_swapped (workspace, "notify::run", G_CALLBACK (run_changed_cb), self);
      g_signal_connect_swapped (workspace, "run-updated", G_CALLBACK (run_changed_cb), self);
      /* A traced program's kernels are in once it is analysed, or as a live one reports them. */
      g_signal_connect_swapped (workspace, "analysis-ready", G_CALLBACK (run_changed_cb), self);
      g_signal_connect_swapped (workspace, "session-updated", G_CALLBACK (run_changed_cb), self);
      session_changed_cb (self);
    }
  run_changed_cb (self);
}

static void
ws_occupancy_view_dispose (GObject *object)
{
  WsOccupancyView *self = WS_OCCUPANCY_VIEW (object);

  g_clear_weak_pointer (&self->filled);
  gtk_widget_dispose_template (GTK_WIDGET (self), WS_TYPE_OCCUPANCY_VIEW);
  G_OBJECT_CLASS (ws_occupancy_view_parent_class)->dispose (object);
}

static void
ws_occupancy_view_class_init (WsOccupancyViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = ws_occupancy_view_dispose;
  WS_VIEW_CLASS (klass)->workspace_changed = ws_occupancy_view_workspace_changed;
  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/org/warpscope/Warpscope/ui/ws-occupancy-view.ui");
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_bind_template_child (widget_class, WsOccupancyView, box);
  gtk_widget_class_bind_template_child (widget_class, WsOccupancyView, arch_dropdown);
  gtk_widget_class_bind_template_child (widget_class, WsOccupancyView, block_label);
  gtk_widget_class_bind_template_child (widget_class, WsOccupancyView, regs_label);
  gtk_widget_class_bind_template_child (widget_class, WsOccupancyView, smem_label);
  gtk_widget_class_bind_template_child (widget_class, WsOccupancyView, result_label);
  gtk_widget_class_bind_template_child (widget_class, WsOccupancyView, block_scale);
  gtk_widget_class_bind_template_child (widget_class, WsOccupancyView, regs_scale);
  gtk_widget_class_bind_template_child (widget_class, WsOccupancyView, smem_scale);
  gtk_widget_class_bind_template_child (widget_class, WsOccupancyView, from_run_button);
}

static void
ws_occupancy_view_init (WsOccupancyView *self)
{
  g_autoptr (GtkStringList) names = gtk_string_list_new (NULL);
  guint n;
  const WsArchLimits *const *all = ws_arch_limits_all (&n);

  gtk_widget_init_template (GTK_WIDGET (self));
  for (guint i = 0; i < n; i++)
    {
      g_autofree char *name = g_strdup_printf ("%s · %s", all[i]->arch, all[i]->family);

      gtk_string_list_append (names, name);
    }
  gtk_drop_down_set_model (self->arch_dropdown, G_LIST_MODEL (names));
  self->chart = WS_CHART_VIEW (ws_chart_view_new (WS_CHART_OCCUPANCY));
  gtk_box_append (GTK_BOX (self->box), GTK_WIDGET (self->chart));
  for (guint i = 0; i < n; i++)
    if (g_str_equal (all[i]->arch, "sm_90"))
      gtk_drop_down_set_selected (self->arch_dropdown, i);
  g_signal_connect_swapped (self->arch_dropdown, "notify::selected", G_CALLBACK (update), self);
  g_signal_connect_swapped (self->block_scale, "value-changed", G_CALLBACK (update), self);
  g_signal_connect_swapped (self->regs_scale, "value-changed", G_CALLBACK (update), self);
  g_signal_connect_swapped (self->smem_scale, "value-changed", G_CALLBACK (update), self);
  g_signal_connect_swapped (self->from_run_button, "clicked", G_CALLBACK (from_run_cb), self);
  gtk_widget_set_sensitive (GTK_WIDGET (self->from_run_button), FALSE);
  update (self);
}

GtkWidget *
ws_occupancy_view_new (void)
{
  return g_object_new (WS_TYPE_OCCUPANCY_VIEW, NULL);
}
