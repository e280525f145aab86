/* ws-inject-open.c: where a process's trace goes: WARPSCOPE_TRACE_FILE (a file), else
 * WARPSCOPE_TRACE_SOCKET (a Unix socket that warpscope-runner --trace listens on: each
 * process connects on its first CUDA call, so children that closed every inherited
 * descriptor, or that a program exec'd, report too, each on a connection of its own), else
 * WARPSCOPE_TRACE_FD (a descriptor the process inherited).
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "ws-inject-private.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

/* WARPSCOPE_TRACE_FD_INODE="DEV:INO" names the file the descriptor must be: a child whose
 * descriptor was closed and reused by the program writes nothing rather than into its file. */
static int
same_file (int fd, const char *expected)
{
  struct stat st;
  unsigned long long dev, ino;

  if (expected == NULL || *expected == '\0')
    return 1;
  if (sscanf (expected, "%llu:%llu", &dev, &ino) != 2 || fstat (fd, &st) != 0)
    return 0;
  return (unsigned long long) st.st_dev == dev && (unsigned long long) st.st_ino == ino;
}

static int
open_file (const char *file, char *why, size_t len)
{
  int fd = open (file, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);

  if (fd < 0)
    snprintf (why, len, "cannot open WARPSCOPE_TRACE_FILE %s (%s)", file, strerror (errno));
  return fd;
}

/* A connection of this process's own: blocking, closed on exec (the program that a process
 * execs connects again, as itself). */
static int
open_socket (const char *path, char *why, size_t len)
{
  struct sockaddr_un addr = { .sun_family = AF_UNIX };
  int fd, ok;

  if (strlen (path) >= sizeof addr.sun_path)
    {
      snprintf (why, len, "WARPSCOPE_TRACE_SOCKET %s is longer than a socket's path may be",
                path);
      return -1;
    }
  memcpy (addr.sun_path, path, strlen (path) + 1);
  fd = socket (AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0)
    {
      snprintf (why, len, "cannot create a socket (%s)", strerror (errno));
      return -1;
    }
  do
    ok = connect (fd, (struct sockaddr *) &addr, sizeof addr) == 0;
  while (!ok && errno == EINTR);
  if (!ok)
    {
      snprintf (why, len, "cannot connect to WARPSCOPE_TRACE_SOCKET %s (%s)", path,
                strerror (errno));
      close (fd);
      return -1;
    }
  return fd;
}

static int
open_inherited (const char *fd_text, char *why, size_t len)
{
  char *end = NULL;
  long n = strtol (fd_text, &end, 10);
  int fd;

  if (end == fd_text || *end != '\0' || n < 0 || n > INT_MAX || fcntl ((int) n, F_GETFD) < 0)
    {
      snprintf (why, len, "WARPSCOPE_TRACE_FD=%s is not an open descriptor here", fd_text);
      return -1;
    }
  if (!same_file ((int) n, getenv ("WARPSCOPE_TRACE_FD_INODE")))
    {
      snprintf (why, len, "descriptor %ld is no longer the trace WARPSCOPE_TRACE_FD named (the "
                "program reused it)", n);
      return -1;
    }
  /* A copy of our own, so that the program closing or reusing its number cannot send
     records into one of its files. */
  fd = fcntl ((int) n, F_DUPFD_CLOEXEC, 64);
  if (fd < 0)
    snprintf (why, len, "cannot use WARPSCOPE_TRACE_FD=%s (%s)", fd_text, strerror (errno));
  return fd;
}

static const char *
set (const char *name)
{
  const char *s = getenv (name);

  return s != NULL && *s != '\0' ? s : NULL;
}

int
_ws_destination_open (WsDestination *kind, char *message, size_t len, char *note,
                      size_t note_len)
{
  const char *file = set ("WARPSCOPE_TRACE_FILE"), *path = set ("WARPSCOPE_TRACE_SOCKET");
  const char *fd_text = set ("WARPSCOPE_TRACE_FD");
  char why[1536] = "", why_fd[512] = "";
  int fd;

  note[0] = '\0';
  if (file != NULL)
    {
      *kind = WS_DESTINATION_FILE;
      if ((fd = open_file (file, why, sizeof why)) < 0)
        snprintf (message, len, "%s: nothing is traced", why);
      return fd;
    }
  if (path == NULL && fd_text == NULL)
    {
      snprintf (message, len, "set WARPSCOPE_TRACE_FILE (a file), WARPSCOPE_TRACE_SOCKET (a "
                "listening socket) or WARPSCOPE_TRACE_FD (an inherited descriptor) to say where "
                "the trace goes: nothing is traced");
      return -1;
    }
  *kind = WS_DESTINATION_SOCKET;
  if (path != NULL && (fd = open_socket (path, why, sizeof why)) >= 0)
    return fd;
  *kind = WS_DESTINATION_PIPE;
  if (fd_text != NULL && (fd = open_inherited (fd_text, why_fd, sizeof why_fd)) >= 0)
    {
      /* Said in the trace too: a child that closes its descriptors will not report. */
      if (path != NULL)
        snprintf (note, note_len, "%s: this process writes its trace to the descriptor it "
                  "inherited instead, which children that close their descriptors do not "
                  "have", why);
      return fd;
    }
  /* This process did initialize CUDA: the reader cannot hear it, so stderr says so. */
  snprintf (message, len, "process %d initialized CUDA but cannot report to the trace (%s%s%s): "
            "it runs untraced", (int) getpid (), why, why[0] && why_fd[0] ? "; " : "", why_fd);
  return -1;
}
