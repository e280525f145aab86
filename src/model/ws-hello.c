/* ws-hello.c: the hello record, read from the general parser's tree.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "ws-hello-private.h"

#include <string.h>

#include "ws-protocol.h"

typedef struct
{
  WsHello hello; /* first: a WsHello * is a Hello * */
  gatomicrefcount ref;
  GStringChunk *strings;
  char **argv, **command;
} Hello;

G_DEFINE_BOXED_TYPE (WsHello, ws_hello, ws_hello_ref, ws_hello_unref)

WsHello *
ws_hello_ref (WsHello *hello)
{
  g_return_val_if_fail (hello != NULL, NULL);
  g_atomic_ref_count_inc (&((Hello *) hello)->ref);
  return hello;
}

void
ws_hello_unref (WsHello *hello)
{
  Hello *self = (Hello *) hello;

  g_return_if_fail (hello != NULL);
  if (!g_atomic_ref_count_dec (&self->ref))
    return;
  g_string_chunk_free (self->strings);
  g_strfreev (self->argv);
  g_strfreev (self->command);
  g_free (self);
}

static const char *
keep (Hello *self, const WsRecord *r, WsRecordNode o, const char *key)
{
  const char *s = ws_record_string (r, o, key);

  return s ? g_string_chunk_insert_const (self->strings, s) : NULL;
}

WsHello *
_ws_hello_new_from_record (const WsRecord *r)
{
  Hello *self = g_new0 (Hello, 1);
  WsHello *h = &self->hello;
  WsRecordNode o = WS_RECORD_ROOT, replay;

  g_atomic_ref_count_init (&self->ref);
  self->strings = g_string_chunk_new (256);
  h->protocol = (int) ws_record_int (r, o, WS_KEY_PROTOCOL, 0);
  h->trace = g_strcmp0 (ws_record_string (r, o, WS_KEY_SOURCE), WS_SOURCE_TRACE) == 0;
  h->runner = keep (self, r, o, WS_KEY_RUNNER);
  h->inject = keep (self, r, o, WS_KEY_INJECT);
  h->build = keep (self, r, o, WS_KEY_BUILD);
  h->gpu_archs = keep (self, r, o, WS_KEY_GPU_ARCHS);
  h->time = keep (self, r, o, WS_KEY_TIME);
  h->host = keep (self, r, o, WS_KEY_HOST);
  h->driver_found = ws_record_bool (r, o, WS_KEY_DRIVER_FOUND, FALSE);
  h->driver_version = (int) ws_record_int (r, o, WS_KEY_DRIVER_VERSION, 0);
  h->driver_cuda = keep (self, r, o, WS_KEY_DRIVER_CUDA);
  h->runtime_version = (int) ws_record_int (r, o, WS_KEY_RUNTIME_VERSION, 0);
  h->runtime_cuda = keep (self, r, o, WS_KEY_RUNTIME_CUDA);
  h->cupti_version = (int) ws_record_int (r, o, WS_KEY_CUPTI_VERSION, 0);
  self->argv = ws_record_dup_strings (r, o, WS_KEY_ARGV);
  h->argv = (const char *const *) self->argv;
  replay = ws_record_member (r, o, WS_KEY_REPLAY);
  /* warpscope-cli replay marks the hello of the recording it plays back. */
  h->replay = replay != WS_RECORD_NONE;
  h->replay_file = keep (self, r, replay, WS_KEY_FILE);
  h->replay_speed = ws_record_double (r, replay, WS_KEY_SPEED, 0);

  h->pid = ws_record_int (r, o, WS_KEY_PID, 0);
  h->ppid = ws_record_int (r, o, WS_KEY_PPID, 0);
  h->program = keep (self, r, o, WS_KEY_PROGRAM);
  self->command = ws_record_dup_strings (r, o, WS_KEY_COMMAND);
  h->command = (const char *const *) self->command;
  h->cwd = keep (self, r, o, WS_KEY_CWD);
  h->cupti_built = (int) CLAMP (ws_record_int (r, o, WS_KEY_CUPTI_BUILT, 0), 0, G_MAXINT);
  h->cuda_visible_devices = keep (self, r, o, WS_KEY_CUDA_VISIBLE_DEVICES);
  h->clock_origin_ns = ws_record_int (r, o, WS_KEY_CLOCK_ORIGIN_NS, 0);
  h->monotonic_origin_ns = ws_record_int (r, o, WS_KEY_MONOTONIC_ORIGIN_NS, 0);
  h->process_start = ws_record_int (r, o, WS_KEY_PROCESS_START, 0);
  h->api = keep (self, r, o, WS_KEY_API);
  h->buffer_bytes = ws_record_int (r, o, WS_KEY_BUFFER_BYTES, 0);
  h->flush_ms = (int) CLAMP (ws_record_int (r, o, WS_KEY_FLUSH_MS, 0), 0, G_MAXINT);
  return h;
}

char *
ws_hello_dup_date (const WsHello *hello)
{
  g_return_val_if_fail (hello != NULL, NULL);
  if (hello->time == NULL || strlen (hello->time) < 10)
    return NULL;
  return g_strndup (hello->time, 10);
}
