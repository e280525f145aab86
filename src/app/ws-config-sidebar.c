/* ws-config-sidebar.c: the configuration sidebar. Input is read forgivingly, checked against
 * the device's limits at once and against the runner's own rules (warpscope-runner --check,
 * which touches no GPU), so the reason a configuration cannot run is shown as it is typed.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "ws-config-sidebar.h"

#include <adwaita.h>
#include <glib/gi18n.h>
#include <inttypes.h>
#include <math.h>

#include "ws-format.h"
#include "ws-i18n.h"
#include "ws-input.h"

struct _WsConfigSidebar
{
  GtkWidget parent_instance;

  GtkWidget *box;
  AdwComboRow *kernel_row;
  GtkLabel *kernel_description;
  AdwEntryRow *size_row;
  GtkMenuButton *size_presets;
  AdwComboRow *block_row;
  AdwEntryRow *custom_block_row;
  AdwComboRow *transfer_row;
  GtkSpinButton *reps_spin;
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

  GSettings *settings;
  GPtrArray *kernels;      /* JsonObject */
  GtkStringList *block_choices;
  WsDevice *device;
  WsSession *history;
  char *runner;
  guint check_id;
  GCancellable *check_cancellable;
  gboolean run_valid, sweep_valid;
  gboolean loading;
};

G_DEFINE_FINAL_TYPE (WsConfigSidebar, ws_config_sidebar, GTK_TYPE_WIDGET)

