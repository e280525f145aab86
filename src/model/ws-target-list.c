/* ws-target-list.c: saved targets, a GListModel read from and written to a key file.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "ws-config.h"

#include "ws-target-list.h"

#include <errno.h>
#include <string.h>

#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>

#include "ws-file.h"

struct _WsTargetList
{
  GObject parent_instance;
  char *path;
  GPtrArray *targets; /* WsTarget; "local" first */
};

static void list_model_init (GListModelInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (WsTargetList, ws_target_list, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (G_TYPE_LIST_MODEL, list_model_init))

static GType
get_item_type (GListModel *model)
{
  return WS_TYPE_TARGET;
}

static guint
get_n_items (GListModel *model)
{
  return WS_TARGET_LIST (model)->targets->len;
}

static gpointer
get_item (GListModel *model, guint position)
{
  WsTargetList *self = WS_TARGET_LIST (model);

  if (position >= self->targets->len)
    return NULL;
  return g_object_ref (g_ptr_array_index (self->targets, position));
}

static void
list_model_init (GListModelInterface *iface)
{
  iface->get_item_type = get_item_type;
  iface->get_n_items = get_n_items;
  iface->get_item = get_item;
}

static void
ws_target_list_finalize (GObject *object)
{
  WsTargetList *self = WS_TARGET_LIST (object);

  g_free (self->path);
  g_ptr_array_unref (self->targets);
  G_OBJECT_CLASS (ws_target_list_parent_class)->finalize (object);
}

static void
ws_target_list_class_init (WsTargetListClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = ws_target_list_finalize;
}

static void
ws_target_list_init (WsTargetList *self)
{
  self->targets = g_ptr_array_new_with_free_func (g_object_unref);
  g_ptr_array_add (self->targets, ws_target_new_local ());
}

char *
ws_target_list_default_path (void)
{
  const char *path = g_getenv ("WARPSCOPE_TARGETS");

  if (path != NULL && *path != '\0')
    return g_strdup (path);
  return g_build_filename (g_get_user_config_dir (), "warpscope", "targets.conf", NULL);
}

WsTargetList *
ws_target_list_new (const char *path)
{
  WsTargetList *self = g_object_new (WS_TYPE_TARGET_LIST, NULL);

  self->path = path != NULL ? g_strdup (path) : ws_target_list_default_path ();
  return self;
}

/* A person's saved targets are a few lines each: a file past these is not one, and reading
 * it whole (GKeyFile holds it all) would take memory and time in proportion. */
#define MAX_FILE_BYTES (1024 * 1024)
#define MAX_TARGETS 1000

WsTargetList *
ws_target_list_load (const char *path, GError **error)
{
  g_autoptr (WsTargetList) self = ws_target_list_new (path);
  g_autoptr (GKeyFile) key_file = g_key_file_new ();
  g_autoptr (GError) local = NULL;
  g_auto (GStrv) groups = NULL;
  GStatBuf st;

  if (g_stat (self->path, &st) == 0 && st.st_size > MAX_FILE_BYTES)
    {
      g_autofree char *size = g_strdup_printf ("%" G_GINT64_FORMAT, (gint64) st.st_size);

      /* Translators: the file of saved targets, its size in bytes, the most read. */
      g_set_error (error, WS_TARGET_ERROR, WS_TARGET_ERROR_INVALID,
                   _("the saved targets in %s cannot be read: the file is %s bytes, more than "
                     "the %d a targets file may be; remove what is not a target from it "
                     "(warpscope-cli targets remove NAME) or move it away"),
                   self->path, size, MAX_FILE_BYTES);
      return NULL;
    }
  if (!g_key_file_load_from_file (key_file, self->path, G_KEY_FILE_NONE, &local))
    {
      if (g_error_matches (local, G_FILE_ERROR, G_FILE_ERROR_NOENT))
        return g_steal_pointer (&self);
      /* Translators: the file of saved targets, then why it cannot be read. */
      g_set_error (error, WS_TARGET_ERROR, WS_TARGET_ERROR_INVALID,
                   _("the saved targets in %s cannot be read: %s"), self->path, local->message);
      return NULL;
    }
  groups = g_key_file_get_groups (key_file, NULL);
  if (g_strv_length (groups) > MAX_TARGETS)
    {
      g_set_error (error, WS_TARGET_ERROR, WS_TARGET_ERROR_INVALID,
                   _("the saved targets in %s cannot be read: it names %u targets, more than "
                     "the %d a targets file may hold; remove those not used"),
                   self->path, g_strv_length (groups), MAX_TARGETS);
      return NULL;
    }
  for (guint i = 0; groups[i] != NULL; i++)
    {
      g_autoptr (WsTarget) target = ws_target_new_from_key_file (key_file, groups[i], &local);

      if (target == NULL || ws_target_list_find (self, groups[i]) != NULL)
        {
          if (local == NULL)
            local = g_error_new (WS_TARGET_ERROR, WS_TARGET_ERROR_INVALID,
                                 _("the target “%s” is there twice"), groups[i]);
          g_set_error (error, WS_TARGET_ERROR, WS_TARGET_ERROR_INVALID, "%s: %s", self->path,
                       local->message);
          return NULL;
        }
      g_ptr_array_add (self->targets, g_steal_pointer (&target));
    }
  return g_steal_pointer (&self);
}

static gboolean
write_cb (GOutputStream *stream, gpointer data, GError **error)
{
  const char *text = data;

  return g_output_stream_write_all (stream, text, strlen (text), NULL, NULL, error);
}

gboolean
ws_target_list_save (WsTargetList *self, GError **error)
{
  g_autoptr (GKeyFile) key_file = g_key_file_new ();
  g_autoptr (GFile) file = NULL;
  g_autofree char *dir = NULL;
  g_autofree char *data = NULL;
  g_autofree char *text = NULL;
  g_autoptr (GError) local = NULL;

  g_return_val_if_fail (WS_IS_TARGET_LIST (self), FALSE);
  for (guint i = 0; i < self->targets->len; i++)
    if (ws_target_get_kind (g_ptr_array_index (self->targets, i)) != WS_TARGET_LOCAL)
      ws_target_save_to_key_file (g_ptr_array_index (self->targets, i), key_file);
  data = g_key_file_to_data (key_file, NULL, NULL);
  text = g_strdup_printf ("# Warpscope's saved targets: where the runner runs (docs/cli.md, "
                          "\"targets\").\n%s",
                          data);
  dir = g_path_get_dirname (self->path);
  if (g_mkdir_with_parents (dir, 0700) != 0)
    {
      int saved = errno;

      g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (saved),
                   _("the folder %s for the saved targets cannot be made: %s"), dir,
                   g_strerror (saved));
      return FALSE;
    }
  file = g_file_new_for_path (self->path);
  if (!ws_file_write_atomic (file, write_cb, text, &local))
    {
      g_set_error (error, local->domain, local->code, _("the targets cannot be saved: %s"),
                   local->message);
      return FALSE;
    }
  return TRUE;
}

