/* ws-environment.c: the environment probe. Asking the runner about the GPU takes a CUDA
 * context (a few hundred ms, seconds behind ssh, longer while a Slurm job waits): it runs as
 * two jobs on the target whose answers arrive as sessions, so nothing waits for them.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "ws-config.h"

#include "ws-environment.h"

#include <glib/gi18n-lib.h>

#include "ws-runner-client.h"
#include "ws-target-job.h"

struct _WsEnvironment
{
  GObject parent_instance;

  char *runner;
  WsTarget *target; /* NULL: this computer */
  gboolean asked;   /* probed once: a new or edited target asks again */
  guint reprobe_id;

  WsEnvironmentState state;
  WsRunnerJob *catalog_job, *info_job;
  GListModel *catalog; /* WsKernelEntry */
  WsSession *session;
  GPtrArray *problems;
  char *failure;    /* why the runner did not answer, for people */
  int failure_code; /* its WsTargetError when the target said why; -1 otherwise */
  char *waiting;    /* what the launcher is doing meanwhile (a Slurm job pending) */
  char *title, *description, *summary;
};

G_DEFINE_FINAL_TYPE (WsEnvironment, ws_environment, G_TYPE_OBJECT)

enum
{
  PROP_0,
  PROP_RUNNER,
  PROP_TARGET,
  PROP_STATE,
  PROP_CATALOG,
  PROP_DEVICE,
  PROP_TITLE,
  PROP_DESCRIPTION,
  PROP_SUMMARY,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

GType
ws_environment_state_get_type (void)
{
  static gsize type = 0;
  static const GEnumValue values[] = {
    { WS_ENVIRONMENT_NO_RUNNER, "WS_ENVIRONMENT_NO_RUNNER", "no-runner" },
    { WS_ENVIRONMENT_PROBING, "WS_ENVIRONMENT_PROBING", "probing" },
    { WS_ENVIRONMENT_READY, "WS_ENVIRONMENT_READY", "ready" },
    { WS_ENVIRONMENT_UNUSABLE, "WS_ENVIRONMENT_UNUSABLE", "unusable" },
    { 0, NULL, NULL },
  };

  if (g_once_init_enter (&type))
    g_once_init_leave (&type, g_enum_register_static ("WsEnvironmentState", values));
  return type;
}

/* The runner's error codes that stop a set-up, as the welcome page names them, and what it
 * says of those whose words the app has in every language (the runner, without GLib, writes
 * English; its words stand for the others). */
typedef struct
{
  WsErrorCode code;
  const char *title;
  const char *description; /* NULL: the runner's message */
  /* The same on a target elsewhere, which the target names: its name, then the library. */
  const char *elsewhere_title, *elsewhere_description;
} ErrorWords;

static const ErrorWords error_titles[] = {
  { WS_ERROR_NO_DRIVER, N_("No NVIDIA GPU Here"),
    N_("No NVIDIA driver is installed here (%s was not found), so no kernel can run on this "
       "computer. On a machine with an NVIDIA GPU, install the NVIDIA driver (Debian: apt "
       "install nvidia-driver; Ubuntu: sudo ubuntu-drivers install) and restart. Without a "
       "GPU, open one of the recordings that come with Warpscope: they were measured on real "
       "GPUs."),
    N_("No NVIDIA GPU on %s"),
    N_("No NVIDIA driver is installed on %1$s (%2$s was not found), so no kernel can run "
       "there. Install the NVIDIA driver on that machine; recordings that come with Warpscope "
       "open without a GPU.") },
  { WS_ERROR_DRIVER_TOO_OLD, N_("The NVIDIA Driver Is Too Old"), NULL, NULL, NULL },
  { WS_ERROR_NO_DEVICE, N_("The Driver Sees No GPU"),
    N_("The NVIDIA driver is installed but sees no GPU. Check that nvidia-smi lists one; in a "
       "container, give it the GPU (docker run --gpus all); check that CUDA_VISIBLE_DEVICES "
       "does not hide every device."),
    N_("The Driver on %s Sees No GPU"),
    N_("The NVIDIA driver on %1$s is installed but sees no GPU. Check that "
       "nvidia-smi lists one there; in a container, give it the GPU (docker run --gpus all); "
       "check that CUDA_VISIBLE_DEVICES does not hide every device.") },
  { WS_ERROR_NO_KERNEL_IMAGE, N_("This Build Cannot Run on This GPU"), NULL, NULL, NULL },
};

/* The library the runner looked for, from its words "(libcuda.so.1 was not found)". */
static char *
missing_library (const char *message)
{
  g_autoptr (GRegex) regex = g_regex_new ("\\(([^ ()]+) was not found\\)", 0, 0, NULL);
  g_autoptr (GMatchInfo) match = NULL;

  if (message != NULL && g_regex_match (regex, message, 0, &match))
    return g_match_info_fetch (match, 1);
  return g_strdup ("libcuda.so.1");
}

static gboolean
replace_string (char **field, const char *value)
{
  if (g_strcmp0 (*field, value) == 0)
    return FALSE;
  g_free (*field);
  *field = g_strdup (value);
  return TRUE;
}

static const WsRunnerError *
first_error (WsEnvironment *self)
{
  const WsRunnerError *found = NULL;

  for (guint i = 0; i < self->problems->len; i++)
    if (((WsRunnerError *) g_ptr_array_index (self->problems, i))->severity
        == WS_ERROR_SEVERITY_ERROR)
      found = g_ptr_array_index (self->problems, i);
  return found;
}

/* Whether the runner runs elsewhere than on this computer, directly: then every sentence
 * says where. */
static gboolean
elsewhere (WsEnvironment *self)
{
  return self->target != NULL && ws_target_get_kind (self->target) != WS_TARGET_LOCAL;
}

static char *
ready_summary (WsEnvironment *self, WsDevice *device)
{
  const WsHello *hello = ws_session_get_hello (self->session);
  const char *driver = hello && hello->driver_cuda ? hello->driver_cuda : "?";
  const char *runtime = hello && hello->runtime_cuda ? hello->runtime_cuda : "?";

  if (elsewhere (self))
    /* Translators: the target's name, the GPU, the CUDA versions of the driver and runtime. */
    return g_strdup_printf (_("%1$s · %2$s · driver supports CUDA %3$s · runtime %4$s"),
                            ws_target_get_name (self->target), ws_device_get_name (device), driver,
                            runtime);
  return g_strdup_printf (_("%s · driver supports CUDA %s · runtime %s"), ws_device_get_name (device),
                          driver, runtime);
}

/* The heading for what a target said when it failed. */
static char *
failure_title (WsEnvironment *self)
{
  const char *name = ws_target_get_name (self->target);

  switch (self->failure_code)
    {
    case WS_TARGET_ERROR_UNREACHABLE:
      return g_strdup_printf (_("%s Cannot Be Reached"), name);
    case WS_TARGET_ERROR_REFUSED:
      return g_strdup_printf (_("%s Refused"), name);
    case WS_TARGET_ERROR_NO_RUNNER:
      return g_strdup_printf (_("No GPU Runner on %s"), name);
    case WS_TARGET_ERROR_RUNNER_VERSION:
      return g_strdup_printf (_("The Runner on %s Does Not Fit"), name);
    case WS_TARGET_ERROR_PENDING:
      return g_strdup_printf (_("The Slurm Job for %s Waited Too Long"), name);
    case WS_TARGET_ERROR_INVALID:
      return g_strdup_printf (_("The Target %s Cannot Work as Written"), name);
    default:
      return g_strdup_printf (_("The GPU Runner on %s Did Not Answer"), name);
    }
}

/* A sentence that starts with a capital: the target's messages may start with a host. */
static char *
sentence (const char *text)
{
  g_autofree char *first = NULL;

  if (text == NULL || *text == '\0')
    return g_strdup (text);
  first = g_utf8_strup (text, g_utf8_next_char (text) - text);
  return g_strconcat (first, g_utf8_next_char (text), NULL);
}

/* After the paragraph: which target it is, and what it stands for. */
static char *
with_target (WsEnvironment *self, char *text)
{
  g_autofree char *description = NULL;
  char *out;

  if (!elsewhere (self))
    return text;
  description = ws_target_dup_description (self->target);
  /* Translators: a paragraph, then the target's name and the command it stands for. */
  out = g_strdup_printf (_("%1$s\n\nTarget: %2$s (%3$s). Choose another in the header bar."),
                         text != NULL ? text : "", ws_target_get_name (self->target), description);
  g_free (text);
  return out;
}

/* The heading and paragraph for a runner's error the app has words for; on a target elsewhere
 * they name the target, since "here" would be this computer. */
static void
describe_error (WsEnvironment *self, const ErrorWords *words, const char *message, char **title,
                char **description)
{
  g_autofree char *library = missing_library (message);
  const char *name = elsewhere (self) ? ws_target_get_name (self->target) : NULL;

  if (name != NULL && words->elsewhere_title != NULL)
    {
      g_free (*title);
      *title = g_strdup_printf (_(words->elsewhere_title), name);
    }
  else
    replace_string (title, _(words->title));
  if (name != NULL && words->elsewhere_description != NULL)
    *description = g_strdup_printf (_(words->elsewhere_description), name, library);
  else if (words->description != NULL)
    *description = g_strdup_printf (_(words->description), library);
}

/* The welcome page's heading and paragraph, and the status line's sentence, for the state. */
static void
describe (WsEnvironment *self, char **title, char **description, char **summary)
{
  WsDevice *device = ws_environment_get_device (self);
  const WsRunnerError *error = first_error (self);
  const char *name = self->target != NULL ? ws_target_get_name (self->target) : NULL;

  *description = NULL;
  switch (self->state)
    {
    case WS_ENVIRONMENT_NO_RUNNER:
      *title = g_strdup (_("No GPU Runner in This Build"));
      *description = g_strdup (_("Warpscope was built without the CUDA toolkit, so it cannot run "
                                 "kernels here. Open a recording made on a real GPU to explore "
                                 "real measurements, or try the occupancy calculator."));
      *summary = g_strdup (_("No GPU runner in this build: recordings and the calculator work"));
      return;
    case WS_ENVIRONMENT_PROBING:
      if (!elsewhere (self))
        {
          *title = g_strdup (_("Looking for a GPU…"));
          *summary = g_strdup (_("Looking for a GPU…"));
          return;
        }
      *title = g_strdup_printf (_("Looking for a GPU on %s…"), name);
      *summary = self->waiting != NULL ? g_strdup (self->waiting) : g_strdup (*title);
      *description = with_target (self, g_strdup (self->waiting));
      return;
    case WS_ENVIRONMENT_READY:
      *title = g_strdup_printf (_("Ready to Run on the %s"), ws_device_get_name (device));
      *description = with_target (self, g_strdup (_("Pick a kernel on the left and press Run "
                                                    "(Ctrl+R). The tutorial's vector add with "
                                                    "n = 10,000,000 and 256 threads per block is "
                                                    "a good first run. Or open a recording.")));
      *summary = ready_summary (self, device);
      return;
    case WS_ENVIRONMENT_UNUSABLE:
    default:
      *summary = elsewhere (self)
                   ? g_strdup_printf (_("No usable GPU on %s: recordings and the calculator work"),
                                      name)
                   : g_strdup (_("No usable GPU here: recordings and the calculator work"));
      if (error == NULL)
        {
          *title = elsewhere (self) ? failure_title (self)
                                    : g_strdup (_("The GPU Runner Did Not Answer"));
          *description = with_target (self, sentence (self->failure));
          return;
        }
      *title = g_strdup (_("The GPU Cannot Be Used"));
      for (guint i = 0; i < G_N_ELEMENTS (error_titles); i++)
        if (error->code == error_titles[i].code)
          describe_error (self, &error_titles[i], error->message, title, description);
      if (*description == NULL)
        *description = g_strdup (error->message);
      *description = with_target (self, *description);
      return;
    }
}

static void
set_text (WsEnvironment *self, char **field, char *value, guint prop)
{
  if (g_strcmp0 (*field, value) == 0)
    {
      g_free (value);
      return;
    }
  g_free (*field);
  *field = value;
  g_object_notify_by_pspec (G_OBJECT (self), properties[prop]);
}

static void
set_state (WsEnvironment *self, WsEnvironmentState state)
{
  char *title, *description, *summary;

  g_object_freeze_notify (G_OBJECT (self));
  if (self->state != state)
    {
      self->state = state;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_STATE]);
    }
  describe (self, &title, &description, &summary);
  set_text (self, &self->title, title, PROP_TITLE);
  set_text (self, &self->description, description, PROP_DESCRIPTION);
  set_text (self, &self->summary, summary, PROP_SUMMARY);
  g_object_thaw_notify (G_OBJECT (self));
}

