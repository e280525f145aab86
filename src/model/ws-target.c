/* ws-target.c: a target's properties, its checks, and its group in the key file of saved
 * targets.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "ws-config.h"

#include "ws-target.h"

#include <string.h>

#include <glib/gi18n-lib.h>

#define DEFAULT_PENDING_TIMEOUT 120

struct _WsTarget
{
  GObject parent_instance;
  char *name;
  WsTargetKind kind;
  char *host;
  guint port;
  char **ssh_options;
  char **slurm_options;
  char **launcher;
  gboolean remote_shell;
  char *runner;
  char **environment;
  guint pending_timeout;
  char *job_dir;
};

G_DEFINE_FINAL_TYPE (WsTarget, ws_target, G_TYPE_OBJECT)

G_DEFINE_ENUM_TYPE (WsTargetKind, ws_target_kind,
                    G_DEFINE_ENUM_VALUE (WS_TARGET_LOCAL, "local"),
                    G_DEFINE_ENUM_VALUE (WS_TARGET_SSH, "ssh"),
                    G_DEFINE_ENUM_VALUE (WS_TARGET_SLURM_SRUN, "srun"),
                    G_DEFINE_ENUM_VALUE (WS_TARGET_SLURM_SBATCH, "sbatch"),
                    G_DEFINE_ENUM_VALUE (WS_TARGET_COMMAND, "command"))

G_DEFINE_QUARK (ws-target-error-quark, ws_target_error)

enum
{
  PROP_0,
  PROP_NAME,
  PROP_KIND,
  PROP_HOST,
  PROP_PORT,
  PROP_SSH_OPTIONS,
  PROP_SLURM_OPTIONS,
  PROP_LAUNCHER,
  PROP_REMOTE_SHELL,
  PROP_RUNNER,
  PROP_ENVIRONMENT,
  PROP_PENDING_TIMEOUT,
  PROP_JOB_DIR,
  PROP_DESCRIPTION,
  N_PROPS
};

static GParamSpec *props[N_PROPS];

static const char *const kind_words[] = { "local", "ssh", "srun", "sbatch", "command" };

const char *
ws_target_kind_to_string (WsTargetKind kind)
{
  g_return_val_if_fail ((guint) kind < G_N_ELEMENTS (kind_words), NULL);
  return kind_words[kind];
}

gboolean
ws_target_kind_from_string (const char *text, WsTargetKind *kind)
{
  for (guint i = 0; text != NULL && i < G_N_ELEMENTS (kind_words); i++)
    if (g_str_equal (text, kind_words[i]))
      {
        *kind = (WsTargetKind) i;
        return TRUE;
      }
  return FALSE;
}

static void
ws_target_finalize (GObject *object)
{
  WsTarget *self = WS_TARGET (object);

  g_free (self->name);
  g_free (self->host);
  g_strfreev (self->ssh_options);
  g_strfreev (self->slurm_options);
  g_strfreev (self->launcher);
  g_free (self->runner);
  g_strfreev (self->environment);
  g_free (self->job_dir);
  G_OBJECT_CLASS (ws_target_parent_class)->finalize (object);
}

static void
ws_target_get_property (GObject *object, guint id, GValue *value, GParamSpec *pspec)
{
  WsTarget *self = WS_TARGET (object);

  switch (id)
    {
    case PROP_NAME: g_value_set_string (value, self->name); break;
    case PROP_KIND: g_value_set_enum (value, self->kind); break;
    case PROP_HOST: g_value_set_string (value, self->host); break;
    case PROP_PORT: g_value_set_uint (value, self->port); break;
    case PROP_SSH_OPTIONS: g_value_set_boxed (value, self->ssh_options); break;
    case PROP_SLURM_OPTIONS: g_value_set_boxed (value, self->slurm_options); break;
    case PROP_LAUNCHER: g_value_set_boxed (value, self->launcher); break;
    case PROP_REMOTE_SHELL: g_value_set_boolean (value, self->remote_shell); break;
    case PROP_RUNNER: g_value_set_string (value, self->runner); break;
    case PROP_ENVIRONMENT: g_value_set_boxed (value, self->environment); break;
    case PROP_PENDING_TIMEOUT: g_value_set_uint (value, self->pending_timeout); break;
    case PROP_JOB_DIR: g_value_set_string (value, self->job_dir); break;
    case PROP_DESCRIPTION: g_value_take_string (value, ws_target_dup_description (self)); break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID (object, id, pspec);
    }
}

/* "" means unset, as an empty entry of a form does. */
static gboolean
replace_string (char **field, const char *value)
{
  if (value != NULL && *value == '\0')
    value = NULL;
  if (g_strcmp0 (*field, value) == 0)
    return FALSE;
  g_free (*field);
  *field = g_strdup (value);
  return TRUE;
}

