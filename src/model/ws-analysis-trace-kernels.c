/* ws-analysis-trace-kernels.c: a traced program's kernels, configuration by configuration, as
 * the launch rules that sweeps' runs go through read them (ws-analysis-kernel.c): their
 * launches' grid, block and resources, and the pace at which the program launched them.
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
  facts->library = ws_trace_kernel_library (k->name);
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

/* ---- the pace of the launches ---------------------------------------------------------------- */

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

/* The pace of a kernel's launches: how far apart they come, whether the GPU waited for them,
 * and how long the driver's call takes. */
static void
launch_pace (WsTraceAnalysis *a, const WsTraceKernel *k, WsLaunchFacts *facts)
{
  g_autoptr (GArray) order = g_array_copy (k->spans);
  g_autoptr (GArray) intervals = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr (GArray) calls = g_array_new (FALSE, FALSE, sizeof (double));
  guint waited = 0;

  facts->paced = TRUE;
  facts->kernel_ns = k->median_ns;
  facts->launches = k->count;
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
  facts->waited = TRUE;
  facts->interval_ns = median (intervals);
  facts->call_ns = calls->len > 0 ? median (calls) : 0;
}

void
_ws_trace_check_kernels (WsTraceAnalysis *a, GPtrArray *out)
{
  for (guint i = 0; i < a->kernels->len; i++)
    {
      const WsTraceKernel *k = g_ptr_array_index (a->kernels, i);
      WsLaunchFacts facts;

      facts_of_kernel (a, k, &facts);
      launch_pace (a, k, &facts);
      _ws_check_launch (&facts, out);
      _ws_check_launch_bound (&facts, out);
    }
}
