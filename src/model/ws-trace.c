/* ws-trace.c: reading a traced program's records (docs/protocol.md, "Traced programs") into
 * program runs, processes, spans and events on one time axis.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "ws-config.h"

#include "ws-trace-private.h"

#include <glib/gi18n-lib.h>
#include <inttypes.h>
#include <string.h>

#include "ws-json-util.h"
#include "ws-session-private.h"

/* ---- lifetime ----------------------------------------------------------------------------- */

static void
program_free (WsTraceProgram *p)
{
  for (guint i = 0; i < p->n_params; i++)
    {
      g_free (p->params[i].name);
      g_free (p->params[i].value);
    }
  g_free (p->params);
  g_strfreev (p->argv);
  g_strfreev (p->env);
  g_free (p->cwd);
  g_free (p->path);
  g_ptr_array_unref (p->errors);
  g_free (p);
}

static void
process_free (WsTraceProcess *p)
{
  g_free (p->executable);
  g_strfreev (p->command);
  g_free (p->cwd);
  g_ptr_array_unref (p->devices);
  g_free (p);
}

WsTrace *
_ws_trace_new (void)
{
  WsTrace *t = g_new0 (WsTrace, 1);

  t->programs = g_ptr_array_new_with_free_func ((GDestroyNotify) program_free);
  t->processes = g_ptr_array_new_with_free_func ((GDestroyNotify) process_free);
  t->process_of = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  t->spans = g_array_new (FALSE, FALSE, sizeof (WsTraceSpan));
  t->events = g_array_new (FALSE, FALSE, sizeof (WsTraceEvent));
  t->ceilings = g_ptr_array_new_with_free_func (g_object_unref);
  t->infos = g_ptr_array_new_with_free_func ((GDestroyNotify) g_array_unref);
  return t;
}

void
_ws_trace_free (WsTrace *t)
{
  if (t == NULL)
    return;
  g_ptr_array_unref (t->programs);
  g_ptr_array_unref (t->processes);
  g_hash_table_unref (t->process_of);
  g_array_unref (t->spans);
  g_array_unref (t->events);
  g_ptr_array_unref (t->ceilings);
  g_ptr_array_unref (t->infos);
  g_free (t);
}

WsTrace *
ws_session_get_trace (WsSession *session)
{
  g_return_val_if_fail (WS_IS_SESSION (session), NULL);
  return session->trace;
}

/* ---- helpers ------------------------------------------------------------------------------ */

static JsonObject *
json_of (const char *text, gsize length)
{
  g_autoptr (JsonParser) parser = json_parser_new_immutable ();
  JsonNode *root;

  if (!json_parser_load_from_data (parser, text, (gssize) length, NULL)
      || (root = json_parser_get_root (parser)) == NULL || !JSON_NODE_HOLDS_OBJECT (root))
    return NULL;
  return json_object_ref (json_node_get_object (root));
}

static char **
strv_of (JsonObject *o, const char *member)
{
  JsonNode *node = json_object_get_member (o, member);
  JsonArray *array;
  GPtrArray *out;

  if (node == NULL || !JSON_NODE_HOLDS_ARRAY (node))
    return NULL;
  array = json_node_get_array (node);
  out = g_ptr_array_new ();
  for (guint i = 0; i < json_array_get_length (array); i++)
    {
      JsonNode *e = json_array_get_element (array, i);

      if (JSON_NODE_HOLDS_VALUE (e) && json_node_get_value_type (e) == G_TYPE_STRING)
        g_ptr_array_add (out, g_strdup (json_node_get_string (e)));
    }
  g_ptr_array_add (out, NULL);
  return (char **) g_ptr_array_free (out, FALSE);
}

static const char *
intern (JsonObject *o, const char *member)
{
  const char *s = _ws_json_string (o, member);

  return s != NULL ? g_intern_string (s) : NULL;
}