/* ---- asking the runner ------------------------------------------------------------------ */

static void
forget_job (WsEnvironment *self, WsRunnerJob **job)
{
  if (*job == NULL)
    return;
  g_signal_handlers_disconnect_by_data (*job, self);
  ws_runner_job_kill (*job);
  g_clear_object (job);
}

static void
catalog_finished_cb (WsRunnerJob *job, WsEnvironment *self)
{
  GListModel *kernels = ws_session_get_kernels (ws_runner_job_get_session (job));

  /* The session's own list: its entries live as long as the catalog is held. */
  if (g_list_model_get_n_items (kernels) > 0 && g_set_object (&self->catalog, kernels))
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_CATALOG]);
}

static void
info_finished_cb (WsRunnerJob *job, WsEnvironment *self)
{
  const GError *error = ws_runner_job_get_error (job);
  GPtrArray *errors;

  g_object_freeze_notify (G_OBJECT (self));
  g_set_object (&self->session, ws_runner_job_get_session (job));
  errors = ws_session_get_errors (self->session);
  g_ptr_array_set_size (self->problems, 0);
  for (guint i = 0; i < errors->len; i++)
    g_ptr_array_add (self->problems, g_ptr_array_index (errors, i));
  g_free (self->failure);
  self->failure = error ? g_strdup (error->message) : NULL;
  self->failure_code = error != NULL && error->domain == WS_TARGET_ERROR ? error->code : -1;
  g_clear_pointer (&self->waiting, g_free);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_DEVICE]);
  /* The target's own objection (a runner too old there) outweighs a GPU it found. */
  set_state (self, ws_session_get_device (self->session) && self->failure_code < 0
                     ? WS_ENVIRONMENT_READY
                     : WS_ENVIRONMENT_UNUSABLE);
  g_object_thaw_notify (G_OBJECT (self));
}

