/* ws-inject-output.c: the queue between CUPTI's threads and the writer, the writer thread,
 * and the trace's output (opened by ws-inject-open.c). Records are built whole and written in
 * whole lines: to a regular file opened O_APPEND, or to the process's own connection to the
 * trace socket, each write() is one batch of lines; to an inherited pipe, each write() is at
 * most PIPE_BUF bytes of whole lines, so that the records of several processes (a program and
 * the children it starts) interleave by line, never inside one.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "ws-inject-private.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "ws-clock.h"
#include "ws-config.h"

#define FLUSH_AT (1u << 20)

static struct
{
  int fd;
  int regular;
  int socket; /* a connection of this process's own: no other writer shares it */
  int broken;
  int sealed; /* trace_end is written: nothing more goes out */
  char *buf;
  size_t len, cap;
  WsJson json;
} out = { .fd = -1 };
static pthread_mutex_t out_lock = PTHREAD_MUTEX_INITIALIZER;

static struct
{
  pthread_mutex_t lock;
  pthread_cond_t cond;
  WsItem *head, *tail;
  int stop;
} queue = { .lock = PTHREAD_MUTEX_INITIALIZER, .cond = PTHREAD_COND_INITIALIZER };

static pthread_t writer;
static int writer_running;
static atomic_int writer_quit;

/* ---- opening ------------------------------------------------------------------------------ */

int
_ws_output_open (char *message, size_t len, char *note, size_t note_len)
{
  WsDestination kind = WS_DESTINATION_PIPE;
  int fd = _ws_destination_open (&kind, message, len, note, note_len);

  if (fd < 0)
    return 0;
  out.regular = kind == WS_DESTINATION_FILE;
  out.socket = kind == WS_DESTINATION_SOCKET;
  if (out.regular)
    {
      int flags = fcntl (fd, F_GETFL);

      /* Several processes share one trace file: each write must land at its end. */
      if (flags >= 0 && !(flags & O_APPEND))
        fcntl (fd, F_SETFL, flags | O_APPEND);
    }
  out.fd = fd;
  ws_json_init (&out.json);
  return 1;
}

void
_ws_output_lock (void)
{
  pthread_mutex_lock (&out_lock);
}

void
_ws_output_unlock (void)
{
  pthread_mutex_unlock (&out_lock);
}

/* ---- writing ------------------------------------------------------------------------------ */

/* A socket whose reader is gone must not end the program with SIGPIPE. */
ssize_t
_ws_output_write (int fd, const void *data, size_t n)
{
  return out.socket ? send (fd, data, n, MSG_NOSIGNAL) : write (fd, data, n);
}

static size_t
count_lines (const char *s, size_t n)
{
  size_t lines = 0;

  for (size_t i = 0; i < n; i++)
    lines += s[i] == '\n';
  return lines;
}

