/* ws-runner-trace.c: warpscope-runner --trace: runs the program (once per point of a sweep) with
 * libwarpscope-inject loaded by the driver and a pipe named in WARPSCOPE_TRACE_FD, relays
 * the library's lines with the program run they belong to, and frames them with the runner's
 * own records: hello, program, program_end, error, device (the copy ceilings) and done.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define _GNU_SOURCE /* pipe2 */
#include "ws-runner-trace.h"

#include <cuda_runtime_api.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#ifdef __linux__
#include <sys/prctl.h>
#endif

#include "ws-clock.h"
#include "ws-config.h"
#include "ws-runner-device.h"
#include "ws-diagnose.h"
#include "ws-json.h"
#include "ws-output.h"
#include "ws-protocol.h"
#include "ws-runner-trace-private.h"

/* A line of the library is a few hundred bytes; one this long is not the library's. */
#define MAX_LINE (1 << 20)
/* After the program's first process exits, what it started may write for this long. */
#define DRAIN_MS 2000
/* SIGTERM, then SIGKILL this long after (a timeout, or what outlived the program). */
#define KILL_GRACE_MS 2000
/* Stopped by a signal: the client that sent it kills us 2 s later, so end well before. */
#define STOP_GRACE_MS 1000
#define STOP_DRAIN_MS 300
#define MAX_UUIDS 16

enum
{
  EXIT_OK = 0,
  EXIT_FAILED = 1,
  EXIT_USAGE = 2,
  EXIT_NO_GPU = 3,
  EXIT_INTERNAL = 5,
};

static struct
{
  WsJson json;
  uint64_t start_ns;
  int sig_pipe[2];
  volatile sig_atomic_t stop_signal; /* SIGINT, SIGTERM or SIGHUP received */
  char uuids[MAX_UUIDS][48];
  int n_uuids;
  uint64_t dropped_records;
  int output_failed;
} tr = { .sig_pipe = { -1, -1 } };

/* One program run. */
typedef struct
{
  int id;
  pid_t pid;
  int own_group;
  int fd;              /* the trace pipe's read end; -1 once closed */
  char *line;
  size_t line_len, line_cap;
  int skipping;        /* inside a line longer than MAX_LINE */
  uint64_t start_mono, end_mono, last_data;
  int exited, status;
  int timed_out, stopped, term_sent, kill_sent;
  uint64_t kill_at, give_up_at;
  int processes, ended, records, dropped_lines;
} Child;

/* ---- records ----------------------------------------------------------------------------- */

/* Milliseconds since the runner started, to the microsecond, with no trailing zeros. */
static const char *
now_ms (char *buf, size_t len)
{
  size_t n;

  snprintf (buf, len, "%.3f", round ((double) (ws_clock_ns () - tr.start_ns) / 1e3) / 1e3);
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
  ws_json_begin_record (&tr.json, type);
  ws_json_double (&tr.json, WS_KEY_T, round ((double) (ws_clock_ns () - tr.start_ns) / 1e3) / 1e3);
}

static void
end_record (void)
{
  if (!ws_json_end_record (&tr.json, stdout) || fflush (stdout) != 0)
    tr.output_failed = 1;
}

static void
write_hello (const WsDriverInfo *driver, int argc, char **argv)
{
  char host[256] = "", when[32], version[16];
  time_t now = time (NULL);
  struct tm tm;

  gethostname (host, sizeof host - 1);
  gmtime_r (&now, &tm);
  strftime (when, sizeof when, "%Y-%m-%dT%H:%M:%SZ", &tm);
  begin (WS_RECORD_TYPE_HELLO);
  ws_json_int (&tr.json, WS_KEY_PROTOCOL, WS_PROTOCOL_TRACE);
  ws_json_string (&tr.json, WS_KEY_SOURCE, WS_SOURCE_TRACE);
  ws_json_string (&tr.json, WS_KEY_RUNNER, WS_VERSION);
  ws_json_string (&tr.json, WS_KEY_BUILD, WS_BUILDTYPE);
  ws_json_string (&tr.json, WS_KEY_GPU_ARCHS, WS_CUDA_ARCHS);
  ws_json_string (&tr.json, WS_KEY_TIME, when);
  ws_json_string (&tr.json, WS_KEY_HOST, host);
  ws_json_bool (&tr.json, WS_KEY_DRIVER_FOUND, driver->libcuda_found);
  if (driver->driver_version > 0)
    {
      ws_cuda_version_string (driver->driver_version, version, sizeof version);
      ws_json_int (&tr.json, WS_KEY_DRIVER_VERSION, driver->driver_version);
      ws_json_string (&tr.json, WS_KEY_DRIVER_CUDA, version);
    }
  else
    {
      ws_json_null (&tr.json, WS_KEY_DRIVER_VERSION);
      ws_json_null (&tr.json, WS_KEY_DRIVER_CUDA);
    }
  ws_cuda_version_string (driver->runtime_version, version, sizeof version);
  ws_json_int (&tr.json, WS_KEY_RUNTIME_VERSION, driver->runtime_version);
  ws_json_string (&tr.json, WS_KEY_RUNTIME_CUDA, version);
  ws_json_begin_array (&tr.json, WS_KEY_ARGV);
  for (int i = 1; i < argc; i++)
    ws_json_string (&tr.json, NULL, argv[i]);
  ws_json_end_array (&tr.json);
  end_record ();
}

