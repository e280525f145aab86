/* ws-span.c: the span, and the one reading of the protocol's activity record into it.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "ws-span-private.h"

G_DEFINE_BOXED_TYPE (WsSpan, ws_span, ws_span_copy, ws_span_free)

WsSpan *
ws_span_copy (const WsSpan *span)
{
  return g_memdup2 (span, sizeof *span);
}

void
ws_span_free (WsSpan *span)
{
  g_free (span);
}

double
ws_span_gbs (const WsSpan *span)
{
  gint64 ns = ws_span_duration (span);

  if (span->kind != WS_ACTIVITY_MEMCPY || ns <= 0)
    return 0.0;
  return (double) span->bytes / (double) ns;
}

static const char *
intern (const WsRecord *r, const char *key)
{
  const char *s = ws_record_string (r, WS_RECORD_ROOT, key);

  return s != NULL ? g_intern_string (s) : NULL;
}

static guint32
member_u32 (const WsRecord *r, const char *key)
{
  return (guint32) CLAMP (ws_record_int (r, WS_RECORD_ROOT, key, 0), 0, G_MAXUINT32);
}

static void
read_dims (const WsRecord *r, const char *key, guint32 dims[3])
{
  gint64 v[3];

  if (ws_record_ints (r, WS_RECORD_ROOT, key, v, 3) == 3)
    for (int i = 0; i < 3; i++)
      dims[i] = (guint32) CLAMP (v[i], 0, G_MAXUINT32);
}

/* What only some kinds carry: a JIT's step and operation, an API call's interface and result,
 * an NVTX range's domain and whether it was left open or is a mark, a sync's or an
 * overhead's kind. */
static void
read_kind_details (WsSpan *s, const WsRecord *r)
{
  WsRecordNode o = WS_RECORD_ROOT;

  switch ((WsActivityKind) s->kind)
    {
    case WS_ACTIVITY_JIT:
      s->name = intern (r, WS_KEY_JIT);
      s->detail = intern (r, WS_KEY_OPERATION);
      return;
    case WS_ACTIVITY_API:
      s->detail = intern (r, WS_KEY_API);
      s->result = (gint32) CLAMP (ws_record_int (r, o, WS_KEY_RESULT, 0), G_MININT32, G_MAXINT32);
      if (s->result != 0)
        s->flags |= WS_SPAN_FAILED;
      return;
    case WS_ACTIVITY_NVTX:
      s->detail = intern (r, WS_KEY_DOMAIN);
      if (g_strcmp0 (ws_record_string (r, o, WS_KEY_NVTX), "mark") == 0)
        s->flags |= WS_SPAN_MARK;
      if (ws_record_bool (r, o, WS_KEY_OPEN, FALSE))
        s->flags |= WS_SPAN_OPEN;
      return;
    case WS_ACTIVITY_MEMCPY:
      if (ws_record_bool (r, o, WS_KEY_ASYNC, FALSE))
        s->flags |= WS_SPAN_ASYNC;
      break;
    case WS_ACTIVITY_MEMSET:
    case WS_ACTIVITY_KERNEL:
    case WS_ACTIVITY_SYNC:
    case WS_ACTIVITY_OVERHEAD:
    case WS_ACTIVITY_CPU:
    case WS_ACTIVITY_OTHER:
    default:
      break;
    }
  if ((s->detail = intern (r, WS_KEY_SYNC)) == NULL)
    s->detail = intern (r, WS_KEY_OVERHEAD);
}

void
_ws_span_from_record (const WsRecord *r, WsSpan *s)
{
  WsRecordNode o = WS_RECORD_ROOT;

  memset (s, 0, sizeof *s);
  s->kind = ws_activity_kind_from_string (ws_record_string (r, o, WS_KEY_KIND));
  s->phase = ws_activity_phase_from_string (ws_record_string (r, o, WS_KEY_PHASE));
  s->run = member_u32 (r, WS_KEY_RUN);
  s->rep = member_u32 (r, WS_KEY_REP);
  s->name = intern (r, WS_KEY_NAME);
  s->bytes = (guint64) MAX (ws_record_int (r, o, WS_KEY_BYTES, 0), 0);
  s->correlation = member_u32 (r, WS_KEY_CORRELATION);
  s->stream = member_u32 (r, WS_KEY_STREAM);
  s->thread = member_u32 (r, WS_KEY_THREAD);
  s->device = (guint8) CLAMP (ws_record_int (r, o, WS_KEY_DEVICE, 0), 0, G_MAXUINT8);
  s->direction = ws_copy_direction_from_string (ws_record_string (r, o, WS_KEY_DIRECTION));
  s->host_memory = ws_host_memory_from_string (ws_record_string (r, o, WS_KEY_HOST_MEMORY));
  read_dims (r, WS_KEY_GRID, s->grid);
  read_dims (r, WS_KEY_BLOCK, s->block);
  s->registers = (guint16) CLAMP (ws_record_int (r, o, WS_KEY_REGISTERS, 0), 0, G_MAXUINT16);
  s->static_smem = member_u32 (r, WS_KEY_STATIC_SMEM);
  s->dynamic_smem = member_u32 (r, WS_KEY_DYNAMIC_SMEM);
  s->threads = (guint16) CLAMP (ws_record_int (r, o, WS_KEY_THREADS, 0), 0, G_MAXUINT16);
  read_kind_details (s, r);
}
