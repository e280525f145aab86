/* ws-trace.c: reading a traced program's records (docs/protocol.md, "Traced programs") into
 * program runs, processes, spans and events on one time axis.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "ws-config.h"

#include "ws-trace-private.h"

#include <glib/gi18n-lib.h>
#include <inttypes.h>
#include <string.h>

#include "ws-device-private.h"
#include "ws-protocol.h"
#include "ws-run-private.h"
#include "ws-session-private.h"
#include "ws-span-private.h"

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
  t->spans = g_array_new (FALSE, FALSE, sizeof (WsSpan));
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

/* The strings of an array member; NULL when the member is absent or not an array. */
static char **
strv_of (const WsRecord *r, const char *member)
{
  WsRecordNode node = ws_record_member (r, WS_RECORD_ROOT, member);

  if (node == WS_RECORD_NONE || ws_record_type (r, node) != WS_RECORD_ARRAY)
    return NULL;
  return ws_record_dup_strings (r, WS_RECORD_ROOT, member);
}

static const char *
record_intern (const WsRecord *r, const char *member)
{
  const char *s = ws_record_string (r, WS_RECORD_ROOT, member);

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
process_of_record (WsTrace *t, const WsRecord *r, guint *index)
{
  WsTraceProgram *program
    = program_of_record (t, ws_record_int (r, WS_RECORD_ROOT, WS_KEY_PROGRAM_RUN, 0));
  gint64 pid = ws_record_int (r, WS_RECORD_ROOT, WS_KEY_PID, 0);
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
read_hello (WsTrace *t, const WsRecord *r)
{
  WsRecordNode o = WS_RECORD_ROOT;
  WsTraceProgram *program;
  WsTraceProcess *p;
  gint64 pid;
  guint index;

  if (ws_record_member (r, o, WS_KEY_PID) == WS_RECORD_NONE)
    {
      /* The runner's hello: the processes come later. */
      t->from_runner = TRUE;
      return;
    }
  program = program_of_record (t, ws_record_int (r, o, WS_KEY_PROGRAM_RUN, 0));
  pid = ws_record_int (r, o, WS_KEY_PID, 0);
  if ((p = lookup_process (t, program->id, pid, &index)) == NULL)
    {
      p = new_process (t, program->id, pid, &index);
      program->n_processes++;
    }
  p->ppid = ws_record_int (r, o, WS_KEY_PPID, 0);
  g_free (p->executable);
  p->executable = g_strdup (ws_record_string (r, o, WS_KEY_PROGRAM));
  g_strfreev (p->command);
  p->command = strv_of (r, WS_KEY_COMMAND);
  g_free (p->cwd);
  p->cwd = g_strdup (ws_record_string (r, o, WS_KEY_CWD));
  p->clock_origin_ns = ws_record_int (r, o, WS_KEY_CLOCK_ORIGIN_NS, 0);
  p->monotonic_origin_ns = ws_record_int (r, o, WS_KEY_MONOTONIC_ORIGIN_NS, 0);
  p->api_mode = record_intern (r, WS_KEY_API);
  if (!t->has_origin)
    {
      t->origin = p->clock_origin_ns;
      t->has_origin = TRUE;
    }
  p->cuda_start = on_axis (t, p, 0);
  p->start = on_axis (t, p, MIN (ws_record_int (r, o, WS_KEY_PROCESS_START, 0), 0));
  extend_process (p, p->cuda_start);
}

static void
read_program (WsTrace *t, const WsRecord *r)
{
  WsRecordNode o = WS_RECORD_ROOT, params, env;
  WsTraceProgram *p;
  guint id;

  if ((id = (guint) MAX (ws_record_int (r, o, WS_KEY_PROGRAM_RUN, 0), 0)) == 0)
    return;
  if ((p = _ws_trace_find_program (t, id)) == NULL)
    p = add_program (t, id);
  p->of = (guint) MAX (ws_record_int (r, o, WS_KEY_OF, 1), 1);
  params = ws_record_member (r, o, WS_KEY_PARAMS);
  if (params != WS_RECORD_NONE && ws_record_type (r, params) == WS_RECORD_ARRAY
      && p->params == NULL)
    {
      p->params = g_new0 (WsTraceParam, ws_record_length (r, params));
      for (guint i = 0; i < ws_record_length (r, params); i++)
        {
          WsRecordNode pair = ws_record_element (r, params, i);

          if (ws_record_type (r, pair) != WS_RECORD_OBJECT
              || ws_record_string (r, pair, WS_KEY_NAME) == NULL)
            continue;
          p->params[p->n_params].name = g_strdup (ws_record_string (r, pair, WS_KEY_NAME));
          p->params[p->n_params].value = g_strdup (ws_record_string (r, pair, WS_KEY_VALUE) ?: "");
          p->n_params++;
        }
    }
  g_strfreev (p->argv);
  p->argv = strv_of (r, WS_KEY_ARGV);
  env = ws_record_object (r, o, WS_KEY_ENV);
  if (env != WS_RECORD_NONE)
    {
      GPtrArray *v = g_ptr_array_new ();

      /* A name given twice counts once, with its last value. */
      for (WsRecordNode m = ws_record_first_child (r, env); m != WS_RECORD_NONE;
           m = ws_record_next_sibling (r, m))
        {
          const char *name = ws_record_key (r, m);

          if (ws_record_member (r, env, name) == m)
            g_ptr_array_add (v, g_strdup_printf ("%s=%s", name,
                                                 ws_record_string (r, env, name) ?: ""));
        }
      g_ptr_array_add (v, NULL);
      g_strfreev (p->env);
      p->env = (char **) g_ptr_array_free (v, FALSE);
    }
  g_free (p->cwd);
  p->cwd = g_strdup (ws_record_string (r, o, WS_KEY_CWD));
  g_free (p->path);
  p->path = g_strdup (ws_record_string (r, o, WS_KEY_PATH));
  p->start_monotonic_ns = (guint64) MAX (ws_record_int (r, o, WS_KEY_MONOTONIC_NS, 0), 0);
}

static void
read_program_end (WsTrace *t, const WsRecord *r)
{
  WsRecordNode o = WS_RECORD_ROOT;
  gint64 id = ws_record_int (r, o, WS_KEY_PROGRAM_RUN, 0);
  WsTraceProgram *p = _ws_trace_find_program (t, (guint) MAX (id, 0));
  const char *reason = ws_record_string (r, o, WS_KEY_REASON);
  const char *name = ws_record_string (r, o, WS_KEY_SIGNAL_NAME);

  if (p == NULL)
    return;
  p->ended = TRUE;
  p->end_reason = g_intern_string (reason ?: "exit");
  p->exit_status = (int) ws_record_int (r, o, WS_KEY_EXIT_STATUS, -1);
  p->signal = (int) ws_record_int (r, o, WS_KEY_SIGNAL, 0);
  p->signal_name = name != NULL ? g_intern_string (name) : NULL;
  p->wall_ns = ws_record_int (r, o, WS_KEY_WALL_NS, 0);
  p->end_monotonic_ns = (guint64) MAX (ws_record_int (r, o, WS_KEY_MONOTONIC_NS, 0), 0);
}

static void
read_trace_end (WsTrace *t, const WsRecord *r)
{
  WsRecordNode o = WS_RECORD_ROOT;
  guint index;
  WsTraceProcess *p = process_of_record (t, r, &index);
  const char *reason = ws_record_string (r, o, WS_KEY_REASON);
  const char *name = ws_record_string (r, o, WS_KEY_SIGNAL_NAME);

  p->ended = TRUE;
  p->end_reason = g_intern_string (reason ?: "exit");
  p->exit_status = (int) ws_record_int (r, o, WS_KEY_EXIT_STATUS, -1);
  p->signal = (int) ws_record_int (r, o, WS_KEY_SIGNAL, 0);
  p->signal_name = name != NULL ? g_intern_string (name) : NULL;
  p->flushed = ws_record_bool (r, o, WS_KEY_FLUSHED, FALSE);
  p->records = ws_record_int (r, o, WS_KEY_RECORDS, 0);
  p->dropped_records = ws_record_int (r, o, WS_KEY_DROPPED_RECORDS, 0);
  p->lost_records = ws_record_int (r, o, WS_KEY_LOST_RECORDS, 0);
  p->api_errors = ws_record_int (r, o, WS_KEY_API_ERRORS, 0);
}

static void
read_event (WsTrace *t, const char *type, const WsRecord *r)
{
  WsRecordNode o = WS_RECORD_ROOT;
  const char *event = ws_record_string (r, o, WS_KEY_EVENT);
  gboolean module = g_str_equal (type, WS_RECORD_TYPE_MODULE);
  WsTraceEvent e = { 0 };
  guint index;
  WsTraceProcess *p = process_of_record (t, r, &index);

  if (module)
    e.kind = g_strcmp0 (event, "unload") == 0 ? WS_TRACE_EVENT_MODULE_UNLOAD
                                              : WS_TRACE_EVENT_MODULE_LOAD;
  else
    e.kind = g_strcmp0 (event, "destroy") == 0 ? WS_TRACE_EVENT_CONTEXT_DESTROY
                                               : WS_TRACE_EVENT_CONTEXT_CREATE;
  e.at = on_axis (t, p, ws_record_int (r, o, WS_KEY_AT, 0));
  e.program = p->program;
  e.process = index;
  e.id = (guint32) ws_record_int (r, o, module ? WS_KEY_MODULE : WS_KEY_CONTEXT, 0);
  e.context = (guint32) ws_record_int (r, o, WS_KEY_CONTEXT, 0);
  e.device = (guint32) ws_record_int (r, o, WS_KEY_DEVICE, 0);
  e.bytes = ws_record_int (r, o, WS_KEY_CUBIN_BYTES, 0);
  g_array_append_val (t->events, e);
  extend_process (p, e.at);
}

static void
read_activity (WsTrace *t, WsSession *session, const WsRecord *r)
{
  WsRecordNode o = WS_RECORD_ROOT;
  WsSpan s;
  guint index;
  WsTraceProcess *p = process_of_record (t, r, &index);
  gboolean untimed;

  _ws_span_from_record (r, &s);
  s.run = p->program;
  s.process = index;
  /* CUPTI could not time it (start or end null): it has no place on the axis. */
  untimed = ws_record_type (r, ws_record_member (r, o, WS_KEY_START)) != WS_RECORD_INT
            || (ws_record_type (r, ws_record_member (r, o, WS_KEY_END)) != WS_RECORD_INT
                && !(s.flags & WS_SPAN_OPEN));
  session->n_activities++;
  if (untimed)
    return;
  s.start = on_axis (t, p, ws_record_int (r, o, WS_KEY_START, 0));
  s.end = (s.flags & WS_SPAN_OPEN) ? s.start
                                   : MAX (on_axis (t, p, ws_record_int (r, o, WS_KEY_END, 0)),
                                          s.start);
  extend_process (p, s.end);
  t->n_kernels += s.kind == WS_ACTIVITY_KERNEL;
  t->n_copies += s.kind == WS_ACTIVITY_MEMCPY;
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
read_device (WsTrace *t, WsSession *session, const WsRecord *r)
{
  g_autoptr (WsDevice) device = _ws_device_new_from_record (r);
  gboolean measured = ws_record_member (r, WS_RECORD_ROOT, WS_KEY_PID) == WS_RECORD_NONE;

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
  static const char *const types[] = {
    WS_RECORD_TYPE_HELLO,  WS_RECORD_TYPE_ACTIVITY,  WS_RECORD_TYPE_DEVICE,
    WS_RECORD_TYPE_CONTEXT, WS_RECORD_TYPE_MODULE,   WS_RECORD_TYPE_TRACE_END,
    WS_RECORD_TYPE_PROGRAM, WS_RECORD_TYPE_PROGRAM_END,
  };

  for (guint i = 0; i < G_N_ELEMENTS (types); i++)
    if (g_str_equal (types[i], type))
      return TRUE;
  return FALSE;
}

void
_ws_trace_add_record (WsTrace *t, WsSession *session, const char *type, const WsRecord *r)
{
  if (g_str_equal (type, WS_RECORD_TYPE_ACTIVITY))
    read_activity (t, session, r);
  else if (g_str_equal (type, WS_RECORD_TYPE_HELLO))
    read_hello (t, r);
  else if (g_str_equal (type, WS_RECORD_TYPE_DEVICE))
    read_device (t, session, r);
  else if (g_str_equal (type, WS_RECORD_TYPE_CONTEXT) || g_str_equal (type, WS_RECORD_TYPE_MODULE))
    read_event (t, type, r);
  else if (g_str_equal (type, WS_RECORD_TYPE_TRACE_END))
    read_trace_end (t, r);
  else if (g_str_equal (type, WS_RECORD_TYPE_PROGRAM))
    read_program (t, r);
  else if (g_str_equal (type, WS_RECORD_TYPE_PROGRAM_END))
    read_program_end (t, r);
}

void
_ws_trace_note_error (WsTrace *t, const WsRecord *r)
{
  WsRecordNode o = WS_RECORD_ROOT;
  gint64 id = ws_record_int (r, o, WS_KEY_PROGRAM_RUN, 0);
  WsTraceProgram *p;
  WsRunnerError *e;

  if (id == 0 && ws_record_member (r, o, WS_KEY_PID) == WS_RECORD_NONE)
    return; /* the runner's, about the whole trace */
  p = program_of_record (t, id);
  e = _ws_runner_error_new_from_record (r);
  g_ptr_array_add (p->errors, e);
}

static int
compare_start (gconstpointer a, gconstpointer b)
{
  const WsSpan *x = a, *y = b;

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
      WsSpan *s = &g_array_index (t->spans, WsSpan, i);

      if (s->flags & WS_SPAN_OPEN)
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
