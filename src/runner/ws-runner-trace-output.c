/* ws-runner-trace-output.c: what warpscope-runner --trace writes: its own records (hello,
 * program, program_end, error, done) and the injection library's lines, relayed whole with
 * the program run they belong to and the runner's time.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define _GNU_SOURCE /* memmem */
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "ws-clock.h"
#include "ws-config.h"
#include "ws-output.h"
#include "ws-protocol.h"
#include "ws-runner-trace-private.h"

/* A line of the library is a few hundred bytes; one this long is not the library's. */
#define MAX_LINE (1 << 20)

/* ---- records ----------------------------------------------------------------------------- */

/* Milliseconds since the runner started, to the microsecond, with no trailing zeros. */
static const char *
now_ms (char *buf, size_t len)
{
  size_t n;

  snprintf (buf, len, "%.3f", round ((double) (ws_clock_ns () - _ws_trace.start_ns) / 1e3) / 1e3);
  n = strlen (buf);
  while (n > 1 && buf[n - 1] == '0')
    buf[--n] = '\0';
  if (n > 1 && buf[n - 1] == '.')
    buf[--n] = '\0';
  return buf;
}

static void
begin (const char *type)
{
  ws_json_begin_record (&_ws_trace.json, type);
  ws_json_double (&_ws_trace.json, WS_KEY_T,
                  round ((double) (ws_clock_ns () - _ws_trace.start_ns) / 1e3) / 1e3);
}

static void
end_record (void)
{
  if (!ws_json_end_record (&_ws_trace.json, stdout) || fflush (stdout) != 0)
    _ws_trace.output_failed = 1;
}

void
_ws_trace_write_hello (const WsDriverInfo *driver, int argc, char **argv)
{
  begin (WS_RECORD_TYPE_HELLO);
  ws_json_int (&_ws_trace.json, WS_KEY_PROTOCOL, WS_PROTOCOL_TRACE);
  ws_json_string (&_ws_trace.json, WS_KEY_SOURCE, WS_SOURCE_TRACE);
  ws_output_hello_members (&_ws_trace.json, driver);
  ws_output_hello_argv (&_ws_trace.json, argc, argv);
  end_record ();
}

/* program_run 0: about no program run. */
void
_ws_trace_write_error (int program_run, WsErrorSeverity severity, WsErrorCode code,
                       const char *message, const char *detail)
{
  fprintf (stderr, "warpscope-runner: %s: %s%s%s%s\n", ws_error_severity_to_string (severity),
           message, detail ? " (" : "", detail ? detail : "", detail ? ")" : "");
  begin (WS_RECORD_TYPE_ERROR);
  ws_json_null (&_ws_trace.json, WS_KEY_RUN);
  if (program_run > 0)
    ws_json_int (&_ws_trace.json, WS_KEY_PROGRAM_RUN, program_run);
  ws_json_string (&_ws_trace.json, WS_KEY_SEVERITY, ws_error_severity_to_string (severity));
  ws_json_string (&_ws_trace.json, WS_KEY_CODE, ws_error_code_to_string (code));
  ws_json_string (&_ws_trace.json, WS_KEY_MESSAGE, message);
  ws_json_string (&_ws_trace.json, WS_KEY_DETAIL, detail);
  end_record ();
}

void
_ws_trace_write_done (int runs, int failed, int exit_code)
{
  begin (WS_RECORD_TYPE_DONE);
  ws_json_int (&_ws_trace.json, WS_KEY_RUNS, runs);
  ws_json_int (&_ws_trace.json, WS_KEY_FAILED, failed);
  ws_json_uint (&_ws_trace.json, WS_KEY_DROPPED_RECORDS, _ws_trace.dropped_records);
  ws_json_int (&_ws_trace.json, WS_KEY_EXIT_CODE, exit_code);
  end_record ();
}

void
_ws_trace_write_program (const WsTraceOptions *o, int id, int of, const char *const *values,
                         char *const *argv, char *const *env_values, const char *cwd,
                         const char *path)
{
  begin (WS_RECORD_TYPE_PROGRAM);
  ws_json_int (&_ws_trace.json, WS_KEY_PROGRAM_RUN, id);
  ws_json_int (&_ws_trace.json, WS_KEY_OF, of);
  ws_json_begin_array (&_ws_trace.json, WS_KEY_PARAMS);
  for (int p = 0; p < o->n_params; p++)
    {
      ws_json_begin_object (&_ws_trace.json, NULL);
      ws_json_string (&_ws_trace.json, WS_KEY_NAME, o->params[p].name);
      ws_json_string (&_ws_trace.json, WS_KEY_VALUE, values[p]);
      ws_json_end_object (&_ws_trace.json);
    }
  ws_json_end_array (&_ws_trace.json);
  ws_json_begin_array (&_ws_trace.json, WS_KEY_ARGV);
  for (int i = 0; argv[i] != NULL; i++)
    ws_json_string (&_ws_trace.json, NULL, argv[i]);
  ws_json_end_array (&_ws_trace.json);
  ws_json_begin_object (&_ws_trace.json, WS_KEY_ENV);
  for (int i = 0; i < o->n_env; i++)
    ws_json_string (&_ws_trace.json, o->env_names[i], env_values[i]);
  ws_json_end_object (&_ws_trace.json);
  ws_json_string (&_ws_trace.json, WS_KEY_CWD, cwd);
  ws_json_string (&_ws_trace.json, WS_KEY_PATH, path);
  ws_json_uint (&_ws_trace.json, WS_KEY_MONOTONIC_NS, ws_clock_ns ());
  end_record ();
}

