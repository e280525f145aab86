/* ws-analysis-trace-kernels.c: findings about a traced program's kernels, configuration by
 * configuration: its launches' facts handed to the launch rules that sweeps' runs go through
 * (ws-analysis-kernel.c), and kernels launched faster than the host can launch them.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "ws-analysis-trace-private.h"

#include <inttypes.h>
#include <math.h>
#include <string.h>

/* A traced kernel configuration as the launch rules read it (ws-analysis-kernel.c). */
static void
facts_of_kernel (WsTraceAnalysis *a, const WsTraceKernel *k, WsLaunchFacts *facts)
{
  guint64 blocks = ws_trace_kernel_blocks (k);

  memset (facts, 0, sizeof *facts);
  facts->program = a->program->id;
  facts->kernel = k->name != NULL ? g_intern_string (k->name) : NULL;
  facts->short_name = k->short_name;
  facts->spans = k->spans;
  facts->library = ws_trace_kernel_is_library (k->name);
  facts->numba = a->numba;
  facts->device = k->device_info;
  facts->threads = ws_trace_kernel_threads (k);
  memcpy (facts->block, k->block, sizeof facts->block);
  facts->has_block = TRUE;
  facts->blocks = blocks <= G_GUINT64_CONSTANT (1) << 53 ? (gint64) blocks : 0;
  facts->registers = (int) k->registers;
  facts->smem = (int) (k->static_smem + k->dynamic_smem);
  facts->has_occupancy = k->has_occupancy;
  facts->occupancy = k->occupancy;
  facts->limiter_known = TRUE;
  facts->limiter_words = _ws_limiter_words (k->occupancy.limiter);
}

/* ---- launched faster than the host can launch ------------------------------------------------ */

static int
compare_start (gconstpointer x, gconstpointer y, gpointer data)
{
  const WsSpan *spans = data;
  gint64 a = spans[*(const guint *) x].start, b = spans[*(const guint *) y].start;

  return a < b ? -1 : a > b;
}

static int
compare_double (gconstpointer a, gconstpointer b)
{
  double x = *(const double *) a, y = *(const double *) b;

  return x < y ? -1 : x > y;
}

static double
median (GArray *values)
{
  guint n = values->len;

  g_array_sort (values, compare_double);
  return n % 2 ? g_array_index (values, double, n / 2)
               : (g_array_index (values, double, n / 2 - 1) + g_array_index (values, double, n / 2))
                   / 2;
}

static void
check_launch_bound (WsTraceAnalysis *a, const WsTraceKernel *k, GPtrArray *out)
{
  g_autoptr (GArray) order = g_array_copy (k->spans);
  g_autoptr (GArray) intervals = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr (GArray) calls = g_array_new (FALSE, FALSE, sizeof (double));
  guint waited = 0;
  double interval, busy, call;
  char x1[WS_FMT_LEN], x2[WS_FMT_LEN], x3[WS_FMT_LEN], x4[WS_FMT_LEN];
  WsFinding *f;

  if ((double) k->count < _ws_threshold (WS_T_LAUNCH_LAUNCHES))
    return;
  g_array_sort_with_data (order, compare_start, (gpointer) a->spans);
  /* The first launch may wait for a compile: the steady state is what follows. */
  for (guint i = 1; i + 1 < order->len; i++)
    {
      const WsSpan *s = &a->spans[g_array_index (order, guint, i)];
      const WsSpan *next = &a->spans[g_array_index (order, guint, i + 1)];
      const WsSpan *launch = _ws_trace_launch_of (a, next);
      double d = (double) (next->start - s->start);

      g_array_append_val (intervals, d);
      /* The GPU had finished before the host asked for the next one. */
      waited += launch != NULL && launch->start >= s->end;
    }
  for (guint i = 1; i < order->len; i++)
    {
      guint index = g_array_index (order, guint, i);
      const WsSpan *launch = _ws_trace_launch_of (a, &a->spans[index]);

      if (launch != NULL)
        {
          double d = (double) (launch->end - launch->start);

          g_array_append_val (calls, d);
        }
    }
  if (intervals->len == 0 || 2 * waited < intervals->len)
    return;
  interval = median (intervals);
  busy = interval > 0 ? k->median_ns / interval : 1;
  if (busy >= _ws_threshold (WS_T_LAUNCH_BUSY))
    return;
  call = calls->len > 0 ? median (calls) : 0;
  f = _ws_trace_finding_new (a, WS_FINDING_LAUNCH_BOUND,
                             busy < _ws_threshold (WS_T_LAUNCH_BUSY_MEDIUM) ? WS_SEVERITY_MEDIUM
                                                                            : WS_SEVERITY_LOW,
                             k->name, busy, _ws_threshold (WS_T_LAUNCH_BUSY));
  _ws_fmt_time (x1, k->median_ns);
  _ws_fmt_time (x2, interval);
  _ws_finding_title (f, _("%s launch-bound: it runs %s, and its launches come %s apart"),
                     k->short_name, x1, x2);
  _ws_finding_numbers (f, _("Over %u launches the GPU works %s of the time between two of them "
                         "and waits for the next launch the rest."),
                       k->count, _ws_fmt_percent (x3, busy));
  if (call > 0)
    _ws_finding_numbers (f, a->numba
                              ? _("The driver's launch call takes %s (median); the rest of each "
                                  "%s passes in Python, in Numba's preparation of the launch "
                                  "and the program's loop.")
                              : _("The driver's launch call takes %s (median); the rest of each "
                                  "%s passes in the program between launches."),
                         _ws_fmt_time (x4, call), x2);
  _ws_finding_cause (f, _("Launching a kernel costs the host microseconds, from Python tens of "
                       "them. A kernel shorter than that finishes before the next launch "
                       "arrives, and the GPU idles in between."));
  if (a->numba)
    _ws_finding_fix (f, _("Give each launch more work: several elements per thread with a "
                       "grid-stride loop (for i in range(cuda.grid(1), n, cuda.gridsize(1))), "
                       "larger arrays per call, or consecutive steps fused into one kernel. Pass "
                       "device arrays, so that no copy hides in the call."));
  else
    _ws_finding_fix (f, _("Give each launch more work, fuse consecutive kernels, or capture the "
                       "sequence in a CUDA graph (cudaGraphLaunch, torch.cuda.CUDAGraph) so that "
                       "one launch replays it."));
  _ws_trace_finding_point (f, k->spans);
  g_ptr_array_add (out, f);
}

void
_ws_trace_check_kernels (WsTraceAnalysis *a, GPtrArray *out)
{
  for (guint i = 0; i < a->kernels->len; i++)
    {
      const WsTraceKernel *k = g_ptr_array_index (a->kernels, i);
      WsLaunchFacts facts;

      facts_of_kernel (a, k, &facts);
      _ws_check_launch (&facts, out);
      check_launch_bound (a, k, out);
    }
}