WsTraceProgram *
_ws_trace_find_program (WsTrace *t, guint id)
{
  for (guint i = 0; i < t->programs->len; i++)
    {
      WsTraceProgram *p = g_ptr_array_index (t->programs, i);

      if (p->id == id)
        return p;
    }
  return NULL;
}

static WsTraceProgram *
add_program (WsTrace *t, guint id)
{
  WsTraceProgram *p = g_new0 (WsTraceProgram, 1);

  p->id = id;
  p->of = 1;
  p->exit_status = -1;
  p->errors = g_ptr_array_new_with_free_func ((GDestroyNotify) ws_runner_error_free);
  g_ptr_array_add (t->programs, p);
  return p;
}

/* The program run a record of a process belongs to: its program_run, or the implicit run
 * of a trace the library wrote on its own. */
static WsTraceProgram *
program_of_record (WsTrace *t, gint64 id)
{
  WsTraceProgram *p = _ws_trace_find_program (t, (guint) MAX (id, 0));

  return p != NULL ? p : add_program (t, (guint) MAX (id, 0));
}

static char *
process_key (guint program, gint64 pid)
{
  return g_strdup_printf ("%u:%" PRId64, program, pid);
}

static WsTraceProcess *
lookup_process (WsTrace *t, guint program, gint64 pid, guint *index)
{
  g_autofree char *key = process_key (program, pid);
  guint i = GPOINTER_TO_UINT (g_hash_table_lookup (t->process_of, key));

  if (i == 0)
    return NULL;
  if (index != NULL)
    *index = i - 1;
  return g_ptr_array_index (t->processes, i - 1);
}

static WsTraceProcess *
new_process (WsTrace *t, guint program, gint64 pid, guint *index)
{
  WsTraceProcess *p = g_new0 (WsTraceProcess, 1);

  p->program = program;
  p->pid = pid;
  p->exit_status = -1;
  p->devices = g_ptr_array_new_with_free_func (g_object_unref);
  g_ptr_array_add (t->processes, p);
  g_ptr_array_add (t->infos, g_array_new (FALSE, TRUE, sizeof (WsDeviceInfo)));
  g_hash_table_insert (t->process_of, process_key (program, pid),
                       GUINT_TO_POINTER (t->processes->len));
  *index = t->processes->len - 1;
  return p;
}

/* The process a record comes from; one whose hello is missing (a stream cut short at its
 * start) is created, on the first process's clock. */
static WsTraceProcess *
process_of_record (WsTrace *t, WsRecord *r, guint *index)
{
  WsTraceProgram *program = program_of_record (t, ws_record_int (r, WS_RECORD_ROOT,
                                                                 "program_run", 0));
  gint64 pid = ws_record_int (r, WS_RECORD_ROOT, "pid", 0);
  WsTraceProcess *p = lookup_process (t, program->id, pid, index);

  if (p == NULL)
    {
      p = new_process (t, program->id, pid, index);
      p->clock_origin_ns = t->origin;
      program->n_processes++;
    }
  return p;
}

static gint64
on_axis (WsTrace *t, const WsTraceProcess *p, gint64 ns)
{
  return ns + (p->clock_origin_ns - t->origin);
}

static void
extend_process (WsTraceProcess *p, gint64 end)
{
  if (end > p->end)
    p->end = end;
}

/* ---- records ------------------------------------------------------------------------------ */