enum
{
  PROP_0,
  PROP_RUN_VALID,
  PROP_SWEEP_VALID,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

enum
{
  CHANGED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

static const char *blocks_1d[] = { "32", "64", "128", "256", "512", "1024", NULL };
static const char *blocks_2d[] = { "8×8", "16×16", "32×32", "32×8", "64×4", NULL };
static const char *sizes_1d[] = { "1 K", "100 K", "1 M", "10 M", "100 M", NULL };
static const char *sizes_3d[] = { "256", "512", "1024", "2048", "4096", "512×256×1024", NULL };

/* ---- the selected kernel ------------------------------------------------------------------ */

JsonObject *
ws_config_sidebar_get_kernel_record (WsConfigSidebar *self)
{
  guint i;

  g_return_val_if_fail (WS_IS_CONFIG_SIDEBAR (self), NULL);
  i = adw_combo_row_get_selected (self->kernel_row);
  if (self->kernels == NULL || i >= self->kernels->len)
    return NULL;
  return g_ptr_array_index (self->kernels, i);
}

const char *
ws_config_sidebar_get_kernel (WsConfigSidebar *self)
{
  JsonObject *k = ws_config_sidebar_get_kernel_record (self);

  return k ? json_object_get_string_member_with_default (k, "name", NULL) : NULL;
}

static int
kernel_block_dims (WsConfigSidebar *self)
{
  JsonObject *k = ws_config_sidebar_get_kernel_record (self);

  return k ? (int) json_object_get_int_member_with_default (k, "block_dims", 1) : 1;
}

static int
kernel_shape_rank (WsConfigSidebar *self)
{
  JsonObject *k = ws_config_sidebar_get_kernel_record (self);
  JsonArray *params;

  if (k == NULL || !json_object_has_member (k, "shape_params"))
    return 1;
  params = json_object_get_array_member (k, "shape_params");
  return params && json_array_get_length (params) == 3 ? 3 : 1;
}

/* ---- reading the fields ------------------------------------------------------------------- */

static char *
block_text (WsConfigSidebar *self)
{
  guint i = adw_combo_row_get_selected (self->block_row);
  guint n = g_list_model_get_n_items (G_LIST_MODEL (self->block_choices));

  if (n == 0 || i + 1 >= n) /* the last choice is "Custom…" */
    return g_strdup (gtk_editable_get_text (GTK_EDITABLE (self->custom_block_row)));
  return g_strdup (gtk_string_list_get_string (self->block_choices, i));
}

static gboolean
read_size (WsConfigSidebar *self, const char *text, guint64 dims[3], char **runner_text,
           char **why)
{
  int rank;

  if (!ws_input_parse_size (text, dims, &rank, why))
    return FALSE;
  if (rank == 3 && kernel_shape_rank (self) == 1)
    {
      *why = g_strdup_printf (_("%s takes one size, the number of elements."),
                              ws_config_sidebar_get_kernel (self));
      return FALSE;
    }
  if (runner_text)
    *runner_text = rank == 3 ? g_strdup_printf ("%" G_GUINT64_FORMAT "x%" G_GUINT64_FORMAT
                                                "x%" G_GUINT64_FORMAT,
                                                dims[0], dims[1], dims[2])
                             : g_strdup_printf ("%" G_GUINT64_FORMAT, dims[0]);
  return TRUE;
}

static gboolean
read_block (WsConfigSidebar *self, const char *text, guint dims[3], char **runner_text,
            char **why)
{
  int rank;
  const WsDeviceInfo *d = self->device ? ws_device_get_info (self->device) : NULL;

  if (!ws_input_parse_block (text, dims, &rank, why))
    return FALSE;
  if (kernel_block_dims (self) == 1 && rank > 1 && (dims[1] > 1 || dims[2] > 1))
    {
      *why = g_strdup_printf (_("%s is a 1D kernel: give one number of threads, such as 256."),
                              ws_config_sidebar_get_kernel (self));
      return FALSE;
    }
  if (kernel_block_dims (self) == 2 && rank == 1 && dims[0] > 1)
    {
      *why = g_strdup_printf (_("%s is a 2D kernel: give the block as W×H, such as 16×16."),
                              ws_config_sidebar_get_kernel (self));
      return FALSE;
    }
  if (d != NULL)
    {
      guint threads = dims[0] * dims[1] * dims[2];

      for (int i = 0; i < 3; i++)
        if (d->max_block_dim[i] > 0 && dims[i] > (guint) d->max_block_dim[i])
          {
            *why = g_strdup_printf (_("The %s allows at most %d threads in dimension %c."),
                                    d->name, d->max_block_dim[i], "xyz"[i]);
            return FALSE;
          }
      if (d->max_threads_per_block > 0 && threads > (guint) d->max_threads_per_block)
        {
          *why = g_strdup_printf (_("The %s allows at most %d threads per block."), d->name,
                                  d->max_threads_per_block);
          return FALSE;
        }
    }
  if (runner_text)
    *runner_text = g_strdup_printf ("%ux%ux%u", dims[0], dims[1], dims[2]);
  return TRUE;
}

static char *
cpu_arg (WsConfigSidebar *self)
{
  gboolean one = gtk_switch_get_active (self->cpu_one_switch);
  gboolean all = gtk_switch_get_active (self->cpu_all_switch);

  return g_strdup (one && all ? "1,all" : one ? "1" : all ? "all" : "none");
}

/* The sweep's sizes as the runner takes them, and how many there are. */
static char *
sweep_sizes (WsConfigSidebar *self, guint *count, char **why)
{
  guint64 from[3], to[3];
  int factor = gtk_spin_button_get_value_as_int (self->sweep_factor_spin);

  if (!read_size (self, gtk_editable_get_text (GTK_EDITABLE (self->sweep_from_row)), from, NULL,
                  why)
      || !read_size (self, gtk_editable_get_text (GTK_EDITABLE (self->sweep_to_row)), to, NULL,
                     why))
    return NULL;
  if (to[0] < from[0])
    {
      *why = g_strdup (_("The sweep goes down: make “From size” the smaller one."));
      return NULL;
    }
  *count = 0;
  for (double v = (double) from[0]; v <= (double) to[0] * (1 + 1e-9); v *= factor)
    (*count)++;
  return g_strdup_printf ("%" G_GUINT64_FORMAT ":%" G_GUINT64_FORMAT ":x%d", from[0], to[0],
                          factor);
}

static char *
sweep_blocks (WsConfigSidebar *self, guint *count, char **why)
{
  g_auto (GStrv) items = g_strsplit (gtk_editable_get_text (GTK_EDITABLE (self->sweep_blocks_row)),
                                     ",", -1);
  GString *s = g_string_new (NULL);

  *count = 0;
  for (guint i = 0; items[i] != NULL; i++)
    {
      guint dims[3];
      g_autofree char *text = NULL;

      if (*g_strstrip (items[i]) == '\0')
        continue;
      if (!read_block (self, items[i], dims, &text, why))
        {
          g_string_free (s, TRUE);
          return NULL;
        }
      if (s->len)
        g_string_append_c (s, ',');
      g_string_append (s, text);
      (*count)++;
    }
  if (*count == 0)
    {
      *why = g_strdup (_("List at least one block for the sweep, such as 128,256."));
      g_string_free (s, TRUE);
      return NULL;
    }
  return g_string_free (s, FALSE);
}

GStrv
ws_config_sidebar_build_args (WsConfigSidebar *self, gboolean sweep)
{
  g_autoptr (GStrvBuilder) b = g_strv_builder_new ();
  g_autofree char *sizes = NULL, *blocks = NULL, *cpu = cpu_arg (self), *why = NULL;
  g_autofree char *reps = g_strdup_printf ("%d", gtk_spin_button_get_value_as_int (self->reps_spin));
  g_autofree char *btext = block_text (self);
  const char *kernel = ws_config_sidebar_get_kernel (self);
  guint64 dims[3];
  guint bdims[3], count;

  if (kernel == NULL)
    return NULL;
  if (sweep)
    {
      sizes = sweep_sizes (self, &count, &why);
      g_clear_pointer (&why, g_free);
      blocks = sweep_blocks (self, &count, &why);
    }
  else
    {
      if (read_size (self, gtk_editable_get_text (GTK_EDITABLE (self->size_row)), dims, &sizes,
                     &why))
        read_block (self, btext, bdims, &blocks, &why);
    }
  if (sizes == NULL || blocks == NULL)
    return NULL;
  g_strv_builder_add_many (b, "--kernel", kernel, "--sizes", sizes, "--blocks", blocks,
                           "--transfer",
                           adw_combo_row_get_selected (self->transfer_row) == 1 ? "pinned"
                                                                                : "pageable",
                           "--reps", reps, "--cpu", cpu, NULL);
  return g_strv_builder_end (b);
}

/* ---- checking ----------------------------------------------------------------------------- */

static void
show_problem (GtkLabel *label, const char *why)
{
  gtk_label_set_text (label, why ? why : "");
  gtk_widget_set_visible (GTK_WIDGET (label), why != NULL && *why != '\0');
}

static void
set_valid (WsConfigSidebar *self, gboolean run_valid, gboolean sweep_valid)
{
  if (self->run_valid != run_valid)
    {
      self->run_valid = run_valid;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_RUN_VALID]);
    }
  if (self->sweep_valid != sweep_valid)
    {
      self->sweep_valid = sweep_valid;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SWEEP_VALID]);
    }
}

