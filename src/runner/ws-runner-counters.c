/* ws-runner-counters.c: --counters: each configuration's counters read in one more launch,
 * after its timed ones (the Range Profiler replays it once per pass), written as a `counters`
 * record of the run with what reading them cost. Where they cannot be read (no permission,
 * another profiler, a chip CUPTI does not know), a `counters_unavailable` warning says why
 * once, and every run goes on as without them.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <math.h>
#include <stdio.h>

#include "ws-clock.h"
#include "ws-counters.h"
#include "ws-output.h"
#include "ws-protocol.h"
#include "ws-runner-private.h"

typedef struct
{
  WsRunner *r;
  const WsRunSpec *s;
} Launch;

static int
launch_once (void *data)
{
  Launch *l = data;

  if (_ws_launch (l->r, l->s) != cudaSuccess
      || cudaStreamSynchronize (l->r->streams[0]) != cudaSuccess)
    {
      cudaGetLastError ();
      return 1;
    }
  return 0;
}

static void
unavailable (WsRunner *r, int run, const char *message)
{
  ws_output_error (run, WS_ERROR_SEVERITY_WARNING, WS_ERROR_COUNTERS_UNAVAILABLE, message, NULL);
  r->counters_off = 1;
}

static void
output (WsRunner *r, const WsRunSpec *s, const double *values, uint64_t cost_ns)
{
  size_t n_catalogue, n;
  const WsCounterMetric *catalogue = ws_counters_metrics (&n_catalogue);
  const char *const *metrics = ws_counters_session_metrics (r->counters, &n);
  WsJson *j = ws_output_begin (WS_RECORD_TYPE_COUNTERS);

  ws_json_int (j, WS_KEY_RUN, s->id);
  ws_json_string (j, WS_KEY_CHIP, ws_counters_session_chip (r->counters));
  ws_json_string (j, WS_KEY_GROUPS, r->opts->counters_text);
  ws_json_int (j, WS_KEY_PASSES, (int64_t) ws_counters_session_passes (r->counters));
  ws_json_int (j, WS_KEY_COST_NS, (int64_t) cost_ns);
  ws_json_begin_object (j, WS_KEY_VALUES);
  /* By the catalogue's keys, in its order (docs/counters.md names each metric). */
  for (size_t i = 0, m = 0; i < n_catalogue && m < n; i++)
    if (catalogue[i].metric == metrics[m])
      ws_json_double (j, catalogue[i].key, values[m++]);
  ws_json_end_object (j);
  ws_output_end ();
}

void
_ws_runner_counters (WsRunner *r, const WsRunSpec *s)
{
  WsCountersStatus status;
  char message[600];
  double values[64];
  uint64_t t0;
  Launch launch = { r, s };

  if (r->opts->counters == 0 || r->counters_off)
    return;
  if (r->counters == NULL
      && (r->counters = ws_counters_session_new (r->device->index, r->opts->counters, &status,
                                                 message, sizeof message))
           == NULL)
    {
      unavailable (r, 0, message);
      return;
    }
  t0 = ws_clock_ns ();
  status = ws_counters_profile (r->counters, launch_once, &launch, values, message,
                                sizeof message);
  if (status == WS_COUNTERS_OK)
    output (r, s, values, ws_clock_ns () - t0);
  else if (status == WS_COUNTERS_LAUNCH_FAILED)
    ws_output_error (s->id, WS_ERROR_SEVERITY_WARNING, WS_ERROR_COUNTERS_UNAVAILABLE, message,
                     NULL);
  else
    unavailable (r, s->id, message);
}

void
_ws_runner_counters_free (WsRunner *r)
{
  ws_counters_session_free (r->counters);
  r->counters = NULL;
}