static void
read_hello (WsTrace *t, WsRecord *r, const char *text, gsize length)
{
  g_autoptr (JsonObject) o = NULL;
  WsTraceProgram *program;
  WsTraceProcess *p;
  gint64 pid;
  guint index;

  if (ws_record_member (r, WS_RECORD_ROOT, "pid") == WS_RECORD_NONE)
    {
      /* The runner's hello: the processes come later. */
      t->from_runner = TRUE;
      return;
    }
  if ((o = json_of (text, length)) == NULL)
    return;
  program = program_of_record (t, _ws_json_int (o, "program_run", 0));
  pid = _ws_json_int (o, "pid", 0);
  if ((p = lookup_process (t, program->id, pid, &index)) == NULL)
    {
      p = new_process (t, program->id, pid, &index);
      program->n_processes++;
    }
  p->ppid = _ws_json_int (o, "ppid", 0);
  g_free (p->executable);
  p->executable = g_strdup (_ws_json_string (o, "program"));
  g_strfreev (p->command);
  p->command = strv_of (o, "command");
  g_free (p->cwd);
  p->cwd = g_strdup (_ws_json_string (o, "cwd"));
  p->clock_origin_ns = _ws_json_int (o, "clock_origin_ns", 0);
  p->monotonic_origin_ns = _ws_json_int (o, "monotonic_origin_ns", 0);
  p->api_mode = intern (o, "api");
  if (!t->has_origin)
    {
      t->origin = p->clock_origin_ns;
      t->has_origin = TRUE;
    }
  p->cuda_start = on_axis (t, p, 0);
  p->start = on_axis (t, p, MIN (_ws_json_int (o, "process_start", 0), 0));
  extend_process (p, p->cuda_start);
}

static void
read_program (WsTrace *t, const char *text, gsize length)
{
  g_autoptr (JsonObject) o = json_of (text, length);
  WsTraceProgram *p;
  JsonArray *params;
  JsonObject *env;
  guint id;

  if (o == NULL || (id = (guint) MAX (_ws_json_int (o, "program_run", 0), 0)) == 0)
    return;
  if ((p = _ws_trace_find_program (t, id)) == NULL)
    p = add_program (t, id);
  p->of = (guint) MAX (_ws_json_int (o, "of", 1), 1);
  params = json_object_get_member (o, "params") != NULL
               && JSON_NODE_HOLDS_ARRAY (json_object_get_member (o, "params"))
             ? json_object_get_array_member (o, "params")
             : NULL;
  if (params != NULL && p->params == NULL)
    {
      p->params = g_new0 (WsTraceParam, json_array_get_length (params));
      for (guint i = 0; i < json_array_get_length (params); i++)
        {
          JsonNode *e = json_array_get_element (params, i);
          JsonObject *pair = JSON_NODE_HOLDS_OBJECT (e) ? json_node_get_object (e) : NULL;

          if (pair == NULL || _ws_json_string (pair, "name") == NULL)
            continue;
          p->params[p->n_params].name = g_strdup (_ws_json_string (pair, "name"));
          p->params[p->n_params].value = g_strdup (_ws_json_string (pair, "value") ?: "");
          p->n_params++;
        }
    }
  g_strfreev (p->argv);
  p->argv = strv_of (o, "argv");
  env = _ws_json_object (o, "env");
  if (env != NULL)
    {
      g_autoptr (GList) members = json_object_get_members (env);
      GPtrArray *v = g_ptr_array_new ();

      for (GList *m = members; m != NULL; m = m->next)
        g_ptr_array_add (v, g_strdup_printf ("%s=%s", (const char *) m->data,
                                             _ws_json_string (env, m->data) ?: ""));
      g_ptr_array_add (v, NULL);
      g_strfreev (p->env);
      p->env = (char **) g_ptr_array_free (v, FALSE);
    }
  g_free (p->cwd);
  p->cwd = g_strdup (_ws_json_string (o, "cwd"));
  g_free (p->path);
  p->path = g_strdup (_ws_json_string (o, "path"));
  p->start_monotonic_ns = (guint64) MAX (_ws_json_int (o, "monotonic_ns", 0), 0);
}

static void
read_program_end (WsTrace *t, WsRecord *r)
{
  WsRecordNode o = WS_RECORD_ROOT;
  gint64 id = ws_record_int (r, o, "program_run", 0);
  WsTraceProgram *p = _ws_trace_find_program (t, (guint) MAX (id, 0));
  const char *reason = ws_record_string (r, o, "reason");
  const char *name = ws_record_string (r, o, "signal_name");

  if (p == NULL)
    return;
  p->ended = TRUE;
  p->end_reason = g_intern_string (reason ?: "exit");
  p->exit_status = (int) ws_record_int (r, o, "exit_status", -1);
  p->signal = (int) ws_record_int (r, o, "signal", 0);
  p->signal_name = name != NULL ? g_intern_string (name) : NULL;
  p->wall_ns = ws_record_int (r, o, "wall_ns", 0);
  p->end_monotonic_ns = (guint64) MAX (ws_record_int (r, o, "monotonic_ns", 0), 0);
}