/* program_run 0: about no program run. */
static void
write_error (int program_run, WsErrorSeverity severity, WsErrorCode code, const char *message,
             const char *detail)
{
  fprintf (stderr, "warpscope-runner: %s: %s%s%s%s\n", ws_error_severity_to_string (severity),
           message, detail ? " (" : "", detail ? detail : "", detail ? ")" : "");
  begin (WS_RECORD_TYPE_ERROR);
  ws_json_null (&tr.json, WS_KEY_RUN);
  if (program_run > 0)
    ws_json_int (&tr.json, WS_KEY_PROGRAM_RUN, program_run);
  ws_json_string (&tr.json, WS_KEY_SEVERITY, ws_error_severity_to_string (severity));
  ws_json_string (&tr.json, WS_KEY_CODE, ws_error_code_to_string (code));
  ws_json_string (&tr.json, WS_KEY_MESSAGE, message);
  ws_json_string (&tr.json, WS_KEY_DETAIL, detail);
  end_record ();
}

static void
write_done (int runs, int failed, int exit_code)
{
  begin (WS_RECORD_TYPE_DONE);
  ws_json_int (&tr.json, WS_KEY_RUNS, runs);
  ws_json_int (&tr.json, WS_KEY_FAILED, failed);
  ws_json_uint (&tr.json, WS_KEY_DROPPED_RECORDS, tr.dropped_records);
  ws_json_int (&tr.json, WS_KEY_EXIT_CODE, exit_code);
  end_record ();
}

static void
write_program (const WsTraceOptions *o, int id, int of, const char *const *values,
               char *const *argv, char *const *env_values, const char *cwd, const char *path)
{
  begin (WS_RECORD_TYPE_PROGRAM);
  ws_json_int (&tr.json, WS_KEY_PROGRAM_RUN, id);
  ws_json_int (&tr.json, WS_KEY_OF, of);
  ws_json_begin_array (&tr.json, WS_KEY_PARAMS);
  for (int p = 0; p < o->n_params; p++)
    {
      ws_json_begin_object (&tr.json, NULL);
      ws_json_string (&tr.json, WS_KEY_NAME, o->params[p].name);
      ws_json_string (&tr.json, WS_KEY_VALUE, values[p]);
      ws_json_end_object (&tr.json);
    }
  ws_json_end_array (&tr.json);
  ws_json_begin_array (&tr.json, WS_KEY_ARGV);
  for (int i = 0; argv[i] != NULL; i++)
    ws_json_string (&tr.json, NULL, argv[i]);
  ws_json_end_array (&tr.json);
  ws_json_begin_object (&tr.json, WS_KEY_ENV);
  for (int i = 0; i < o->n_env; i++)
    ws_json_string (&tr.json, o->env_names[i], env_values[i]);
  ws_json_end_object (&tr.json);
  ws_json_string (&tr.json, WS_KEY_CWD, cwd);
  ws_json_string (&tr.json, WS_KEY_PATH, path);
  ws_json_uint (&tr.json, WS_KEY_MONOTONIC_NS, ws_clock_ns ());
  end_record ();
}

static const char *
signal_name (int sig)
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
end_reason (const Child *c)
{
  if (c->stopped)
    return "stopped";
  if (c->timed_out)
    return "timeout";
  return WIFSIGNALED (c->status) ? "signal" : "exit";
}

static void
write_program_end (const Child *c)
{
  begin (WS_RECORD_TYPE_PROGRAM_END);
  ws_json_int (&tr.json, WS_KEY_PROGRAM_RUN, c->id);
  ws_json_string (&tr.json, WS_KEY_REASON, end_reason (c));
  if (WIFEXITED (c->status))
    ws_json_int (&tr.json, WS_KEY_EXIT_STATUS, WEXITSTATUS (c->status));
  else
    ws_json_null (&tr.json, WS_KEY_EXIT_STATUS);
  if (WIFSIGNALED (c->status))
    {
      ws_json_int (&tr.json, WS_KEY_SIGNAL, WTERMSIG (c->status));
      ws_json_string (&tr.json, WS_KEY_SIGNAL_NAME, signal_name (WTERMSIG (c->status)));
    }
  ws_json_uint (&tr.json, WS_KEY_WALL_NS, c->end_mono - c->start_mono);
  ws_json_uint (&tr.json, WS_KEY_MONOTONIC_NS, c->end_mono);
  ws_json_int (&tr.json, WS_KEY_PROCESSES, c->processes);
  ws_json_int (&tr.json, WS_KEY_ENDED_PROCESSES, c->ended);
  ws_json_int (&tr.json, WS_KEY_RECORDS, c->records);
  ws_json_int (&tr.json, WS_KEY_DROPPED_LINES, c->dropped_lines);
  end_record ();
}