/* The runner words its refusals for a command line ("--blocks: …"); show the sentence. */
static const char *
strip_option (const char *message)
{
  if (g_str_has_prefix (message, "--"))
    {
      const char *colon = strstr (message, ": ");

      if (colon != NULL && colon - message < 16)
        return colon + 2;
    }
  return message;
}

typedef struct
{
  WsConfigSidebar *self;
  gboolean sweep;
} CheckData;

static void
check_done_cb (GObject *source, GAsyncResult *result, gpointer user_data)
{
  CheckData *data = user_data;
  WsConfigSidebar *self = data->self;
  g_autofree char *out = NULL;
  g_autoptr (GError) error = NULL;
  g_auto (GStrv) lines = NULL;

  if (!g_subprocess_communicate_utf8_finish (G_SUBPROCESS (source), result, &out, NULL, &error))
    {
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        g_debug ("runner --check failed: %s", error->message);
      g_free (data);
      return;
    }
  lines = g_strsplit (out ? out : "", "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      g_autoptr (JsonParser) parser = json_parser_new ();
      JsonObject *o;

      if (lines[i][0] == '\0' || !json_parser_load_from_data (parser, lines[i], -1, NULL)
          || json_parser_get_root (parser) == NULL
          || !JSON_NODE_HOLDS_OBJECT (json_parser_get_root (parser)))
        continue;
      o = json_node_get_object (json_parser_get_root (parser));
      if (g_strcmp0 (json_object_get_string_member_with_default (o, "type", ""), "error") == 0)
        {
          const char *message = json_object_get_string_member_with_default (o, "message", "");

          show_problem (data->sweep ? self->sweep_problem : self->run_problem,
                        strip_option (message));
          set_valid (self, data->sweep ? self->run_valid : FALSE,
                     data->sweep ? FALSE : self->sweep_valid);
        }
    }
  g_free (data);
}