/* A Slurm job that waits for resources says so while it waits. */
static void
info_status_cb (WsRunnerJob *job, GParamSpec *pspec, WsEnvironment *self)
{
  g_free (self->waiting);
  self->waiting = g_strdup (ws_runner_job_get_status (job));
  if (self->state == WS_ENVIRONMENT_PROBING)
    set_state (self, WS_ENVIRONMENT_PROBING);
}

/* The target the probe asks: the chosen one, or this computer with the runner found here. */
static WsTarget *
dup_effective_target (WsEnvironment *self)
{
  WsTarget *local;

  if (self->target != NULL && (ws_target_get_kind (self->target) != WS_TARGET_LOCAL
                               || ws_target_get_runner (self->target) != NULL))
    return g_object_ref (self->target);
  local = ws_target_new_local ();
  ws_target_set_runner (local, self->runner);
  if (self->target != NULL)
    ws_target_set_environment (local, ws_target_get_environment (self->target));
  return local;
}

static WsRunnerJob *
ask (WsEnvironment *self, WsTarget *target, const char *option, guint timeout,
     GCallback finished, GError **error)
{
  g_autoptr (WsSession) session = ws_session_new (WS_SESSION_SOURCE_LIVE);
  g_autoptr (WsRunnerJob) job = WS_RUNNER_JOB (ws_target_job_new (target, session));
  const char *args[] = { option, NULL };

  ws_runner_job_set_timeout (job, timeout);
  g_signal_connect (job, "finished", finished, self);
  if (!ws_runner_job_start (job, args, error))
    {
      g_signal_handlers_disconnect_by_data (job, self);
      return NULL;
    }
  return g_steal_pointer (&job);
}

