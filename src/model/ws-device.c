/* ws-device.c: a GPU as a session describes it.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "ws-device.h"

#include "ws-json-util.h"

struct _WsDevice
{
  GObject parent_instance;
  JsonObject *json;
  WsDeviceInfo info;
};

G_DEFINE_FINAL_TYPE (WsDevice, ws_device, G_TYPE_OBJECT)

enum
{
  PROP_0,
  PROP_NAME,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static void
ws_device_finalize (GObject *object)
{
  WsDevice *self = WS_DEVICE (object);

  g_clear_pointer (&self->json, json_object_unref);
  G_OBJECT_CLASS (ws_device_parent_class)->finalize (object);
}

static void
ws_device_get_property (GObject *object, guint prop_id, GValue *value, GParamSpec *pspec)
{
  WsDevice *self = WS_DEVICE (object);

  switch (prop_id)
    {
    case PROP_NAME:
      g_value_set_string (value, self->info.name);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
ws_device_class_init (WsDeviceClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = ws_device_finalize;
  object_class->get_property = ws_device_get_property;
  properties[PROP_NAME] = g_param_spec_string ("name", NULL, NULL, NULL,
                                               G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
ws_device_init (WsDevice *self)
{
}

static void
triple (JsonObject *o, const char *member, int out[3])
{
  gint64 v[3] = { 0, 0, 0 };

  _ws_json_ints (o, member, v, 3);
  for (int i = 0; i < 3; i++)
    out[i] = (int) v[i];
}

static void
read_spread (JsonObject *o, const char *member, WsRateSpread *r)
{
  JsonNode *node = json_object_get_member (o, member);
  JsonObject *so;

  memset (r, 0, sizeof *r);
  if (node == NULL || !JSON_NODE_HOLDS_OBJECT (node))
    return;
  so = json_node_get_object (node);
  r->median = _ws_json_double (so, "median", 0);
  r->min = _ws_json_double (so, "min", r->median);
  r->max = _ws_json_double (so, "max", r->median);
  r->n = (int) _ws_json_int (so, "n", 0);
  r->bytes = _ws_json_int (so, "bytes", 0);
  if (!(r->median > 0))
    r->n = 0;
}

WsDevice *
ws_device_new_from_json (JsonObject *o)
{
  WsDevice *self;
  WsDeviceInfo *d;

  g_return_val_if_fail (o != NULL, NULL);

  self = g_object_new (WS_TYPE_DEVICE, NULL);
  self->json = json_object_ref (o);
  d = &self->info;
  d->index = (int) _ws_json_int (o, "index", 0);
  d->name = _ws_json_string (o, "name");
  if (d->name == NULL)
    d->name = "unknown GPU";
  d->uuid = _ws_json_string (o, "uuid");
  d->sm = _ws_json_string (o, "sm");
  d->compute_capability = _ws_json_string (o, "compute_capability");
  d->sm_count = (int) _ws_json_int (o, "sm_count", 0);
  d->warp_size = (int) _ws_json_int (o, "warp_size", 32);
  d->max_threads_per_block = (int) _ws_json_int (o, "max_threads_per_block", 1024);
  triple (o, "max_block_dim", d->max_block_dim);
  triple (o, "max_grid_dim", d->max_grid_dim);
  d->max_threads_per_sm = (int) _ws_json_int (o, "max_threads_per_sm", 0);
  d->max_blocks_per_sm = (int) _ws_json_int (o, "max_blocks_per_sm", 0);
  d->regs_per_sm = (int) _ws_json_int (o, "regs_per_sm", 0);
  d->regs_per_block = (int) _ws_json_int (o, "regs_per_block", 0);
  d->smem_per_sm = _ws_json_int (o, "smem_per_sm", 0);
  d->smem_per_block = _ws_json_int (o, "smem_per_block", 0);
  d->smem_per_block_optin = _ws_json_int (o, "smem_per_block_optin", 0);
  d->reserved_smem_per_block = _ws_json_int (o, "reserved_smem_per_block", 0);
  d->l2_bytes = _ws_json_int (o, "l2_bytes", 0);
  d->memory_bytes = _ws_json_int (o, "memory_bytes", 0);
  d->memory_free_bytes = _ws_json_int (o, "memory_free_bytes", 0);
  d->memory_clock_khz = (int) _ws_json_int (o, "memory_clock_khz", 0);
  d->bus_width_bits = (int) _ws_json_int (o, "bus_width_bits", 0);
  d->sm_clock_khz = (int) _ws_json_int (o, "sm_clock_khz", 0);
  d->ecc = _ws_json_bool (o, "ecc", FALSE);
  d->async_engines = (int) _ws_json_int (o, "async_engines", 0);
  d->fp32_lanes_per_sm = (int) _ws_json_int (o, "fp32_lanes_per_sm", 0);
  d->fp32_peak_gflops = _ws_json_double (o, "fp32_peak_gflops", 0);
  d->bandwidth_theoretical_gbs = _ws_json_double (o, "bandwidth_theoretical_gbs", 0);
  d->bandwidth_measured_gbs = _ws_json_double (o, "bandwidth_measured_gbs", 0);
  d->h2d_pinned_gbs = _ws_json_double (o, "h2d_pinned_gbs", 0);
  d->d2h_pinned_gbs = _ws_json_double (o, "d2h_pinned_gbs", 0);
  d->h2d_pageable_gbs = _ws_json_double (o, "h2d_pageable_gbs", 0);
  d->d2h_pageable_gbs = _ws_json_double (o, "d2h_pageable_gbs", 0);
  read_spread (o, "h2d_pinned_spread", &d->h2d_pinned);
  read_spread (o, "d2h_pinned_spread", &d->d2h_pinned);
  read_spread (o, "h2d_pageable_spread", &d->h2d_pageable);
  read_spread (o, "d2h_pageable_spread", &d->d2h_pageable);
  return self;
}

const WsDeviceInfo *
ws_device_get_info (WsDevice *self)
{
  g_return_val_if_fail (WS_IS_DEVICE (self), NULL);
  return &self->info;
}

const char *
ws_device_get_name (WsDevice *self)
{
  g_return_val_if_fail (WS_IS_DEVICE (self), NULL);
  return self->info.name;
}
