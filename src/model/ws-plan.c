/* ws-plan.c: the plan of the next run or sweep. Every change is checked here at once (cheap:
 * parsing and a few limits) and, a moment later, by the runner itself (--check), which knows
 * each kernel's own rules, such as tiles of 8, 16 or 32.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "ws-config.h"

#include "ws-plan-private.h"

#include <glib/gi18n-lib.h>

#include "ws-runner-client.h"

G_DEFINE_FINAL_TYPE (WsPlan, ws_plan, G_TYPE_OBJECT)
G_DEFINE_QUARK (ws-plan-error-quark, ws_plan_error)

enum
{
  PROP_0,
  PROP_KERNEL,
  PROP_SIZE,
  PROP_BLOCK,
  PROP_TRANSFER,
  PROP_REPS,
  PROP_CPU_ONE,
  PROP_CPU_ALL,
  PROP_SWEEP_FROM,
  PROP_SWEEP_TO,
  PROP_SWEEP_FACTOR,
  PROP_SWEEP_BLOCKS,
  PROP_CATALOG,
  PROP_DEVICE,
  PROP_RUNNER,
  PROP_SOURCE,
  PROP_PARAMS,
  PROP_RUN_PROBLEM,
  PROP_SWEEP_PROBLEM,
  PROP_RUN_VALID,
  PROP_SWEEP_VALID,
  PROP_DEVICES,
  PROP_COUNTERS,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

enum
{
  PREPARE,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

static void changed (WsPlan *self);

/* ---- what the properties say ------------------------------------------------------------- */

static void
update_verdicts (WsPlan *self)
{
  static const guint problem_props[] = { PROP_RUN_PROBLEM, PROP_SWEEP_PROBLEM };
  static const guint valid_props[] = { PROP_RUN_VALID, PROP_SWEEP_VALID };

  for (int mode = WS_PLAN_RUN; mode <= WS_PLAN_SWEEP; mode++)
    {
      g_autoptr (GError) error = NULL;
      gboolean ok = ws_plan_validate (self, mode, &error);
      /* With no kernel there is nothing to choose yet: no reason to show. */
      const char *problem = ok ? self->refused[mode]
                            : g_error_matches (error, WS_PLAN_ERROR, WS_PLAN_ERROR_NO_KERNEL)
                              ? NULL
                              : error->message;
      gboolean valid = ok && self->refused[mode] == NULL;

      if (g_strcmp0 (problem, self->problem[mode]) != 0)
        {
          g_free (self->problem[mode]);
          self->problem[mode] = g_strdup (problem);
          g_object_notify_by_pspec (G_OBJECT (self), properties[problem_props[mode]]);
        }
      if (valid != self->valid[mode])
        {
          self->valid[mode] = valid;
          g_object_notify_by_pspec (G_OBJECT (self), properties[valid_props[mode]]);
        }
    }
}

const char *
ws_plan_get_problem (WsPlan *self, WsPlanMode mode)
{
  g_return_val_if_fail (WS_IS_PLAN (self), NULL);
  return self->problem[mode];
}

gboolean
ws_plan_get_valid (WsPlan *self, WsPlanMode mode)
{
  g_return_val_if_fail (WS_IS_PLAN (self), FALSE);
  return self->valid[mode];
}

/* ---- the runner's check ------------------------------------------------------------------ */

/* The runner words its refusals for a command line ("--blocks: …"); keep the sentence. */
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

static void
check_finished_cb (WsRunnerClient *client, WsPlan *self)
{
  WsPlanMode mode = GPOINTER_TO_INT (g_object_get_data (G_OBJECT (client), "mode"));
  guint generation = GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (client), "generation"));
  GPtrArray *errors = ws_session_get_errors (ws_runner_client_get_session (client));

  g_object_ref (client);
  g_ptr_array_remove (self->checks, client);
  /* A runner that did not answer says nothing about the plan. */
  for (guint i = 0; generation == self->generation && i < errors->len; i++)
    {
      WsRunnerError *e = g_ptr_array_index (errors, i);

      if (e->severity == WS_ERROR_SEVERITY_ERROR && e->message != NULL)
        {
          g_free (self->refused[mode]);
          self->refused[mode] = g_strdup (strip_option (e->message));
          update_verdicts (self);
          break;
        }
    }
  g_signal_handlers_disconnect_by_data (client, self);
  g_object_unref (client);
}

