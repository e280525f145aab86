/* ws-runner-trace-streams.c: where one program run's records arrive: the pipe its first
 * process inherits (WARPSCOPE_TRACE_FD) and a Unix socket (WARPSCOPE_TRACE_SOCKET) that every
 * process of the program connects to on its first CUDA call, so that a child which closed its
 * inherited descriptors (Python's multiprocessing spawn) or was exec'd still reports, each on
 * a connection of its own. Every stream is read without blocking and keeps its own partial
 * line.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define _GNU_SOURCE /* accept4 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include "ws-clock.h"
#include "ws-runner-trace-private.h"

/* Processes connected at once; more wait in the socket's queue until one ends. */
#define MAX_STREAMS 1024
/* What one stream is read per wake-up, so that a busy process cannot starve the others. */
#define READS_PER_WAKE 16
#define SOCKET_NAME "trace.sock"

/* ---- the socket -------------------------------------------------------------------------- */

/* A new folder for the socket: $TMPDIR's, or /tmp's when $TMPDIR's path would not fit a
 * socket's. */
static char *
make_folder (char *why, size_t len)
{
  const char *tmp = getenv ("TMPDIR");
  struct sockaddr_un addr;
  char *dir = NULL;

  for (int attempt = 0; attempt < 2; attempt++, tmp = "/tmp")
    {
      if (tmp == NULL || *tmp == '\0')
        continue;
      if (asprintf (&dir, "%s/warpscope-trace-XXXXXX", tmp) < 0)
        return NULL;
      if (strlen (dir) + 1 + sizeof SOCKET_NAME > sizeof addr.sun_path)
        {
          free (dir);
          dir = NULL;
          continue;
        }
      if (mkdtemp (dir) != NULL)
        return dir; /* 0700: only this user's processes can connect */
      snprintf (why, len, "cannot create a folder in %s (%s)", tmp, strerror (errno));
      free (dir);
      dir = NULL;
    }
  if (why[0] == '\0')
    snprintf (why, len, "no folder for it: $TMPDIR and /tmp are missing or their paths too long");
  return NULL;
}