static void
runner_check (WsConfigSidebar *self, gboolean sweep)
{
  g_auto (GStrv) args = ws_config_sidebar_build_args (self, sweep);
  g_autoptr (GStrvBuilder) b = NULL;
  g_auto (GStrv) argv = NULL;
  g_autoptr (GSubprocess) process = NULL;
  CheckData *data;

  if (self->runner == NULL || args == NULL)
    return;
  b = g_strv_builder_new ();
  g_strv_builder_add (b, self->runner);
  g_strv_builder_add (b, "--check");
  g_strv_builder_addv (b, (const char **) args);
  argv = g_strv_builder_end (b);
  process = g_subprocess_newv ((const char *const *) argv,
                               G_SUBPROCESS_FLAGS_STDOUT_PIPE | G_SUBPROCESS_FLAGS_STDERR_SILENCE,
                               NULL);
  if (process == NULL)
    return;
  data = g_new0 (CheckData, 1);
  data->self = self;
  data->sweep = sweep;
  g_subprocess_communicate_utf8_async (process, NULL, self->check_cancellable, check_done_cb, data);
}

static char *
estimate_sweep (WsConfigSidebar *self, guint configs)
{
  GListModel *runs;
  double total_ns = 0;
  guint n = 0;

  if (self->history == NULL)
    return g_strdup (_("the time appears after the first run"));
  runs = ws_session_get_runs (self->history);
  for (guint i = 0; i < g_list_model_get_n_items (runs); i++)
    {
      g_autoptr (WsRun) run = g_list_model_get_item (runs, i);
      const WsTiming *t = ws_run_get_timing (run);
      const WsRunConfig *c = ws_run_get_config (run);

      if (t == NULL || g_strcmp0 (c->kernel, ws_config_sidebar_get_kernel (self)) != 0)
        continue;
      /* Warm-up and the traced, cross-check and end-to-end phases, plus the CPU baselines. */
      total_ns += (c->warmup + 2.0 * c->reps) * t->e2e.median + 2.0 * c->reps * t->kernel.median
                  + (t->cpu_one.stats.n + 1) * t->cpu_one.stats.median
                  + (t->cpu_all.stats.n + 1) * t->cpu_all.stats.median;
      n++;
    }
  if (n == 0)
    return g_strdup (_("the time appears after the first run of this kernel"));
  return g_strdup_printf (_("about %.0f s, judging by the runs so far"),
                          ceil (configs * (total_ns / n) / 1e9 + 0.5 * configs));
}

static gboolean
check_now (gpointer data)
{
  WsConfigSidebar *self = data;
  g_autofree char *why = NULL, *size_text = NULL, *btext = block_text (self);
  g_autofree char *runner_size = NULL, *runner_block = NULL;
  guint64 dims[3];
  guint bdims[3], n_sizes = 0, n_blocks = 0;
  gboolean run_ok, sweep_ok;

  self->check_id = 0;
  g_cancellable_cancel (self->check_cancellable);
  g_clear_object (&self->check_cancellable);
  self->check_cancellable = g_cancellable_new ();

  /* One run. */
  run_ok = read_size (self, gtk_editable_get_text (GTK_EDITABLE (self->size_row)), dims,
                      &runner_size, &why)
           && read_block (self, btext, bdims, &runner_block, &why);
  show_problem (self->run_problem, run_ok ? NULL : why);
  if (run_ok)
    {
      guint threads = bdims[0] * bdims[1] * bdims[2];
      g_autofree char *n = ws_format_grouped (dims[0]);
      g_autofree char *summary = NULL;

      if (kernel_shape_rank (self) == 1)
        {
          g_autofree char *grid = ws_format_grouped ((dims[0] + threads - 1) / threads);

          summary = g_strdup_printf (_("%s elements in a grid of %s blocks of %u threads."), n,
                                     grid, threads);
        }
      else
        summary = g_strdup_printf (_("C is %" PRIu64 "×%" PRIu64
                                     " (k = %" PRIu64 "): a grid of %" PRIu64
                                     "×%" PRIu64 " blocks of %u×%u threads."),
                                   dims[0], dims[1], dims[2], (dims[1] + bdims[0] - 1) / bdims[0],
                                   (dims[0] + bdims[1] - 1) / bdims[1], bdims[0], bdims[1]);
      gtk_label_set_text (self->run_summary, summary);
    }
  else
    gtk_label_set_text (self->run_summary, "");
  g_clear_pointer (&why, g_free);

  /* The sweep. */
  {
    g_autofree char *sizes = sweep_sizes (self, &n_sizes, &why);
    g_autofree char *blocks = sizes ? sweep_blocks (self, &n_blocks, &why) : NULL;

    sweep_ok = sizes != NULL && blocks != NULL;
    show_problem (self->sweep_problem, sweep_ok ? NULL : why);
    if (sweep_ok)
      {
        guint configs = n_sizes * n_blocks;
        g_autofree char *estimate = estimate_sweep (self, configs);
        g_autofree char *sizes_text = g_strdup_printf (ngettext ("%u size", "%u sizes", n_sizes),
                                                       n_sizes);
        g_autofree char *blocks_text = g_strdup_printf (ngettext ("%u block", "%u blocks", n_blocks),
                                                        n_blocks);
        g_autofree char *configs_text = g_strdup_printf (ngettext ("%u configuration",
                                                                   "%u configurations", configs),
                                                         configs);
        /* Translators: "5 sizes × 2 blocks = 10 configurations; about 12 s." */
        g_autofree char *text = g_strdup_printf (_("%s × %s = %s; %s."), sizes_text, blocks_text,
                                                 configs_text, estimate);

        gtk_label_set_text (self->sweep_summary, text);
      }
    else
      gtk_label_set_text (self->sweep_summary, "");
  }
  set_valid (self, run_ok && ws_config_sidebar_get_kernel (self) != NULL,
             sweep_ok && ws_config_sidebar_get_kernel (self) != NULL);
  /* The runner knows each kernel's own rules (e.g. tiles of 8, 16 or 32). */
  if (run_ok)
    runner_check (self, FALSE);
  if (sweep_ok)
    runner_check (self, TRUE);
  return G_SOURCE_REMOVE;
}

