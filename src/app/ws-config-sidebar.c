/* ws-config-sidebar.c: the configuration sidebar. Its fields are bound to the plan's
 * properties, so what is typed is the plan and what the plan says (its reason, its summary)
 * is shown; the plan checks, the sidebar only shows.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "ws-config-sidebar.h"

#include <adwaita.h>
#include <glib/gi18n.h>

#include "ws-devices-group.h"
#include "ws-input.h"
#include "ws-param-group.h"

struct _WsConfigSidebar
{
  WsView parent_instance;

  GtkWidget *box;
  GtkWidget *kernel_group;
  WsParamGroup *param_group;
  AdwComboRow *kernel_row;
  GtkLabel *kernel_description;
  AdwEntryRow *size_row;
  GtkMenuButton *size_presets;
  AdwComboRow *block_row;
  AdwEntryRow *custom_block_row;
  AdwComboRow *transfer_row;
  GtkSpinButton *reps_spin;
  AdwComboRow *counters_row;
  GtkSwitch *cpu_one_switch;
  GtkSwitch *cpu_all_switch;
  GtkLabel *run_summary;
  GtkLabel *run_problem;
  AdwEntryRow *sweep_from_row;
  AdwEntryRow *sweep_to_row;
  GtkSpinButton *sweep_factor_spin;
  AdwEntryRow *sweep_blocks_row;
  GtkLabel *sweep_summary;
  GtkLabel *sweep_problem;
  WsDevicesGroup *devices_group;

  WsPlan *plan;
  GPtrArray *bindings; /* GBinding, to the plan */
  GtkStringList *block_choices;
  int preset_dims;     /* the block dimensions the presets are for; 0: none yet */
  gboolean syncing;    /* the widgets follow the plan: not a person's choice */
};

G_DEFINE_FINAL_TYPE (WsConfigSidebar, ws_config_sidebar, WS_TYPE_VIEW)

enum
{
  PROP_0,
  PROP_PLAN,
  PROP_ENVIRONMENT,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static const char *blocks_1d[] = { "32", "64", "128", "256", "512", "1024", NULL };
static const char *blocks_2d[] = { "8×8", "16×16", "32×32", "32×8", "64×4", NULL };
static const char *sizes_1d[] = { "1 K", "100 K", "1 M", "10 M", "100 M", NULL };
static const char *sizes_3d[] = { "256", "512", "1024", "2048", "4096", "512×256×1024", NULL };

/* ---- the block --------------------------------------------------------------------------- */

static gboolean
custom_selected (WsConfigSidebar *self)
{
  return adw_combo_row_get_selected (self->block_row) + 1
         >= g_list_model_get_n_items (G_LIST_MODEL (self->block_choices));
}

/* The block as the fields show it: the preset chosen, or the one typed ("Custom…" is last). */
static const char *
block_text (WsConfigSidebar *self)
{
  if (custom_selected (self))
    return gtk_editable_get_text (GTK_EDITABLE (self->custom_block_row));
  return gtk_string_list_get_string (self->block_choices,
                                     adw_combo_row_get_selected (self->block_row));
}

/* The plan's block: its preset when it is one, else typed under "Custom…". */
static void
show_block (WsConfigSidebar *self, const char *text)
{
  guint n = g_list_model_get_n_items (G_LIST_MODEL (self->block_choices));
  guint dims[3], cdims[3];
  int rank;
  g_autofree char *why = NULL;

  self->syncing = TRUE;
  if (text != NULL && ws_input_parse_block (text, dims, &rank, &why))
    for (guint i = 0; i + 1 < n; i++)
      {
        g_autofree char *cwhy = NULL;

        if (ws_input_parse_block (gtk_string_list_get_string (self->block_choices, i), cdims,
                                  &rank, &cwhy)
            && memcmp (dims, cdims, sizeof dims) == 0)
          {
            adw_combo_row_set_selected (self->block_row, i);
            self->syncing = FALSE;
            return;
          }
      }
  adw_combo_row_set_selected (self->block_row, n - 1);
  gtk_editable_set_text (GTK_EDITABLE (self->custom_block_row), text ? text : "");
  self->syncing = FALSE;
}

static void
plan_block_cb (WsConfigSidebar *self)
{
  const char *text = ws_plan_get_block (self->plan);

  if (g_strcmp0 (block_text (self), text) != 0)
    show_block (self, text);
  gtk_widget_set_visible (GTK_WIDGET (self->custom_block_row), custom_selected (self));
}

static void
block_chosen_cb (WsConfigSidebar *self)
{
  gtk_widget_set_visible (GTK_WIDGET (self->custom_block_row), custom_selected (self));
  if (!self->syncing && self->plan != NULL)
    ws_plan_set_block (self->plan, block_text (self));
}

void
ws_config_sidebar_set_block_text (WsConfigSidebar *self, const char *text)
{
  g_return_if_fail (WS_IS_CONFIG_SIDEBAR (self));
  show_block (self, text);
  block_chosen_cb (self);
}

/* ---- presets ------------------------------------------------------------------------------ */

static void
preset_clicked_cb (GtkButton *button, WsConfigSidebar *self)
{
  gtk_editable_set_text (GTK_EDITABLE (self->size_row), gtk_button_get_label (button));
  gtk_menu_button_popdown (self->size_presets);
}

/* Sizes and blocks to pick from, for the kind of kernel chosen. */
static void
fill_presets (WsConfigSidebar *self)
{
  int dims = ws_plan_get_block_dims (self->plan);
  const char *const *sizes = ws_plan_get_size_rank (self->plan) == 3 ? sizes_3d : sizes_1d;
  GtkWidget *popover = gtk_popover_new ();
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 2);
  guint n = g_list_model_get_n_items (G_LIST_MODEL (self->block_choices));