static void
read_trace_end (WsTrace *t, WsRecord *r)
{
  WsRecordNode o = WS_RECORD_ROOT;
  guint index;
  WsTraceProcess *p = process_of_record (t, r, &index);
  const char *reason = ws_record_string (r, o, "reason");
  const char *name = ws_record_string (r, o, "signal_name");

  p->ended = TRUE;
  p->end_reason = g_intern_string (reason ?: "exit");
  p->exit_status = (int) ws_record_int (r, o, "exit_status", -1);
  p->signal = (int) ws_record_int (r, o, "signal", 0);
  p->signal_name = name != NULL ? g_intern_string (name) : NULL;
  p->flushed = ws_record_bool (r, o, "flushed", FALSE);
  p->records = ws_record_int (r, o, "records", 0);
  p->dropped_records = ws_record_int (r, o, "dropped_records", 0);
  p->lost_records = ws_record_int (r, o, "lost_records", 0);
  p->api_errors = ws_record_int (r, o, "api_errors", 0);
}

static void
read_event (WsTrace *t, const char *type, WsRecord *r)
{
  WsRecordNode o = WS_RECORD_ROOT;
  const char *event = ws_record_string (r, o, "event");
  gboolean module = g_str_equal (type, "module");
  WsTraceEvent e = { 0 };
  guint index;
  WsTraceProcess *p = process_of_record (t, r, &index);

  if (module)
    e.kind = g_strcmp0 (event, "unload") == 0 ? WS_TRACE_EVENT_MODULE_UNLOAD
                                              : WS_TRACE_EVENT_MODULE_LOAD;
  else
    e.kind = g_strcmp0 (event, "destroy") == 0 ? WS_TRACE_EVENT_CONTEXT_DESTROY
                                               : WS_TRACE_EVENT_CONTEXT_CREATE;
  e.at = on_axis (t, p, ws_record_int (r, o, "at", 0));
  e.program = p->program;
  e.process = index;
  e.id = (guint32) ws_record_int (r, o, module ? "module" : "context", 0);
  e.context = (guint32) ws_record_int (r, o, "context", 0);
  e.device = (guint32) ws_record_int (r, o, "device", 0);
  e.bytes = ws_record_int (r, o, "cubin_bytes", 0);
  g_array_append_val (t->events, e);
  extend_process (p, e.at);
}

static WsTraceSpanKind
span_kind (const char *kind, const char *nvtx)
{
  static const struct
  {
    const char *name;
    WsTraceSpanKind kind;
  } kinds[] = {
    { "kernel", WS_TRACE_SPAN_KERNEL }, { "memcpy", WS_TRACE_SPAN_MEMCPY },
    { "memset", WS_TRACE_SPAN_MEMSET }, { "sync", WS_TRACE_SPAN_SYNC },
    { "api", WS_TRACE_SPAN_API },       { "jit", WS_TRACE_SPAN_JIT },
    { "overhead", WS_TRACE_SPAN_OVERHEAD },
  };

  if (g_strcmp0 (kind, "nvtx") == 0)
    return g_strcmp0 (nvtx, "mark") == 0 ? WS_TRACE_SPAN_NVTX_MARK : WS_TRACE_SPAN_NVTX_RANGE;
  for (guint i = 0; kind != NULL && i < G_N_ELEMENTS (kinds); i++)
    if (g_str_equal (kinds[i].name, kind))
      return kinds[i].kind;
  return WS_TRACE_SPAN_OTHER;
}