static void
start_check (WsPlan *self, WsPlanMode mode)
{
  g_auto (GStrv) argv = ws_plan_build_argv (self, mode, self->runner, NULL);
  g_autoptr (GStrvBuilder) b = NULL;
  g_auto (GStrv) check = NULL;
  g_autoptr (WsSession) session = NULL;
  g_autoptr (WsRunnerClient) client = NULL;
  g_autoptr (GError) error = NULL;

  if (argv == NULL)
    return;
  b = g_strv_builder_new ();
  g_strv_builder_add_many (b, argv[0], "--check", NULL);
  g_strv_builder_addv (b, (const char **) argv + 1);
  check = g_strv_builder_end (b);
  session = ws_session_new (WS_SESSION_SOURCE_LIVE);
  client = ws_runner_client_new (session);
  ws_runner_client_set_timeout (client, 20);
  g_object_set_data (G_OBJECT (client), "mode", GINT_TO_POINTER (mode));
  g_object_set_data (G_OBJECT (client), "generation", GUINT_TO_POINTER (self->generation));
  g_signal_connect (client, "finished", G_CALLBACK (check_finished_cb), self);
  /* The rules are the runner's own and the same everywhere: asked here, with no launcher. */
  if (!ws_runner_client_start (client, NULL, (const char *const *) check, &error))
    {
      g_debug ("runner --check could not start: %s", error->message);
      return;
    }
  g_ptr_array_add (self->checks, g_steal_pointer (&client));
}

static gboolean
check_cb (gpointer data)
{
  WsPlan *self = data;

  self->check_id = 0;
  start_check (self, WS_PLAN_RUN);
  start_check (self, WS_PLAN_SWEEP);
  return G_SOURCE_REMOVE;
}

static void
changed (WsPlan *self)
{
  self->generation++;
  g_clear_pointer (&self->refused[WS_PLAN_RUN], g_free);
  g_clear_pointer (&self->refused[WS_PLAN_SWEEP], g_free);
  update_verdicts (self);
  g_clear_handle_id (&self->check_id, g_source_remove);
  if (self->runner != NULL)
    self->check_id = g_timeout_add (150, check_cb, self);
}

void
_ws_plan_changed (WsPlan *self)
{
  changed (self);
}

/* ---- the kernel and its defaults ---------------------------------------------------------- */

static void
set_text (WsPlan *self, char **field, const char *value, guint prop)
{
  if (g_strcmp0 (*field, value) == 0)
    return;
  g_free (*field);
  *field = g_strdup (value);
  g_object_notify_by_pspec (G_OBJECT (self), properties[prop]);
}

static void
set_int (WsPlan *self, int *field, int value, guint prop)
{
  if (*field == value)
    return;
  *field = value;
  g_object_notify_by_pspec (G_OBJECT (self), properties[prop]);
}

void
_ws_plan_notify_own (WsPlan *self)
{
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SOURCE]);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_PARAMS]);
}

void
_ws_plan_emit_prepare (WsPlan *self)
{
  g_signal_emit (self, signals[PREPARE], 0);
}

const char *
ws_plan_get_devices (WsPlan *self)
{
  g_return_val_if_fail (WS_IS_PLAN (self), NULL);
  return self->devices;
}

/* Which GPUs run it is no part of its validity: nothing to check again. */
void
ws_plan_set_devices (WsPlan *self, const char *devices)
{
  g_return_if_fail (WS_IS_PLAN (self));
  if (devices == NULL || *devices == '\0')
    devices = "all";
  if (g_strcmp0 (self->devices, devices) == 0)
    return;
  g_free (self->devices);
  self->devices = g_strdup (devices);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_DEVICES]);
}