static void
fail (WsEnvironment *self, const GError *why)
{
  g_free (self->failure);
  self->failure = g_strdup (why->message);
  self->failure_code = why->domain == WS_TARGET_ERROR ? why->code : -1;
  set_state (self, WS_ENVIRONMENT_UNUSABLE);
}

void
ws_environment_probe (WsEnvironment *self)
{
  g_autoptr (WsTarget) target = NULL;
  g_autoptr (GError) error = NULL;

  g_return_if_fail (WS_IS_ENVIRONMENT (self));
  self->asked = TRUE;
  g_clear_handle_id (&self->reprobe_id, g_source_remove);
  forget_job (self, &self->catalog_job);
  forget_job (self, &self->info_job);
  g_ptr_array_set_size (self->problems, 0);
  if (self->session != NULL)
    {
      g_clear_object (&self->session);
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_DEVICE]);
    }
  /* Another target's kernels are not this one's. */
  if (self->catalog != NULL)
    {
      g_clear_object (&self->catalog);
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_CATALOG]);
    }
  g_clear_pointer (&self->failure, g_free);
  g_clear_pointer (&self->waiting, g_free);
  self->failure_code = -1;
  target = dup_effective_target (self);
  if (!ws_target_is_remote (target) && ws_target_get_kind (target) == WS_TARGET_LOCAL
      && ws_target_get_runner (target) == NULL)
    {
      set_state (self, WS_ENVIRONMENT_NO_RUNNER);
      return;
    }
  set_state (self, WS_ENVIRONMENT_PROBING);
  /* The catalog needs no GPU; the device check takes a CUDA context, and may wait for a
   * remote machine or for a Slurm job to get its resources. */
  self->catalog_job = ask (self, target, "--list", 60, G_CALLBACK (catalog_finished_cb), &error);
  if (self->catalog_job != NULL)
    self->info_job = ask (self, target, "--device-info", 60, G_CALLBACK (info_finished_cb),
                          &error);
  if (self->info_job != NULL)
    g_signal_connect (self->info_job, "notify::status", G_CALLBACK (info_status_cb), self);
  if (error != NULL)
    fail (self, error);
}