static const char *
record_intern (WsRecord *r, const char *member)
{
  const char *s = ws_record_string (r, WS_RECORD_ROOT, member);

  return s != NULL ? g_intern_string (s) : NULL;
}

static void
span_details (WsTraceSpan *s, WsRecord *r)
{
  WsRecordNode o = WS_RECORD_ROOT;
  gint64 v[3];

  switch (s->kind)
    {
    case WS_TRACE_SPAN_KERNEL:
      if (ws_record_ints (r, o, "grid", v, 3) == 3)
        for (int i = 0; i < 3; i++)
          s->grid[i] = (guint32) CLAMP (v[i], 0, G_MAXUINT32);
      if (ws_record_ints (r, o, "block", v, 3) == 3)
        for (int i = 0; i < 3; i++)
          s->block[i] = (guint32) CLAMP (v[i], 0, G_MAXUINT32);
      s->registers = (guint16) CLAMP (ws_record_int (r, o, "registers", 0), 0, G_MAXUINT16);
      s->static_smem = (guint32) CLAMP (ws_record_int (r, o, "static_smem", 0), 0, G_MAXUINT32);
      s->dynamic_smem = (guint32) CLAMP (ws_record_int (r, o, "dynamic_smem", 0), 0, G_MAXUINT32);
      s->local_bytes = (guint32) CLAMP (ws_record_int (r, o, "local_bytes", 0), 0, G_MAXUINT32);
      break;
    case WS_TRACE_SPAN_MEMCPY:
      s->direction = ws_copy_direction_from_string (ws_record_string (r, o, "direction"));
      s->host_memory = ws_host_memory_from_string (ws_record_string (r, o, "host_memory"));
      if (ws_record_bool (r, o, "async", FALSE))
        s->flags |= WS_TRACE_SPAN_ASYNC;
      break;
    case WS_TRACE_SPAN_SYNC:
      s->detail = record_intern (r, "sync");
      break;
    case WS_TRACE_SPAN_OVERHEAD:
      s->detail = record_intern (r, "overhead");
      break;
    case WS_TRACE_SPAN_API:
      s->detail = record_intern (r, "api");
      s->result = (gint32) ws_record_int (r, o, "result", 0);
      if (s->result != 0)
        s->flags |= WS_TRACE_SPAN_FAILED;
      break;
    case WS_TRACE_SPAN_JIT:
      s->name = record_intern (r, "jit");
      s->detail = record_intern (r, "operation");
      break;
    case WS_TRACE_SPAN_NVTX_RANGE:
    case WS_TRACE_SPAN_NVTX_MARK:
      s->detail = record_intern (r, "domain");
      if (ws_record_bool (r, o, "open", FALSE))
        s->flags |= WS_TRACE_SPAN_OPEN;
      break;
    case WS_TRACE_SPAN_MEMSET:
    case WS_TRACE_SPAN_OTHER:
    default:
      break;
    }
}

