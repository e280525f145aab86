/* ws-inject-timing.c: what libwarpscope-inject itself spends inside a traced program, for
 * measuring tracing's overhead (tests/gpu/bench-inject.sh). Off unless WARPSCOPE_INJECT_TIMING=1;
 * then each part adds its time and calls to a counter, and the exit handler writes one line
 * on stderr. What CUPTI and the driver spend outside the library's own code is not in it: that
 * is the difference between a traced and an untraced run less these times.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "ws-inject-private.h"

#include <stdio.h>

#include "ws-clock.h"

int _ws_timing;

static const char *const names[WS_TIME_COUNT] = {
  [WS_TIME_INIT] = "init",
  [WS_TIME_LOAD] = "load",
  [WS_TIME_SUBSCRIBE] = "subscribe",
  [WS_TIME_KINDS] = "kinds",
  [WS_TIME_API] = "api",
  [WS_TIME_REQUEST] = "request",
  [WS_TIME_COMPLETE] = "complete",
  [WS_TIME_RESOURCE] = "resource",
  [WS_TIME_PROCESS] = "process",
  [WS_TIME_WRITE] = "write",
  [WS_TIME_EXIT] = "exit",
  [WS_TIME_EXIT_WRITER] = "exit_writer",
  [WS_TIME_EXIT_FLUSH] = "exit_flush",
  [WS_TIME_EXIT_WRITE] = "exit_write",
};

static atomic_uint_fast64_t spent[WS_TIME_COUNT];
static atomic_uint_fast64_t calls[WS_TIME_COUNT];

uint64_t
_ws_timing_now (void)
{
  return _ws_timing ? ws_clock_ns () : 0;
}

void
_ws_timing_add (WsTimer timer, uint64_t since)
{
  if (!_ws_timing || since == 0)
    return;
  atomic_fetch_add (&spent[timer], ws_clock_ns () - since);
  atomic_fetch_add (&calls[timer], 1);
}

void
_ws_timing_report (void)
{
  char line[2048];
  int used;

  if (!_ws_timing)
    return;
  used = snprintf (line, sizeof line, "warpscope-inject timing: pid=%d traced_ns=%llu",
                   (int) _ws_state.pid,
                   (unsigned long long) (ws_clock_ns () - _ws_state.start_ns));
  for (int i = 0; i < WS_TIME_COUNT && used > 0 && (size_t) used < sizeof line; i++)
    used += snprintf (line + used, sizeof line - (size_t) used, " %s_ns=%llu %s_n=%llu",
                      names[i], (unsigned long long) atomic_load (&spent[i]), names[i],
                      (unsigned long long) atomic_load (&calls[i]));
  if (used > 0 && (size_t) used < sizeof line)
    snprintf (line + used, sizeof line - (size_t) used,
              " records=%llu dropped=%llu lost=%llu\n",
              (unsigned long long) atomic_load (&_ws_state.written),
              (unsigned long long) atomic_load (&_ws_state.dropped),
              (unsigned long long) atomic_load (&_ws_state.lost));
  fputs (line, stderr);
  fflush (stderr);
}