static gboolean
reprobe_cb (gpointer data)
{
  WsEnvironment *self = data;

  self->reprobe_id = 0;
  ws_environment_probe (self);
  return G_SOURCE_REMOVE;
}

/* A target edited field by field asks once the edits are in. */
static void
target_changed_cb (WsTarget *target, GParamSpec *pspec, WsEnvironment *self)
{
  g_clear_handle_id (&self->reprobe_id, g_source_remove);
  if (self->asked)
    self->reprobe_id = g_timeout_add (300, reprobe_cb, self);
}

/* ---- properties ------------------------------------------------------------------------- */

const char *
ws_environment_get_runner (WsEnvironment *self)
{
  g_return_val_if_fail (WS_IS_ENVIRONMENT (self), NULL);
  return self->runner;
}

void
ws_environment_set_runner (WsEnvironment *self, const char *runner)
{
  g_return_if_fail (WS_IS_ENVIRONMENT (self));
  if (!replace_string (&self->runner, runner))
    return;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_RUNNER]);
  if (self->asked)
    ws_environment_probe (self);
  else
    set_state (self, runner ? WS_ENVIRONMENT_PROBING : WS_ENVIRONMENT_NO_RUNNER);
}

WsTarget *
ws_environment_get_target (WsEnvironment *self)
{
  g_return_val_if_fail (WS_IS_ENVIRONMENT (self), NULL);
  return self->target;
}

void
ws_environment_set_target (WsEnvironment *self, WsTarget *target)
{
  g_return_if_fail (WS_IS_ENVIRONMENT (self));
  g_return_if_fail (target == NULL || WS_IS_TARGET (target));
  if (self->target == target)
    return;
  if (self->target != NULL)
    g_signal_handlers_disconnect_by_data (self->target, self);
  g_set_object (&self->target, target);
  if (target != NULL)
    g_signal_connect (target, "notify", G_CALLBACK (target_changed_cb), self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_TARGET]);
  if (self->asked)
    ws_environment_probe (self);
  else
    set_state (self, self->state);
}

WsEnvironmentState
ws_environment_get_state (WsEnvironment *self)
{
  g_return_val_if_fail (WS_IS_ENVIRONMENT (self), WS_ENVIRONMENT_NO_RUNNER);
  return self->state;
}

GListModel *
ws_environment_get_catalog (WsEnvironment *self)
{
  g_return_val_if_fail (WS_IS_ENVIRONMENT (self), NULL);
  return self->catalog;
}

WsDevice *
ws_environment_get_device (WsEnvironment *self)
{
  g_return_val_if_fail (WS_IS_ENVIRONMENT (self), NULL);
  return self->session ? ws_session_get_device (self->session) : NULL;
}

WsSession *
ws_environment_get_session (WsEnvironment *self)
{
  g_return_val_if_fail (WS_IS_ENVIRONMENT (self), NULL);
  return self->session;
}

GPtrArray *
ws_environment_get_problems (WsEnvironment *self)
{
  g_return_val_if_fail (WS_IS_ENVIRONMENT (self), NULL);
  return self->problems;
}

const char *
ws_environment_get_title (WsEnvironment *self)
{
  g_return_val_if_fail (WS_IS_ENVIRONMENT (self), NULL);
  return self->title;
}