static void apply_defaults (WsPlan *self, gboolean keep);

void
_ws_plan_builtin_defaults (WsPlan *self)
{
  apply_defaults (self, TRUE);
}

void
_ws_plan_set_size_and_block (WsPlan *self, const char *size, const char *block)
{
  set_text (self, &self->size, size, PROP_SIZE);
  set_text (self, &self->block, block, PROP_BLOCK);
}

void
_ws_plan_set_sweep (WsPlan *self, const char *from, const char *to, int factor,
                    const char *blocks)
{
  set_text (self, &self->sweep_from, from, PROP_SWEEP_FROM);
  set_text (self, &self->sweep_to, to, PROP_SWEEP_TO);
  set_int (self, &self->sweep_factor, factor, PROP_SWEEP_FACTOR);
  set_text (self, &self->sweep_blocks, blocks, PROP_SWEEP_BLOCKS);
}

static char *
params_text (WsPlan *self)
{
  g_autoptr (GString) s = g_string_new (NULL);

  for (guint i = 0; self->source != NULL && i < self->params->len; i++)
    g_string_append_printf (s, "%s%s=%s", i ? " " : "",
                            ws_kernel_source_get_param_name (self->source, i),
                            (char *) g_ptr_array_index (self->params, i));
  return g_string_free (g_steal_pointer (&s), FALSE);
}

/* The kernel's own size and block; `keep` keeps what was chosen before where it suits this
 * kernel (a restored choice), else the sweep starts afresh too (another kernel). */
static void
apply_defaults (WsPlan *self, gboolean keep)
{
  WsKernelEntry *entry = _ws_plan_entry (self);
  const WsKernelInfo *k = entry ? ws_kernel_entry_get_info (entry) : NULL;
  guint64 dims[3];
  guint bdims[3];

  if (k == NULL || self->source != NULL)
    return;
  g_object_freeze_notify (G_OBJECT (self));
  if ((!keep || !_ws_plan_read_size (self, self->size, dims, NULL, NULL))
      && k->default_shape[0] > 0)
    {
      g_autofree char *text = g_strdup_printf ("%" G_GUINT64_FORMAT, k->default_shape[0]);

      set_text (self, &self->size, text, PROP_SIZE);
    }
  if ((!keep || !_ws_plan_read_block (self, self->block, bdims, NULL, NULL))
      && k->has_default_block)
    {
      g_autofree char *text
        = ws_plan_get_block_dims (self) == 2
            ? g_strdup_printf ("%u×%u", k->default_block[0], k->default_block[1])
            : g_strdup_printf ("%u", k->default_block[0]);

      set_text (self, &self->block, text, PROP_BLOCK);
    }
  if (!keep)
    {
      gboolean matrix = ws_plan_get_size_rank (self) == 3;

      set_text (self, &self->sweep_from, matrix ? "256" : "1000", PROP_SWEEP_FROM);
      set_text (self, &self->sweep_to, matrix ? "4096" : "100000000", PROP_SWEEP_TO);
      set_int (self, &self->sweep_factor, matrix ? 2 : 10, PROP_SWEEP_FACTOR);
      set_text (self, &self->sweep_blocks, ws_plan_get_block_dims (self) == 2 ? "16x16" : "256",
                PROP_SWEEP_BLOCKS);
    }
  g_object_thaw_notify (G_OBJECT (self));
}

const char *
ws_plan_get_kernel (WsPlan *self)
{
  g_return_val_if_fail (WS_IS_PLAN (self), NULL);
  return self->kernel;
}

void
ws_plan_set_kernel (WsPlan *self, const char *name)
{
  g_return_if_fail (WS_IS_PLAN (self));
  if (g_strcmp0 (self->kernel, name) == 0)
    return;
  g_object_freeze_notify (G_OBJECT (self));
  set_text (self, &self->kernel, name, PROP_KERNEL);
  apply_defaults (self, FALSE);
  g_object_thaw_notify (G_OBJECT (self));
  changed (self);
}