const char *
_ws_trace_signal_name (int sig)
{
  static const struct
  {
    int sig;
    const char *name;
  } names[] = {
    { SIGHUP, "SIGHUP" },   { SIGINT, "SIGINT" },   { SIGQUIT, "SIGQUIT" }, { SIGILL, "SIGILL" },
    { SIGTRAP, "SIGTRAP" }, { SIGABRT, "SIGABRT" }, { SIGBUS, "SIGBUS" },   { SIGFPE, "SIGFPE" },
    { SIGKILL, "SIGKILL" }, { SIGUSR1, "SIGUSR1" }, { SIGSEGV, "SIGSEGV" }, { SIGUSR2, "SIGUSR2" },
    { SIGPIPE, "SIGPIPE" }, { SIGALRM, "SIGALRM" }, { SIGTERM, "SIGTERM" }, { SIGXCPU, "SIGXCPU" },
  };

  for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
    if (names[i].sig == sig)
      return names[i].name;
  return NULL;
}

static const char *
end_reason (const WsTraceChild *c)
{
  if (c->stopped)
    return "stopped";
  if (c->timed_out)
    return "timeout";
  return WIFSIGNALED (c->status) ? "signal" : "exit";
}

void
_ws_trace_write_program_end (const WsTraceChild *c)
{
  begin (WS_RECORD_TYPE_PROGRAM_END);
  ws_json_int (&_ws_trace.json, WS_KEY_PROGRAM_RUN, c->id);
  ws_json_string (&_ws_trace.json, WS_KEY_REASON, end_reason (c));
  if (WIFEXITED (c->status))
    ws_json_int (&_ws_trace.json, WS_KEY_EXIT_STATUS, WEXITSTATUS (c->status));
  else
    ws_json_null (&_ws_trace.json, WS_KEY_EXIT_STATUS);
  if (WIFSIGNALED (c->status))
    {
      ws_json_int (&_ws_trace.json, WS_KEY_SIGNAL, WTERMSIG (c->status));
      ws_json_string (&_ws_trace.json, WS_KEY_SIGNAL_NAME,
                      _ws_trace_signal_name (WTERMSIG (c->status)));
    }
  ws_json_uint (&_ws_trace.json, WS_KEY_WALL_NS, c->end_mono - c->start_mono);
  ws_json_uint (&_ws_trace.json, WS_KEY_MONOTONIC_NS, c->end_mono);
  ws_json_int (&_ws_trace.json, WS_KEY_PROCESSES, c->processes);
  ws_json_int (&_ws_trace.json, WS_KEY_ENDED_PROCESSES, c->ended);
  ws_json_int (&_ws_trace.json, WS_KEY_RECORDS, c->records);
  ws_json_int (&_ws_trace.json, WS_KEY_DROPPED_LINES, c->dropped_lines);
  end_record ();
}

/* A program run that never started: its program record, why, and its end. */
void
_ws_trace_write_not_started (int id)
{
  begin (WS_RECORD_TYPE_PROGRAM_END);
  ws_json_int (&_ws_trace.json, WS_KEY_PROGRAM_RUN, id);
  ws_json_string (&_ws_trace.json, WS_KEY_REASON, "not_started");
  ws_json_null (&_ws_trace.json, WS_KEY_EXIT_STATUS);
  ws_json_int (&_ws_trace.json, WS_KEY_PROCESSES, 0);
  ws_json_int (&_ws_trace.json, WS_KEY_RECORDS, 0);
  end_record ();
}

/* ---- relaying the library's lines -------------------------------------------------------- */

static void
remember_uuid (const char *line, size_t len)
{
  const char *key = "\"" WS_KEY_UUID "\":\"";
  const char *p = memmem (line, len, key, strlen (key)), *q;

  if (p == NULL || _ws_trace.n_uuids == WS_TRACE_MAX_UUIDS)
    return;
  p += strlen (key);
  q = memchr (p, '"', len - (size_t) (p - line));
  if (q == NULL || q - p >= 48)
    return;
  for (int i = 0; i < _ws_trace.n_uuids; i++)
    if (strncmp (_ws_trace.uuids[i], p, (size_t) (q - p)) == 0 && _ws_trace.uuids[i][q - p] == '\0')
      return;
  snprintf (_ws_trace.uuids[_ws_trace.n_uuids++], 48, "%.*s", (int) (q - p), p);
}