/* A program run that never started: its program record, why, and its end. */
static void
write_not_started (int id)
{
  begin (WS_RECORD_TYPE_PROGRAM_END);
  ws_json_int (&tr.json, WS_KEY_PROGRAM_RUN, id);
  ws_json_string (&tr.json, WS_KEY_REASON, "not_started");
  ws_json_null (&tr.json, WS_KEY_EXIT_STATUS);
  ws_json_int (&tr.json, WS_KEY_PROCESSES, 0);
  ws_json_int (&tr.json, WS_KEY_RECORDS, 0);
  end_record ();
}

/* ---- relaying the library's lines -------------------------------------------------------- */

static void
remember_uuid (const char *line, size_t len)
{
  const char *key = "\"" WS_KEY_UUID "\":\"";
  const char *p = memmem (line, len, key, strlen (key)), *q;

  if (p == NULL || tr.n_uuids == MAX_UUIDS)
    return;
  p += strlen (key);
  q = memchr (p, '"', len - (size_t) (p - line));
  if (q == NULL || q - p >= 48)
    return;
  for (int i = 0; i < tr.n_uuids; i++)
    if (strncmp (tr.uuids[i], p, (size_t) (q - p)) == 0 && tr.uuids[i][q - p] == '\0')
      return;
  snprintf (tr.uuids[tr.n_uuids++], 48, "%.*s", (int) (q - p), p);
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
static void
relay_line (Child *c, char *line, size_t len)
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
      tr.dropped_records += field_uint (line, len, "\"" WS_KEY_DROPPED_RECORDS "\":");
    }
  else if (is_type (type, tlen, WS_RECORD_TYPE_DEVICE))
    remember_uuid (line, len);
}

static void
append_line (Child *c, const char *data, size_t n)
{
  if (c->skipping)
    return;
  if (c->line_len + n > MAX_LINE)
    {
      c->skipping = 1;
      c->line_len = 0;
      return;
    }
  if (c->line_len + n + 1 > c->line_cap)
    {
      size_t cap = 2 * (c->line_len + n + 1);
      char *bigger = realloc (c->line, cap);

      if (bigger == NULL)
        {
          c->skipping = 1;
          c->line_len = 0;
          return;
        }
      c->line = bigger;
      c->line_cap = cap;
    }
  memcpy (c->line + c->line_len, data, n);
  c->line_len += n;
}

static void
relay_chunk (Child *c, const char *data, size_t n)
{
  while (n > 0)
    {
      const char *nl = memchr (data, '\n', n);
      size_t part = nl ? (size_t) (nl - data) : n;

      append_line (c, data, part);
      if (nl == NULL)
        break;
      if (c->skipping)
        c->dropped_lines++;
      else
        relay_line (c, c->line, c->line_len);
      c->skipping = 0;
      c->line_len = 0;
      data = nl + 1;
      n -= part + 1;
    }
  if (fflush (stdout) != 0)
    tr.output_failed = 1;
}

/* ---- the program ------------------------------------------------------------------------- */

static void
on_signal (int sig)
{
  int saved = errno;
  char byte = (char) sig;

  if (sig != SIGCHLD && tr.stop_signal == 0)
    tr.stop_signal = sig;
  if (write (tr.sig_pipe[1], &byte, 1) < 0)
    (void) 0; /* the pipe is full: a wake-up is already pending */
  errno = saved;
}

static void
install_handlers (void)
{
  struct sigaction sa;

  memset (&sa, 0, sizeof sa);
  sa.sa_handler = on_signal;
  sigemptyset (&sa.sa_mask);
  sa.sa_flags = SA_RESTART;
  sigaction (SIGINT, &sa, NULL);
  sigaction (SIGTERM, &sa, NULL);
  sigaction (SIGHUP, &sa, NULL);
  sigaction (SIGCHLD, &sa, NULL);
  signal (SIGPIPE, SIG_IGN);
}

static void
signal_child (Child *c, int sig)
{
  if (c->exited && !c->own_group)
    return;
  if (kill (c->own_group ? -c->pid : c->pid, sig) != 0 && errno != ESRCH)
    fprintf (stderr, "warpscope-runner: kill: %s\n", strerror (errno));
}

