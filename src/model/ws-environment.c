/* ws-environment.c: the environment probe. Asking the runner about the GPU takes a CUDA
 * context (a few hundred ms, seconds behind ssh): it runs as two child processes whose answers
 * arrive as sessions, so nothing waits for them.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "ws-config.h"

#include "ws-environment.h"

#include <glib/gi18n-lib.h>

#include "ws-runner-client.h"

struct _WsEnvironment
{
  GObject parent_instance;

  char *runner;
  char *launcher;
  gboolean asked;   /* probed once: a new launcher asks again */
  guint reprobe_id;

  WsEnvironmentState state;
  WsRunnerClient *catalog_client, *info_client;
  GListModel *catalog; /* WsKernelEntry */
  WsSession *session;
  GPtrArray *problems;
  char *failure;    /* why the runner did not answer, for people */
  char *title, *description, *summary;
};

G_DEFINE_FINAL_TYPE (WsEnvironment, ws_environment, G_TYPE_OBJECT)

enum
{
  PROP_0,
  PROP_RUNNER,
  PROP_LAUNCHER,
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
static const struct
{
  WsErrorCode code;
  const char *title;
  const char *description; /* NULL: the runner's message */
} error_titles[] = {
  { WS_ERROR_NO_DRIVER, N_("No NVIDIA GPU Here"),
    N_("No NVIDIA driver is installed here (%s was not found), so no kernel can run on this "
       "computer. On a machine with an NVIDIA GPU, install the NVIDIA driver (Debian: apt "
       "install nvidia-driver; Ubuntu: sudo ubuntu-drivers install) and restart. Without a "
       "GPU, open one of the recordings that come with Warpscope: they were measured on real "
       "GPUs.") },
  { WS_ERROR_DRIVER_TOO_OLD, N_("The NVIDIA Driver Is Too Old"), NULL },
  { WS_ERROR_NO_DEVICE, N_("The Driver Sees No GPU"),
    N_("The NVIDIA driver is installed but sees no GPU. Check that nvidia-smi lists one; in a "
       "container, give it the GPU (docker run --gpus all); check that CUDA_VISIBLE_DEVICES "
       "does not hide every device.") },
  { WS_ERROR_NO_KERNEL_IMAGE, N_("This Build Cannot Run on This GPU"), NULL },
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

static char *
ready_summary (WsEnvironment *self, WsDevice *device)
{
  const WsHello *hello = ws_session_get_hello (self->session);

  return g_strdup_printf (_("%s · driver supports CUDA %s · runtime %s"), ws_device_get_name (device),
                          hello && hello->driver_cuda ? hello->driver_cuda : "?",
                          hello && hello->runtime_cuda ? hello->runtime_cuda : "?");
}

/* The welcome page's heading and paragraph, and the status line's sentence, for the state. */
static void
describe (WsEnvironment *self, char **title, char **description, char **summary)
{
  WsDevice *device = ws_environment_get_device (self);
  const WsRunnerError *error = first_error (self);

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
      *title = g_strdup (_("Looking for a GPU…"));
      *summary = g_strdup (_("Looking for a GPU…"));
      return;
    case WS_ENVIRONMENT_READY:
      *title = g_strdup_printf (_("Ready to Run on the %s"), ws_device_get_name (device));
      *description = g_strdup (_("Pick a kernel on the left and press Run (Ctrl+R). The "
                                 "tutorial's vector add with n = 10,000,000 and 256 threads per "
                                 "block is a good first run. Or open a recording."));
      *summary = ready_summary (self, device);
      return;
    case WS_ENVIRONMENT_UNUSABLE:
    default:
      *summary = g_strdup (_("No usable GPU here: recordings and the calculator work"));
      if (error == NULL)
        {
          *title = g_strdup (_("The GPU Runner Did Not Answer"));
          *description = g_strdup (self->failure);
          return;
        }
      *title = g_strdup (_("The GPU Cannot Be Used"));
      for (guint i = 0; i < G_N_ELEMENTS (error_titles); i++)
        if (error->code == error_titles[i].code)
          {
            replace_string (title, _(error_titles[i].title));
            if (error_titles[i].description != NULL)
              {
                g_autofree char *library = missing_library (error->message);

                *description = g_strdup_printf (_(error_titles[i].description), library);
              }
          }
      if (*description == NULL)
        *description = g_strdup (error->message);
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
forget_client (WsEnvironment *self, WsRunnerClient **client)
{
  if (*client == NULL)
    return;
  g_signal_handlers_disconnect_by_data (*client, self);
  ws_runner_client_cancel (*client);
  g_clear_object (client);
}

static void
catalog_finished_cb (WsRunnerClient *client, WsEnvironment *self)
{
  GListModel *kernels = ws_session_get_kernels (ws_runner_client_get_session (client));

  /* The session's own list: its entries live as long as the catalog is held. */
  if (g_list_model_get_n_items (kernels) > 0 && g_set_object (&self->catalog, kernels))
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_CATALOG]);
}

static void
info_finished_cb (WsRunnerClient *client, WsEnvironment *self)
{
  const GError *error = ws_runner_client_get_error (client);
  GPtrArray *errors;

  g_object_freeze_notify (G_OBJECT (self));
  g_set_object (&self->session, ws_runner_client_get_session (client));
  errors = ws_session_get_errors (self->session);
  g_ptr_array_set_size (self->problems, 0);
  for (guint i = 0; i < errors->len; i++)
    g_ptr_array_add (self->problems, g_ptr_array_index (errors, i));
  g_free (self->failure);
  self->failure = error ? g_strdup (error->message) : NULL;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_DEVICE]);
  set_state (self, ws_session_get_device (self->session) ? WS_ENVIRONMENT_READY
                                                         : WS_ENVIRONMENT_UNUSABLE);
  g_object_thaw_notify (G_OBJECT (self));
}