  for (guint i = 0; sizes[i] != NULL; i++)
    {
      GtkWidget *button = gtk_button_new_with_label (sizes[i]);

      gtk_widget_add_css_class (button, "flat");
      g_signal_connect (button, "clicked", G_CALLBACK (preset_clicked_cb), self);
      gtk_box_append (GTK_BOX (box), button);
    }
  gtk_popover_set_child (GTK_POPOVER (popover), box);
  gtk_menu_button_set_popover (self->size_presets, popover);
  if (dims == self->preset_dims)
    return;
  self->preset_dims = dims;
  self->syncing = TRUE;
  gtk_string_list_splice (self->block_choices, 0, n, dims == 2 ? blocks_2d : blocks_1d);
  gtk_string_list_append (self->block_choices, _("Custom…"));
  self->syncing = FALSE;
  show_block (self, ws_plan_get_block (self->plan));
}

/* ---- the kernel -------------------------------------------------------------------------- */

static void
plan_kernel_cb (WsConfigSidebar *self)
{
  const char *kernel = ws_plan_get_kernel (self->plan);

  self->syncing = TRUE;
  for (guint i = 0; i < ws_plan_get_n_kernels (self->plan); i++)
    if (g_strcmp0 (ws_plan_get_kernel_name (self->plan, i), kernel) == 0)
      adw_combo_row_set_selected (self->kernel_row, i);
  self->syncing = FALSE;
  gtk_label_set_text (self->kernel_description, ws_plan_get_kernel_description (self->plan));
  fill_presets (self);
  plan_block_cb (self);
}

static void
plan_catalog_cb (WsConfigSidebar *self)
{
  g_autoptr (GtkStringList) titles = gtk_string_list_new (NULL);

  for (guint i = 0; i < ws_plan_get_n_kernels (self->plan); i++)
    gtk_string_list_append (titles, ws_plan_get_kernel_title (self->plan, i));
  self->syncing = TRUE;
  adw_combo_row_set_model (self->kernel_row, G_LIST_MODEL (titles));
  self->syncing = FALSE;
  plan_kernel_cb (self);
}

static void
kernel_chosen_cb (WsConfigSidebar *self)
{
  guint i = adw_combo_row_get_selected (self->kernel_row);

  if (!self->syncing && self->plan != NULL && i < ws_plan_get_n_kernels (self->plan))
    ws_plan_set_kernel (self->plan, ws_plan_get_kernel_name (self->plan, i));
}

/* An own kernel replaces the catalog's, and has no CPU baseline. */
static void
plan_source_cb (WsConfigSidebar *self)
{
  gboolean own = ws_plan_is_own (self->plan);

  gtk_widget_set_visible (self->kernel_group, !own);
  gtk_widget_set_visible (gtk_widget_get_ancestor (GTK_WIDGET (self->cpu_one_switch),
                                                   ADW_TYPE_ACTION_ROW),
                          !own);
  gtk_widget_set_visible (gtk_widget_get_ancestor (GTK_WIDGET (self->cpu_all_switch),
                                                   ADW_TYPE_ACTION_ROW),
                          !own);
  if (!own)
    plan_kernel_cb (self);
  else
    {
      fill_presets (self);
      plan_block_cb (self);
    }
}