static gboolean
replace_strv (char ***field, const char *const *value)
{
  if (value != NULL && value[0] == NULL)
    value = NULL;
  if ((*field == NULL && value == NULL)
      || (*field != NULL && value != NULL
          && g_strv_equal ((const char *const *) *field, value)))
    return FALSE;
  g_strfreev (*field);
  *field = g_strdupv ((char **) value);
  return TRUE;
}

static void
changed (WsTarget *self, guint prop)
{
  g_object_notify_by_pspec (G_OBJECT (self), props[prop]);
  g_object_notify_by_pspec (G_OBJECT (self), props[PROP_DESCRIPTION]);
}

static void
ws_target_set_property (GObject *object, guint id, const GValue *value, GParamSpec *pspec)
{
  WsTarget *self = WS_TARGET (object);
  gboolean did = FALSE;

  switch (id)
    {
    case PROP_NAME: did = replace_string (&self->name, g_value_get_string (value)); break;
    case PROP_KIND:
      did = self->kind != (WsTargetKind) g_value_get_enum (value);
      self->kind = g_value_get_enum (value);
      break;
    case PROP_HOST: did = replace_string (&self->host, g_value_get_string (value)); break;
    case PROP_PORT:
      did = self->port != g_value_get_uint (value);
      self->port = g_value_get_uint (value);
      break;
    case PROP_SSH_OPTIONS: did = replace_strv (&self->ssh_options, g_value_get_boxed (value)); break;
    case PROP_SLURM_OPTIONS:
      did = replace_strv (&self->slurm_options, g_value_get_boxed (value));
      break;
    case PROP_LAUNCHER: did = replace_strv (&self->launcher, g_value_get_boxed (value)); break;
    case PROP_REMOTE_SHELL:
      did = self->remote_shell != g_value_get_boolean (value);
      self->remote_shell = g_value_get_boolean (value);
      break;
    case PROP_RUNNER: did = replace_string (&self->runner, g_value_get_string (value)); break;
    case PROP_ENVIRONMENT:
      did = replace_strv (&self->environment, g_value_get_boxed (value));
      break;
    case PROP_PENDING_TIMEOUT:
      did = self->pending_timeout != g_value_get_uint (value);
      self->pending_timeout = g_value_get_uint (value);
      break;
    case PROP_JOB_DIR: did = replace_string (&self->job_dir, g_value_get_string (value)); break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID (object, id, pspec); return;
    }
  if (did)
    changed (self, id);
}