static void
save_settings (WsConfigSidebar *self)
{
  g_autofree char *btext = block_text (self);
  const char *kernel = ws_config_sidebar_get_kernel (self);

  if (self->settings == NULL || self->loading)
    return;
  if (kernel != NULL)
    g_settings_set_string (self->settings, "kernel", kernel);
  g_settings_set_string (self->settings, "size", gtk_editable_get_text (GTK_EDITABLE (self->size_row)));
  g_settings_set_string (self->settings, "block", btext);
  g_settings_set_string (self->settings, "transfer",
                         adw_combo_row_get_selected (self->transfer_row) == 1 ? "pinned"
                                                                              : "pageable");
  g_settings_set_int (self->settings, "reps", gtk_spin_button_get_value_as_int (self->reps_spin));
  g_settings_set_boolean (self->settings, "cpu-one", gtk_switch_get_active (self->cpu_one_switch));
  g_settings_set_boolean (self->settings, "cpu-all", gtk_switch_get_active (self->cpu_all_switch));
  g_settings_set_string (self->settings, "sweep-from",
                         gtk_editable_get_text (GTK_EDITABLE (self->sweep_from_row)));
  g_settings_set_string (self->settings, "sweep-to",
                         gtk_editable_get_text (GTK_EDITABLE (self->sweep_to_row)));
  g_settings_set_int (self->settings, "sweep-factor",
                      gtk_spin_button_get_value_as_int (self->sweep_factor_spin));
  g_settings_set_string (self->settings, "sweep-blocks",
                         gtk_editable_get_text (GTK_EDITABLE (self->sweep_blocks_row)));
}

static void
changed (WsConfigSidebar *self)
{
  gboolean custom = adw_combo_row_get_selected (self->block_row) + 1
                    >= g_list_model_get_n_items (G_LIST_MODEL (self->block_choices));

  gtk_widget_set_visible (GTK_WIDGET (self->custom_block_row), custom);
  save_settings (self);
  g_clear_handle_id (&self->check_id, g_source_remove);
  self->check_id = g_timeout_add (150, check_now, self);
  g_signal_emit (self, signals[CHANGED], 0);
}

/* ---- presets ------------------------------------------------------------------------------ */

static void
preset_clicked_cb (GtkButton *button, WsConfigSidebar *self)
{
  gtk_editable_set_text (GTK_EDITABLE (self->size_row), gtk_button_get_label (button));
  gtk_menu_button_popdown (self->size_presets);
}

static void
fill_presets (WsConfigSidebar *self)
{
  const char *const *sizes = kernel_shape_rank (self) == 3 ? sizes_3d : sizes_1d;
  const char *const *blocks = kernel_block_dims (self) == 2 ? blocks_2d : blocks_1d;
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

  gtk_string_list_splice (self->block_choices, 0, n, blocks);
  gtk_string_list_append (self->block_choices, _("Custom…"));
}