extern char **environ;

static int
env_overridden (const char *entry, const WsTraceOptions *o)
{
  static const char *const ours[] = { "CUDA_INJECTION64_PATH=", "NVTX_INJECTION64_PATH=",
                                      "WARPSCOPE_TRACE_FD=", "WARPSCOPE_TRACE_FD_INODE=",
                                      "WARPSCOPE_TRACE_FILE=" };

  for (size_t i = 0; i < sizeof ours / sizeof ours[0]; i++)
    if (strncmp (entry, ours[i], strlen (ours[i])) == 0)
      return 1;
  for (int i = 0; i < o->n_env; i++)
    {
      size_t n = strlen (o->env_names[i]);

      if (strncmp (entry, o->env_names[i], n) == 0 && entry[n] == '=')
        return 1;
    }
  return 0;
}

/* The runner's environment, less what the trace sets, plus the trace's variables and the
 * --env values; NULL when out of memory. Free with free_env. */
static char **
build_env (const WsTraceOptions *o, char *const *env_values, const char *inject, int fd)
{
  size_t n = 0, k = 0;
  char **env;
  struct stat st;
  char inode[64] = "";

  while (environ[n] != NULL)
    n++;
  env = calloc (n + (size_t) o->n_env + 6, sizeof *env);
  if (env == NULL)
    return NULL;
  for (size_t i = 0; i < n; i++)
    if (!env_overridden (environ[i], o))
      env[k++] = strdup (environ[i]);
  if (fstat (fd, &st) == 0)
    snprintf (inode, sizeof inode, "%llu:%llu", (unsigned long long) st.st_dev,
              (unsigned long long) st.st_ino);
  if (asprintf (&env[k++], "CUDA_INJECTION64_PATH=%s", inject) < 0
      || asprintf (&env[k++], "NVTX_INJECTION64_PATH=%s", inject) < 0
      || asprintf (&env[k++], "WARPSCOPE_TRACE_FD=%d", fd) < 0
      || asprintf (&env[k++], "WARPSCOPE_TRACE_FD_INODE=%s", inode) < 0)
    env[k - 1] = NULL;
  for (int i = 0; i < o->n_env; i++)
    if (asprintf (&env[k++], "%s=%s", o->env_names[i], env_values[i]) < 0)
      env[k - 1] = NULL;
  for (size_t i = 0; i < k; i++)
    if (env[i] == NULL)
      {
        for (size_t j = 0; j < k; j++)
          free (env[j]);
        free (env);
        return NULL;
      }
  return env;
}

static void
free_strv (char **v)
{
  for (size_t i = 0; v != NULL && v[i] != NULL; i++)
    free (v[i]);
  free (v);
}

typedef struct
{
  int stage; /* 1: chdir, 2: exec */
  int error;
} ExecFailure;

/* In the child: never returns. */
static void
exec_child (const char *path, char *const *argv, char *const *env, const char *cwd, int fd,
            int report, int own_group, pid_t parent)
{
  ExecFailure f = { 0, 0 };
  sigset_t none;

  signal (SIGPIPE, SIG_DFL);
  signal (SIGINT, SIG_DFL);
  signal (SIGTERM, SIG_DFL);
  signal (SIGHUP, SIG_DFL);
  signal (SIGCHLD, SIG_DFL);
  sigemptyset (&none);
  sigprocmask (SIG_SETMASK, &none, NULL);
  if (own_group)
    setpgid (0, 0);
#ifdef __linux__
  /* A runner killed outright (SIGKILL) does not leave the program running. */
  prctl (PR_SET_PDEATHSIG, SIGTERM);
  if (getppid () != parent)
    _exit (127);
#endif
  if (cwd != NULL && chdir (cwd) != 0)
    {
      f.stage = 1, f.error = errno;
      if (write (report, &f, sizeof f) < 0)
        (void) 0;
      _exit (127);
    }
  /* stdout is the runner's stream: the program's output goes to stderr. */
  dup2 (STDERR_FILENO, STDOUT_FILENO);
  fcntl (fd, F_SETFD, 0);
  execve (path, argv, env);
  f.stage = 2, f.error = errno;
  if (write (report, &f, sizeof f) < 0)
    (void) 0;
  _exit (127);
}