static int
write_all (const char *data, size_t n)
{
  while (n > 0)
    {
      ssize_t w = _ws_output_write (out.fd, data, n);

      if (w > 0)
        {
          data += w;
          n -= (size_t) w;
        }
      else if (w < 0 && errno == EINTR)
        continue;
      else if (w < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
        {
          struct pollfd p = { .fd = out.fd, .events = POLLOUT };

          poll (&p, 1, 1000);
        }
      else
        {
          if (!out.broken)
            fprintf (stderr, "warpscope-inject: cannot write the trace (%s); the program goes "
                     "on untraced\n", w < 0 ? strerror (errno) : "no space");
          out.broken = 1;
          atomic_fetch_add (&_ws_state.lost, count_lines (data, n));
          return 0;
        }
    }
  return 1;
}

void
_ws_output_flush_locked (void)
{
  size_t at = 0;
  uint64_t t0;

  if (out.len == 0 || out.broken || out.fd < 0 || atomic_load (&_ws_state.inherited))
    {
      out.len = 0;
      return;
    }
  t0 = _ws_timing_now ();
  if (out.regular || out.socket)
    write_all (out.buf, out.len);
  else
    while (at < out.len && !out.broken)
      {
        /* The longest run of whole lines that fits in PIPE_BUF; a longer line goes alone. */
        size_t end = at, last = 0;

        while (end < out.len && end - at < PIPE_BUF)
          if (out.buf[end++] == '\n')
            last = end;
        if (last == 0)
          {
            char *nl = memchr (out.buf + at, '\n', out.len - at);

            last = nl != NULL ? (size_t) (nl - out.buf) + 1 : out.len;
          }
        write_all (out.buf + at, last - at);
        at = last;
      }
  out.len = 0;
  _ws_timing_add (WS_TIME_WRITE, t0);
}

void
_ws_output_begin (WsJson *json, const char *type)
{
  ws_json_begin_record (json, type);
  /* Milliseconds since the trace started, to the µs, as the runner's "t": replays keep the
     pacing. */
  _ws_jmillis (json, WS_KEY_T, (ws_clock_ns () - _ws_state.start_ns + 500) / 1000);
  _ws_jint (json, WS_KEY_PID, _ws_state.pid);
}

void
_ws_output_emit (WsJson *json)
{
  ws_json_end_object (json);
  if (json->failed || out.sealed)
    {
      atomic_fetch_add (&_ws_state.lost, 1);
      return;
    }
  if (out.len + json->len + 1 > out.cap)
    {
      size_t cap = out.cap ? out.cap : FLUSH_AT + 4096;
      char *buf;

      while (cap < out.len + json->len + 1)
        cap *= 2;
      if ((buf = realloc (out.buf, cap)) == NULL)
        {
          atomic_fetch_add (&_ws_state.lost, 1);
          return;
        }
      out.buf = buf;
      out.cap = cap;
    }
  memcpy (out.buf + out.len, json->data, json->len);
  out.len += json->len;
  out.buf[out.len++] = '\n';
  atomic_fetch_add (&_ws_state.written, 1);
  if (out.len >= FLUSH_AT)
    _ws_output_flush_locked ();
}

/* ---- records of the process --------------------------------------------------------------- */

static void
version_string (int v, char *buf, size_t len)
{
  snprintf (buf, len, "%d.%d", v / 1000, (v % 1000) / 10);
}

/* The program's command line, argv[0] included, from /proc/self/cmdline. */
static void
command_line (WsJson *json)
{
  char buf[32768];
  ssize_t n = 0;
  int fd = open ("/proc/self/cmdline", O_RDONLY | O_CLOEXEC);

  ws_json_begin_array (json, WS_KEY_COMMAND);
  if (fd >= 0)
    {
      ssize_t r;

      while (n < (ssize_t) sizeof buf - 1 && (r = read (fd, buf + n, sizeof buf - 1 - n)) > 0)
        n += r;
      close (fd);
    }
  buf[n] = '\0';
  for (ssize_t i = 0; i < n; i += (ssize_t) strlen (buf + i) + 1)
    ws_json_string (json, NULL, buf + i);
  ws_json_end_array (json);
}

/* When the process started, in ns relative to the trace's origin (negative): the time the
 * program spent before it first touched CUDA (Python's imports, say). 0 when unknown. */
static int64_t
process_start (void)
{
  char buf[1024], *p;
  ssize_t n;
  unsigned long long start_ticks = 0;
  long hz = sysconf (_SC_CLK_TCK);
  struct timespec boot;
  int fd = open ("/proc/self/stat", O_RDONLY | O_CLOEXEC);
  int64_t since_origin;

  if (fd < 0)
    return 0;
  n = read (fd, buf, sizeof buf - 1);
  close (fd);
  if (n <= 0 || hz <= 0 || clock_gettime (CLOCK_BOOTTIME, &boot) != 0)
    return 0;
  buf[n] = '\0';
  /* Field 22, counted after the command name, which may hold spaces and parentheses. */
  if ((p = strrchr (buf, ')')) == NULL)
    return 0;
  for (int field = 2; field < 22 && p != NULL; field++)
    p = strchr (p + 1, ' ');
  if (p == NULL || sscanf (p + 1, "%llu", &start_ticks) != 1)
    return 0;
  since_origin = (int64_t) (ws_cupti_api_timestamp () - _ws_state.origin);
  return since_origin
         - ((int64_t) boot.tv_sec * 1000000000ll + boot.tv_nsec
            - (int64_t) (start_ticks * (1000000000ull / (unsigned long long) hz)));
}

void
_ws_output_hello (void)
{
  WsJson *j = &out.json;
  char host[256] = "", when[32], path[4096], version[16];
  time_t now = time (NULL);
  struct tm tm;
  ssize_t n;
  int driver = _ws_driver_version ();
  const char *visible = getenv ("CUDA_VISIBLE_DEVICES");

  gethostname (host, sizeof host - 1);
  gmtime_r (&now, &tm);
  strftime (when, sizeof when, "%Y-%m-%dT%H:%M:%SZ", &tm);
  _ws_output_lock ();
  _ws_output_begin (j, WS_RECORD_TYPE_HELLO);
  ws_json_int (j, WS_KEY_PROTOCOL, WS_PROTOCOL_TRACE);
  ws_json_string (j, WS_KEY_SOURCE, WS_SOURCE_TRACE);
  ws_json_string (j, WS_KEY_INJECT, WS_VERSION);
  ws_json_string (j, WS_KEY_BUILD, WS_BUILDTYPE);
  ws_json_string (j, WS_KEY_TIME, when);
  ws_json_string (j, WS_KEY_HOST, host);
  ws_json_int (j, WS_KEY_PPID, getppid ());
  n = readlink ("/proc/self/exe", path, sizeof path - 1);
  path[n > 0 ? n : 0] = '\0';
  ws_json_string (j, WS_KEY_PROGRAM, n > 0 ? path : NULL);
  command_line (j);
  ws_json_string (j, WS_KEY_CWD, getcwd (path, sizeof path) ? path : NULL);
  ws_json_bool (j, WS_KEY_DRIVER_FOUND, driver > 0);
  if (driver > 0)
    {
      version_string (driver, version, sizeof version);
      ws_json_int (j, WS_KEY_DRIVER_VERSION, driver);
      ws_json_string (j, WS_KEY_DRIVER_CUDA, version);
    }
  else
    {
      ws_json_null (j, WS_KEY_DRIVER_VERSION);
      ws_json_null (j, WS_KEY_DRIVER_CUDA);
    }
  if (ws_cupti_api_version () > 0)
    ws_json_uint (j, WS_KEY_CUPTI_VERSION, ws_cupti_api_version ());
  else
    ws_json_null (j, WS_KEY_CUPTI_VERSION);
  ws_json_uint (j, WS_KEY_CUPTI_BUILT, CUPTI_API_VERSION);
  ws_json_string (j, WS_KEY_CUDA_VISIBLE_DEVICES, visible);
  ws_json_uint (j, WS_KEY_CLOCK_ORIGIN_NS, _ws_state.origin);
  ws_json_uint (j, WS_KEY_MONOTONIC_ORIGIN_NS, _ws_state.origin_monotonic);
  ws_json_int (j, WS_KEY_PROCESS_START, process_start ());
  ws_json_string (j, WS_KEY_API, _ws_state.api_mode == WS_API_ALL    ? "all"
                            : _ws_state.api_mode == WS_API_NONE ? "none"
                                                                : "launch");
  ws_json_uint (j, WS_KEY_BUFFER_BYTES, _ws_state.buffer_bytes);
  ws_json_int (j, WS_KEY_FLUSH_MS, _ws_state.flush_ms);
  _ws_output_emit (j);
  _ws_output_flush_locked ();
  _ws_output_unlock ();
}

void
_ws_output_error (WsErrorSeverity severity, WsErrorCode code, const char *message)
{
  WsJson *j = &out.json;

  fprintf (stderr, "warpscope-inject: %s\n", message);
  _ws_output_lock ();
  _ws_output_begin (j, WS_RECORD_TYPE_ERROR);
  ws_json_null (j, WS_KEY_RUN);
  ws_json_string (j, WS_KEY_SEVERITY, ws_error_severity_to_string (severity));
  ws_json_string (j, WS_KEY_CODE, ws_error_code_to_string (code));
  ws_json_string (j, WS_KEY_MESSAGE, message);
  ws_json_null (j, WS_KEY_DETAIL);
  _ws_output_emit (j);
  _ws_output_flush_locked ();
  _ws_output_unlock ();
}

static void
context_record (const WsItem *item)
{
  WsJson *j = &out.json;

  if (!item->ending && item->device != UINT32_MAX)
    _ws_device_record (item->device);
  _ws_output_begin (j, WS_RECORD_TYPE_CONTEXT);
  ws_json_string (j, WS_KEY_EVENT, item->ending ? "destroy" : "create");
  ws_json_uint (j, WS_KEY_CONTEXT, item->context);
  if (item->device != UINT32_MAX)
    ws_json_uint (j, WS_KEY_DEVICE, item->device);
  _ws_json_time (j, WS_KEY_AT, item->at);
  _ws_output_emit (j);
}

static void
module_record (const WsItem *item)
{
  WsJson *j = &out.json;

  _ws_output_begin (j, WS_RECORD_TYPE_MODULE);
  ws_json_string (j, WS_KEY_EVENT, item->ending ? "unload" : "load");
  ws_json_uint (j, WS_KEY_MODULE, item->module);
  ws_json_uint (j, WS_KEY_CONTEXT, item->context);
  ws_json_uint (j, WS_KEY_CUBIN_BYTES, item->cubin_bytes);
  _ws_json_time (j, WS_KEY_AT, item->at);
  _ws_output_emit (j);
}

static void
process_items (WsItem *items)
{
  uint64_t t0 = items != NULL ? _ws_timing_now () : 0;

  while (items != NULL)
    {
      WsItem *next = items->next;

      switch (items->kind)
        {
        case WS_ITEM_BUFFER: _ws_records_buffer (items->buffer, items->valid); break;
        case WS_ITEM_CONTEXT: context_record (items); break;
        case WS_ITEM_MODULE: module_record (items); break;
        default: break;
        }
      _ws_item_free (items);
      items = next;
    }
  _ws_timing_add (WS_TIME_PROCESS, t0);
}

static void
free_items (WsItem *items)
{
  while (items != NULL)
    {
      WsItem *next = items->next;

      _ws_item_free (items);
      items = next;
    }
}

static WsItem *
take_items (void)
{
  WsItem *items;

  pthread_mutex_lock (&queue.lock);
  items = queue.head;
  queue.head = queue.tail = NULL;
  pthread_mutex_unlock (&queue.lock);
  return items;
}

void
_ws_queue_push (WsItem *item)
{
  item->next = NULL;
  pthread_mutex_lock (&queue.lock);
  if (queue.tail != NULL)
    queue.tail->next = item;
  else
    queue.head = item;
  queue.tail = item;
  pthread_cond_signal (&queue.cond);
  pthread_mutex_unlock (&queue.lock);
}

/* ---- the writer thread -------------------------------------------------------------------- */

static void
deadline_after (struct timespec *t, int64_t ns)
{
  clock_gettime (CLOCK_MONOTONIC, t);
  ns += t->tv_nsec;
  t->tv_sec += ns / 1000000000;
  t->tv_nsec = ns % 1000000000;
}

static void *
writer_main (void *data)
{
  sigset_t all;
  struct timespec next;
  int64_t period = (int64_t) _ws_state.flush_ms * 1000000;

  (void) data;
  /* Signals are the program's: a SIGTERM or SIGINT goes to one of its threads, not here. */
  sigfillset (&all);
  pthread_sigmask (SIG_BLOCK, &all, NULL);
  atomic_store (&_ws_state.writer_tid, (int) gettid ());
  deadline_after (&next, period);
  for (;;)
    {
      WsItem *items;
      int stop, due = 0;

      pthread_mutex_lock (&queue.lock);
      while (queue.head == NULL && !queue.stop && !due && !atomic_load (&writer_quit))
        {
          if (period > 0)
            due = pthread_cond_clockwait (&queue.cond, &queue.lock, CLOCK_MONOTONIC, &next)
                  == ETIMEDOUT;
          else
            pthread_cond_wait (&queue.cond, &queue.lock);
        }
      stop = queue.stop;
      pthread_mutex_unlock (&queue.lock);
      if (atomic_load (&writer_quit))
        break; /* a fatal signal: its handler writes what is queued */
      /* Items are only taken under the output lock, so that whoever holds it (the writer, or
         the end of the trace) sees every record not yet written. */
      _ws_output_lock ();
      items = take_items ();
      if (items != NULL)
        {
          process_items (items);
          _ws_output_flush_locked ();
        }
      _ws_output_unlock ();
      if (stop)
        break;
      if (due)
        {
          /* Buffers whose records are complete, so that a live reader sees them and a
             process killed with SIGKILL loses at most one period. They come back through
             the queue. */
          _ws_cupti_flush (0);
          deadline_after (&next, period);
        }
    }
  return NULL;
}

int
_ws_writer_start (void)
{
  if (pthread_create (&writer, NULL, writer_main, NULL) != 0)
    return 0;
  writer_running = 1;
  return 1;
}

/* ---- for the end of the trace (ws-inject-close.c) ---------------------------------------- */

static int
lock_within (pthread_mutex_t *lock, int ms)
{
  struct timespec pause = { 0, 5000000 };

  for (int waited = 0; waited <= ms; waited += 5)
    {
      if (pthread_mutex_trylock (lock) == 0)
        return 1;
      nanosleep (&pause, NULL);
    }
  return 0;
}

int
_ws_output_lock_within (int ms)
{
  return lock_within (&out_lock, ms);
}

/* What is queued, or NULL if the queue stays locked (a thread died holding it). */
WsItem *
_ws_queue_take_within (int ms)
{
  WsItem *items;

  if (!lock_within (&queue.lock, ms))
    return NULL;
  items = queue.head;
  queue.head = queue.tail = NULL;
  pthread_mutex_unlock (&queue.lock);
  return items;
}

void
_ws_output_process (WsItem *items)
{
  process_items (items);
}

int
_ws_output_usable (void)
{
  return out.fd >= 0 && !atomic_load (&_ws_state.inherited);
}

int
_ws_output_fd (void)
{
  return out.fd;
}

/* Nothing more is written after this: 0 when it was already sealed. */
int
_ws_output_seal (void)
{
  int was = out.sealed;

  out.sealed = 1;
  return !was;
}

void
_ws_writer_quit (void)
{
  atomic_store (&writer_quit, 1);
}

/* Stops the writer after its batch; 0 when it did not stop in time (stuck in CUPTI). */
int
_ws_writer_stop_within (int ms)
{
  struct timespec deadline;

  if (!writer_running)
    return 1;
  pthread_mutex_lock (&queue.lock);
  queue.stop = 1;
  pthread_cond_signal (&queue.cond);
  pthread_mutex_unlock (&queue.lock);
  clock_gettime (CLOCK_REALTIME, &deadline);
  deadline.tv_sec += ms / 1000;
  deadline.tv_nsec += (long) (ms % 1000) * 1000000;
  if (deadline.tv_nsec >= 1000000000)
    {
      deadline.tv_sec++;
      deadline.tv_nsec -= 1000000000;
    }
  if (pthread_timedjoin_np (writer, NULL, &deadline) != 0)
    return 0;
  writer_running = 0;
  return 1;
}

/* ---- fork --------------------------------------------------------------------------------- */

void
_ws_output_atfork_prepare (void)
{
  pthread_mutex_lock (&out_lock);
  pthread_mutex_lock (&queue.lock);
}

void
_ws_output_atfork_parent (void)
{
  pthread_mutex_unlock (&queue.lock);
  pthread_mutex_unlock (&out_lock);
}

void
_ws_output_forked_child (void)
{
  WsItem *items = queue.head;

  /* What is in memory belongs to the parent, which writes it; the child has no writer
     thread and no working CUPTI, and stays silent. */
  atomic_store (&_ws_state.inherited, 1);
  queue.head = queue.tail = NULL;
  out.len = 0;
  writer_running = 0;
  pthread_mutex_unlock (&queue.lock);
  pthread_mutex_unlock (&out_lock);
  free_items (items);
}