static void
ws_target_class_init (WsTargetClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GParamFlags rw = G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS;

  object_class->finalize = ws_target_finalize;
  object_class->get_property = ws_target_get_property;
  object_class->set_property = ws_target_set_property;

  props[PROP_NAME] = g_param_spec_string ("name", NULL, NULL, NULL, rw | G_PARAM_CONSTRUCT);
  props[PROP_KIND] = g_param_spec_enum ("kind", NULL, NULL, WS_TYPE_TARGET_KIND, WS_TARGET_LOCAL,
                                        rw | G_PARAM_CONSTRUCT);
  props[PROP_HOST] = g_param_spec_string ("host", NULL, NULL, NULL, rw);
  props[PROP_PORT] = g_param_spec_uint ("port", NULL, NULL, 0, 65535, 0, rw);
  props[PROP_SSH_OPTIONS] = g_param_spec_boxed ("ssh-options", NULL, NULL, G_TYPE_STRV, rw);
  props[PROP_SLURM_OPTIONS] = g_param_spec_boxed ("slurm-options", NULL, NULL, G_TYPE_STRV, rw);
  props[PROP_LAUNCHER] = g_param_spec_boxed ("launcher", NULL, NULL, G_TYPE_STRV, rw);
  props[PROP_REMOTE_SHELL] = g_param_spec_boolean ("remote-shell", NULL, NULL, FALSE, rw);
  props[PROP_RUNNER] = g_param_spec_string ("runner", NULL, NULL, NULL, rw);
  props[PROP_ENVIRONMENT] = g_param_spec_boxed ("environment", NULL, NULL, G_TYPE_STRV, rw);
  props[PROP_PENDING_TIMEOUT] = g_param_spec_uint ("pending-timeout", NULL, NULL, 0, G_MAXUINT,
                                                   DEFAULT_PENDING_TIMEOUT, rw);
  props[PROP_JOB_DIR] = g_param_spec_string ("job-dir", NULL, NULL, NULL, rw);
  props[PROP_DESCRIPTION] = g_param_spec_string ("description", NULL, NULL, NULL,
                                                 G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, props);
}

static void
ws_target_init (WsTarget *self)
{
  self->pending_timeout = DEFAULT_PENDING_TIMEOUT;
}

WsTarget *
ws_target_new (const char *name, WsTargetKind kind)
{
  return g_object_new (WS_TYPE_TARGET, "name", name, "kind", kind, NULL);
}

WsTarget *
ws_target_new_local (void)
{
  return ws_target_new (WS_TARGET_LOCAL_NAME, WS_TARGET_LOCAL);
}

/* ---- accessors --------------------------------------------------------------------------- */

#define STRING_ACCESSORS(field, prop)                                                        \
  const char *ws_target_get_##field (WsTarget *self)                                         \
  {                                                                                          \
    g_return_val_if_fail (WS_IS_TARGET (self), NULL);                                        \
    return self->field;                                                                      \
  }                                                                                          \
  void ws_target_set_##field (WsTarget *self, const char *value)                             \
  {                                                                                          \
    g_return_if_fail (WS_IS_TARGET (self));                                                  \
    if (replace_string (&self->field, value))                                                \
      changed (self, prop);                                                                  \
  }

#define STRV_ACCESSORS(field, prop)                                                          \
  const char *const *ws_target_get_##field (WsTarget *self)                                  \
  {                                                                                          \
    g_return_val_if_fail (WS_IS_TARGET (self), NULL);                                        \
    return (const char *const *) self->field;                                                \
  }                                                                                          \
  void ws_target_set_##field (WsTarget *self, const char *const *value)                      \
  {                                                                                          \
    g_return_if_fail (WS_IS_TARGET (self));                                                  \
    if (replace_strv (&self->field, value))                                                  \
      changed (self, prop);                                                                  \
  }

STRING_ACCESSORS (host, PROP_HOST)
STRING_ACCESSORS (runner, PROP_RUNNER)
STRING_ACCESSORS (job_dir, PROP_JOB_DIR)
STRV_ACCESSORS (ssh_options, PROP_SSH_OPTIONS)
STRV_ACCESSORS (slurm_options, PROP_SLURM_OPTIONS)
STRV_ACCESSORS (launcher, PROP_LAUNCHER)
STRV_ACCESSORS (environment, PROP_ENVIRONMENT)

const char *
ws_target_get_name (WsTarget *self)
{
  g_return_val_if_fail (WS_IS_TARGET (self), NULL);
  return self->name;
}

WsTargetKind
ws_target_get_kind (WsTarget *self)
{
  g_return_val_if_fail (WS_IS_TARGET (self), WS_TARGET_LOCAL);
  return self->kind;
}

guint
ws_target_get_port (WsTarget *self)
{
  g_return_val_if_fail (WS_IS_TARGET (self), 0);
  return self->port;
}

void
ws_target_set_port (WsTarget *self, guint port)
{
  g_return_if_fail (WS_IS_TARGET (self));
  g_object_set (self, "port", port, NULL);
}