static void
read_activity (WsTrace *t, WsSession *session, WsRecord *r)
{
  WsRecordNode o = WS_RECORD_ROOT;
  WsTraceSpan s = { 0 };
  guint index;
  WsTraceProcess *p = process_of_record (t, r, &index);
  gboolean untimed;

  s.kind = span_kind (ws_record_string (r, o, "kind"), ws_record_string (r, o, "nvtx"));
  s.program = p->program;
  s.process = index;
  s.name = s.kind == WS_TRACE_SPAN_JIT ? NULL : record_intern (r, "name");
  s.bytes = (guint64) MAX (ws_record_int (r, o, "bytes", 0), 0);
  s.correlation = (guint32) CLAMP (ws_record_int (r, o, "correlation", 0), 0, G_MAXUINT32);
  s.stream = (guint32) CLAMP (ws_record_int (r, o, "stream", 0), 0, G_MAXUINT32);
  s.context = (guint32) CLAMP (ws_record_int (r, o, "context", 0), 0, G_MAXUINT32);
  s.thread = (guint32) CLAMP (ws_record_int (r, o, "thread", 0), 0, G_MAXUINT32);
  s.device = (guint8) CLAMP (ws_record_int (r, o, "device", 0), 0, G_MAXUINT8);
  span_details (&s, r);
  /* CUPTI could not time it (start or end null): it has no place on the axis. */
  untimed = ws_record_type (r, ws_record_member (r, o, "start")) != WS_RECORD_INT
            || (ws_record_type (r, ws_record_member (r, o, "end")) != WS_RECORD_INT
                && !(s.flags & WS_TRACE_SPAN_OPEN));
  session->n_activities++;
  if (untimed)
    return;
  s.start = on_axis (t, p, ws_record_int (r, o, "start", 0));
  s.end = (s.flags & WS_TRACE_SPAN_OPEN) ? s.start
                                         : MAX (on_axis (t, p, ws_record_int (r, o, "end", 0)),
                                                s.start);
  extend_process (p, s.end);
  t->n_kernels += s.kind == WS_TRACE_SPAN_KERNEL;
  t->n_copies += s.kind == WS_TRACE_SPAN_MEMCPY;
  g_array_append_val (t->spans, s);
}

/* Merges the runner's measured copy rates (same UUID) into a device of a process. */
static void
merge_ceilings (WsTrace *t, WsDeviceInfo *info)
{
  for (guint i = 0; info->uuid != NULL && i < t->ceilings->len; i++)
    {
      const WsDeviceInfo *c = ws_device_get_info (g_ptr_array_index (t->ceilings, i));

      if (g_strcmp0 (c->uuid, info->uuid) != 0)
        continue;
      info->bandwidth_measured_gbs = c->bandwidth_measured_gbs;
      info->h2d_pinned_gbs = c->h2d_pinned_gbs;
      info->d2h_pinned_gbs = c->d2h_pinned_gbs;
      info->h2d_pageable_gbs = c->h2d_pageable_gbs;
      info->d2h_pageable_gbs = c->d2h_pageable_gbs;
      info->h2d_pinned = c->h2d_pinned;
      info->d2h_pinned = c->d2h_pinned;
      info->h2d_pageable = c->h2d_pageable;
      info->d2h_pageable = c->d2h_pageable;
    }
}

static void
rebuild_infos (WsTrace *t)
{
  for (guint p = 0; p < t->processes->len; p++)
    {
      WsTraceProcess *process = g_ptr_array_index (t->processes, p);
      GArray *infos = g_ptr_array_index (t->infos, p);

      g_array_set_size (infos, 0);
      for (guint d = 0; d < process->devices->len; d++)
        {
          WsDeviceInfo info = *ws_device_get_info (g_ptr_array_index (process->devices, d));

          merge_ceilings (t, &info);
          g_array_append_val (infos, info);
        }
    }
}

/* The session lists each GPU once: the runner's measurement of it, else its first record. */
static void
list_device (WsSession *session, WsDevice *device, gboolean measured)
{
  GListModel *list = G_LIST_MODEL (session->devices);
  const char *uuid = ws_device_get_info (device)->uuid;

  for (guint i = 0; uuid != NULL && i < g_list_model_get_n_items (list); i++)
    {
      g_autoptr (WsDevice) d = g_list_model_get_item (list, i);

      if (g_strcmp0 (ws_device_get_info (d)->uuid, uuid) != 0)
        continue;
      if (measured)
        g_list_store_splice (session->devices, i, 1, (gpointer *) &device, 1);
      return;
    }
  g_list_store_append (session->devices, device);
}

static void
read_device (WsTrace *t, WsSession *session, WsRecord *r, const char *text, gsize length)
{
  g_autoptr (JsonObject) o = json_of (text, length);
  g_autoptr (WsDevice) device = o != NULL ? ws_device_new_from_json (o) : NULL;
  gboolean measured = ws_record_member (r, WS_RECORD_ROOT, "pid") == WS_RECORD_NONE;

  if (device == NULL)
    return;
  if (measured)
    g_ptr_array_add (t->ceilings, g_object_ref (device));
  else
    {
      guint index;
      WsTraceProcess *p = process_of_record (t, r, &index);

      g_ptr_array_add (p->devices, g_object_ref (device));
    }
  rebuild_infos (t);
  list_device (session, device, measured);
}

