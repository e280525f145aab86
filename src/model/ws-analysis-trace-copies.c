/* ws-analysis-trace-copies.c: a traced program's copies, run by run, as the copy rules that
 * sweeps' runs go through read them (ws-analysis-transfer.c): host to device and back, the
 * pageable ones with the pinned rate to hold them against (the runner's measurement, or the
 * program's own pinned copies), the small ones, and their overlap with kernels over streams;
 * and the one rule only a trace can tell, asynchronous calls that pageable memory made
 * synchronous.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "ws-analysis-trace-private.h"

#include <string.h>

static gboolean
is_host_copy (const WsTraceCopy *c)
{
  return c->kind == WS_ACTIVITY_MEMCPY
         && (c->direction == WS_COPY_HTOD || c->direction == WS_COPY_DTOH);
}

static const WsDeviceInfo *
device_of (WsTraceAnalysis *a, const WsTraceCopy *c)
{
  const WsSpan *s = &a->spans[g_array_index (c->spans, guint, 0)];

  return ws_trace_get_device (a->trace, s->process, s->device);
}

/* ---- pageable memory ---------------------------------------------------------------------- */

/* The pinned rate to compare with in one direction: the runner's measurement of the device,
 * else the program's own large pinned copies. 0 when there is none. */
static double
pinned_rate (WsTraceAnalysis *a, const WsTraceCopy *pageable, gboolean *measured)
{
  const WsDeviceInfo *d = device_of (a, pageable);
  double rate = 0;

  *measured = FALSE;
  if (d != NULL)
    rate = pageable->direction == WS_COPY_HTOD ? d->h2d_pinned_gbs : d->d2h_pinned_gbs;
  if (rate > 0)
    {
      *measured = TRUE;
      return rate;
    }
  for (guint i = 0; i < a->copies->len; i++)
    {
      WsTraceCopy *c = g_ptr_array_index (a->copies, i);

      if (is_host_copy (c) && c->direction == pageable->direction
          && c->host_memory == WS_HOST_MEMORY_PINNED && c->count > 0
          && (double) c->bytes / c->count >= 10 * _ws_threshold (WS_T_SMALL_COPY_BYTES))
        return c->gbs;
    }
  return 0;
}

/* The time the host spent in the copies' calls. */
static double
host_wait (WsTraceAnalysis *a, const GArray *spans)
{
  double ns = 0;

  for (guint i = 0; i < spans->len; i++)
    {
      const WsSpan *call = _ws_trace_launch_of (a, &a->spans[g_array_index (spans, guint, i)]);

      if (call != NULL)
        ns += (double) (call->end - call->start);
    }
  return ns;
}

/* ---- asynchronous calls on pageable memory -------------------------------------------------- */

static void
check_synchronous (WsTraceAnalysis *a, GPtrArray *out)
{
  g_autoptr (GArray) spans = g_array_new (FALSE, FALSE, sizeof (guint));
  guint count = 0;
  double ns = 0;
  char x1[WS_FMT_LEN];
  WsFinding *f;

  for (guint i = 0; i < a->n_spans; i++)
    {
      const WsSpan *s = &a->spans[i];

      if (s->run == a->program->id && s->kind == WS_ACTIVITY_MEMCPY
          && (s->flags & WS_SPAN_ASYNC) && s->host_memory == WS_HOST_MEMORY_PAGEABLE
          && (double) s->bytes >= _ws_threshold (WS_T_SMALL_COPY_BYTES))
        {
          count++;
          ns += (double) (s->end - s->start);
          g_array_append_val (spans, i);
        }
    }
  if (count == 0)
    return;
  f = _ws_trace_finding_new (a, WS_FINDING_SYNCHRONOUS_COPIES, WS_SEVERITY_MEDIUM, NULL, count,
                             1);
  _ws_finding_title (f, g_dngettext (GETTEXT_PACKAGE,
                                     "Synchronous copy: %u asynchronous copy from pageable memory "
                                     "could not overlap",
                                     "Synchronous copies: %u asynchronous copies from pageable "
                                     "memory could not overlap",
                                     count),
                     count);
  _ws_finding_numbers (f, _("They took %s, and the program waited for each before its next "
                         "call."),
                       _ws_fmt_time (x1, ns));
  _ws_finding_cause (f, _("An asynchronous copy overlaps with kernels only from pinned memory. "
                       "From pageable memory the driver stages it through a buffer of its own, "
                       "and the call returns only when that is done."));
  if (a->numba)
    _ws_finding_fix (f, _("Give the copies in a cuda.stream() pinned host arrays "
                       "(cuda.pinned_array): then cuda.to_device(a, stream=s) and "
                       "d.copy_to_host(a, stream=s) return at once and overlap with kernels."));
  else
    _ws_finding_fix (f, _("Use pinned host buffers (cudaMallocHost, cudaHostRegister, "
                       "tensor.pin_memory()) for cudaMemcpyAsync, so that copies overlap with "
                       "kernels."));
  _ws_trace_finding_point (f, spans);
  g_ptr_array_add (out, f);
}