gboolean
ws_target_get_remote_shell (WsTarget *self)
{
  g_return_val_if_fail (WS_IS_TARGET (self), FALSE);
  return self->remote_shell;
}

void
ws_target_set_remote_shell (WsTarget *self, gboolean remote_shell)
{
  g_return_if_fail (WS_IS_TARGET (self));
  g_object_set (self, "remote-shell", remote_shell, NULL);
}

guint
ws_target_get_pending_timeout (WsTarget *self)
{
  g_return_val_if_fail (WS_IS_TARGET (self), 0);
  return self->pending_timeout;
}

void
ws_target_set_pending_timeout (WsTarget *self, guint seconds)
{
  g_return_if_fail (WS_IS_TARGET (self));
  g_object_set (self, "pending-timeout", seconds, NULL);
}

gboolean
ws_target_is_slurm (WsTarget *self)
{
  g_return_val_if_fail (WS_IS_TARGET (self), FALSE);
  return self->kind == WS_TARGET_SLURM_SRUN || self->kind == WS_TARGET_SLURM_SBATCH;
}

gboolean
ws_target_is_remote (WsTarget *self)
{
  g_return_val_if_fail (WS_IS_TARGET (self), FALSE);
  return self->kind != WS_TARGET_LOCAL && !(self->kind == WS_TARGET_COMMAND
                                             && !self->remote_shell);
}

static void
append_words (GString *out, const char *const *words)
{
  for (guint i = 0; words != NULL && words[i] != NULL; i++)
    {
      g_autofree char *quoted = NULL;

      /* Shown as a shell would take it back, quoting only what needs it. */
      if (*words[i] != '\0' && strpbrk (words[i], " \t\n'\"\\$`;&|<>()*?[]{}~#!") == NULL)
        quoted = g_strdup (words[i]);
      else
        quoted = g_shell_quote (words[i]);
      if (out->len > 0)
        g_string_append_c (out, ' ');
      g_string_append (out, quoted);
    }
}

char *
ws_target_dup_description (WsTarget *self)
{
  GString *out = g_string_new (NULL);

  g_return_val_if_fail (WS_IS_TARGET (self), NULL);
  if (self->host != NULL && self->kind != WS_TARGET_LOCAL && self->kind != WS_TARGET_COMMAND)
    {
      g_string_append (out, "ssh");
      if (self->port != 0)
        g_string_append_printf (out, " -p %u", self->port);
      append_words (out, (const char *const *) self->ssh_options);
      append_words (out, (const char *const[]) { self->host, NULL });
    }
  switch (self->kind)
    {
    case WS_TARGET_LOCAL:
    case WS_TARGET_SSH:
      break;
    case WS_TARGET_SLURM_SRUN:
      append_words (out, (const char *const[]) { "srun", NULL });
      append_words (out, (const char *const *) self->slurm_options);
      break;
    case WS_TARGET_SLURM_SBATCH:
      append_words (out, (const char *const[]) { "sbatch", "--wait", NULL });
      append_words (out, (const char *const *) self->slurm_options);
      break;
    case WS_TARGET_COMMAND:
      append_words (out, (const char *const *) self->launcher);
      break;
    }
  if (out->len == 0)
    g_string_append (out, _("this computer"));
  return g_string_free (out, FALSE);
}

char *
ws_target_dup_place (WsTarget *self)
{
  g_return_val_if_fail (WS_IS_TARGET (self), NULL);
  switch (self->kind)
    {
    case WS_TARGET_SSH:
      return g_strdup (self->host != NULL ? self->host : self->name);
    case WS_TARGET_SLURM_SRUN:
    case WS_TARGET_SLURM_SBATCH:
      /* Translators: where a Slurm job runs; %s is the login node reached by ssh. */
      return self->host != NULL ? g_strdup_printf (_("the Slurm cluster of %s"), self->host)
                                : g_strdup (_("the Slurm cluster"));
    case WS_TARGET_COMMAND:
      if (self->remote_shell)
        {
          g_autofree char *description = ws_target_dup_description (self);

          /* Translators: where the runner runs behind a launcher typed by hand, such as
           * “ssh gpu-box”. */
          return g_strdup_printf (_("the far side of “%s”"), description);
        }
      return g_strdup (_("this computer"));
    case WS_TARGET_LOCAL:
    default:
      return g_strdup (_("this computer"));
    }
}