static WsRunnerClient *
ask (WsEnvironment *self, const char *const *launcher, const char *option, guint timeout,
     GCallback finished, GError **error)
{
  g_autoptr (WsSession) session = ws_session_new (WS_SESSION_SOURCE_LIVE);
  g_autoptr (WsRunnerClient) client = ws_runner_client_new (session);
  const char *argv[] = { self->runner, option, NULL };

  ws_runner_client_set_timeout (client, timeout);
  g_signal_connect (client, "finished", finished, self);
  if (!ws_runner_client_start (client, launcher, argv, error))
    {
      g_signal_handlers_disconnect_by_data (client, self);
      return NULL;
    }
  return g_steal_pointer (&client);
}

static void
fail (WsEnvironment *self, const char *why)
{
  g_free (self->failure);
  self->failure = g_strdup (why);
  set_state (self, WS_ENVIRONMENT_UNUSABLE);
}

void
ws_environment_probe (WsEnvironment *self)
{
  g_auto (GStrv) launcher = NULL;
  g_autoptr (GError) error = NULL;

  g_return_if_fail (WS_IS_ENVIRONMENT (self));
  self->asked = TRUE;
  g_clear_handle_id (&self->reprobe_id, g_source_remove);
  forget_client (self, &self->catalog_client);
  forget_client (self, &self->info_client);
  g_ptr_array_set_size (self->problems, 0);
  if (self->session != NULL)
    {
      g_clear_object (&self->session);
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_DEVICE]);
    }
  g_clear_pointer (&self->failure, g_free);
  if (self->runner == NULL)
    {
      set_state (self, WS_ENVIRONMENT_NO_RUNNER);
      return;
    }
  if (self->launcher != NULL && *self->launcher != '\0'
      && !g_shell_parse_argv (self->launcher, NULL, &launcher, &error))
    {
      g_prefix_error (&error, _("The launcher prefix in the preferences cannot be read: "));
      fail (self, error->message);
      return;
    }
  set_state (self, WS_ENVIRONMENT_PROBING);
  /* The catalog needs no GPU; the device check takes a CUDA context, and may wait for a
   * remote machine. */
  self->catalog_client = ask (self, (const char *const *) launcher, "--list", 60,
                              G_CALLBACK (catalog_finished_cb), &error);
  if (self->catalog_client != NULL)
    self->info_client = ask (self, (const char *const *) launcher, "--device-info", 60,
                             G_CALLBACK (info_finished_cb), &error);
  if (error != NULL)
    fail (self, error->message);
}

static gboolean
reprobe_cb (gpointer data)
{
  WsEnvironment *self = data;

  self->reprobe_id = 0;
  ws_environment_probe (self);
  return G_SOURCE_REMOVE;
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

void
ws_environment_set_launcher (WsEnvironment *self, const char *launcher)
{
  g_return_if_fail (WS_IS_ENVIRONMENT (self));
  if (!replace_string (&self->launcher, launcher))
    return;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_LAUNCHER]);
  /* The prefix is typed a letter at a time: ask once it rests. */
  g_clear_handle_id (&self->reprobe_id, g_source_remove);
  if (self->asked)
    self->reprobe_id = g_timeout_add (1000, reprobe_cb, self);
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
    case PROP_LAUNCHER: ws_environment_set_launcher (self, g_value_get_string (value)); break;
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
    case PROP_LAUNCHER: g_value_set_string (value, self->launcher); break;
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
  forget_client (self, &self->catalog_client);
  forget_client (self, &self->info_client);
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
  g_free (self->launcher);
  g_free (self->failure);
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
  properties[PROP_LAUNCHER] = g_param_spec_string ("launcher", NULL, NULL, NULL, rw);
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
  set_state (self, WS_ENVIRONMENT_NO_RUNNER);
}

WsEnvironment *
ws_environment_new (void)
{
  return g_object_new (WS_TYPE_ENVIRONMENT, NULL);
}