static void
select_block (WsConfigSidebar *self, const char *text)
{
  guint n = g_list_model_get_n_items (G_LIST_MODEL (self->block_choices));
  guint dims[3], cdims[3];
  int rank;
  g_autofree char *why = NULL;

  if (text != NULL && ws_input_parse_block (text, dims, &rank, &why))
    for (guint i = 0; i + 1 < n; i++)
      {
        g_autofree char *cwhy = NULL;

        if (ws_input_parse_block (gtk_string_list_get_string (self->block_choices, i), cdims,
                                  &rank, &cwhy)
            && memcmp (dims, cdims, sizeof dims) == 0)
          {
            adw_combo_row_set_selected (self->block_row, i);
            return;
          }
      }
  adw_combo_row_set_selected (self->block_row, n - 1);
  gtk_editable_set_text (GTK_EDITABLE (self->custom_block_row), text ? text : "");
}

static void
kernel_selected_cb (WsConfigSidebar *self)
{
  JsonObject *k = ws_config_sidebar_get_kernel_record (self);
  gboolean was_loading = self->loading;
  g_autofree char *why = NULL;
  guint64 dims[3];

  if (k == NULL)
    return;
  self->loading = TRUE;
  gtk_label_set_text (self->kernel_description,
                      ws_i18n_kernel_text (
                        json_object_get_string_member_with_default (k, "description", "")));
  fill_presets (self);
  /* Another kernel starts from its own default size; a restored one keeps the saved size
   * unless it cannot suit it. */
  if (!was_loading
      || !read_size (self, gtk_editable_get_text (GTK_EDITABLE (self->size_row)), dims, NULL, &why))
    {
      JsonArray *shape = json_object_get_array_member (k, "default_shape");

      if (shape != NULL && json_array_get_length (shape) > 0)
        {
          g_autofree char *text = g_strdup_printf ("%" G_GINT64_FORMAT,
                                                   json_array_get_int_element (shape, 0));
          gtk_editable_set_text (GTK_EDITABLE (self->size_row), text);
        }
    }
  {
    JsonArray *block = json_object_get_array_member (k, "default_block");
    g_autofree char *text = NULL;

    if (block != NULL && json_array_get_length (block) >= 2)
      text = kernel_block_dims (self) == 2
               ? g_strdup_printf ("%" G_GINT64_FORMAT "×%" G_GINT64_FORMAT,
                                  json_array_get_int_element (block, 0),
                                  json_array_get_int_element (block, 1))
               : g_strdup_printf ("%" G_GINT64_FORMAT, json_array_get_int_element (block, 0));
    if (!was_loading || self->settings == NULL)
      select_block (self, text);
    else
      {
        g_autofree char *saved = g_settings_get_string (self->settings, "block");
        guint bdims[3];
        g_autofree char *bwhy = NULL;

        select_block (self, read_block (self, saved, bdims, NULL, &bwhy) ? saved : text);
      }
  }
  if (!was_loading)
    {
      /* A fresh sweep for the new kind of kernel. */
      gboolean matrix = kernel_shape_rank (self) == 3;

      gtk_editable_set_text (GTK_EDITABLE (self->sweep_from_row), matrix ? "256" : "1000");
      gtk_editable_set_text (GTK_EDITABLE (self->sweep_to_row), matrix ? "4096" : "100000000");
      gtk_spin_button_set_value (self->sweep_factor_spin, matrix ? 2 : 10);
      gtk_editable_set_text (GTK_EDITABLE (self->sweep_blocks_row),
                             kernel_block_dims (self) == 2 ? "16x16" : "256");
    }
  self->loading = was_loading;
  changed (self);
}

/* ---- public -------------------------------------------------------------------------------- */

void
ws_config_sidebar_set_catalog (WsConfigSidebar *self, GPtrArray *kernels)
{
  g_autoptr (GtkStringList) titles = gtk_string_list_new (NULL);
  g_autofree char *wanted = self->settings ? g_settings_get_string (self->settings, "kernel") : NULL;
  guint select = 0;

  g_return_if_fail (WS_IS_CONFIG_SIDEBAR (self));
  g_clear_pointer (&self->kernels, g_ptr_array_unref);
  self->kernels = g_ptr_array_ref (kernels);
  for (guint i = 0; i < kernels->len; i++)
    {
      JsonObject *k = g_ptr_array_index (kernels, i);

      gtk_string_list_append (titles, ws_i18n_kernel_text (
                                        json_object_get_string_member_with_default (k, "title", "?")));
      if (g_strcmp0 (json_object_get_string_member_with_default (k, "name", ""), wanted) == 0)
        select = i;
    }
  /* The saved size and blocks are restored only for the kernel they were saved with; another
   * kernel starts from its own defaults. */
  self->loading = TRUE;
  adw_combo_row_set_model (self->kernel_row, G_LIST_MODEL (titles));
  adw_combo_row_set_selected (self->kernel_row, select);
  self->loading = g_strcmp0 (ws_config_sidebar_get_kernel (self), wanted) == 0;
  kernel_selected_cb (self);
  self->loading = FALSE;
  changed (self);
}

