/* ws-inject-close.c: the end of a trace. At exit: the writer stops, CUPTI's last buffers are
 * forced out, everything queued is written, then trace_end with the exit status. On a fatal
 * signal the same, as far as is safe, with the signal. Every step that waits on CUDA or on a
 * lock has a time limit, so that a program whose context is broken (an illegal address) or
 * that died holding a lock still ends, with a closing record that says what was not flushed.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "ws-inject-private.h"

#include <signal.h>
#include <time.h>
#include <unistd.h>

#include "ws-clock.h"

#define WRITER_STOP_MS 3000
#define FLUSH_MS 5000

static const char *
signal_name (int sig)
{
  switch (sig)
    {
    case SIGSEGV: return "SIGSEGV";
    case SIGABRT: return "SIGABRT";
    case SIGTERM: return "SIGTERM";
    case SIGINT: return "SIGINT";
    case SIGBUS: return "SIGBUS";
    case SIGFPE: return "SIGFPE";
    case SIGILL: return "SIGILL";
    default: return NULL;
    }
}

static void
trace_end_locked (int sig, int status, int flushed)
{
  static WsJson json;
  WsJson *j = &json;

  _ws_output_begin (j, WS_RECORD_TYPE_TRACE_END);
  if (sig > 0)
    {
      ws_json_string (j, WS_KEY_REASON, "signal");
      ws_json_int (j, WS_KEY_SIGNAL, sig);
      ws_json_string (j, WS_KEY_SIGNAL_NAME, signal_name (sig));
    }
  else
    {
      ws_json_string (j, WS_KEY_REASON, "exit");
      ws_json_int (j, WS_KEY_EXIT_STATUS, status);
    }
  ws_json_bool (j, WS_KEY_FLUSHED, flushed);
  ws_json_uint (j, WS_KEY_RECORDS, atomic_load (&_ws_state.written) + 1);
  ws_json_uint (j, WS_KEY_DROPPED_RECORDS, atomic_load (&_ws_state.dropped));
  ws_json_uint (j, WS_KEY_LOST_RECORDS, atomic_load (&_ws_state.lost));
  ws_json_uint (j, WS_KEY_API_ERRORS, atomic_load (&_ws_state.api_errors));
  _ws_output_emit (j);
  _ws_output_flush_locked ();
  _ws_output_seal ();
}

/* ---- by hand, for when nothing else can run ----------------------------------------------- */

static char *
put_str (char *p, const char *end, const char *s)
{
  while (*s && p < end)
    *p++ = *s++;
  return p;
}

static char *
put_u64 (char *p, const char *end, uint64_t v)
{
  char digits[24];
  int n = 0;

  do
    digits[n++] = (char) ('0' + v % 10);
  while ((v /= 10) > 0);
  while (n > 0 && p < end)
    *p++ = digits[--n];
  return p;
}

/* The closing record built without allocating or locking and written with one write(). */
static void
trace_end_raw (int sig, int status)
{
  char line[512], *p = line, *end = line + sizeof line - 2;
  uint64_t us = (ws_clock_ns () - _ws_state.start_ns) / 1000;
  const char *name = signal_name (sig);

  if (!_ws_output_seal ())
    return;
  p = put_str (p, end, "{\"type\":\"trace_end\",\"t\":");
  p = put_u64 (p, end, us / 1000);
  p = put_str (p, end, us % 1000 < 10 ? ".00" : us % 1000 < 100 ? ".0" : ".");
  p = put_u64 (p, end, us % 1000);
  p = put_str (p, end, ",\"pid\":");
  p = put_u64 (p, end, (uint64_t) _ws_state.pid);
  if (sig > 0)
    {
      p = put_str (p, end, ",\"reason\":\"signal\",\"signal\":");
      p = put_u64 (p, end, (uint64_t) sig);
      if (name != NULL)
        {
          p = put_str (p, end, ",\"signal_name\":\"");
          p = put_str (p, end, name);
          p = put_str (p, end, "\"");
        }
    }
  else
    {
      p = put_str (p, end, ",\"reason\":\"exit\",\"exit_status\":");
      if (status < 0)
        p = put_str (p, end, "-");
      p = put_u64 (p, end, (uint64_t) (status < 0 ? -(int64_t) status : status));
    }
  p = put_str (p, end, ",\"flushed\":false,\"records\":");
  p = put_u64 (p, end, atomic_load (&_ws_state.written) + 1);
  p = put_str (p, end, ",\"dropped_records\":");
  p = put_u64 (p, end, atomic_load (&_ws_state.dropped));
  p = put_str (p, end, ",\"lost_records\":");
  p = put_u64 (p, end, atomic_load (&_ws_state.lost));
  p = put_str (p, end, ",\"api_errors\":");
  p = put_u64 (p, end, atomic_load (&_ws_state.api_errors));
  p = put_str (p, end, "}\n");
  if (_ws_output_write (_ws_output_fd (), line, (size_t) (p - line)) < 0)
    return;
}