void
ws_plan_set_catalog (WsPlan *self, GListModel *kernels)
{
  g_return_if_fail (WS_IS_PLAN (self));
  g_return_if_fail (kernels == NULL || G_IS_LIST_MODEL (kernels));
  if (kernels == self->catalog)
    return;
  g_object_freeze_notify (G_OBJECT (self));
  g_set_object (&self->catalog, kernels);
  /* The kernel chosen before keeps its size and block; one this catalog lacks gives way to
   * the first, with its defaults. */
  if (_ws_plan_entry (self) != NULL)
    apply_defaults (self, TRUE);
  else if (ws_plan_get_n_kernels (self) > 0)
    {
      set_text (self, &self->kernel, ws_plan_get_kernel_name (self, 0), PROP_KERNEL);
      apply_defaults (self, FALSE);
    }
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_CATALOG]);
  g_object_thaw_notify (G_OBJECT (self));
  changed (self);
}

void
ws_plan_set_device (WsPlan *self, WsDevice *device)
{
  g_return_if_fail (WS_IS_PLAN (self));
  if (g_set_object (&self->device, device))
    {
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_DEVICE]);
      changed (self);
    }
}

const char *
ws_plan_get_runner (WsPlan *self)
{
  g_return_val_if_fail (WS_IS_PLAN (self), NULL);
  return self->runner;
}

void
ws_plan_set_runner (WsPlan *self, const char *runner)
{
  g_return_if_fail (WS_IS_PLAN (self));
  if (g_strcmp0 (self->runner, runner) == 0)
    return;
  set_text (self, &self->runner, runner, PROP_RUNNER);
  changed (self);
}

const char *
ws_plan_get_block (WsPlan *self)
{
  g_return_val_if_fail (WS_IS_PLAN (self), NULL);
  return self->block;
}

void
ws_plan_set_block (WsPlan *self, const char *text)
{
  g_return_if_fail (WS_IS_PLAN (self));
  if (g_strcmp0 (self->block, text) == 0)
    return;
  set_text (self, &self->block, text, PROP_BLOCK);
  changed (self);
}

/* ---- boilerplate ------------------------------------------------------------------------- */

static char **
text_field (WsPlan *self, guint prop)
{
  switch (prop)
    {
    case PROP_SIZE: return &self->size;
    case PROP_TRANSFER: return &self->transfer;
    case PROP_SWEEP_FROM: return &self->sweep_from;
    case PROP_SWEEP_TO: return &self->sweep_to;
    case PROP_SWEEP_BLOCKS: return &self->sweep_blocks;
    case PROP_COUNTERS: return &self->counters;
    default: return NULL;
    }
}

static int *
int_field (WsPlan *self, guint prop)
{
  switch (prop)
    {
    case PROP_REPS: return &self->reps;
    case PROP_SWEEP_FACTOR: return &self->sweep_factor;
    case PROP_CPU_ONE: return &self->cpu_one;
    case PROP_CPU_ALL: return &self->cpu_all;
    default: return NULL;
    }
}

static void
ws_plan_set_property (GObject *object, guint prop, const GValue *value, GParamSpec *pspec)
{
  WsPlan *self = WS_PLAN (object);

  switch (prop)
    {
    case PROP_KERNEL: ws_plan_set_kernel (self, g_value_get_string (value)); break;
    case PROP_BLOCK: ws_plan_set_block (self, g_value_get_string (value)); break;
    case PROP_CATALOG: ws_plan_set_catalog (self, g_value_get_object (value)); break;
    case PROP_DEVICE: ws_plan_set_device (self, g_value_get_object (value)); break;
    case PROP_RUNNER: ws_plan_set_runner (self, g_value_get_string (value)); break;
    case PROP_SOURCE: ws_plan_set_source (self, g_value_get_object (value)); break;
    case PROP_DEVICES: ws_plan_set_devices (self, g_value_get_string (value)); break;
    case PROP_SIZE:
    case PROP_TRANSFER:
    case PROP_SWEEP_FROM:
    case PROP_SWEEP_TO:
    case PROP_SWEEP_BLOCKS:
    case PROP_COUNTERS:
      if (g_strcmp0 (*text_field (self, prop), g_value_get_string (value)) != 0)
        {
          set_text (self, text_field (self, prop), g_value_get_string (value), prop);
          changed (self);
        }
      break;
    case PROP_REPS:
    case PROP_SWEEP_FACTOR:
    case PROP_CPU_ONE:
    case PROP_CPU_ALL:
      {
        int v = G_VALUE_HOLDS_BOOLEAN (value) ? g_value_get_boolean (value) : g_value_get_int (value);

        if (*int_field (self, prop) != v)
          {
            set_int (self, int_field (self, prop), v, prop);
            changed (self);
          }
      }
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop, pspec);
    }
}