int
_ws_trace_listen (WsTraceChild *c, char *why, size_t len)
{
  struct sockaddr_un addr = { .sun_family = AF_UNIX };
  char *dir;
  int fd;

  why[0] = '\0';
  c->listen_fd = -1;
  c->socket_path = NULL;
  if ((dir = make_folder (why, len)) == NULL)
    return 0;
  snprintf (addr.sun_path, sizeof addr.sun_path, "%s/" SOCKET_NAME, dir);
  fd = socket (AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
  if (fd < 0 || bind (fd, (struct sockaddr *) &addr, sizeof addr) != 0 || listen (fd, 128) != 0)
    {
      snprintf (why, len, "%s (%s)", addr.sun_path, strerror (errno));
      if (fd >= 0)
        close (fd);
      unlink (addr.sun_path);
      rmdir (dir);
      free (dir);
      return 0;
    }
  free (dir);
  c->listen_fd = fd;
  c->socket_path = strdup (addr.sun_path);
  return c->socket_path != NULL;
}

/* ---- streams ----------------------------------------------------------------------------- */

int
_ws_trace_add_stream (WsTraceChild *c, int fd)
{
  if (c->n_streams == c->streams_cap)
    {
      int cap = c->streams_cap ? 2 * c->streams_cap : 8;
      WsTraceStream *bigger = realloc (c->streams, (size_t) cap * sizeof *bigger);

      if (bigger == NULL)
        return 0;
      c->streams = bigger;
      c->streams_cap = cap;
    }
  fcntl (fd, F_SETFL, fcntl (fd, F_GETFL) | O_NONBLOCK);
  c->streams[c->n_streams++] = (WsTraceStream) { .fd = fd };
  return 1;
}

int
_ws_trace_streams_open (const WsTraceChild *c)
{
  int n = 0;

  for (int i = 0; i < c->n_streams; i++)
    n += c->streams[i].fd >= 0;
  return n;
}

static void
close_stream (WsTraceChild *c, WsTraceStream *s)
{
  if (s->fd < 0)
    return;
  close (s->fd);
  s->fd = -1;
  if (s->line_len > 0 && !s->skipping)
    _ws_trace_relay_line (c, s->line, s->line_len); /* a last line without its newline */
  s->line_len = 0;
  free (s->line);
  s->line = NULL;
  fflush (stdout);
}

/* The closed streams leave the array, so that it holds what poll watches. */
static void
forget_closed (WsTraceChild *c)
{
  int k = 0;

  for (int i = 0; i < c->n_streams; i++)
    if (c->streams[i].fd >= 0)
      c->streams[k++] = c->streams[i];
  c->n_streams = k;
}

static void
accept_waiting (WsTraceChild *c)
{
  while (c->n_streams < MAX_STREAMS)
    {
      int fd = accept4 (c->listen_fd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);

      if (fd < 0)
        {
          if (errno == EINTR || errno == ECONNABORTED)
            continue;
          return; /* EAGAIN: none waits; else try again on the next wake-up */
        }
      if (!_ws_trace_add_stream (c, fd))
        {
          close (fd);
          return;
        }
      c->connections++;
    }
}

static void
read_stream (WsTraceChild *c, WsTraceStream *s)
{
  char buf[65536];

  for (int reads = 0; reads < READS_PER_WAKE; reads++)
    {
      ssize_t n = read (s->fd, buf, sizeof buf);

      if (n > 0)
        {
          c->last_data = ws_clock_ns ();
          _ws_trace_relay_chunk (c, s, buf, (size_t) n);
          continue;
        }
      if (n < 0 && errno == EINTR)
        continue;
      if (n == 0 || (errno != EAGAIN && errno != EWOULDBLOCK))
        close_stream (c, s);
      return;
    }
}

int
_ws_trace_poll_streams (WsTraceChild *c, int timeout_ms)
{
  struct pollfd fixed[2 + 64], *fds = fixed;
  int n = c->n_streams, listening = c->listen_fd >= 0 && n < MAX_STREAMS;
  int ready;

  if (n > 64 && (fds = malloc ((size_t) (2 + n) * sizeof *fds)) == NULL)
    {
      fds = fixed;
      n = 64; /* the others wait for the next wake-up */
    }
  fds[0] = (struct pollfd) { _ws_trace.sig_pipe[0], POLLIN, 0 };
  fds[1] = (struct pollfd) { listening ? c->listen_fd : -1, POLLIN, 0 };
  for (int i = 0; i < n; i++)
    fds[2 + i] = (struct pollfd) { c->streams[i].fd, POLLIN, 0 };
  ready = poll (fds, (nfds_t) (2 + n), timeout_ms);
  if (ready > 0)
    {
      if (fds[0].revents & POLLIN)
        {
          char drain[64];

          while (read (_ws_trace.sig_pipe[0], drain, sizeof drain) > 0)
            ;
        }
      for (int i = 0; i < n; i++)
        if (fds[2 + i].revents & (POLLIN | POLLHUP | POLLERR))
          read_stream (c, &c->streams[i]);
      if (fds[1].revents & POLLIN)
        accept_waiting (c);
      forget_closed (c);
    }
  if (fds != fixed)
    free (fds);
  return ready < 0 && errno != EINTR ? -1 : 0;
}

void
_ws_trace_close_streams (WsTraceChild *c)
{
  for (int i = 0; i < c->n_streams; i++)
    close_stream (c, &c->streams[i]);
  free (c->streams);
  c->streams = NULL;
  c->n_streams = c->streams_cap = 0;
  if (c->listen_fd >= 0)
    close (c->listen_fd);
  c->listen_fd = -1;
  if (c->socket_path != NULL)
    {
      char *slash = strrchr (c->socket_path, '/');

      unlink (c->socket_path);
      *slash = '\0';
      rmdir (c->socket_path);
      free (c->socket_path);
      c->socket_path = NULL;
    }
}
