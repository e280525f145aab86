/* ws-runner-job.c: the runner on a target as one thing to start, stop and hear the end of.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "ws-config.h"

#include "ws-runner-job-private.h"

typedef struct
{
  WsTarget *target;
  WsSession *session;
  guint timeout;
  char *status;
  gboolean started, running;
  GError *error;
} WsRunnerJobPrivate;

G_DEFINE_ABSTRACT_TYPE_WITH_PRIVATE (WsRunnerJob, ws_runner_job, G_TYPE_OBJECT)

static WsRunnerJobPrivate *
priv_of (WsRunnerJob *self)
{
  return ws_runner_job_get_instance_private (self);
}

enum
{
  PROP_0,
  PROP_RUNNING,
  PROP_STATUS,
  N_PROPS
};

static GParamSpec *props[N_PROPS];

enum
{
  FINISHED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

static void
ws_runner_job_dispose (GObject *object)
{
  WsRunnerJobPrivate *priv = priv_of (WS_RUNNER_JOB (object));

  g_clear_object (&priv->session);
  g_clear_object (&priv->target);
  G_OBJECT_CLASS (ws_runner_job_parent_class)->dispose (object);
}

static void
ws_runner_job_finalize (GObject *object)
{
  WsRunnerJobPrivate *priv = priv_of (WS_RUNNER_JOB (object));

  g_free (priv->status);
  g_clear_error (&priv->error);
  G_OBJECT_CLASS (ws_runner_job_parent_class)->finalize (object);
}

static void
ws_runner_job_get_property (GObject *object, guint id, GValue *value, GParamSpec *pspec)
{
  WsRunnerJobPrivate *priv = priv_of (WS_RUNNER_JOB (object));

  switch (id)
    {
    case PROP_RUNNING: g_value_set_boolean (value, priv->running); break;
    case PROP_STATUS: g_value_set_string (value, priv->status); break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID (object, id, pspec);
    }
}

static void
ws_runner_job_class_init (WsRunnerJobClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = ws_runner_job_dispose;
  object_class->finalize = ws_runner_job_finalize;
  object_class->get_property = ws_runner_job_get_property;
  props[PROP_RUNNING] = g_param_spec_boolean ("running", NULL, NULL, FALSE,
                                              G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  props[PROP_STATUS] = g_param_spec_string ("status", NULL, NULL, NULL,
                                            G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, props);
  /* Once per start that succeeded: every runner has ended and its output has been read. */
  signals[FINISHED] = g_signal_new ("finished", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0,
                                    NULL, NULL, NULL, G_TYPE_NONE, 0);
}

static void
ws_runner_job_init (WsRunnerJob *self)
{
  WsRunnerJobPrivate *priv = priv_of (self);

  priv->timeout = 120;
}

gpointer
_ws_runner_job_new (GType type, WsTarget *target, WsSession *session)
{
  WsRunnerJob *self;
  WsRunnerJobPrivate *priv;

  g_return_val_if_fail (g_type_is_a (type, WS_TYPE_RUNNER_JOB), NULL);
  g_return_val_if_fail (WS_IS_TARGET (target), NULL);
  g_return_val_if_fail (WS_IS_SESSION (session), NULL);
  self = g_object_new (type, NULL);
  priv = priv_of (self);
  priv->target = g_object_ref (target);
  priv->session = g_object_ref (session);
  return self;
}

void
_ws_runner_job_set_status (WsRunnerJob *self, const char *status)
{
  WsRunnerJobPrivate *priv = priv_of (self);
  char *old = priv->status;

  priv->status = g_strdup (status);
  g_free (old);
  g_object_notify_by_pspec (G_OBJECT (self), props[PROP_STATUS]);
}

void
_ws_runner_job_finish (WsRunnerJob *self, GError *error)
{
  WsRunnerJobPrivate *priv = priv_of (self);

  if (!priv->running)
    {
      g_critical ("%s: %s has already finished", G_STRFUNC, G_OBJECT_TYPE_NAME (self));
      g_clear_error (&error);
      return;
    }
  g_clear_error (&priv->error);
  priv->error = error;
  priv->running = FALSE;
  /* A handler may drop the last reference to the job. */
  g_object_ref (self);
  g_object_notify_by_pspec (G_OBJECT (self), props[PROP_RUNNING]);
  g_signal_emit (self, signals[FINISHED], 0);
  g_object_unref (self);
}