const char *
ws_target_list_get_path (WsTargetList *self)
{
  g_return_val_if_fail (WS_IS_TARGET_LIST (self), NULL);
  return self->path;
}

static int
index_of (WsTargetList *self, const char *name)
{
  for (guint i = 0; name != NULL && i < self->targets->len; i++)
    if (g_str_equal (ws_target_get_name (g_ptr_array_index (self->targets, i)), name))
      return (int) i;
  return -1;
}

WsTarget *
ws_target_list_find (WsTargetList *self, const char *name)
{
  int i;

  g_return_val_if_fail (WS_IS_TARGET_LIST (self), NULL);
  i = index_of (self, name);
  return i >= 0 ? g_ptr_array_index (self->targets, i) : NULL;
}

WsTarget *
ws_target_list_lookup (WsTargetList *self, const char *name, GError **error)
{
  WsTarget *target = ws_target_list_find (self, name);
  g_autoptr (GString) names = NULL;

  if (target != NULL)
    return target;
  names = g_string_new (NULL);
  for (guint i = 0; i < self->targets->len; i++)
    g_string_append_printf (names, "%s%s", i > 0 ? ", " : "",
                            ws_target_get_name (g_ptr_array_index (self->targets, i)));
  /* Translators: the name asked for, the saved names, the file they are in. */
  g_set_error (error, WS_TARGET_ERROR, WS_TARGET_ERROR_NOT_FOUND,
               _("there is no target “%1$s”; there are: %2$s (saved in %3$s). “warpscope-cli "
                 "targets add” saves one."),
               name, names->str, self->path);
  return NULL;
}

gboolean
ws_target_list_add (WsTargetList *self, WsTarget *target, GError **error)
{
  g_return_val_if_fail (WS_IS_TARGET_LIST (self), FALSE);
  g_return_val_if_fail (WS_IS_TARGET (target), FALSE);
  if (!ws_target_validate (target, error))
    return FALSE;
  if (ws_target_list_find (self, ws_target_get_name (target)) != NULL)
    {
      g_set_error (error, WS_TARGET_ERROR, WS_TARGET_ERROR_EXISTS,
                   _("there is a target “%s” already: remove it first, or choose another name"),
                   ws_target_get_name (target));
      return FALSE;
    }
  g_ptr_array_add (self->targets, g_object_ref (target));
  g_list_model_items_changed (G_LIST_MODEL (self), self->targets->len - 1, 0, 1);
  return TRUE;
}

gboolean
ws_target_list_remove (WsTargetList *self, const char *name, GError **error)
{
  int i;

  g_return_val_if_fail (WS_IS_TARGET_LIST (self), FALSE);
  if (g_strcmp0 (name, WS_TARGET_LOCAL_NAME) == 0)
    {
      g_set_error_literal (error, WS_TARGET_ERROR, WS_TARGET_ERROR_INVALID,
                           _("“local” is this computer: it cannot be removed"));
      return FALSE;
    }
  if ((i = index_of (self, name)) < 0)
    return ws_target_list_lookup (self, name, error) != NULL;
  g_ptr_array_remove_index (self->targets, (guint) i);
  g_list_model_items_changed (G_LIST_MODEL (self), (guint) i, 1, 0);
  return TRUE;
}