void
ws_config_sidebar_set_device (WsConfigSidebar *self, WsDevice *device)
{
  g_return_if_fail (WS_IS_CONFIG_SIDEBAR (self));
  g_set_object (&self->device, device);
  changed (self);
}

void
ws_config_sidebar_set_history (WsConfigSidebar *self, WsSession *session)
{
  g_return_if_fail (WS_IS_CONFIG_SIDEBAR (self));
  g_set_object (&self->history, session);
  changed (self);
}

void
ws_config_sidebar_set_runner (WsConfigSidebar *self, const char *runner_path)
{
  g_return_if_fail (WS_IS_CONFIG_SIDEBAR (self));
  g_free (self->runner);
  self->runner = g_strdup (runner_path);
}

void
ws_config_sidebar_set_block_text (WsConfigSidebar *self, const char *text)
{
  g_return_if_fail (WS_IS_CONFIG_SIDEBAR (self));
  select_block (self, text);
  changed (self);
}

const char *
ws_config_sidebar_get_run_problem (WsConfigSidebar *self)
{
  g_return_val_if_fail (WS_IS_CONFIG_SIDEBAR (self), NULL);
  return gtk_widget_get_visible (GTK_WIDGET (self->run_problem))
           ? gtk_label_get_text (self->run_problem)
           : NULL;
}

gboolean
ws_config_sidebar_get_run_valid (WsConfigSidebar *self)
{
  g_return_val_if_fail (WS_IS_CONFIG_SIDEBAR (self), FALSE);
  return self->run_valid;
}

gboolean
ws_config_sidebar_get_sweep_valid (WsConfigSidebar *self)
{
  g_return_val_if_fail (WS_IS_CONFIG_SIDEBAR (self), FALSE);
  return self->sweep_valid;
}

void
ws_config_sidebar_bind_settings (WsConfigSidebar *self, GSettings *settings)
{
  g_autofree char *size = NULL, *transfer = NULL, *from = NULL, *to = NULL, *blocks = NULL;

  g_return_if_fail (WS_IS_CONFIG_SIDEBAR (self));
  g_set_object (&self->settings, settings);
  self->loading = TRUE;
  size = g_settings_get_string (settings, "size");
  transfer = g_settings_get_string (settings, "transfer");
  from = g_settings_get_string (settings, "sweep-from");
  to = g_settings_get_string (settings, "sweep-to");
  blocks = g_settings_get_string (settings, "sweep-blocks");
  gtk_editable_set_text (GTK_EDITABLE (self->size_row), size);
  adw_combo_row_set_selected (self->transfer_row, g_str_equal (transfer, "pinned") ? 1 : 0);
  gtk_spin_button_set_value (self->reps_spin, g_settings_get_int (settings, "reps"));
  gtk_switch_set_active (self->cpu_one_switch, g_settings_get_boolean (settings, "cpu-one"));
  gtk_switch_set_active (self->cpu_all_switch, g_settings_get_boolean (settings, "cpu-all"));
  gtk_editable_set_text (GTK_EDITABLE (self->sweep_from_row), from);
  gtk_editable_set_text (GTK_EDITABLE (self->sweep_to_row), to);
  gtk_spin_button_set_value (self->sweep_factor_spin, g_settings_get_int (settings, "sweep-factor"));
  gtk_editable_set_text (GTK_EDITABLE (self->sweep_blocks_row), blocks);
  self->loading = FALSE;
}

/* ---- boilerplate -------------------------------------------------------------------------- */

static void
ws_config_sidebar_dispose (GObject *object)
{
  WsConfigSidebar *self = WS_CONFIG_SIDEBAR (object);

  g_clear_handle_id (&self->check_id, g_source_remove);
  g_cancellable_cancel (self->check_cancellable);
  g_clear_object (&self->check_cancellable);
  g_clear_pointer (&self->kernels, g_ptr_array_unref);
  g_clear_object (&self->settings);
  g_clear_object (&self->device);
  g_clear_object (&self->history);
  g_clear_object (&self->block_choices);
  g_clear_pointer (&self->runner, g_free);
  gtk_widget_dispose_template (GTK_WIDGET (self), WS_TYPE_CONFIG_SIDEBAR);
  G_OBJECT_CLASS (ws_config_sidebar_parent_class)->dispose (object);
}