void
ws_runner_job_set_timeout (WsRunnerJob *self, guint seconds)
{
  WsRunnerJobPrivate *priv;

  g_return_if_fail (WS_IS_RUNNER_JOB (self));
  priv = priv_of (self);
  priv->timeout = seconds;
  if (WS_RUNNER_JOB_GET_CLASS (self)->timeout_changed != NULL)
    WS_RUNNER_JOB_GET_CLASS (self)->timeout_changed (self);
}

guint
ws_runner_job_get_timeout (WsRunnerJob *self)
{
  g_return_val_if_fail (WS_IS_RUNNER_JOB (self), 0);
  return priv_of (self)->timeout;
}

gboolean
ws_runner_job_start (WsRunnerJob *self, const char *const *args, GError **error)
{
  WsRunnerJobPrivate *priv;

  g_return_val_if_fail (WS_IS_RUNNER_JOB (self), FALSE);
  g_return_val_if_fail (args != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);
  priv = priv_of (self);
  g_return_val_if_fail (!priv->started, FALSE);

  priv->started = TRUE;
  /* Running from here on: what the subclass does while it starts (a split whose runners
   * start one by one) sees a running job. */
  priv->running = TRUE;
  if (!WS_RUNNER_JOB_GET_CLASS (self)->start (self, args, error))
    {
      priv->running = FALSE;
      return FALSE;
    }
  if (priv->running)
    g_object_notify_by_pspec (G_OBJECT (self), props[PROP_RUNNING]);
  return TRUE;
}

void
ws_runner_job_cancel (WsRunnerJob *self)
{
  g_return_if_fail (WS_IS_RUNNER_JOB (self));
  if (ws_runner_job_is_running (self))
    WS_RUNNER_JOB_GET_CLASS (self)->cancel (self);
}

void
ws_runner_job_kill (WsRunnerJob *self)
{
  g_return_if_fail (WS_IS_RUNNER_JOB (self));
  if (ws_runner_job_is_running (self))
    WS_RUNNER_JOB_GET_CLASS (self)->kill (self);
}

gboolean
ws_runner_job_is_running (WsRunnerJob *self)
{
  g_return_val_if_fail (WS_IS_RUNNER_JOB (self), FALSE);
  return priv_of (self)->running;
}

WsTarget *
ws_runner_job_get_target (WsRunnerJob *self)
{
  g_return_val_if_fail (WS_IS_RUNNER_JOB (self), NULL);
  return priv_of (self)->target;
}

WsSession *
ws_runner_job_get_session (WsRunnerJob *self)
{
  g_return_val_if_fail (WS_IS_RUNNER_JOB (self), NULL);
  return priv_of (self)->session;
}

const char *
ws_runner_job_get_status (WsRunnerJob *self)
{
  g_return_val_if_fail (WS_IS_RUNNER_JOB (self), NULL);
  return priv_of (self)->status;
}

const GError *
ws_runner_job_get_error (WsRunnerJob *self)
{
  g_return_val_if_fail (WS_IS_RUNNER_JOB (self), NULL);
  return priv_of (self)->error;
}

int
ws_runner_job_get_exit_status (WsRunnerJob *self)
{
  g_return_val_if_fail (WS_IS_RUNNER_JOB (self), -1);
  return WS_RUNNER_JOB_GET_CLASS (self)->get_exit_status (self);
}

guint
ws_runner_job_get_n_clients (WsRunnerJob *self)
{
  g_return_val_if_fail (WS_IS_RUNNER_JOB (self), 0);
  return WS_RUNNER_JOB_GET_CLASS (self)->get_n_clients (self);
}

WsRunnerClient *
ws_runner_job_get_client (WsRunnerJob *self, guint i)
{
  g_return_val_if_fail (WS_IS_RUNNER_JOB (self), NULL);
  g_return_val_if_fail (i < ws_runner_job_get_n_clients (self), NULL);
  return WS_RUNNER_JOB_GET_CLASS (self)->get_client (self, i);
}