/* ---- checks ------------------------------------------------------------------------------ */

static gboolean
is_plain_name (const char *name)
{
  if (name == NULL || *name == '\0' || *name == '-' || strlen (name) > 64)
    return FALSE;
  for (const char *p = name; *p != '\0'; p++)
    if (!g_ascii_isalnum (*p) && *p != '.' && *p != '_' && *p != '-')
      return FALSE;
  return TRUE;
}

static gboolean
is_environment_entry (const char *entry)
{
  const char *eq = strchr (entry, '=');

  if (eq == NULL || eq == entry || g_ascii_isdigit (*entry))
    return FALSE;
  for (const char *p = entry; p < eq; p++)
    if (!g_ascii_isalnum (*p) && *p != '_')
      return FALSE;
  return TRUE;
}

gboolean
ws_target_validate (WsTarget *self, GError **error)
{
  g_return_val_if_fail (WS_IS_TARGET (self), FALSE);

  if (!is_plain_name (self->name))
    {
      g_set_error (error, WS_TARGET_ERROR, WS_TARGET_ERROR_INVALID,
                   _("“%s” cannot name a target: use letters, digits, “.”, “_” and “-” (at "
                     "most 64, not starting with “-”), such as gpu-box"),
                   self->name != NULL ? self->name : "");
      return FALSE;
    }
  if ((self->kind == WS_TARGET_LOCAL) != g_str_equal (self->name, WS_TARGET_LOCAL_NAME))
    {
      g_set_error (error, WS_TARGET_ERROR, WS_TARGET_ERROR_INVALID,
                   _("the name “%s” is kept for this computer: give the target another name"),
                   WS_TARGET_LOCAL_NAME);
      return FALSE;
    }
  if (self->kind == WS_TARGET_SSH && self->host == NULL)
    {
      g_set_error (error, WS_TARGET_ERROR, WS_TARGET_ERROR_INVALID,
                   _("the ssh target “%s” needs a host, such as gpu-box or me@gpu.example.org"),
                   self->name);
      return FALSE;
    }
  if (self->host != NULL && *self->host == '-')
    {
      g_set_error (error, WS_TARGET_ERROR, WS_TARGET_ERROR_INVALID,
                   _("“%s” cannot be a host name: it starts with “-”"), self->host);
      return FALSE;
    }
  if (self->kind == WS_TARGET_COMMAND && self->launcher == NULL)
    {
      g_set_error (error, WS_TARGET_ERROR, WS_TARGET_ERROR_INVALID,
                   _("the target “%s” needs the command to start the runner behind"), self->name);
      return FALSE;
    }
  for (guint i = 0; self->environment != NULL && self->environment[i] != NULL; i++)
    if (!is_environment_entry (self->environment[i]))
      {
        g_set_error (error, WS_TARGET_ERROR, WS_TARGET_ERROR_INVALID,
                     _("“%s” is not a variable for the runner: write NAME=VALUE, such as "
                       "CUDA_VISIBLE_DEVICES=0"),
                     self->environment[i]);
        return FALSE;
      }
  if (self->environment != NULL && self->runner != NULL && strchr (self->runner, '=') != NULL)
    {
      g_set_error (error, WS_TARGET_ERROR, WS_TARGET_ERROR_INVALID,
                   _("the runner's path “%s” has a “=” in it, which env would take for a "
                     "variable: move the runner"),
                   self->runner);
      return FALSE;
    }
  return TRUE;
}

/* ---- saved ------------------------------------------------------------------------------- */

static char **
get_list (GKeyFile *key_file, const char *group, const char *key)
{
  return g_key_file_has_key (key_file, group, key, NULL)
           ? g_key_file_get_string_list (key_file, group, key, NULL, NULL)
           : NULL;
}