/* ---- what the plan says ------------------------------------------------------------------ */

static void
show_problem (GtkLabel *label, const char *why)
{
  gtk_label_set_text (label, why ? why : "");
  gtk_widget_set_visible (GTK_WIDGET (label), why != NULL && *why != '\0');
}

static void
show_summaries (WsConfigSidebar *self)
{
  WsWorkspace *workspace = ws_view_get_workspace (WS_VIEW (self));
  WsSession *history = workspace ? ws_workspace_get_session (workspace) : NULL;
  g_autofree char *run = self->plan ? ws_plan_dup_run_summary (self->plan) : NULL;
  g_autofree char *sweep = self->plan ? ws_plan_dup_sweep_summary (self->plan, history) : NULL;

  gtk_label_set_text (self->run_summary, run ? run : "");
  gtk_label_set_text (self->sweep_summary, sweep ? sweep : "");
  show_problem (self->run_problem, self->plan ? ws_plan_get_problem (self->plan, WS_PLAN_RUN) : NULL);
  show_problem (self->sweep_problem,
                self->plan ? ws_plan_get_problem (self->plan, WS_PLAN_SWEEP) : NULL);
}

const char *
ws_config_sidebar_get_run_problem (WsConfigSidebar *self)
{
  g_return_val_if_fail (WS_IS_CONFIG_SIDEBAR (self), NULL);
  return gtk_widget_get_visible (GTK_WIDGET (self->run_problem))
           ? gtk_label_get_text (self->run_problem)
           : NULL;
}

/* ---- the plan and the workspace ---------------------------------------------------------- */

static gboolean
transfer_to_index (GBinding *binding, const GValue *from, GValue *to, gpointer data)
{
  g_value_set_uint (to, ws_transfer_from_string (g_value_get_string (from)) == WS_TRANSFER_PINNED);
  return TRUE;
}

static gboolean
index_to_transfer (GBinding *binding, const GValue *from, GValue *to, gpointer data)
{
  WsTransfer transfer = g_value_get_uint (from) == 1 ? WS_TRANSFER_PINNED : WS_TRANSFER_PAGEABLE;

  g_value_set_string (to, ws_transfer_to_string (transfer));
  return TRUE;
}

/* The counters' row, in the order of its items: docs/counters.md's groups. */
static const char *const counters_groups[] = { "none", "basic", "memory", "stalls", "all" };

static gboolean
counters_to_index (GBinding *binding, const GValue *from, GValue *to, gpointer data)
{
  const char *groups = g_value_get_string (from);

  g_value_set_uint (to, 0);
  for (guint i = 0; groups != NULL && i < G_N_ELEMENTS (counters_groups); i++)
    if (g_str_equal (groups, counters_groups[i]))
      g_value_set_uint (to, i);
  return TRUE;
}

static gboolean
index_to_counters (GBinding *binding, const GValue *from, GValue *to, gpointer data)
{
  guint i = g_value_get_uint (from);

  g_value_set_string (to, counters_groups[i < G_N_ELEMENTS (counters_groups) ? i : 0]);
  return TRUE;
}

static void
bind (WsConfigSidebar *self, const char *property, gpointer widget, const char *widget_property)
{
  g_ptr_array_add (self->bindings,
                   g_object_ref (g_object_bind_property (self->plan, property, widget,
                                                         widget_property,
                                                         G_BINDING_BIDIRECTIONAL
                                                           | G_BINDING_SYNC_CREATE)));
}