static void
report_exec_failure (int id, const ExecFailure *f, const char *path, const char *cwd)
{
  char message[3200], detail[128];

  snprintf (detail, sizeof detail, "%s", strerror (f->error));
  if (f->stage == 1)
    {
      snprintf (message, sizeof message,
                "--cwd %.1024s: the program cannot be started there (%s): give a folder that "
                "exists and that you may enter",
                cwd, strerror (f->error));
      write_error (id, WS_ERROR_SEVERITY_ERROR, WS_ERROR_BAD_ARGUMENT, message, detail);
    }
  else if (f->error == ENOENT)
    {
      snprintf (message, sizeof message,
                "%.1024s could not be started: it, or the interpreter its #! line names, does not "
                "exist",
                path);
      write_error (id, WS_ERROR_SEVERITY_ERROR, WS_ERROR_PROGRAM_NOT_FOUND, message, detail);
    }
  else
    {
      snprintf (message, sizeof message,
                "%.1024s cannot be run (%s): start a script with its interpreter (python3 "
                "%.1024s), or give it a #! line and make it executable (chmod +x)",
                path, strerror (f->error), path);
      write_error (id, WS_ERROR_SEVERITY_ERROR, WS_ERROR_PROGRAM_NOT_EXECUTABLE, message, detail);
    }
}

/* Starts the program; 0 (reported) when it could not be. */
static int
start_child (Child *c, const char *path, char *const *argv, char *const *env_values,
             const char *cwd, const WsTraceOptions *o, const char *inject)
{
  int trace[2], report[2];
  char **env;
  ExecFailure f;
  ssize_t got;

  if (pipe2 (trace, O_CLOEXEC) != 0 || pipe2 (report, O_CLOEXEC) != 0)
    {
      write_error (c->id, WS_ERROR_SEVERITY_ERROR, WS_ERROR_INTERNAL,
                   "could not create a pipe for the trace", strerror (errno));
      return 0;
    }
  env = build_env (o, env_values, inject, trace[1]);
  if (env == NULL)
    {
      write_error (c->id, WS_ERROR_SEVERITY_ERROR, WS_ERROR_INTERNAL, "out of memory", NULL);
      close (trace[0]), close (trace[1]), close (report[0]), close (report[1]);
      return 0;
    }
  /* In a terminal the program stays in the foreground group, so that it can read the
   * terminal and Ctrl+C reaches it as usual; otherwise it gets a group of its own, which
   * is stopped as a whole. */
  c->own_group = !isatty (STDIN_FILENO);
  c->start_mono = ws_clock_ns ();
  fflush (stdout);
  fflush (stderr);
  c->pid = fork ();
  if (c->pid == 0)
    exec_child (path, argv, env, cwd, trace[1], report[1], c->own_group, getppid ());
  free_strv (env);
  close (trace[1]);
  close (report[1]);
  if (c->pid < 0)
    {
      write_error (c->id, WS_ERROR_SEVERITY_ERROR, WS_ERROR_INTERNAL, "could not start the program",
                   strerror (errno));
      close (trace[0]), close (report[0]);
      return 0;
    }
  if (c->own_group)
    setpgid (c->pid, c->pid);
  do
    got = read (report[0], &f, sizeof f);
  while (got < 0 && errno == EINTR);
  close (report[0]);
  if (got == (ssize_t) sizeof f)
    {
      report_exec_failure (c->id, &f, path, cwd);
      while (waitpid (c->pid, NULL, 0) < 0 && errno == EINTR)
        ;
      close (trace[0]);
      return 0;
    }
  c->fd = trace[0];
  fcntl (c->fd, F_SETFL, fcntl (c->fd, F_GETFL) | O_NONBLOCK);
  c->last_data = ws_clock_ns ();
  return 1;
}

static void
close_trace (Child *c)
{
  if (c->fd >= 0)
    close (c->fd);
  c->fd = -1;
  if (c->line_len > 0 && !c->skipping)
    relay_line (c, c->line, c->line_len); /* a last line without its newline */
  c->line_len = 0;
  fflush (stdout);
}

static void
begin_stop (Child *c, uint64_t now, int sig, uint64_t grace_ms)
{
  if (c->term_sent)
    return;
  c->term_sent = 1;
  signal_child (c, sig);
  signal_child (c, SIGCONT);
  c->kill_at = now + grace_ms * 1000000ull;
}

/* What the clock asks for now: the timeout, SIGKILL after SIGTERM, the end of the drain. */
static void
check_timers (Child *c, const WsTraceOptions *o, uint64_t now)
{
  if (!c->exited && o->timeout_s > 0 && !c->timed_out && !c->stopped
      && now - c->start_mono >= (uint64_t) (o->timeout_s * 1e9))
    {
      char message[256];

      c->timed_out = 1;
      snprintf (message, sizeof message,
                "the program ran for more than %g s (--timeout) and was stopped; what it "
                "traced so far is kept",
                o->timeout_s);
      write_error (c->id, WS_ERROR_SEVERITY_WARNING, WS_ERROR_PROGRAM_TIMEOUT, message, NULL);
      begin_stop (c, now, SIGTERM, KILL_GRACE_MS);
    }
  if (c->term_sent && !c->kill_sent && now >= c->kill_at)
    {
      c->kill_sent = 1;
      signal_child (c, SIGKILL);
    }
  if (c->exited && c->fd >= 0)
    {
      /* What the program started may still hold the pipe: it is stopped, then given up on;
       * at once when the runner itself is being stopped. */
      if (c->give_up_at == 0 && c->stopped)
        {
          signal_child (c, SIGKILL);
          c->give_up_at = now + STOP_DRAIN_MS * 1000000ull;
        }
      else if (c->give_up_at == 0 && now - c->last_data >= DRAIN_MS * 1000000ull)
        {
          begin_stop (c, now, SIGTERM, KILL_GRACE_MS / 2);
          c->give_up_at = c->kill_at + STOP_DRAIN_MS * 1000000ull;
        }
      if (c->give_up_at != 0 && now >= c->give_up_at)
        close_trace (c);
    }
}