static void
ws_plan_get_property (GObject *object, guint prop, GValue *value, GParamSpec *pspec)
{
  WsPlan *self = WS_PLAN (object);

  switch (prop)
    {
    case PROP_KERNEL: g_value_set_string (value, self->kernel); break;
    case PROP_BLOCK: g_value_set_string (value, self->block); break;
    case PROP_CATALOG: g_value_set_object (value, self->catalog); break;
    case PROP_DEVICE: g_value_set_object (value, self->device); break;
    case PROP_RUNNER: g_value_set_string (value, self->runner); break;
    case PROP_SOURCE: g_value_set_object (value, self->source); break;
    case PROP_PARAMS: g_value_take_string (value, params_text (self)); break;
    case PROP_DEVICES: g_value_set_string (value, self->devices); break;
    case PROP_SIZE:
    case PROP_TRANSFER:
    case PROP_SWEEP_FROM:
    case PROP_SWEEP_TO:
    case PROP_SWEEP_BLOCKS:
    case PROP_COUNTERS:
      g_value_set_string (value, *text_field (self, prop));
      break;
    case PROP_REPS:
    case PROP_SWEEP_FACTOR:
      g_value_set_int (value, *int_field (self, prop));
      break;
    case PROP_CPU_ONE:
    case PROP_CPU_ALL:
      g_value_set_boolean (value, *int_field (self, prop));
      break;
    case PROP_RUN_PROBLEM: g_value_set_string (value, self->problem[WS_PLAN_RUN]); break;
    case PROP_SWEEP_PROBLEM: g_value_set_string (value, self->problem[WS_PLAN_SWEEP]); break;
    case PROP_RUN_VALID: g_value_set_boolean (value, self->valid[WS_PLAN_RUN]); break;
    case PROP_SWEEP_VALID: g_value_set_boolean (value, self->valid[WS_PLAN_SWEEP]); break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop, pspec);
    }
}

static void
ws_plan_dispose (GObject *object)
{
  WsPlan *self = WS_PLAN (object);

  g_clear_handle_id (&self->check_id, g_source_remove);
  for (guint i = 0; self->checks != NULL && i < self->checks->len; i++)
    {
      WsRunnerClient *client = g_ptr_array_index (self->checks, i);

      g_signal_handlers_disconnect_by_data (client, self);
      ws_runner_client_cancel (client);
    }
  g_clear_pointer (&self->checks, g_ptr_array_unref);
  g_clear_object (&self->catalog);
  g_clear_object (&self->device);
  G_OBJECT_CLASS (ws_plan_parent_class)->dispose (object);
}

static void
ws_plan_finalize (GObject *object)
{
  WsPlan *self = WS_PLAN (object);
  char **texts[] = { &self->kernel, &self->size, &self->block, &self->transfer,
                     &self->sweep_from, &self->sweep_to, &self->sweep_blocks, &self->runner,
                     &self->devices, &self->counters,
                     &self->problem[0], &self->problem[1], &self->refused[0], &self->refused[1] };

  for (guint i = 0; i < G_N_ELEMENTS (texts); i++)
    g_clear_pointer (texts[i], g_free);
  _ws_plan_own_finalize (self);
  G_OBJECT_CLASS (ws_plan_parent_class)->finalize (object);
}