void
ws_config_sidebar_set_plan (WsConfigSidebar *self, WsPlan *plan)
{
  g_return_if_fail (WS_IS_CONFIG_SIDEBAR (self));
  if (self->plan == plan)
    return;
  if (self->plan != NULL)
    g_signal_handlers_disconnect_by_data (self->plan, self);
  for (guint i = 0; i < self->bindings->len; i++)
    g_binding_unbind (g_ptr_array_index (self->bindings, i));
  g_ptr_array_set_size (self->bindings, 0);
  g_set_object (&self->plan, plan);
  ws_param_group_set_plan (self->param_group, plan);
  ws_devices_group_set_plan (self->devices_group, plan);
  if (plan != NULL)
    {
      bind (self, "size", self->size_row, "text");
      bind (self, "reps", gtk_spin_button_get_adjustment (self->reps_spin), "value");
      bind (self, "cpu-one", self->cpu_one_switch, "active");
      bind (self, "cpu-all", self->cpu_all_switch, "active");
      bind (self, "sweep-from", self->sweep_from_row, "text");
      bind (self, "sweep-to", self->sweep_to_row, "text");
      bind (self, "sweep-factor", gtk_spin_button_get_adjustment (self->sweep_factor_spin), "value");
      bind (self, "sweep-blocks", self->sweep_blocks_row, "text");
      g_ptr_array_add (self->bindings,
                       g_object_ref (g_object_bind_property_full (
                         plan, "transfer", self->transfer_row, "selected",
                         G_BINDING_BIDIRECTIONAL | G_BINDING_SYNC_CREATE, transfer_to_index,
                         index_to_transfer, NULL, NULL)));
      g_ptr_array_add (self->bindings,
                       g_object_ref (g_object_bind_property_full (
                         plan, "counters", self->counters_row, "selected",
                         G_BINDING_BIDIRECTIONAL | G_BINDING_SYNC_CREATE, counters_to_index,
                         index_to_counters, NULL, NULL)));
      g_signal_connect_swapped (plan, "notify::catalog", G_CALLBACK (plan_catalog_cb), self);
      g_signal_connect_swapped (plan, "notify::kernel", G_CALLBACK (plan_kernel_cb), self);
      g_signal_connect_swapped (plan, "notify::block", G_CALLBACK (plan_block_cb), self);
      g_signal_connect_swapped (plan, "notify::source", G_CALLBACK (plan_source_cb), self);
      /* Anything typed can change the summaries and the reasons. */
      g_signal_connect_swapped (plan, "notify", G_CALLBACK (show_summaries), self);
      plan_catalog_cb (self);
      plan_source_cb (self);
    }
  show_summaries (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_PLAN]);
}

/* Without a runner, the kernels a recording names are the catalog: their titles and sources
 * still help a class. */
static void
session_cb (WsConfigSidebar *self)
{
  WsWorkspace *workspace = ws_view_get_workspace (WS_VIEW (self));
  WsSession *session = ws_workspace_get_session (workspace);

  if (session != NULL && self->plan != NULL && ws_plan_get_runner (self->plan) == NULL
      && g_list_model_get_n_items (ws_session_get_kernels (session)) > 0)
    ws_plan_set_catalog (self->plan, ws_session_get_kernels (session));
  show_summaries (self);
}

static void
ws_config_sidebar_workspace_changed (WsView *view, WsWorkspace *workspace)
{
  WsConfigSidebar *self = WS_CONFIG_SIDEBAR (view);

  if (workspace != NULL)
    {
      g_signal_connect_swapped (workspace, "notify::session", G_CALLBACK (session_cb), self);
      /* The runs so far estimate how long a sweep takes. */
      g_signal_connect_swapped (workspace, "run-updated", G_CALLBACK (show_summaries), self);
    }
  show_summaries (self);
}

/* ---- boilerplate -------------------------------------------------------------------------- */

static void
ws_config_sidebar_set_property (GObject *object, guint prop, const GValue *value,
                                GParamSpec *pspec)
{
  WsConfigSidebar *self = WS_CONFIG_SIDEBAR (object);

  switch (prop)
    {
    case PROP_PLAN: ws_config_sidebar_set_plan (self, g_value_get_object (value)); break;
    /* The target's GPUs, for the devices a sweep is split across. */
    case PROP_ENVIRONMENT:
      ws_devices_group_set_environment (self->devices_group, g_value_get_object (value));
      break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop, pspec);
    }
}

static void
ws_config_sidebar_get_property (GObject *object, guint prop, GValue *value, GParamSpec *pspec)
{
  WsConfigSidebar *self = WS_CONFIG_SIDEBAR (object);

  switch (prop)
    {
    case PROP_PLAN: g_value_set_object (value, self->plan); break;
    case PROP_ENVIRONMENT:
      g_object_get_property (G_OBJECT (self->devices_group), "environment", value);
      break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop, pspec);
    }
}

static void
ws_config_sidebar_dispose (GObject *object)
{
  WsConfigSidebar *self = WS_CONFIG_SIDEBAR (object);

  ws_config_sidebar_set_plan (self, NULL);
  g_clear_pointer (&self->bindings, g_ptr_array_unref);
  g_clear_object (&self->block_choices);
  gtk_widget_dispose_template (GTK_WIDGET (self), WS_TYPE_CONFIG_SIDEBAR);
  G_OBJECT_CLASS (ws_config_sidebar_parent_class)->dispose (object);
}