static int
poll_timeout_ms (const Child *c, const WsTraceOptions *o, uint64_t now)
{
  uint64_t next = now + 1000000000ull;

  if (!c->exited && o->timeout_s > 0 && !c->timed_out)
    {
      uint64_t at = c->start_mono + (uint64_t) (o->timeout_s * 1e9);

      next = at < next ? at : next;
    }
  if (c->term_sent && !c->kill_sent && c->kill_at < next)
    next = c->kill_at;
  if (c->exited)
    next = now + 50000000ull;
  return next <= now ? 0 : (int) ((next - now) / 1000000ull) + 1;
}

static void
read_trace (Child *c)
{
  char buf[65536];

  for (;;)
    {
      ssize_t n = read (c->fd, buf, sizeof buf);

      if (n > 0)
        {
          c->last_data = ws_clock_ns ();
          relay_chunk (c, buf, (size_t) n);
          continue;
        }
      if (n == 0)
        close_trace (c);
      else if (errno == EINTR)
        continue;
      else if (errno != EAGAIN && errno != EWOULDBLOCK)
        close_trace (c);
      return;
    }
}

/* Runs the program to its end (or until stopped) and relays its records. */
static void
follow_child (Child *c, const WsTraceOptions *o)
{
  while (!c->exited || c->fd >= 0)
    {
      struct pollfd fds[2] = { { tr.sig_pipe[0], POLLIN, 0 }, { c->fd, POLLIN, 0 } };
      uint64_t now = ws_clock_ns ();
      int status;

      if (poll (fds, c->fd >= 0 ? 2 : 1, poll_timeout_ms (c, o, now)) < 0 && errno != EINTR)
        break;
      if (fds[0].revents & POLLIN)
        {
          char drain[64];

          while (read (tr.sig_pipe[0], drain, sizeof drain) > 0)
            ;
        }
      now = ws_clock_ns ();
      if (tr.stop_signal != 0 && !c->stopped)
        {
          c->stopped = 1;
          /* In a terminal the program got the terminal's SIGINT itself. */
          if (c->own_group || tr.stop_signal != SIGINT)
            begin_stop (c, now, tr.stop_signal == SIGHUP ? SIGTERM : tr.stop_signal,
                        STOP_GRACE_MS);
          else
            {
              c->term_sent = 1;
              c->kill_at = now + STOP_GRACE_MS * 1000000ull;
            }
        }
      if (c->fd >= 0 && (fds[1].revents & (POLLIN | POLLHUP | POLLERR)))
        read_trace (c);
      if (!c->exited && waitpid (c->pid, &status, WNOHANG) == c->pid)
        {
          c->exited = 1;
          c->status = status;
          c->end_mono = ws_clock_ns ();
          c->last_data = c->end_mono > c->last_data ? c->end_mono : c->last_data;
          /* The drain's SIGTERM must reach what the program left behind. */
          c->term_sent = c->kill_sent = 0;
        }
      check_timers (c, o, ws_clock_ns ());
      if (tr.output_failed)
        {
          signal_child (c, SIGKILL);
          close_trace (c);
        }
    }
  if (!c->exited)
    {
      int status = 0;

      signal_child (c, SIGKILL);
      while (waitpid (c->pid, &status, 0) < 0 && errno == EINTR)
        ;
      c->exited = 1;
      c->status = status;
      c->end_mono = ws_clock_ns ();
    }
  free (c->line);
  c->line = NULL;
}

static void
report_no_cuda (const Child *c, const char *program)
{
  char message[768], ending[96];

  if (WIFSIGNALED (c->status))
    snprintf (ending, sizeof ending, "was ended by %s",
              signal_name (WTERMSIG (c->status)) ? signal_name (WTERMSIG (c->status)) : "a signal");
  else
    snprintf (ending, sizeof ending, "exited with status %d", WEXITSTATUS (c->status));
  snprintf (message, sizeof message,
            "%s ran and %s, but never initialized CUDA, so there is nothing to trace. Check "
            "that it uses the GPU (numba.cuda, torch.cuda, cupy) and can see one "
            "(CUDA_VISIBLE_DEVICES), and that it does not do its GPU work in a program started "
            "with a cleared environment",
            program, ending);
  write_error (c->id, WS_ERROR_SEVERITY_ERROR, WS_ERROR_NO_CUDA_ACTIVITY, message, NULL);
}

