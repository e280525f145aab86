/* ws-device.c: a GPU as a session describes it, read from its device record.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "ws-device-private.h"

#include <string.h>

#include "ws-protocol.h"

struct _WsDevice
{
  GObject parent_instance;
  GStringChunk *strings; /* the strings info points at */
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

  g_clear_pointer (&self->strings, g_string_chunk_free);
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
  self->strings = g_string_chunk_new (128);
}

static const char *
keep (WsDevice *self, const WsRecord *r, const char *key)
{
  const char *s = ws_record_string (r, WS_RECORD_ROOT, key);

  return s ? g_string_chunk_insert_const (self->strings, s) : NULL;
}

static void
triple (const WsRecord *r, const char *key, int out[3])
{
  gint64 v[3] = { 0, 0, 0 };

  ws_record_ints (r, WS_RECORD_ROOT, key, v, 3);
  for (int i = 0; i < 3; i++)
    out[i] = (int) v[i];
}

static void
read_spread (const WsRecord *r, const char *key, WsRateSpread *s)
{
  WsRecordNode so = ws_record_object (r, WS_RECORD_ROOT, key);

  memset (s, 0, sizeof *s);
  if (so == WS_RECORD_NONE)
    return;
  s->median = ws_record_double (r, so, WS_KEY_MEDIAN, 0);
  s->min = ws_record_double (r, so, WS_KEY_MIN, s->median);
  s->max = ws_record_double (r, so, WS_KEY_MAX, s->median);
  s->n = (int) CLAMP (ws_record_int (r, so, WS_KEY_N, 0), 0, G_MAXINT);
  s->bytes = ws_record_int (r, so, WS_KEY_BYTES, 0);
  s->mean = ws_record_double (r, so, WS_KEY_MEAN, 0);
  s->cpus = (int) CLAMP (ws_record_int (r, so, WS_KEY_CPUS, 0), 0, G_MAXINT);
  s->buffers = (int) CLAMP (ws_record_int (r, so, WS_KEY_BUFFERS, 0), 0, G_MAXINT);
  if (!(s->median > 0))
    s->n = 0;
}

WsDevice *
_ws_device_new_from_record (const WsRecord *r)
{
  WsRecordNode o = WS_RECORD_ROOT;
  WsDevice *self;
  WsDeviceInfo *d;

  g_return_val_if_fail (r != NULL, NULL);

  self = g_object_new (WS_TYPE_DEVICE, NULL);
  d = &self->info;
  d->index = (int) ws_record_int (r, o, WS_KEY_INDEX, 0);
  d->name = keep (self, r, WS_KEY_NAME);
  if (d->name == NULL)
    d->name = "unknown GPU";
  d->uuid = keep (self, r, WS_KEY_UUID);
  d->pci_bus_id = keep (self, r, WS_KEY_PCI_BUS_ID);
  d->sm = keep (self, r, WS_KEY_SM);
  d->compute_capability = keep (self, r, WS_KEY_COMPUTE_CAPABILITY);
  d->sm_count = (int) ws_record_int (r, o, WS_KEY_SM_COUNT, 0);
  d->warp_size = (int) ws_record_int (r, o, WS_KEY_WARP_SIZE, 32);
  d->max_threads_per_block = (int) ws_record_int (r, o, WS_KEY_MAX_THREADS_PER_BLOCK, 1024);
  triple (r, WS_KEY_MAX_BLOCK_DIM, d->max_block_dim);
  triple (r, WS_KEY_MAX_GRID_DIM, d->max_grid_dim);
  d->max_threads_per_sm = (int) ws_record_int (r, o, WS_KEY_MAX_THREADS_PER_SM, 0);
  d->max_blocks_per_sm = (int) ws_record_int (r, o, WS_KEY_MAX_BLOCKS_PER_SM, 0);
  d->regs_per_sm = (int) ws_record_int (r, o, WS_KEY_REGS_PER_SM, 0);
  d->regs_per_block = (int) ws_record_int (r, o, WS_KEY_REGS_PER_BLOCK, 0);
  d->smem_per_sm = ws_record_int (r, o, WS_KEY_SMEM_PER_SM, 0);
  d->smem_per_block = ws_record_int (r, o, WS_KEY_SMEM_PER_BLOCK, 0);
  d->smem_per_block_optin = ws_record_int (r, o, WS_KEY_SMEM_PER_BLOCK_OPTIN, 0);
  d->reserved_smem_per_block = ws_record_int (r, o, WS_KEY_RESERVED_SMEM_PER_BLOCK, 0);
  d->l2_bytes = ws_record_int (r, o, WS_KEY_L2_BYTES, 0);
  d->memory_bytes = ws_record_int (r, o, WS_KEY_MEMORY_BYTES, 0);
  d->memory_free_bytes = ws_record_int (r, o, WS_KEY_MEMORY_FREE_BYTES, 0);
  d->memory_clock_khz = (int) ws_record_int (r, o, WS_KEY_MEMORY_CLOCK_KHZ, 0);
  d->bus_width_bits = (int) ws_record_int (r, o, WS_KEY_BUS_WIDTH_BITS, 0);
  d->sm_clock_khz = (int) ws_record_int (r, o, WS_KEY_SM_CLOCK_KHZ, 0);
  d->ecc = ws_record_bool (r, o, WS_KEY_ECC, FALSE);
  d->async_engines = (int) ws_record_int (r, o, WS_KEY_ASYNC_ENGINES, 0);
  d->fp32_lanes_per_sm = (int) ws_record_int (r, o, WS_KEY_FP32_LANES_PER_SM, 0);
  d->fp32_peak_gflops = ws_record_double (r, o, WS_KEY_FP32_PEAK_GFLOPS, 0);
  d->bandwidth_theoretical_gbs = ws_record_double (r, o, WS_KEY_BANDWIDTH_THEORETICAL_GBS, 0);
  d->bandwidth_measured_gbs = ws_record_double (r, o, WS_KEY_BANDWIDTH_MEASURED_GBS, 0);
  d->h2d_pinned_gbs = ws_record_double (r, o, WS_KEY_H2D_PINNED_GBS, 0);
  d->d2h_pinned_gbs = ws_record_double (r, o, WS_KEY_D2H_PINNED_GBS, 0);
  d->h2d_pageable_gbs = ws_record_double (r, o, WS_KEY_H2D_PAGEABLE_GBS, 0);
  d->d2h_pageable_gbs = ws_record_double (r, o, WS_KEY_D2H_PAGEABLE_GBS, 0);
  read_spread (r, WS_KEY_H2D_PINNED_SPREAD, &d->h2d_pinned);
  read_spread (r, WS_KEY_D2H_PINNED_SPREAD, &d->d2h_pinned);
  read_spread (r, WS_KEY_H2D_PAGEABLE_SPREAD, &d->h2d_pageable);
  read_spread (r, WS_KEY_D2H_PAGEABLE_SPREAD, &d->d2h_pageable);
  d->calibration_bytes = ws_record_int (r, o, WS_KEY_CALIBRATION_BYTES, 0);
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