static uint64_t
field_uint (const char *line, size_t len, const char *key)
{
  const char *p = memmem (line, len, key, strlen (key));

  return p != NULL ? strtoull (p + strlen (key), NULL, 10) : 0;
}

/* How the library begins every record, and what follows its type. */
#define TYPE_PREFIX "{\"" WS_KEY_TYPE "\":\""
#define TYPE_PREFIX_LEN (sizeof TYPE_PREFIX - 1)
#define T_PREFIX ",\"" WS_KEY_T "\":"
#define T_PREFIX_LEN (sizeof T_PREFIX - 1)

static int
is_type (const char *type, size_t tlen, const char *name)
{
  return tlen == strlen (name) && memcmp (type, name, tlen) == 0;
}

/* Each line is the library's whole record: it gains "program_run" after its type, so that
 * the records of every run of a sweep can be told apart. */
void
_ws_trace_relay_line (WsTraceChild *c, char *line, size_t len)
{
  const char *type, *q, *rest;
  size_t tlen;
  char t[32];

  while (len > 0 && line[len - 1] == '\r')
    len--;
  if (len == 0)
    return;
  if (len < TYPE_PREFIX_LEN + 3 || memcmp (line, TYPE_PREFIX, TYPE_PREFIX_LEN) != 0
      || line[len - 1] != '}'
      || (q = memchr (line + TYPE_PREFIX_LEN, '"', len - TYPE_PREFIX_LEN)) == NULL
      || memchr (line + TYPE_PREFIX_LEN, '\\', (size_t) (q - line - TYPE_PREFIX_LEN)) != NULL)
    {
      c->dropped_lines++;
      return;
    }
  type = line + TYPE_PREFIX_LEN;
  tlen = (size_t) (q - type);
  rest = q + 1;
  /* Its t (ms since the library started in that process) becomes the runner's, so that the
   * stream's t rises as it arrived and a replay keeps its pacing. */
  if ((size_t) (line + len - rest) > T_PREFIX_LEN && memcmp (rest, T_PREFIX, T_PREFIX_LEN) == 0)
    {
      rest += T_PREFIX_LEN;
      while (rest < line + len && strchr ("0123456789.eE+-", *rest) != NULL)
        rest++;
    }
  fwrite (line, 1, (size_t) (q + 1 - line), stdout);
  fprintf (stdout, T_PREFIX "%s,\"" WS_KEY_PROGRAM_RUN "\":%d", now_ms (t, sizeof t), c->id);
  fwrite (rest, 1, len - (size_t) (rest - line), stdout);
  fputc ('\n', stdout);
  c->records++;
  if (is_type (type, tlen, WS_RECORD_TYPE_HELLO))
    c->processes++;
  else if (is_type (type, tlen, WS_RECORD_TYPE_TRACE_END))
    {
      c->ended++;
      _ws_trace.dropped_records += field_uint (line, len, "\"" WS_KEY_DROPPED_RECORDS "\":");
    }
  else if (is_type (type, tlen, WS_RECORD_TYPE_DEVICE))
    remember_uuid (line, len);
}

static void
append_line (WsTraceStream *s, const char *data, size_t n)
{
  if (s->skipping)
    return;
  if (s->line_len + n > MAX_LINE)
    {
      s->skipping = 1;
      s->line_len = 0;
      return;
    }
  if (s->line_len + n + 1 > s->line_cap)
    {
      size_t cap = 2 * (s->line_len + n + 1);
      char *bigger = realloc (s->line, cap);

      if (bigger == NULL)
        {
          s->skipping = 1;
          s->line_len = 0;
          return;
        }
      s->line = bigger;
      s->line_cap = cap;
    }
  memcpy (s->line + s->line_len, data, n);
  s->line_len += n;
}

void
_ws_trace_relay_chunk (WsTraceChild *c, WsTraceStream *s, const char *data, size_t n)
{
  while (n > 0)
    {
      const char *nl = memchr (data, '\n', n);
      size_t part = nl ? (size_t) (nl - data) : n;

      append_line (s, data, part);
      if (nl == NULL)
        break;
      if (s->skipping)
        c->dropped_lines++;
      else
        _ws_trace_relay_line (c, s->line, s->line_len);
      s->skipping = 0;
      s->line_len = 0;
      data = nl + 1;
      n -= part + 1;
    }
  if (fflush (stdout) != 0)
    _ws_trace.output_failed = 1;
}