/* ---- one program run --------------------------------------------------------------------- */

typedef enum
{
  POINT_OK,
  POINT_FAILED,      /* ran: non-zero status, a signal, a timeout, no CUDA */
  POINT_NOT_STARTED,
  POINT_INTERNAL,
} PointResult;

static PointResult
run_point (const WsTraceOptions *o, int point, int of, const char *inject)
{
  const char *values[WS_TRACE_MAX_PARAMS];
  char **argv = calloc ((size_t) o->argc + 1, sizeof *argv);
  char *env_values[WS_TRACE_MAX_ENV] = { 0 };
  char *cwd = NULL, path[4096], cwd_now[4096];
  Child c = { .id = point + 1, .fd = -1 };
  PointResult result = POINT_INTERNAL;
  int found, error;

  _ws_trace_point_values (o, point, values);
  for (int i = 0; argv != NULL && i < o->argc; i++)
    if ((argv[i] = _ws_trace_substitute (o, values, o->argv[i])) == NULL)
      goto out;
  for (int i = 0; i < o->n_env; i++)
    if ((env_values[i] = _ws_trace_substitute (o, values, o->env_values[i])) == NULL)
      goto out;
  if (argv == NULL || (o->cwd != NULL && (cwd = _ws_trace_substitute (o, values, o->cwd)) == NULL))
    goto out;
  found = _ws_trace_find_program (argv[0], path, sizeof path, &error);
  write_program (o, c.id, of, values, argv, env_values,
                 cwd ? cwd : (getcwd (cwd_now, sizeof cwd_now) ? cwd_now : NULL),
                 found ? path : NULL);
  if (!found)
    {
      char message[768];

      if (error == EACCES)
        {
          snprintf (message, sizeof message,
                    "%s cannot be run: it is a folder or not executable. Start a script with "
                    "its interpreter (python3 %s), or make it executable (chmod +x)",
                    argv[0], argv[0]);
          write_error (c.id, WS_ERROR_SEVERITY_ERROR, WS_ERROR_PROGRAM_NOT_EXECUTABLE, message,
                       NULL);
        }
      else
        {
          snprintf (message, sizeof message,
                    "%s was not found: %s. Check the name, or give the program's path",
                    argv[0], strchr (argv[0], '/') ? "there is no such file"
                                                   : "no folder on PATH holds a program of that "
                                                     "name");
          write_error (c.id, WS_ERROR_SEVERITY_ERROR, WS_ERROR_PROGRAM_NOT_FOUND, message, NULL);
        }
      write_not_started (c.id);
      result = POINT_NOT_STARTED;
      goto out;
    }
  if (!start_child (&c, path, argv, env_values, cwd, o, inject))
    {
      write_not_started (c.id);
      result = POINT_NOT_STARTED;
      goto out;
    }
  follow_child (&c, o);
  if (c.processes == 0 && !c.stopped && !c.timed_out)
    report_no_cuda (&c, argv[0]);
  write_program_end (&c);
  result = c.processes > 0 && !c.timed_out && !c.stopped && WIFEXITED (c.status)
                   && WEXITSTATUS (c.status) == 0
               ? POINT_OK
               : POINT_FAILED;
out:
  if (result == POINT_INTERNAL)
    write_error (c.id, WS_ERROR_SEVERITY_ERROR, WS_ERROR_INTERNAL, "out of memory", NULL);
  free_strv (argv);
  for (int i = 0; i < o->n_env; i++)
    free (env_values[i]);
  free (cwd);
  return result;
}

/* ---- the copy ceilings of the GPUs the program used ---------------------------------------- */