static void
ws_config_sidebar_get_property (GObject *object, guint prop_id, GValue *value, GParamSpec *pspec)
{
  WsConfigSidebar *self = WS_CONFIG_SIDEBAR (object);

  switch (prop_id)
    {
    case PROP_RUN_VALID:
      g_value_set_boolean (value, self->run_valid);
      break;
    case PROP_SWEEP_VALID:
      g_value_set_boolean (value, self->sweep_valid);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
ws_config_sidebar_class_init (WsConfigSidebarClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = ws_config_sidebar_dispose;
  object_class->get_property = ws_config_sidebar_get_property;

  properties[PROP_RUN_VALID] = g_param_spec_boolean ("run-valid", NULL, NULL, FALSE,
                                                     G_PARAM_READABLE | G_PARAM_STATIC_STRINGS
                                                       | G_PARAM_EXPLICIT_NOTIFY);
  properties[PROP_SWEEP_VALID] = g_param_spec_boolean ("sweep-valid", NULL, NULL, FALSE,
                                                       G_PARAM_READABLE | G_PARAM_STATIC_STRINGS
                                                         | G_PARAM_EXPLICIT_NOTIFY);
  g_object_class_install_properties (object_class, N_PROPS, properties);
  signals[CHANGED] = g_signal_new ("changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0,
                                   NULL, NULL, NULL, G_TYPE_NONE, 0);

  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/org/warpscope/Warpscope/ui/ws-config-sidebar.ui");
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_bind_template_child (widget_class, WsConfigSidebar, box);
  gtk_widget_class_bind_template_child (widget_class, WsConfigSidebar, kernel_row);
  gtk_widget_class_bind_template_child (widget_class, WsConfigSidebar, kernel_description);
  gtk_widget_class_bind_template_child (widget_class, WsConfigSidebar, size_row);
  gtk_widget_class_bind_template_child (widget_class, WsConfigSidebar, size_presets);
  gtk_widget_class_bind_template_child (widget_class, WsConfigSidebar, block_row);
  gtk_widget_class_bind_template_child (widget_class, WsConfigSidebar, custom_block_row);
  gtk_widget_class_bind_template_child (widget_class, WsConfigSidebar, transfer_row);
  gtk_widget_class_bind_template_child (widget_class, WsConfigSidebar, reps_spin);
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
}

static void
ws_config_sidebar_init (WsConfigSidebar *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  self->block_choices = gtk_string_list_new (blocks_1d);
  gtk_string_list_append (self->block_choices, _("Custom…"));
  adw_combo_row_set_model (self->block_row, G_LIST_MODEL (self->block_choices));
  adw_combo_row_set_selected (self->block_row, 3);

  g_signal_connect_swapped (self->kernel_row, "notify::selected", G_CALLBACK (kernel_selected_cb), self);
  g_signal_connect_swapped (self->size_row, "changed", G_CALLBACK (changed), self);
  g_signal_connect_swapped (self->block_row, "notify::selected", G_CALLBACK (changed), self);
  g_signal_connect_swapped (self->custom_block_row, "changed", G_CALLBACK (changed), self);
  g_signal_connect_swapped (self->transfer_row, "notify::selected", G_CALLBACK (changed), self);
  g_signal_connect_swapped (self->reps_spin, "value-changed", G_CALLBACK (changed), self);
  g_signal_connect_swapped (self->cpu_one_switch, "notify::active", G_CALLBACK (changed), self);
  g_signal_connect_swapped (self->cpu_all_switch, "notify::active", G_CALLBACK (changed), self);
  g_signal_connect_swapped (self->sweep_from_row, "changed", G_CALLBACK (changed), self);
  g_signal_connect_swapped (self->sweep_to_row, "changed", G_CALLBACK (changed), self);
  g_signal_connect_swapped (self->sweep_factor_spin, "value-changed", G_CALLBACK (changed), self);
  g_signal_connect_swapped (self->sweep_blocks_row, "changed", G_CALLBACK (changed), self);
}

GtkWidget *
ws_config_sidebar_new (void)
{
  return g_object_new (WS_TYPE_CONFIG_SIDEBAR, NULL);
}