static GParamSpec *
text_property (const char *name, const char *default_value)
{
  return g_param_spec_string (name, NULL, NULL, default_value,
                              G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
}

static void
ws_plan_class_init (WsPlanClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GParamFlags rw = G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS;
  GParamFlags ro = G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS;

  object_class->set_property = ws_plan_set_property;
  object_class->get_property = ws_plan_get_property;
  object_class->dispose = ws_plan_dispose;
  object_class->finalize = ws_plan_finalize;

  /* The defaults are those of the settings schema. */
  properties[PROP_KERNEL] = text_property ("kernel", NULL);
  properties[PROP_SIZE] = text_property ("size", "10000000");
  properties[PROP_BLOCK] = text_property ("block", "256");
  properties[PROP_TRANSFER] = text_property ("transfer",
                                             ws_transfer_to_string (WS_TRANSFER_PAGEABLE));
  properties[PROP_REPS] = g_param_spec_int ("reps", NULL, NULL, 1, 1000, 10, rw);
  properties[PROP_CPU_ONE] = g_param_spec_boolean ("cpu-one", NULL, NULL, TRUE, rw);
  properties[PROP_CPU_ALL] = g_param_spec_boolean ("cpu-all", NULL, NULL, TRUE, rw);
  properties[PROP_SWEEP_FROM] = text_property ("sweep-from", "1000");
  properties[PROP_SWEEP_TO] = text_property ("sweep-to", "100000000");
  properties[PROP_SWEEP_FACTOR] = g_param_spec_int ("sweep-factor", NULL, NULL, 2, 100, 10, rw);
  properties[PROP_SWEEP_BLOCKS] = text_property ("sweep-blocks", "256");
  properties[PROP_CATALOG] = g_param_spec_object ("catalog", NULL, NULL, G_TYPE_LIST_MODEL, rw);
  properties[PROP_DEVICE] = g_param_spec_object ("device", NULL, NULL, WS_TYPE_DEVICE, rw);
  properties[PROP_RUNNER] = text_property ("runner", NULL);
  properties[PROP_SOURCE] = g_param_spec_object ("source", NULL, NULL, WS_TYPE_KERNEL_SOURCE, rw);
  properties[PROP_PARAMS] = g_param_spec_string ("params", NULL, NULL, NULL, ro);
  properties[PROP_RUN_PROBLEM] = g_param_spec_string ("run-problem", NULL, NULL, NULL, ro);
  properties[PROP_SWEEP_PROBLEM] = g_param_spec_string ("sweep-problem", NULL, NULL, NULL, ro);
  properties[PROP_RUN_VALID] = g_param_spec_boolean ("run-valid", NULL, NULL, FALSE, ro);
  properties[PROP_SWEEP_VALID] = g_param_spec_boolean ("sweep-valid", NULL, NULL, FALSE, ro);
  properties[PROP_DEVICES] = text_property ("devices", "all");
  properties[PROP_COUNTERS] = text_property ("counters", "none");
  g_object_class_install_properties (object_class, N_PROPS, properties);
  signals[PREPARE] = g_signal_new ("prepare", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0,
                                   NULL, NULL, NULL, G_TYPE_NONE, 0);
}

static void
ws_plan_init (WsPlan *self)
{
  self->size = g_strdup ("10000000");
  self->block = g_strdup ("256");
  self->transfer = g_strdup (ws_transfer_to_string (WS_TRANSFER_PAGEABLE));
  self->reps = 10;
  self->cpu_one = self->cpu_all = TRUE;
  self->sweep_from = g_strdup ("1000");
  self->sweep_to = g_strdup ("100000000");
  self->sweep_factor = 10;
  self->sweep_blocks = g_strdup ("256");
  self->devices = g_strdup ("all");
  self->counters = g_strdup ("none");
  self->checks = g_ptr_array_new_with_free_func (g_object_unref);
  self->params = g_ptr_array_new_with_free_func (g_free);
  update_verdicts (self);
}

WsPlan *
ws_plan_new (void)
{
  return g_object_new (WS_TYPE_PLAN, NULL);
}