static void
measure_ceilings (void)
{
  int count = 0;
  cudaError_t err;
  char detail[256];

  if (tr.n_uuids == 0)
    return;
  if ((err = cudaGetDeviceCount (&count)) != cudaSuccess)
    {
      snprintf (detail, sizeof detail, "%s: %s", cudaGetErrorName (err), cudaGetErrorString (err));
      write_error (0, WS_ERROR_SEVERITY_WARNING, WS_ERROR_CEILINGS_UNAVAILABLE,
                   "the copy bandwidths of the GPU could not be measured after the program: "
                   "findings about its copies go without the pinned rate",
                   detail);
      return;
    }
  for (int i = 0; i < count && !tr.stop_signal; i++)
    {
      WsRunnerDevice d;
      int used = 0;

      if (ws_device_query (i, &d) != cudaSuccess)
        continue;
      for (int u = 0; u < tr.n_uuids; u++)
        used |= strcmp (tr.uuids[u], d.uuid) == 0;
      if (!used)
        continue;
      if ((err = ws_device_calibrate (&d)) != cudaSuccess)
        {
          snprintf (detail, sizeof detail, "%s: %s", cudaGetErrorName (err),
                    cudaGetErrorString (err));
          write_error (0, WS_ERROR_SEVERITY_WARNING, WS_ERROR_CEILINGS_UNAVAILABLE,
                       "the copy bandwidths of the GPU could not be measured after the "
                       "program: findings about its copies go without the pinned rate",
                       detail);
          continue;
        }
      ws_output_device (&d);
      fflush (stdout);
    }
}

/* ---- the mode ---------------------------------------------------------------------------- */

int
ws_trace_requested (int argc, char **argv)
{
  for (int i = 1; i < argc && strcmp (argv[i], "--") != 0; i++)
    if (strcmp (argv[i], "--trace") == 0)
      return 1;
  return 0;
}

static int
finish (int runs, int failed, int exit_code)
{
  write_done (runs, failed, exit_code);
  ws_json_clear (&tr.json);
  return exit_code;
}

static int
run_points (const WsTraceOptions *o, const char *inject, int *runs, int *failed)
{
  int n = _ws_trace_n_points (o), exit_code = EXIT_OK;
  int program_varies = strchr (o->argv[0], '{') != NULL;

  for (int p = 0; p < n && !tr.stop_signal && !tr.output_failed; p++)
    {
      PointResult r = run_point (o, p, n, inject);

      (*runs)++;
      if (r == POINT_OK)
        continue;
      (*failed)++;
      if (r == POINT_INTERNAL)
        return EXIT_INTERNAL;
      if (r == POINT_NOT_STARTED && !program_varies)
        return EXIT_USAGE; /* every point would fail the same way */
      exit_code = EXIT_FAILED;
    }
  return exit_code;
}

int
ws_trace_main (int argc, char **argv)
{
  WsTraceOptions opts;
  WsArgError arg_error;
  WsDriverInfo driver;
  char inject[4096], looked[2048], message[3072];
  int ok, runs = 0, failed = 0, exit_code;

  ok = _ws_trace_parse (argc, argv, &opts, &arg_error);
  if (ok && opts.help)
    {
      fputs (_ws_trace_usage, stdout);
      _ws_trace_options_clear (&opts);
      return EXIT_OK;
    }
  ws_output_init (0);
  ws_json_init (&tr.json);
  tr.start_ns = ws_clock_ns ();
  ws_driver_probe (&driver);
  write_hello (&driver, argc, argv);
  if (!ok)
    {
      write_error (0, WS_ERROR_SEVERITY_ERROR, arg_error.code, arg_error.message, NULL);
      fprintf (stderr, "Run warpscope-runner --trace --help for the options.\n");
      _ws_trace_options_clear (&opts);
      return finish (0, 0, EXIT_USAGE);
    }
  if (!driver.libcuda_found)
    {
      ws_driver_problem (&driver, message, sizeof message);
      write_error (0, WS_ERROR_SEVERITY_ERROR, WS_ERROR_NO_DRIVER, message, NULL);
      _ws_trace_options_clear (&opts);
      return finish (0, 0, EXIT_NO_GPU);
    }
  if (!_ws_trace_find_inject (inject, sizeof inject, looked, sizeof looked))
    {
      snprintf (message, sizeof message,
                "libwarpscope-inject.so, which records the program, is not here (looked for "
                "%s). Build it with the runner (meson compile -C build), or name it with "
                "WARPSCOPE_INJECT",
                looked);
      write_error (0, WS_ERROR_SEVERITY_ERROR, WS_ERROR_INJECT_NOT_FOUND, message, NULL);
      _ws_trace_options_clear (&opts);
      return finish (0, 0, EXIT_INTERNAL);
    }
  if (pipe2 (tr.sig_pipe, O_CLOEXEC | O_NONBLOCK) != 0)
    {
      write_error (0, WS_ERROR_SEVERITY_ERROR, WS_ERROR_INTERNAL, "could not create a pipe",
                   strerror (errno));
      _ws_trace_options_clear (&opts);
      return finish (0, 0, EXIT_INTERNAL);
    }
  install_handlers ();
  exit_code = run_points (&opts, inject, &runs, &failed);
  if (opts.ceilings && !tr.stop_signal && !tr.output_failed)
    measure_ceilings ();
  if (tr.stop_signal)
    exit_code = 128 + tr.stop_signal;
  _ws_trace_options_clear (&opts);
  return finish (runs, failed, exit_code);
}
