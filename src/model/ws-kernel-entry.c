/* ws-kernel-entry.c: a catalog entry, read from its kernel record.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "ws-kernel-entry-private.h"

#include "ws-i18n.h"
#include "ws-protocol.h"

struct _WsKernelEntry
{
  GObject parent_instance;
  GStringChunk *strings; /* the strings info points at */
  char **shape_params;
  WsKernelInfo info;
};

G_DEFINE_FINAL_TYPE (WsKernelEntry, ws_kernel_entry, G_TYPE_OBJECT)

enum
{
  PROP_0,
  PROP_NAME,
  PROP_TITLE,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static void
ws_kernel_entry_finalize (GObject *object)
{
  WsKernelEntry *self = WS_KERNEL_ENTRY (object);

  g_clear_pointer (&self->strings, g_string_chunk_free);
  g_clear_pointer (&self->shape_params, g_strfreev);
  G_OBJECT_CLASS (ws_kernel_entry_parent_class)->finalize (object);
}

static void
ws_kernel_entry_get_property (GObject *object, guint prop_id, GValue *value, GParamSpec *pspec)
{
  WsKernelEntry *self = WS_KERNEL_ENTRY (object);

  switch (prop_id)
    {
    case PROP_NAME:
      g_value_set_string (value, self->info.name);
      break;
    case PROP_TITLE:
      g_value_set_string (value, ws_kernel_entry_get_title (self));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
ws_kernel_entry_class_init (WsKernelEntryClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = ws_kernel_entry_finalize;
  object_class->get_property = ws_kernel_entry_get_property;
  properties[PROP_NAME] = g_param_spec_string ("name", NULL, NULL, NULL,
                                               G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  properties[PROP_TITLE] = g_param_spec_string ("title", NULL, NULL, NULL,
                                                G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
ws_kernel_entry_init (WsKernelEntry *self)
{
  self->strings = g_string_chunk_new (256);
}

static const char *
keep (WsKernelEntry *self, const WsRecord *r, const char *key)
{
  const char *s = ws_record_string (r, WS_RECORD_ROOT, key);

  return s ? g_string_chunk_insert_const (self->strings, s) : NULL;
}

WsKernelEntry *
_ws_kernel_entry_new_from_record (const WsRecord *r)
{
  WsRecordNode o = WS_RECORD_ROOT;
  WsKernelEntry *self;
  WsKernelInfo *k;
  gint64 v[3] = { 0, 0, 0 };
  guint n;

  g_return_val_if_fail (r != NULL, NULL);

  self = g_object_new (WS_TYPE_KERNEL_ENTRY, NULL);
  k = &self->info;
  k->name = keep (self, r, WS_KEY_NAME);
  k->family = keep (self, r, WS_KEY_FAMILY);
  k->title = keep (self, r, WS_KEY_TITLE);
  k->description = keep (self, r, WS_KEY_DESCRIPTION);
  k->source = keep (self, r, WS_KEY_SOURCE);
  k->block_dims = (int) ws_record_int (r, o, WS_KEY_BLOCK_DIMS, 1);
  self->shape_params = ws_record_dup_strings (r, o, WS_KEY_SHAPE_PARAMS);
  k->shape_params = (const char *const *) self->shape_params;
  k->shape_rank = (int) CLAMP (g_strv_length (self->shape_params), 1, 3);
  n = ws_record_ints (r, o, WS_KEY_DEFAULT_SHAPE, v, 3);
  for (guint i = 0; i < n; i++)
    k->default_shape[i] = (guint64) MAX (v[i], 0);
  v[0] = v[1] = v[2] = 1;
  k->has_default_block = ws_record_ints (r, o, WS_KEY_DEFAULT_BLOCK, v, 3) > 0;
  for (int i = 0; i < 3; i++)
    k->default_block[i] = k->has_default_block ? (guint) MAX (v[i], 0) : 0;
  k->block_fixed = ws_record_bool (r, o, WS_KEY_BLOCK_FIXED, FALSE);
  k->library = keep (self, r, WS_KEY_LIBRARY);
  k->streamable = ws_record_bool (r, o, WS_KEY_STREAMABLE, FALSE);
  k->flops = keep (self, r, WS_KEY_FLOPS);
  k->bytes = keep (self, r, WS_KEY_BYTES);
  k->tolerance = keep (self, r, WS_KEY_TOLERANCE);
  return self;
}

const WsKernelInfo *
ws_kernel_entry_get_info (WsKernelEntry *self)
{
  g_return_val_if_fail (WS_IS_KERNEL_ENTRY (self), NULL);
  return &self->info;
}

const char *
ws_kernel_entry_get_name (WsKernelEntry *self)
{
  g_return_val_if_fail (WS_IS_KERNEL_ENTRY (self), NULL);
  return self->info.name;
}

const char *
ws_kernel_entry_get_title (WsKernelEntry *self)
{
  g_return_val_if_fail (WS_IS_KERNEL_ENTRY (self), "");
  return ws_i18n_kernel_text (self->info.title ? self->info.title : "");
}

const char *
ws_kernel_entry_get_description (WsKernelEntry *self)
{
  g_return_val_if_fail (WS_IS_KERNEL_ENTRY (self), "");
  return ws_i18n_kernel_text (self->info.description ? self->info.description : "");
}

gboolean
ws_kernel_entry_is_default_block (WsKernelEntry *self, const guint block[3])
{
  g_return_val_if_fail (WS_IS_KERNEL_ENTRY (self), FALSE);
  g_return_val_if_fail (block != NULL, FALSE);
  if (!self->info.has_default_block)
    return FALSE;
  for (int i = 0; i < 3; i++)
    if (self->info.default_block[i] != block[i])
      return FALSE;
  return TRUE;
}