const char *
ws_environment_get_description (WsEnvironment *self)
{
  g_return_val_if_fail (WS_IS_ENVIRONMENT (self), NULL);
  return self->description;
}

const char *
ws_environment_get_summary (WsEnvironment *self)
{
  g_return_val_if_fail (WS_IS_ENVIRONMENT (self), NULL);
  return self->summary;
}

static void
ws_environment_set_property (GObject *object, guint prop, const GValue *value, GParamSpec *pspec)
{
  WsEnvironment *self = WS_ENVIRONMENT (object);

  switch (prop)
    {
    case PROP_RUNNER: ws_environment_set_runner (self, g_value_get_string (value)); break;
    case PROP_TARGET: ws_environment_set_target (self, g_value_get_object (value)); break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop, pspec);
    }
}

static void
ws_environment_get_property (GObject *object, guint prop, GValue *value, GParamSpec *pspec)
{
  WsEnvironment *self = WS_ENVIRONMENT (object);

  switch (prop)
    {
    case PROP_RUNNER: g_value_set_string (value, self->runner); break;
    case PROP_TARGET: g_value_set_object (value, self->target); break;
    case PROP_STATE: g_value_set_enum (value, self->state); break;
    case PROP_CATALOG: g_value_set_object (value, self->catalog); break;
    case PROP_DEVICE: g_value_set_object (value, ws_environment_get_device (self)); break;
    case PROP_TITLE: g_value_set_string (value, self->title); break;
    case PROP_DESCRIPTION: g_value_set_string (value, self->description); break;
    case PROP_SUMMARY: g_value_set_string (value, self->summary); break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop, pspec);
    }
}

static void
ws_environment_dispose (GObject *object)
{
  WsEnvironment *self = WS_ENVIRONMENT (object);

  g_clear_handle_id (&self->reprobe_id, g_source_remove);
  forget_job (self, &self->catalog_job);
  forget_job (self, &self->info_job);
  if (self->target != NULL)
    g_signal_handlers_disconnect_by_data (self->target, self);
  g_clear_object (&self->target);
  g_ptr_array_set_size (self->problems, 0);
  g_clear_object (&self->session);
  g_clear_object (&self->catalog);
  G_OBJECT_CLASS (ws_environment_parent_class)->dispose (object);
}

static void
ws_environment_finalize (GObject *object)
{
  WsEnvironment *self = WS_ENVIRONMENT (object);

  g_ptr_array_unref (self->problems);
  g_free (self->runner);
  g_free (self->failure);
  g_free (self->waiting);
  g_free (self->title);
  g_free (self->description);
  g_free (self->summary);
  G_OBJECT_CLASS (ws_environment_parent_class)->finalize (object);
}

static void
ws_environment_class_init (WsEnvironmentClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GParamFlags rw = G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS;
  GParamFlags ro = G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS;

  object_class->set_property = ws_environment_set_property;
  object_class->get_property = ws_environment_get_property;
  object_class->dispose = ws_environment_dispose;
  object_class->finalize = ws_environment_finalize;

  properties[PROP_RUNNER] = g_param_spec_string ("runner", NULL, NULL, NULL, rw);
  properties[PROP_TARGET] = g_param_spec_object ("target", NULL, NULL, WS_TYPE_TARGET, rw);
  properties[PROP_STATE] = g_param_spec_enum ("state", NULL, NULL, WS_TYPE_ENVIRONMENT_STATE,
                                              WS_ENVIRONMENT_NO_RUNNER, ro);
  properties[PROP_CATALOG] = g_param_spec_object ("catalog", NULL, NULL, G_TYPE_LIST_MODEL, ro);
  properties[PROP_DEVICE] = g_param_spec_object ("device", NULL, NULL, WS_TYPE_DEVICE, ro);
  properties[PROP_TITLE] = g_param_spec_string ("title", NULL, NULL, NULL, ro);
  properties[PROP_DESCRIPTION] = g_param_spec_string ("description", NULL, NULL, NULL, ro);
  properties[PROP_SUMMARY] = g_param_spec_string ("summary", NULL, NULL, NULL, ro);
  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
ws_environment_init (WsEnvironment *self)
{
  self->problems = g_ptr_array_new ();
  self->failure_code = -1;
  set_state (self, WS_ENVIRONMENT_NO_RUNNER);
}

WsEnvironment *
ws_environment_new (void)
{
  return g_object_new (WS_TYPE_ENVIRONMENT, NULL);
}