static void
ws_config_sidebar_class_init (WsConfigSidebarClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  GParamFlags rw = G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS;

  object_class->dispose = ws_config_sidebar_dispose;
  object_class->set_property = ws_config_sidebar_set_property;
  object_class->get_property = ws_config_sidebar_get_property;
  WS_VIEW_CLASS (klass)->workspace_changed = ws_config_sidebar_workspace_changed;
  properties[PROP_PLAN] = g_param_spec_object ("plan", NULL, NULL, WS_TYPE_PLAN, rw);
  properties[PROP_ENVIRONMENT] = g_param_spec_object ("environment", NULL, NULL,
                                                      WS_TYPE_ENVIRONMENT, rw);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  g_type_ensure (WS_TYPE_PARAM_GROUP);
  g_type_ensure (WS_TYPE_DEVICES_GROUP);
  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/org/warpscope/Warpscope/ui/ws-config-sidebar.ui");
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_bind_template_child (widget_class, WsConfigSidebar, box);
  gtk_widget_class_bind_template_child (widget_class, WsConfigSidebar, kernel_group);
  gtk_widget_class_bind_template_child (widget_class, WsConfigSidebar, param_group);
  gtk_widget_class_bind_template_child (widget_class, WsConfigSidebar, kernel_row);
  gtk_widget_class_bind_template_child (widget_class, WsConfigSidebar, kernel_description);
  gtk_widget_class_bind_template_child (widget_class, WsConfigSidebar, size_row);
  gtk_widget_class_bind_template_child (widget_class, WsConfigSidebar, size_presets);
  gtk_widget_class_bind_template_child (widget_class, WsConfigSidebar, block_row);
  gtk_widget_class_bind_template_child (widget_class, WsConfigSidebar, custom_block_row);
  gtk_widget_class_bind_template_child (widget_class, WsConfigSidebar, transfer_row);
  gtk_widget_class_bind_template_child (widget_class, WsConfigSidebar, reps_spin);
  gtk_widget_class_bind_template_child (widget_class, WsConfigSidebar, counters_row);
  gtk_widget_class_bind_template_child (widget_class, WsConfigSidebar, cpu_one_switch);
  gtk_widget_class_bind_template_child (widget_class, WsConfigSidebar, cpu_all_switch);
  gtk_widget_class_bind_template_child (widget_class, WsConfigSidebar, run_summary);
  gtk_widget_class_bind_template_child (widget_class, WsConfigSidebar, run_problem);
  gtk_widget_class_bind_template_child (widget_class, WsConfigSidebar, sweep_from_row);
  gtk_widget_class_bind_template_child (widget_class, WsConfigSidebar, sweep_to_row);
  gtk_widget_class_bind_template_child (widget_class, WsConfigSidebar, sweep_factor_spin);
  gtk_widget_class_bind_template_child (widget_class, WsConfigSidebar, sweep_blocks_row);
  gtk_widget_class_bind_template_child (widget_class, WsConfigSidebar, sweep_summary);
  gtk_widget_class_bind_template_child (widget_class, WsConfigSidebar, sweep_problem);
  gtk_widget_class_bind_template_child (widget_class, WsConfigSidebar, devices_group);
}

static void
ws_config_sidebar_init (WsConfigSidebar *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  self->bindings = g_ptr_array_new_with_free_func (g_object_unref);
  self->block_choices = gtk_string_list_new (blocks_1d);
  gtk_string_list_append (self->block_choices, _("Custom…"));
  adw_combo_row_set_model (self->block_row, G_LIST_MODEL (self->block_choices));
  adw_combo_row_set_selected (self->block_row, 3);

  g_signal_connect_swapped (self->kernel_row, "notify::selected", G_CALLBACK (kernel_chosen_cb), self);
  g_signal_connect_swapped (self->block_row, "notify::selected", G_CALLBACK (block_chosen_cb), self);
  g_signal_connect_swapped (self->custom_block_row, "changed", G_CALLBACK (block_chosen_cb), self);
}

GtkWidget *
ws_config_sidebar_new (void)
{
  return g_object_new (WS_TYPE_CONFIG_SIDEBAR, NULL);
}