WsTarget *
ws_target_new_from_key_file (GKeyFile *key_file, const char *group, GError **error)
{
  g_autofree char *kind_text = g_key_file_get_string (key_file, group, "kind", NULL);
  g_autofree char *host = g_key_file_get_string (key_file, group, "host", NULL);
  g_autofree char *runner = g_key_file_get_string (key_file, group, "runner", NULL);
  g_autofree char *job_dir = g_key_file_get_string (key_file, group, "job-dir", NULL);
  g_auto (GStrv) ssh_options = get_list (key_file, group, "ssh-options");
  g_auto (GStrv) slurm_options = get_list (key_file, group, "slurm-options");
  g_auto (GStrv) launcher = get_list (key_file, group, "launcher");
  g_auto (GStrv) environment = get_list (key_file, group, "environment");
  g_autoptr (WsTarget) target = NULL;
  g_autoptr (GError) local = NULL;
  WsTargetKind kind;
  gint64 number;

  if (!ws_target_kind_from_string (kind_text, &kind) || kind == WS_TARGET_LOCAL)
    {
      g_set_error (error, WS_TARGET_ERROR, WS_TARGET_ERROR_INVALID,
                   _("target “%s”: kind=%s is not one of ssh, srun, sbatch or command"), group,
                   kind_text != NULL ? kind_text : "");
      return NULL;
    }
  target = ws_target_new (group, kind);
  g_object_set (target, "host", host, "runner", runner, "job-dir", job_dir, "ssh-options",
                ssh_options, "slurm-options", slurm_options, "launcher", launcher,
                "environment", environment, NULL);
  target->remote_shell = g_key_file_get_boolean (key_file, group, "remote-shell", NULL);
  if (g_key_file_has_key (key_file, group, "port", NULL))
    {
      number = g_key_file_get_int64 (key_file, group, "port", &local);
      if (local != NULL || number < 1 || number > 65535)
        {
          g_set_error (error, WS_TARGET_ERROR, WS_TARGET_ERROR_INVALID,
                       _("target “%s”: port must be a number from 1 to 65535"), group);
          return NULL;
        }
      target->port = (guint) number;
    }
  if (g_key_file_has_key (key_file, group, "pending-timeout", NULL))
    {
      number = g_key_file_get_int64 (key_file, group, "pending-timeout", &local);
      if (local != NULL || number < 0 || number > G_MAXUINT)
        {
          g_set_error (error, WS_TARGET_ERROR, WS_TARGET_ERROR_INVALID,
                       _("target “%s”: pending-timeout must be a number of seconds (0: wait "
                         "as long as it takes)"),
                       group);
          return NULL;
        }
      target->pending_timeout = (guint) number;
    }
  if (!ws_target_validate (target, error))
    return NULL;
  return g_steal_pointer (&target);
}

static void
set_list (GKeyFile *key_file, const char *group, const char *key, char **list)
{
  if (list != NULL)
    g_key_file_set_string_list (key_file, group, key, (const char *const *) list,
                                g_strv_length (list));
}

void
ws_target_save_to_key_file (WsTarget *self, GKeyFile *key_file)
{
  const char *group;

  g_return_if_fail (WS_IS_TARGET (self));
  group = self->name;
  g_key_file_remove_group (key_file, group, NULL);
  g_key_file_set_string (key_file, group, "kind", ws_target_kind_to_string (self->kind));
  if (self->host != NULL)
    g_key_file_set_string (key_file, group, "host", self->host);
  if (self->port != 0)
    g_key_file_set_integer (key_file, group, "port", (int) self->port);
  set_list (key_file, group, "ssh-options", self->ssh_options);
  set_list (key_file, group, "slurm-options", self->slurm_options);
  set_list (key_file, group, "launcher", self->launcher);
  if (self->remote_shell)
    g_key_file_set_boolean (key_file, group, "remote-shell", TRUE);
  if (self->runner != NULL)
    g_key_file_set_string (key_file, group, "runner", self->runner);
  set_list (key_file, group, "environment", self->environment);
  if (self->pending_timeout != DEFAULT_PENDING_TIMEOUT)
    g_key_file_set_uint64 (key_file, group, "pending-timeout", self->pending_timeout);
  if (self->job_dir != NULL)
    g_key_file_set_string (key_file, group, "job-dir", self->job_dir);
}
