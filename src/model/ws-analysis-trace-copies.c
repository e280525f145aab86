/* ws-analysis-trace-copies.c: findings about a traced program's copies, run by run: copies
 * that take longer than the kernels, copies from pageable memory (against the pinned rate the
 * runner measured, or the program's own pinned copies), asynchronous calls that pageable
 * memory made synchronous, many tiny copies, and streams whose copies and kernels do not
 * overlap.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "ws-analysis-trace-private.h"

#include <string.h>

typedef struct
{
  guint count;
  guint64 bytes;
  double ns;
  GArray *spans;
} Sum;

static void
sum_add (Sum *s, const WsTraceCopy *c)
{
  s->count += c->count;
  s->bytes += c->bytes;
  s->ns += c->total_ns;
  if (s->spans != NULL)
    g_array_append_vals (s->spans, c->spans->data, c->spans->len);
}

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

/* ---- copies against kernels --------------------------------------------------------------- */

static void
check_transfer_bound (WsTraceAnalysis *a, GPtrArray *out)
{
  Sum in = { 0 }, back = { 0 };
  g_autoptr (GArray) spans = g_array_new (FALSE, FALSE, sizeof (guint));
  char x1[WS_FMT_LEN], x2[WS_FMT_LEN], x3[WS_FMT_LEN], x4[WS_FMT_LEN], x5[WS_FMT_LEN];
  char x6[WS_FMT_LEN];
  double copy, ratio;
  WsFinding *f;

  in.spans = back.spans = spans;
  for (guint i = 0; i < a->copies->len; i++)
    {
      WsTraceCopy *c = g_ptr_array_index (a->copies, i);

      if (is_host_copy (c))
        sum_add (c->direction == WS_COPY_HTOD ? &in : &back, c);
    }
  copy = in.ns + back.ns;
  if (copy <= 0 || a->kernel_ns <= 0
      || (ratio = copy / a->kernel_ns) < _ws_threshold (WS_T_TRANSFER_BOUND))
    return;
  f = _ws_trace_finding_new (a, WS_FINDING_TRANSFER_BOUND,
                             ratio >= _ws_threshold (WS_T_TRANSFER_BOUND_HIGH) ? WS_SEVERITY_HIGH
                                                                               : WS_SEVERITY_MEDIUM,
                             NULL, ratio, _ws_threshold (WS_T_TRANSFER_BOUND));
  _ws_finding_title (f, _("Transfer-bound: the copies take %s as long as the kernels"),
                     _ws_fmt_ratio (x1, ratio));
  _ws_fmt_time (x1, copy);
  _ws_fmt_bytes (x2, (double) in.bytes);
  _ws_fmt_time (x3, in.ns);
  _ws_fmt_bytes (x4, (double) back.bytes);
  _ws_fmt_time (x5, back.ns);
  if (in.count > 0 && back.count > 0)
    /* Translators: the copies' time, then bytes and time host to device, then device to
     * host. */
    _ws_finding_numbers (f, _("Copies take %s: %s host to device in %s, %s device to host in "
                           "%s."),
                         x1, x2, x3, x4, x5);
  else if (in.count > 0)
    _ws_finding_numbers (f, _("Copies take %s: %s host to device."), x1, x2);
  else
    _ws_finding_numbers (f, _("Copies take %s: %s device to host."), x1, x4);
  _ws_finding_numbers (f, _("The kernels take %s on the GPU."), _ws_fmt_time (x6, a->kernel_ns));
  _ws_finding_cause (f, _("Every byte the kernels use crosses the link between host and GPU, "
                       "which is much slower than the GPU's own memory: these copies ran at %s, "
                       "and the kernels went through their data far faster."),
                     _ws_fmt_gbs (x1, (double) (in.bytes + back.bytes) / copy));
  if (a->numba)
    _ws_finding_fix (f, _("Keep the data on the GPU: create the arrays there (cuda.to_device "
                       "once, cuda.device_array for results), run every step on them, and "
                       "copy back only the final result. Copy what remains from pinned memory "
                       "(cuda.pinned_array) and overlap it with work in a cuda.stream()."));
  else
    _ws_finding_fix (f, _("Keep the data on the GPU across kernels and copy back only results; "
                       "overlap the copies that remain with work in other streams, from pinned "
                       "memory."));
  _ws_trace_finding_point (f, spans);
  g_ptr_array_add (out, f);
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

static void
pageable_numbers (WsFinding *f, const WsTraceCopy *c)
{
  char x1[WS_FMT_LEN], x2[WS_FMT_LEN], x3[WS_FMT_LEN];

  _ws_fmt_bytes (x1, (double) c->bytes);
  _ws_fmt_time (x2, c->total_ns);
  _ws_fmt_gbs (x3, c->gbs);
  if (c->direction == WS_COPY_HTOD)
    _ws_finding_numbers (f, g_dngettext (GETTEXT_PACKAGE,
                                         "Host to device: %u copy, %s in %s, %s.",
                                         "Host to device: %u copies, %s in %s, %s.", c->count),
                         c->count, x1, x2, x3);
  else
    _ws_finding_numbers (f, g_dngettext (GETTEXT_PACKAGE,
                                         "Device to host: %u copy, %s in %s, %s.",
                                         "Device to host: %u copies, %s in %s, %s.", c->count),
                         c->count, x1, x2, x3);
}

static void
check_pageable (WsTraceAnalysis *a, GPtrArray *out)
{
  g_autoptr (GArray) spans = g_array_new (FALSE, FALSE, sizeof (guint));
  Sum all = { 0 };
  double pinned_ns = 0, fraction = 0;
  gboolean compared = TRUE, any_measured = FALSE;
  char x1[WS_FMT_LEN], x2[WS_FMT_LEN], x3[WS_FMT_LEN];
  WsFinding *f;

  all.spans = spans;
  for (guint i = 0; i < a->copies->len; i++)
    {
      WsTraceCopy *c = g_ptr_array_index (a->copies, i);
      gboolean measured;
      double rate;

      if (!is_host_copy (c) || c->host_memory != WS_HOST_MEMORY_PAGEABLE
          || (double) c->bytes / c->count < _ws_threshold (WS_T_SMALL_COPY_BYTES))
        continue;
      sum_add (&all, c);
      rate = pinned_rate (a, c, &measured);
      any_measured |= measured;
      if (rate > 0)
        pinned_ns += (double) c->bytes / rate;
      else
        compared = FALSE;
    }
  if (all.count == 0 || all.ns <= 0)
    return;
  if (compared && pinned_ns > 0
      && (fraction = pinned_ns / all.ns) >= _ws_threshold (WS_T_PAGEABLE_RATE))
    return;
  /* Without a pinned rate, only copies long enough to matter are worth a finding. */
  if (!compared && all.ns < _ws_threshold (WS_T_PAGEABLE_MIN_TIME) * 1e6)
    return;
  if (!compared)
    fraction = 0;
  f = _ws_trace_finding_new (a, WS_FINDING_PAGEABLE_MEMORY,
                             all.ns >= a->kernel_ns ? WS_SEVERITY_MEDIUM : WS_SEVERITY_LOW, NULL,
                             fraction, _ws_threshold (WS_T_PAGEABLE_RATE));
  _ws_fmt_gbs (x1, (double) all.bytes / all.ns);
  if (compared)
    _ws_finding_title (f, _("Pageable memory: copies at %s, pinned memory reaches %s"), x1,
                       _ws_fmt_gbs (x2, (double) all.bytes / pinned_ns));
  else
    _ws_finding_title (f, _("Pageable memory: copies at %s"), x1);
  for (guint i = 0; i < a->copies->len; i++)
    {
      WsTraceCopy *c = g_ptr_array_index (a->copies, i);

      if (is_host_copy (c) && c->host_memory == WS_HOST_MEMORY_PAGEABLE
          && (double) c->bytes / c->count >= _ws_threshold (WS_T_SMALL_COPY_BYTES))
        pageable_numbers (f, c);
    }
  if (compared)
    /* Translators: the pinned copies' time for the same bytes, then the pageable copies'. */
    _ws_finding_numbers (f, any_measured
                              ? _("From pinned memory the same bytes take %s instead of %s on "
                                  "this GPU (its pinned rates as the runner measured them).")
                              : _("From pinned memory the same bytes take %s instead of %s, at "
                                  "the rate of this program's own pinned copies."),
                         _ws_fmt_time (x2, pinned_ns), _ws_fmt_time (x3, all.ns));
  else
    _ws_finding_numbers (f, _("This trace has no pinned rate of this GPU to compare with: "
                           "warpscope-cli trace measures one after the program."));
  _ws_finding_numbers (f, _("The calls returned only once their copies were done: the program "
                         "waited %s in them."),
                       _ws_fmt_time (x2, host_wait (a, spans)));
  _ws_finding_cause (f, _("The host arrays are ordinary (pageable) memory, which the system may "
                       "move. The GPU cannot copy from it directly, so the driver copies each "
                       "piece into a pinned buffer of its own first, then over the link, one "
                       "after the other, while the program waits."));
  if (a->numba)
    _ws_finding_fix (f, _("Allocate the host arrays in pinned memory and fill them: a = "
                       "cuda.pinned_array(n, dtype=np.float32); a[:] = …; or pin existing "
                       "arrays around the copies: with cuda.pinned(a, b, c): …. Pinning takes "
                       "time too: pin once, reuse many times."));
  else
    _ws_finding_fix (f, _("Allocate the host buffers pinned (cudaMallocHost; PyTorch: "
                       "tensor.pin_memory(); CuPy: cupyx.empty_pinned), or pin existing ones "
                       "with cudaHostRegister, and copy straight from them."));
  _ws_trace_finding_point (f, spans);
  g_ptr_array_add (out, f);
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

/* ---- many tiny copies --------------------------------------------------------------------- */

static void
check_many_small (WsTraceAnalysis *a, GPtrArray *out)
{
  g_autoptr (GArray) spans = g_array_new (FALSE, FALSE, sizeof (guint));
  guint count = 0;
  guint64 bytes = 0;
  double ns = 0, calls;
  char x1[WS_FMT_LEN], x2[WS_FMT_LEN], x3[WS_FMT_LEN], x4[WS_FMT_LEN], x5[WS_FMT_LEN];
  WsFinding *f;

  for (guint i = 0; i < a->n_spans; i++)
    {
      const WsSpan *s = &a->spans[i];

      if (s->run == a->program->id && s->kind == WS_ACTIVITY_MEMCPY
          && (double) s->bytes < _ws_threshold (WS_T_SMALL_COPY_BYTES))
        {
          count++;
          bytes += s->bytes;
          ns += (double) (s->end - s->start);
          g_array_append_val (spans, i);
        }
    }
  if ((double) count < _ws_threshold (WS_T_MANY_SMALL_COPIES) || ns <= 0)
    return;
  calls = host_wait (a, spans);
  f = _ws_trace_finding_new (a, WS_FINDING_SMALL_COPIES, WS_SEVERITY_LOW, NULL, count,
                             _ws_threshold (WS_T_MANY_SMALL_COPIES));
  _ws_finding_title (f, _("Many small copies: %u copies of less than %s each"), count,
                     _ws_fmt_bytes (x1, _ws_threshold (WS_T_SMALL_COPY_BYTES)));
  _ws_finding_numbers (f, _("They move %s in %s on the GPU (%s on average, %s), and their calls "
                         "take %s of the host's time."),
                       _ws_fmt_bytes (x1, (double) bytes), _ws_fmt_time (x2, ns),
                       _ws_fmt_bytes (x3, (double) bytes / count),
                       _ws_fmt_gbs (x4, (double) bytes / ns), _ws_fmt_time (x5, calls));
  _ws_finding_cause (f, _("Every copy pays a fixed cost of microseconds on the host and the GPU, "
                       "whatever its size: for small copies that cost is nearly all of it."));
  if (a->numba)
    _ws_finding_fix (f, _("Copy fewer, larger pieces: stack small arrays into one and copy it "
                       "once, keep intermediate results on the device, and read single values "
                       "back only when needed."));
  else
    _ws_finding_fix (f, _("Copy fewer, larger pieces: pack small arrays into one buffer, keep "
                       "intermediate results on the GPU, and read back scalars (.item(), float() "
                       "on a GPU tensor) only when needed."));
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

static void
check_overlap (WsTraceAnalysis *a, GPtrArray *out)
{
  g_autoptr (GArray) copies = g_array_new (FALSE, FALSE, sizeof (guint));
  g_autoptr (GArray) kernels = g_array_new (FALSE, FALSE, sizeof (guint));
  g_autoptr (GHashTable) streams = g_hash_table_new (NULL, NULL);
  double copy_ns, kernel_ns, both, possible, share;
  char x1[WS_FMT_LEN], x2[WS_FMT_LEN], x3[WS_FMT_LEN], x4[WS_FMT_LEN];
  WsFinding *f;

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
  union_overlap (a, copies, kernels, &copy_ns, &kernel_ns, &both);
  possible = MIN (copy_ns, kernel_ns);
  if (possible <= 0 || (share = MIN (both / possible, 1)) >= _ws_threshold (WS_T_OVERLAP_LOW))
    return;
  f = _ws_trace_finding_new (a, WS_FINDING_LOW_OVERLAP, WS_SEVERITY_MEDIUM, NULL, share,
                             _ws_threshold (WS_T_OVERLAP_LOW));
  _ws_finding_title (f, _("Low overlap: copies and kernels overlap for %s of the possible time"),
                     _ws_fmt_percent (x1, share));
  _ws_finding_numbers (f, _("Over %u streams, copies take %s and kernels %s; they run at the same "
                         "time for %s."),
                       g_hash_table_size (streams), _ws_fmt_time (x2, copy_ns),
                       _ws_fmt_time (x3, kernel_ns), _ws_fmt_time (x4, MIN (both, possible)));
  _ws_finding_cause (f, _("Streams let a copy run while a kernel works on another chunk, but only "
                       "when copies are asynchronous from pinned memory and each chunk's copies "
                       "and kernel are queued in their own stream."));
  if (a->numba)
    _ws_finding_fix (f, _("Give each chunk its own cuda.stream(): pinned host arrays, "
                       "cuda.to_device(a, stream=s), kernel[blocks, threads, s](…), "
                       "copy_to_host(stream=s), and one synchronization at the end."));
  else
    _ws_finding_fix (f, _("Use pinned host memory, queue each chunk's copy in, kernel and copy out "
                       "in a stream of its own, and synchronize once at the end."));
  _ws_trace_finding_point (f, copies);
  g_ptr_array_add (out, f);
}

void
_ws_trace_check_copies (WsTraceAnalysis *a, GPtrArray *out)
{
  check_transfer_bound (a, out);
  check_pageable (a, out);
  check_synchronous (a, out);
  check_many_small (a, out);
  check_overlap (a, out);
}