gboolean
_ws_trace_takes (const char *type)
{
  static const char *const types[] = { "hello", "activity", "device", "context", "module",
                                       "trace_end", "program", "program_end" };

  for (guint i = 0; i < G_N_ELEMENTS (types); i++)
    if (g_str_equal (types[i], type))
      return TRUE;
  return FALSE;
}

void
_ws_trace_add_record (WsTrace *t, WsSession *session, const char *type, WsRecord *r,
                      const char *text, gsize length)
{
  if (g_str_equal (type, "activity"))
    read_activity (t, session, r);
  else if (g_str_equal (type, "hello"))
    read_hello (t, r, text, length);
  else if (g_str_equal (type, "device"))
    read_device (t, session, r, text, length);
  else if (g_str_equal (type, "context") || g_str_equal (type, "module"))
    read_event (t, type, r);
  else if (g_str_equal (type, "trace_end"))
    read_trace_end (t, r);
  else if (g_str_equal (type, "program"))
    read_program (t, text, length);
  else if (g_str_equal (type, "program_end"))
    read_program_end (t, r);
}

void
_ws_trace_note_error (WsTrace *t, WsRecord *r)
{
  WsRecordNode o = WS_RECORD_ROOT;
  gint64 id = ws_record_int (r, o, "program_run", 0);
  WsTraceProgram *p;
  WsRunnerError *e;

  if (id == 0 && ws_record_member (r, o, "pid") == WS_RECORD_NONE)
    return; /* the runner's, about the whole trace */
  p = program_of_record (t, id);
  e = g_new0 (WsRunnerError, 1);
  e->severity = g_strdup (ws_record_string (r, o, "severity") ?: "error");
  e->code = g_strdup (ws_record_string (r, o, "code") ?: "unknown");
  e->message = g_strdup (ws_record_string (r, o, "message") ?: "");
  e->detail = g_strdup (ws_record_string (r, o, "detail"));
  g_ptr_array_add (p->errors, e);
}

static int
compare_start (gconstpointer a, gconstpointer b)
{
  const WsTraceSpan *x = a, *y = b;

  return x->start < y->start ? -1 : x->start > y->start;
}

void
_ws_trace_end (WsTrace *t, GPtrArray *problems)
{
  if (t->ended)
    return;
  t->ended = TRUE;
  for (guint i = 0; i < t->spans->len; i++)
    {
      WsTraceSpan *s = &g_array_index (t->spans, WsTraceSpan, i);

      if (s->flags & WS_TRACE_SPAN_OPEN)
        {
          WsTraceProcess *p = g_ptr_array_index (t->processes, s->process);

          s->end = MAX (p->end, s->start);
        }
    }
  /* Stable: spans of one start keep the order they came in. */
  g_array_sort (t->spans, compare_start);
  for (guint i = 0; i < t->processes->len; i++)
    {
      WsTraceProcess *p = g_ptr_array_index (t->processes, i);
      g_autofree char *command = p->command ? g_strjoinv (" ", p->command) : NULL;
      WsProblem *problem;

      if (p->ended)
        continue;
      problem = g_new0 (WsProblem, 1);
      /* Translators: a process id and its command line. */
      problem->message = g_strdup_printf (_("process %" PRId64 " (%s) ended without its closing "
                                            "record: it was killed, stopped by Ctrl+C or left "
                                            "through _exit(); its records up to its last flush "
                                            "are kept"),
                                          p->pid, command ?: _("unknown command"));
      g_ptr_array_add (problems, problem);
    }
}

gboolean
_ws_trace_expects_done (WsTrace *t)
{
  return t->from_runner;
}