void
_ws_finish_signal_raw (int sig)
{
  if (_ws_output_usable ())
    trace_end_raw (sig, 0);
}

/* ---- at exit ------------------------------------------------------------------------------ */

static pthread_mutex_t flush_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t flush_cond = PTHREAD_COND_INITIALIZER;
static int flush_done;

static void *
flush_main (void *data)
{
  (void) data;
  _ws_cupti_flush (1);
  pthread_mutex_lock (&flush_lock);
  flush_done = 1;
  pthread_cond_signal (&flush_cond);
  pthread_mutex_unlock (&flush_lock);
  return NULL;
}

/* CUPTI's forced flush on a thread of its own, waited for at most `ms`: a flush stuck on a
 * broken context is left behind, and the process ends without it. */
static int
flush_within (int ms)
{
  struct timespec deadline;
  pthread_t thread;
  int done;

  if (pthread_create (&thread, NULL, flush_main, NULL) != 0)
    {
      _ws_cupti_flush (1);
      return 1;
    }
  clock_gettime (CLOCK_REALTIME, &deadline);
  deadline.tv_sec += ms / 1000;
  pthread_mutex_lock (&flush_lock);
  while (!flush_done)
    if (pthread_cond_timedwait (&flush_cond, &flush_lock, &deadline) != 0)
      break;
  done = flush_done;
  pthread_mutex_unlock (&flush_lock);
  if (done)
    pthread_join (thread, NULL);
  else
    pthread_detach (thread);
  return done;
}

void
_ws_finish_exit (int status)
{
  int flushed = atomic_load (&_ws_state.tracing);
  uint64_t t0 = _ws_timing_now (), t1;

  if (!_ws_output_usable () || atomic_exchange (&_ws_state.closed, 1))
    return;
  t1 = _ws_timing_now ();
  if (!_ws_writer_stop_within (WRITER_STOP_MS))
    flushed = 0;
  _ws_timing_add (WS_TIME_EXIT_WRITER, t1);
  t1 = _ws_timing_now ();
  if (flushed && !flush_within (FLUSH_MS))
    flushed = 0;
  _ws_timing_add (WS_TIME_EXIT_FLUSH, t1);
  if (!_ws_output_lock_within (2000))
    {
      trace_end_raw (0, status);
      return;
    }
  t1 = _ws_timing_now ();
  _ws_output_process (_ws_queue_take_within (1000));
  _ws_records_open_ranges ();
  trace_end_locked (0, status, flushed);
  _ws_output_unlock ();
  _ws_timing_add (WS_TIME_EXIT_WRITE, t1);
  _ws_timing_add (WS_TIME_EXIT, t0);
  _ws_timing_report ();
}

/* ---- on a fatal signal -------------------------------------------------------------------- */

void
_ws_finish_signal (int sig)
{
  int on_writer = (int) gettid () == atomic_load (&_ws_state.writer_tid);
  int flushed = atomic_load (&_ws_state.tracing);

  if (!_ws_output_usable ())
    return;
  if (atomic_exchange (&_ws_state.closed, 1))
    {
      /* Closing had begun (the program was exiting): the record alone. */
      trace_end_raw (sig, 0);
      return;
    }
  _ws_writer_quit ();
  if (on_writer || !_ws_output_lock_within (2000))
    {
      trace_end_raw (sig, 0);
      return;
    }
  /* The writer is between batches (the output lock is ours): what CUPTI still holds joins the
     queue and is written here. The signal handler's watchdog ends a flush that hangs. */
  if (flushed)
    _ws_cupti_flush (1);
  _ws_output_process (_ws_queue_take_within (500));
  _ws_records_open_ranges ();
  trace_end_locked (sig, 0, flushed);
  _ws_output_unlock ();
}