/* ---- streams that do not overlap ---------------------------------------------------------- */

static int
compare_start (gconstpointer x, gconstpointer y, gpointer data)
{
  const WsSpan *spans = data;
  gint64 a = spans[*(const guint *) x].start, b = spans[*(const guint *) y].start;

  return a < b ? -1 : a > b;
}

/* The length of the union of the spans of one kind, and of its overlap with the other. */
static void
union_overlap (WsTraceAnalysis *a, GArray *copies, GArray *kernels, double *copy_ns,
               double *kernel_ns, double *both_ns)
{
  GArray *sets[2] = { copies, kernels };
  double lengths[2] = { 0, 0 };

  *both_ns = 0;
  for (int k = 0; k < 2; k++)
    {
      gint64 start = 0, end = G_MININT64;

      g_array_sort_with_data (sets[k], compare_start, (gpointer) a->spans);
      for (guint i = 0; i < sets[k]->len; i++)
        {
          const WsSpan *s = &a->spans[g_array_index (sets[k], guint, i)];

          if (s->start > end)
            {
              if (end > start)
                lengths[k] += (double) (end - start);
              start = s->start;
            }
          end = MAX (end, s->end);
        }
      if (end > start)
        lengths[k] += (double) (end - start);
    }
  /* Overlap: every copy against every kernel that overlaps it (both sorted). */
  for (guint i = 0, j0 = 0; i < copies->len; i++)
    {
      const WsSpan *c = &a->spans[g_array_index (copies, guint, i)];

      for (guint j = j0; j < kernels->len; j++)
        {
          const WsSpan *k = &a->spans[g_array_index (kernels, guint, j)];

          if (k->start >= c->end)
            break;
          if (k->end > c->start)
            *both_ns += (double) (MIN (k->end, c->end) - MAX (k->start, c->start));
        }
    }
  *copy_ns = lengths[0];
  *kernel_ns = lengths[1];
}

/* ---- the facts ---------------------------------------------------------------------------- */

static void
leg_add (WsCopyLeg *l, guint64 *bytes, const WsTraceCopy *c, GArray *spans)
{
  l->count += c->count;
  *bytes += c->bytes;
  l->ns += c->total_ns;
  g_array_append_vals (spans, c->spans->data, c->spans->len);
}

/* Host to device and back, the pageable copies large enough to judge by their rate, and the
 * copies too small to be efficient, of whichever direction. */
