/* ws-runner-trace-child.c: one program run of warpscope-runner --trace as a process: started
 * with the injection library, the trace pipe and the trace socket in its environment (in a
 * group of its own unless it has a terminal), its streams read (ws-runner-trace-streams.c)
 * until it and what it started are done, stopped on a timeout or a signal to the runner
 * (SIGTERM, then SIGKILL).
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define _GNU_SOURCE /* pipe2, asprintf */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#ifdef __linux__
#include <sys/prctl.h>
#endif

#include "ws-clock.h"
#include "ws-protocol.h"
#include "ws-runner-trace-private.h"

/* After the program's first process exits, what it started may write for this long. */
#define DRAIN_MS 2000
/* SIGTERM, then SIGKILL this long after (a timeout, or what outlived the program). */
#define KILL_GRACE_MS 2000
/* Stopped by a signal: the client that sent it kills us 2 s later, so end well before. */
#define STOP_GRACE_MS 1000
#define STOP_DRAIN_MS 300

/* ---- the program ------------------------------------------------------------------------- */

static void
on_signal (int sig)
{
  int saved = errno;
  char byte = (char) sig;

  if (sig != SIGCHLD && _ws_trace.stop_signal == 0)
    _ws_trace.stop_signal = sig;
  if (write (_ws_trace.sig_pipe[1], &byte, 1) < 0)
    (void) 0; /* the pipe is full: a wake-up is already pending */
  errno = saved;
}

void
_ws_trace_install_handlers (void)
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
signal_child (WsTraceChild *c, int sig)
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
                                      "WARPSCOPE_TRACE_FILE=", "WARPSCOPE_TRACE_SOCKET=" };

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
build_env (const WsTraceOptions *o, char *const *env_values, const char *inject, int fd,
           const char *socket_path)
{
  size_t n = 0, k = 0;
  char **env;
  struct stat st;
  char inode[64] = "";

  while (environ[n] != NULL)
    n++;
  env = calloc (n + (size_t) o->n_env + 7, sizeof *env);
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
      || asprintf (&env[k++], "WARPSCOPE_TRACE_FD_INODE=%s", inode) < 0
      || (socket_path != NULL
          && asprintf (&env[k++], "WARPSCOPE_TRACE_SOCKET=%s", socket_path) < 0))
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

void
_ws_trace_free_strv (char **v)
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
      _ws_trace_write_error (id, WS_ERROR_SEVERITY_ERROR, WS_ERROR_BAD_ARGUMENT, message, detail);
    }
  else if (f->error == ENOENT)
    {
      snprintf (message, sizeof message,
                "%.1024s could not be started: it, or the interpreter its #! line names, does not "
                "exist",
                path);
      _ws_trace_write_error (id, WS_ERROR_SEVERITY_ERROR, WS_ERROR_PROGRAM_NOT_FOUND, message,
                             detail);
    }
  else
    {
      snprintf (message, sizeof message,
                "%.1024s cannot be run (%s): start a script with its interpreter (python3 "
                "%.1024s), or give it a #! line and make it executable (chmod +x)",
                path, strerror (f->error), path);
      _ws_trace_write_error (id, WS_ERROR_SEVERITY_ERROR, WS_ERROR_PROGRAM_NOT_EXECUTABLE, message,
                             detail);
    }
}

/* Starts the program; 0 (reported) when it could not be. */
int
_ws_trace_start_child (WsTraceChild *c, const char *path, char *const *argv,
                       char *const *env_values, const char *cwd, const WsTraceOptions *o,
                       const char *inject)
{
  int trace[2], report[2];
  char **env, why[1024];
  ExecFailure f;
  ssize_t got;

  if (pipe2 (trace, O_CLOEXEC) != 0 || pipe2 (report, O_CLOEXEC) != 0)
    {
      _ws_trace_write_error (c->id, WS_ERROR_SEVERITY_ERROR, WS_ERROR_INTERNAL,
                             "could not create a pipe for the trace", strerror (errno));
      return 0;
    }
  if (!_ws_trace_listen (c, why, sizeof why))
    {
      char message[1280];

      snprintf (message, sizeof message,
                "the trace socket could not be made (%s): only the program's processes that "
                "keep the descriptors they inherit are traced",
                why);
      _ws_trace_write_error (c->id, WS_ERROR_SEVERITY_WARNING, WS_ERROR_TRACE_UNREACHABLE,
                             message, NULL);
    }
  env = build_env (o, env_values, inject, trace[1], c->socket_path);
  if (env == NULL || !_ws_trace_add_stream (c, trace[0]))
    {
      _ws_trace_write_error (c->id, WS_ERROR_SEVERITY_ERROR, WS_ERROR_INTERNAL, "out of memory",
                             NULL);
      _ws_trace_free_strv (env);
      close (trace[0]), close (trace[1]), close (report[0]), close (report[1]);
      _ws_trace_close_streams (c);
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
  _ws_trace_free_strv (env);
  close (trace[1]);
  close (report[1]);
  if (c->pid < 0)
    {
      _ws_trace_write_error (c->id, WS_ERROR_SEVERITY_ERROR, WS_ERROR_INTERNAL,
                             "could not start the program", strerror (errno));
      close (report[0]);
      _ws_trace_close_streams (c);
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
      _ws_trace_close_streams (c);
      return 0;
    }
  c->last_data = ws_clock_ns ();
  return 1;
}

static void
begin_stop (WsTraceChild *c, uint64_t now, int sig, uint64_t grace_ms)
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
check_timers (WsTraceChild *c, const WsTraceOptions *o, uint64_t now)
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
      _ws_trace_write_error (c->id, WS_ERROR_SEVERITY_WARNING, WS_ERROR_PROGRAM_TIMEOUT, message,
                             NULL);
      begin_stop (c, now, SIGTERM, KILL_GRACE_MS);
    }
  if (c->term_sent && !c->kill_sent && now >= c->kill_at)
    {
      c->kill_sent = 1;
      signal_child (c, SIGKILL);
    }
  if (c->exited && _ws_trace_streams_open (c) > 0)
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
        _ws_trace_close_streams (c);
    }
}

static int
poll_timeout_ms (const WsTraceChild *c, const WsTraceOptions *o, uint64_t now)
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

/* Runs the program to its end (or until stopped) and relays its records. */
void
_ws_trace_follow_child (WsTraceChild *c, const WsTraceOptions *o)
{
  while (!c->exited || _ws_trace_streams_open (c) > 0)
    {
      uint64_t now = ws_clock_ns ();
      int status;

      if (_ws_trace_poll_streams (c, poll_timeout_ms (c, o, now)) < 0)
        break;
      now = ws_clock_ns ();
      if (_ws_trace.stop_signal != 0 && !c->stopped)
        {
          c->stopped = 1;
          /* In a terminal the program got the terminal's SIGINT itself. */
          if (c->own_group || _ws_trace.stop_signal != SIGINT)
            begin_stop (c, now, _ws_trace.stop_signal == SIGHUP ? SIGTERM : _ws_trace.stop_signal,
                        STOP_GRACE_MS);
          else
            {
              c->term_sent = 1;
              c->kill_at = now + STOP_GRACE_MS * 1000000ull;
            }
        }
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
      if (_ws_trace.output_failed)
        {
          signal_child (c, SIGKILL);
          _ws_trace_close_streams (c);
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
  _ws_trace_close_streams (c);
}
