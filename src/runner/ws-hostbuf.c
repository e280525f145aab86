/* ws-hostbuf.c: host arrays on huge pages as numpy's are, waiting for the process's other
 * threads to go idle, and pinning the calling thread to a CPU.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define _GNU_SOURCE
#include "ws-hostbuf.h"

#include <dirent.h>
#include <sched.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static size_t
mapped_size (size_t bytes)
{
  return (bytes + WS_HOST_HUGE_ALIGN - 1) / WS_HOST_HUGE_ALIGN * WS_HOST_HUGE_ALIGN;
}

void *
ws_host_alloc (size_t bytes)
{
  size_t size, over;
  char *map, *start;

  if (bytes < WS_HOST_HUGE_THRESHOLD)
    return aligned_alloc (64, ((bytes ? bytes : 4) + 63) / 64 * 64);
  /* Mapped with room to spare, then trimmed to a 2 MiB aligned range: every page of it can
   * then be a huge page (numpy's own arrays get them for their aligned middle part). */
  size = mapped_size (bytes);
  over = size + WS_HOST_HUGE_ALIGN;
  map = mmap (NULL, over, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (map == MAP_FAILED)
    return NULL;
  start = (char *) (((uintptr_t) map + WS_HOST_HUGE_ALIGN - 1) & ~(WS_HOST_HUGE_ALIGN - 1));
  if (start > map)
    munmap (map, (size_t) (start - map));
  if (start + size < map + over)
    munmap (start + size, (size_t) (map + over - (start + size)));
#ifdef MADV_HUGEPAGE
  /* Advice only: with transparent huge pages "never" the kernel ignores it. */
  madvise (start, size, MADV_HUGEPAGE);
#endif
  return start;
}

void
ws_host_free (void *p, size_t bytes)
{
  if (p == NULL)
    return;
  if (bytes < WS_HOST_HUGE_THRESHOLD)
    free (p);
  else
    munmap (p, mapped_size (bytes));
}

int64_t
ws_host_huge_bytes (const void *p, size_t bytes)
{
  FILE *f = fopen ("/proc/self/smaps", "re");
  uintptr_t lo = (uintptr_t) p, hi = lo + bytes, from = 0, to = 0;
  int64_t huge = 0;
  char line[512];

  if (f == NULL)
    return -1;
  while (fgets (line, sizeof line, f) != NULL)
    {
      uintptr_t a, b;
      unsigned long long kb;

      /* A mapping's first line, "7f12…-7f34… rw-p …"; its fields follow ("AnonHugePages:"
       * reads as one hex digit, then stops). */
      if (sscanf (line, "%" SCNxPTR "-%" SCNxPTR " ", &a, &b) == 2)
        from = a, to = b;
      else if (sscanf (line, "AnonHugePages: %llu kB", &kb) == 1 && from < hi && to > lo)
        huge += (int64_t) kb * 1024;
    }
  fclose (f);
  return huge;
}

static double
now_s (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_MONOTONIC, &ts);
  return (double) ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* Threads of this process other than the caller in state R (running or runnable); -1 when
 * /proc/self/task cannot be read. */
static int
others_running (void)
{
  DIR *d = opendir ("/proc/self/task");
  struct dirent *e;
  long self = (long) syscall (SYS_gettid);
  int running = 0;

  if (d == NULL)
    return -1;
  while ((e = readdir (d)) != NULL)
    {
      char path[300], stat[512];
      const char *state;
      FILE *f;
      size_t n;

      if (e->d_name[0] < '0' || e->d_name[0] > '9' || atol (e->d_name) == self)
        continue;
      snprintf (path, sizeof path, "/proc/self/task/%s/stat", e->d_name);
      if ((f = fopen (path, "re")) == NULL)
        continue; /* it ended meanwhile */
      n = fread (stat, 1, sizeof stat - 1, f);
      fclose (f);
      stat[n] = '\0';
      /* "tid (name) S …": the name may hold spaces and parentheses, the state follows the
       * last ')'. */
      state = strrchr (stat, ')');
      running += state != NULL && state[1] == ' ' && state[2] == 'R';
    }
  closedir (d);
  return running;
}

double
ws_host_wait_quiet (double max_seconds)
{
  double start = now_s ();
  const struct timespec pause = { 0, 2000000 }; /* 2 ms */

  for (;;)
    {
      int running = others_running ();

      /* Unreadable (no /proc): nothing to wait for that can be seen. */
      if (running <= 0)
        return now_s () - start;
      if (now_s () - start >= max_seconds)
        return -1;
      nanosleep (&pause, NULL);
    }
}

static cpu_set_t saved_mask;
static int saved;

int
ws_host_allowed_cpus (int *cpus, int max)
{
  cpu_set_t mask;
  int n = 0;

  /* While pinned, the CPUs it had before. */
  if (saved)
    mask = saved_mask;
  else if (sched_getaffinity (0, sizeof mask, &mask) != 0)
    return 0;
  for (int c = 0; c < CPU_SETSIZE; c++)
    if (CPU_ISSET (c, &mask))
      {
        if (n < max)
          cpus[n] = c;
        n++;
      }
  return n;
}

int
ws_host_spread_cpus (const int *allowed, int n, int *out, int max)
{
  int k = n < max ? n : max;

  for (int i = 0; i < k; i++)
    out[i] = allowed[(int) ((int64_t) i * n / k) + (n >= 2 * k ? i % 2 : 0)];
  return k;
}

int
ws_host_pin_cpu (int cpu)
{
  cpu_set_t one;

  if (cpu < 0)
    return !saved || sched_setaffinity (0, sizeof saved_mask, &saved_mask) == 0;
  if (cpu >= CPU_SETSIZE)
    return 0;
  if (!saved)
    {
      if (sched_getaffinity (0, sizeof saved_mask, &saved_mask) != 0)
        return 0;
      saved = 1;
    }
  CPU_ZERO (&one);
  CPU_SET (cpu, &one);
  return sched_setaffinity (0, sizeof one, &one) == 0;
}