static void
copy_facts (WsTraceAnalysis *a, WsCopyFacts *k)
{
  guint64 in = 0, back = 0, small = 0;

  k->in.direction = WS_COPY_HTOD;
  k->back.direction = WS_COPY_DTOH;
  k->copy_spans = g_array_new (FALSE, FALSE, sizeof (guint));
  k->pageable_legs = g_array_new (FALSE, FALSE, sizeof (WsCopyLeg));
  k->pageable_spans = g_array_new (FALSE, FALSE, sizeof (guint));
  for (guint i = 0; i < a->copies->len; i++)
    {
      WsTraceCopy *c = g_ptr_array_index (a->copies, i);
      WsCopyLeg l = { 0 };

      if (!is_host_copy (c))
        continue;
      if (c->direction == WS_COPY_HTOD)
        leg_add (&k->in, &in, c, k->copy_spans);
      else
        leg_add (&k->back, &back, c, k->copy_spans);
      if (c->host_memory != WS_HOST_MEMORY_PAGEABLE)
        continue;
      k->pageable = TRUE;
      if ((double) c->bytes / c->count < _ws_threshold (WS_T_SMALL_COPY_BYTES))
        continue;
      l.direction = c->direction;
      l.count = c->count;
      l.bytes = (double) c->bytes;
      l.ns = c->total_ns;
      l.pinned_gbs = pinned_rate (a, c, &l.pinned_measured);
      g_array_append_val (k->pageable_legs, l);
      g_array_append_vals (k->pageable_spans, c->spans->data, c->spans->len);
    }
  k->in.bytes = (double) in;
  k->back.bytes = (double) back;
  k->rate_bytes = (double) (in + back);
  k->pageable_call_ns = host_wait (a, k->pageable_spans);

  k->small_spans = g_array_new (FALSE, FALSE, sizeof (guint));
  for (guint i = 0; i < a->n_spans; i++)
    {
      const WsSpan *s = &a->spans[i];

      if (s->run == a->program->id && s->kind == WS_ACTIVITY_MEMCPY
          && (double) s->bytes < _ws_threshold (WS_T_SMALL_COPY_BYTES))
        {
          k->small.count++;
          small += s->bytes;
          k->small.ns += (double) (s->end - s->start);
          g_array_append_val (k->small_spans, i);
        }
    }
  k->small.bytes = (double) small;
  if ((double) k->small.count >= _ws_threshold (WS_T_MANY_SMALL_COPIES))
    k->small_call_ns = host_wait (a, k->small_spans);
}

/* Whether the copies come once around the kernels or between them: a copy that starts after
 * the first kernel started and before the last one did is inside the program's loop. */
static void
loop_facts (WsTraceAnalysis *a, WsCopyFacts *k)
{
  gint64 first = G_MAXINT64, last = G_MININT64;

  for (guint i = 0; i < a->n_spans; i++)
    {
      const WsSpan *s = &a->spans[i];

      if (s->run != a->program->id || s->kind != WS_ACTIVITY_KERNEL)
        continue;
      k->kernel_launches++;
      first = MIN (first, s->start);
      last = MAX (last, s->start);
    }
  for (guint i = 0; k->kernel_launches > 1 && i < k->copy_spans->len; i++)
    {
      const WsSpan *s = &a->spans[g_array_index (k->copy_spans, guint, i)];

      if (s->start > first && s->start < last)
        k->copies_between++;
    }
}

/* How the program's copies between host and GPU and its kernels overlapped, over its
 * streams. */
static void
overlap_facts (WsTraceAnalysis *a, WsCopyFacts *k)
{
  g_autoptr (GArray) kernels = g_array_new (FALSE, FALSE, sizeof (guint));
  g_autoptr (GHashTable) streams = g_hash_table_new (NULL, NULL);
  GArray *copies = g_array_new (FALSE, FALSE, sizeof (guint));

  k->overlap_spans = copies;
  for (guint i = 0; i < a->n_spans; i++)
    {
      const WsSpan *s = &a->spans[i];

      if (s->run != a->program->id
          || !(s->kind == WS_ACTIVITY_KERNEL
               || (s->kind == WS_ACTIVITY_MEMCPY
                   && (s->direction == WS_COPY_HTOD || s->direction == WS_COPY_DTOH))))
        continue;
      g_array_append_val (s->kind == WS_ACTIVITY_KERNEL ? kernels : copies, i);
      g_hash_table_add (streams, GUINT_TO_POINTER (s->stream + 1));
    }
  /* One stream has nothing to overlap with. */
  if (g_hash_table_size (streams) < 2 || copies->len == 0 || kernels->len == 0)
    return;
  k->streamed = TRUE;
  k->streams = g_hash_table_size (streams);
  union_overlap (a, copies, kernels, &k->overlap_copy_ns, &k->overlap_kernel_ns,
                 &k->overlap_ns);
}

void
_ws_trace_check_copies (WsTraceAnalysis *a, GPtrArray *out)
{
  WsCopyFacts facts = { 0 };

  facts.program = a->program->id;
  facts.numba = a->numba;
  facts.kernel_ns = a->kernel_ns;
  copy_facts (a, &facts);
  loop_facts (a, &facts);
  overlap_facts (a, &facts);
  _ws_check_copies (&facts, out);
  _ws_copy_facts_clear (&facts);
  check_synchronous (a, out);
}
