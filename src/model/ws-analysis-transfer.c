/* ws-analysis-transfer.c: the rules about the copies between host and GPU, written once for
 * a sweep's run and a traced program run: copies that take longer than the kernels, copies
 * from pageable memory, copies too small to be efficient, and streams whose copies and kernels
 * fail to overlap. Each reads WsCopyFacts, which either source fills (ws-analysis-copies.c for
 * a run, ws-analysis-trace-copies.c for a traced program). Where the CLI's sweep and a traced
 * program have their own words for a finding, the source picks them; what is judged is one.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "ws-analysis-private.h"
#include <string.h>

/* ---- the finding, wherever the facts came from ------------------------------------------- */

static WsFinding *
finding_new (const WsCopyFacts *k, WsFindingKind kind, WsSeverity severity, double value,
             double threshold)
{
  WsFinding *f = _ws_finding_new (kind, severity, k->run, value, threshold);

  if (k->run == NULL)
    {
      f->trace = TRUE;
      f->program = k->program;
    }
  return f;
}

static void
finding_add (WsFinding *f, const GArray *spans, GPtrArray *out)
{
  if (spans != NULL)
    g_array_append_vals (f->activities, spans->data, spans->len);
  g_ptr_array_add (out, f);
}

void
_ws_copy_facts_clear (WsCopyFacts *k)
{
  g_clear_pointer (&k->copy_spans, g_array_unref);
  g_clear_pointer (&k->pageable_legs, g_array_unref);
  g_clear_pointer (&k->pageable_spans, g_array_unref);
  g_clear_pointer (&k->small_spans, g_array_unref);
  g_clear_pointer (&k->overlap_spans, g_array_unref);
}

/* ---- copies against kernels --------------------------------------------------------------- */

static void
transfer_bound_words_of_run (const WsCopyFacts *k, WsFinding *f, double copy, double ratio)
{
  char x1[WS_FMT_LEN], x2[WS_FMT_LEN], x3[WS_FMT_LEN], x4[WS_FMT_LEN], x5[WS_FMT_LEN];
  char x6[WS_FMT_LEN];
  double e2e = k->e2e_ns;

  _ws_fmt_time (x1, copy);
  _ws_fmt_time (x3, k->in.ns);
  _ws_fmt_time (x4, k->back.ns);
  _ws_fmt_time (x5, k->kernel_ns);
  /* The copies are traced and the end-to-end time is not: pageable copies vary enough between
   * repetitions that the traced ones can add up to more than the untraced whole. */
  _ws_finding_title (f, _("Transfer-bound: the copies take %s as long as the kernel"),
                     _ws_fmt_ratio (x2, ratio));
  if (e2e >= copy + k->kernel_ns)
    _ws_finding_numbers (f, _("Copies take %s of the %s end to end (%s): %s host to device, %s "
                           "device to host."),
                         x1, _ws_fmt_time (x2, e2e), _ws_fmt_percent (x6, copy / e2e), x3, x4);
  else
    _ws_finding_numbers (f, _("Copies take %s: %s host to device, %s device to host."), x1, x3,
                         x4);
  /* Two figures of the same kernel: name both when they read differently. */
  if (k->kernel_alone_ns > 0
      && strcmp (x5, _ws_fmt_time (x6, k->kernel_alone_ns)) != 0)
    _ws_finding_numbers (f, _("Between the copies, the kernel takes %s (the median inside the "
                           "sequence; launched back to back, as the runs table gives it, %s)."),
                         x5, x6);
  else
    _ws_finding_numbers (f, _("Between the copies, the kernel takes %s."), x5);
  if (e2e > 0 && e2e < copy + k->kernel_ns)
    _ws_finding_numbers (f, _("End to end, untraced (the runs table's figure), the run took %s: "
                           "less than the copies above, which are medians of %u traced "
                           "repetitions, since its copies vary from one repetition to the next."),
                         _ws_fmt_time (x2, e2e), MAX (k->in.count, k->back.count));
  _ws_finding_cause (f, _("Every byte crosses the link between host and GPU, which is much "
                       "slower than the GPU's own memory: these copies ran at %s."),
                     _ws_fmt_gbs (x1, k->rate_bytes / copy));
  if (k->ridge > 0 && k->kernel_bytes > 0 && k->intensity < k->ridge)
    _ws_finding_cause (f, _("The kernel itself moves data at %s and does little work per byte "
                         "(%s FLOP per byte): it cannot win back the time of its copies."),
                       _ws_fmt_gbs (x1, k->kernel_bytes / k->kernel_ns),
                       _ws_fmt_number (x2, k->intensity));
  _ws_finding_fix (f, _("Keep the data on the GPU across kernels and copy back only results."));
  if (k->pageable)
    _ws_finding_fix (f, _("Use pinned memory for the copies that remain."));
  _ws_finding_fix (f, _("Overlap copies with work on other chunks in streams."));
}

/* A traced program's copies that come once, around its kernels: the data already stays on the
 * GPU, so "keep it there" would tell the program to do what it does. Only more work per copy
 * pays for them, or faster copies. */
static void
transfer_once_words (const WsCopyFacts *k, WsFinding *f)
{
  if (k->kernel_launches == 1)
    {
      _ws_finding_numbers (f, _("The copies come once, before and after the one kernel "
                             "launch."));
      _ws_finding_fix (f, _("There is no loop to keep the data on the GPU across: the copies are "
                         "the price of one kernel on this data. The GPU pays it back only with "
                         "more work per byte copied: more steps on the same arrays while they "
                         "are on the GPU, or a kernel that does more with each element. "
                         "Otherwise accept the copies, or run this step on the CPU."));
    }
  else
    {
      _ws_finding_numbers (f, _("The copies come once, before the first of %u kernel launches and "
                             "after the last: the data stays on the GPU between them."),
                           k->kernel_launches);
      _ws_finding_fix (f, _("The program already keeps its data on the GPU. Amortize the one-time "
                         "copies with more iterations or a bigger problem per copy, or accept "
                         "them."));
    }
  if (k->pageable && k->numba)
    _ws_finding_fix (f, _("Copying from pinned memory (cuda.pinned_array) makes them faster."));
  else if (k->pageable)
    _ws_finding_fix (f, _("Copying from pinned memory (cudaMallocHost) makes them faster."));
}

static void
transfer_bound_words_of_trace (const WsCopyFacts *k, WsFinding *f, double copy, double ratio)
{
  char x1[WS_FMT_LEN], x2[WS_FMT_LEN], x3[WS_FMT_LEN], x4[WS_FMT_LEN], x5[WS_FMT_LEN];
  char x6[WS_FMT_LEN];

  _ws_finding_title (f, _("Transfer-bound: the copies take %s as long as the kernels"),
                     _ws_fmt_ratio (x1, ratio));
  _ws_fmt_time (x1, copy);
  _ws_fmt_bytes (x2, k->in.bytes);
  _ws_fmt_time (x3, k->in.ns);
  _ws_fmt_bytes (x4, k->back.bytes);
  _ws_fmt_time (x5, k->back.ns);
  if (k->in.count > 0 && k->back.count > 0)
    /* Translators: the copies' time, then bytes and time host to device, then device to
     * host. */
    _ws_finding_numbers (f, _("Copies take %s: %s host to device in %s, %s device to host in "
                           "%s."),
                         x1, x2, x3, x4, x5);
  else if (k->in.count > 0)
    _ws_finding_numbers (f, _("Copies take %s: %s host to device."), x1, x2);
  else
    _ws_finding_numbers (f, _("Copies take %s: %s device to host."), x1, x4);
  _ws_finding_numbers (f, _("The kernels take %s on the GPU."), _ws_fmt_time (x6, k->kernel_ns));
  _ws_finding_cause (f, _("Every byte the kernels use crosses the link between host and GPU, "
                       "which is much slower than the GPU's own memory: these copies ran at %s, "
                       "and the kernels went through their data far faster."),
                     _ws_fmt_gbs (x1, k->rate_bytes / copy));
  if (k->kernel_launches > 0 && k->copies_between == 0)
    {
      transfer_once_words (k, f);
      return;
    }
  if (k->copies_between > 0)
    _ws_finding_numbers (f,
                         g_dngettext (GETTEXT_PACKAGE,
                                      "%u copy comes between kernel launches: inside the "
                                      "program's loop.",
                                      "%u copies come between kernel launches: inside the "
                                      "program's loop.",
                                      k->copies_between),
                         k->copies_between);
  if (k->numba)
    _ws_finding_fix (f, _("Keep the data on the GPU: create the arrays there (cuda.to_device "
                       "once, cuda.device_array for results), run every step on them, and "
                       "copy back only the final result. Copy what remains from pinned memory "
                       "(cuda.pinned_array) and overlap it with work in a cuda.stream()."));
  else
    _ws_finding_fix (f, _("Keep the data on the GPU across kernels and copy back only results; "
                       "overlap the copies that remain with work in other streams, from pinned "
                       "memory."));
}

static void
check_transfer_bound (const WsCopyFacts *k, GPtrArray *out)
{
  double copy = k->in.ns + k->back.ns, ratio;
  WsFinding *f;

  if (copy <= 0 || k->kernel_ns <= 0
      || (ratio = copy / k->kernel_ns) < _ws_threshold (WS_T_TRANSFER_BOUND))
    return;
  f = finding_new (k, WS_FINDING_TRANSFER_BOUND,
                   ratio >= _ws_threshold (WS_T_TRANSFER_BOUND_HIGH) ? WS_SEVERITY_HIGH
                                                                     : WS_SEVERITY_MEDIUM,
                   ratio, _ws_threshold (WS_T_TRANSFER_BOUND));
  if (k->run != NULL)
    transfer_bound_words_of_run (k, f, copy, ratio);
  else
    transfer_bound_words_of_trace (k, f, copy, ratio);
  finding_add (f, k->copy_spans, out);
}

/* ---- pageable memory ---------------------------------------------------------------------- */

static void
pageable_words_of_run (const WsCopyFacts *k, WsFinding *f, double ns, double fraction)
{
  char x1[WS_FMT_LEN], x2[WS_FMT_LEN], x3[WS_FMT_LEN], x4[WS_FMT_LEN];
  const WsDeviceInfo *d = k->device;

  for (guint i = 0; i < k->pageable_legs->len; i++)
    {
      const WsCopyLeg *l = &g_array_index (k->pageable_legs, WsCopyLeg, i);

      if (l->bytes <= 0 || l->ns <= 0)
        continue;
      _ws_fmt_bytes (x1, l->bytes);
      _ws_fmt_time (x2, l->ns);
      _ws_fmt_gbs (x3, l->bytes / l->ns);
      if (l->direction == WS_COPY_HTOD)
        _ws_finding_numbers (f, _("Host to device: %s in %s, %s."), x1, x2, x3);
      else
        _ws_finding_numbers (f, _("Device to host: %s in %s, %s."), x1, x2, x3);
    }
  if (d != NULL && d->h2d_pinned_gbs > 0 && d->d2h_pinned_gbs > 0)
    _ws_finding_numbers (f, _("Pinned memory on this GPU: %s host to device and %s device to host "
                           "(measured when the session started), %s as fast."),
                         _ws_fmt_gbs (x1, d->h2d_pinned_gbs), _ws_fmt_gbs (x2, d->d2h_pinned_gbs),
                         _ws_fmt_ratio (x4, 1 / MAX (fraction, 1e-9)));
  if (k->pinned_twin != NULL)
    {
      const WsTiming *tt = ws_run_get_timing (k->pinned_twin);

      if (tt != NULL && tt->h2d.n > 0 && tt->d2h.n > 0)
        _ws_finding_numbers (f, _("The same configuration with pinned memory (run %d) copies in "
                               "%s instead of %s."),
                             ws_run_get_id (k->pinned_twin),
                             _ws_fmt_time (x1, tt->h2d.median + tt->d2h.median),
                             _ws_fmt_time (x2, ns));
    }
  _ws_finding_cause (f, _("The host arrays come from malloc: pageable memory, which the system "
                       "may move. The GPU cannot copy from it directly, so the driver first copies "
                       "each piece into a pinned buffer and then over the link, one after the "
                       "other."));
  _ws_finding_fix (f, _("Allocate the host arrays with cudaMallocHost, or pin them with "
                     "cudaHostRegister, and copy straight from them."));
  _ws_finding_fix_for (f, _("Run the sweep with --transfer pinned to compare."),
                       _("Set Host memory to Pinned in the sidebar and run again to compare."));
}

static void
pageable_words_of_trace (const WsCopyFacts *k, WsFinding *f, double ns, double pinned_ns,
                         gboolean compared, gboolean measured)
{
  char x1[WS_FMT_LEN], x2[WS_FMT_LEN], x3[WS_FMT_LEN];

  for (guint i = 0; i < k->pageable_legs->len; i++)
    {
      const WsCopyLeg *l = &g_array_index (k->pageable_legs, WsCopyLeg, i);

      _ws_fmt_bytes (x1, l->bytes);
      _ws_fmt_time (x2, l->ns);
      _ws_fmt_gbs (x3, l->ns > 0 ? l->bytes / l->ns : 0);
      if (l->direction == WS_COPY_HTOD)
        _ws_finding_numbers (f, g_dngettext (GETTEXT_PACKAGE,
                                             "Host to device: %u copy, %s in %s, %s.",
                                             "Host to device: %u copies, %s in %s, %s.", l->count),
                             l->count, x1, x2, x3);
      else
        _ws_finding_numbers (f, g_dngettext (GETTEXT_PACKAGE,
                                             "Device to host: %u copy, %s in %s, %s.",
                                             "Device to host: %u copies, %s in %s, %s.", l->count),
                             l->count, x1, x2, x3);
    }
  if (compared)
    /* Translators: the pinned copies' time for the same bytes, then the pageable copies'. */
    _ws_finding_numbers (f, measured
                              ? _("From pinned memory the same bytes take %s instead of %s on "
                                  "this GPU (its pinned rates as the runner measured them).")
                              : _("From pinned memory the same bytes take %s instead of %s, at "
                                  "the rate of this program's own pinned copies."),
                         _ws_fmt_time (x2, pinned_ns), _ws_fmt_time (x3, ns));
  else
    _ws_finding_numbers (f, _("This trace has no pinned rate of this GPU to compare with: "
                           "warpscope-cli trace measures one after the program."));
  _ws_finding_numbers (f, _("The calls returned only once their copies were done: the program "
                         "waited %s in them."),
                       _ws_fmt_time (x2, k->pageable_call_ns));
  _ws_finding_cause (f, _("The host arrays are ordinary (pageable) memory, which the system may "
                       "move. The GPU cannot copy from it directly, so the driver copies each "
                       "piece into a pinned buffer of its own first, then over the link, one "
                       "after the other, while the program waits."));
  if (k->numba)
    _ws_finding_fix (f, _("Allocate the host arrays in pinned memory and fill them: a = "
                       "cuda.pinned_array(n, dtype=np.float32); a[:] = …; or pin existing "
                       "arrays around the copies: with cuda.pinned(a, b, c): …. Pinning takes "
                       "time too: pin once, reuse many times."));
  else
    _ws_finding_fix (f, _("Allocate the host buffers pinned (cudaMallocHost; PyTorch: "
                       "tensor.pin_memory(); CuPy: cupyx.empty_pinned), or pin existing ones "
                       "with cudaHostRegister, and copy straight from them."));
}

static void
check_pageable (const WsCopyFacts *k, GPtrArray *out)
{
  double bytes = 0, ns = 0, pinned_ns = 0, fraction = 0;
  gboolean compared = TRUE, measured = FALSE;
  char x1[WS_FMT_LEN], x2[WS_FMT_LEN];
  WsSeverity severity;
  WsFinding *f;

  if (k->pageable_legs == NULL)
    return;
  /* The time the same bytes take from pinned memory, each way at its own rate. */
  for (guint i = 0; i < k->pageable_legs->len; i++)
    {
      const WsCopyLeg *l = &g_array_index (k->pageable_legs, WsCopyLeg, i);

      bytes += l->bytes;
      ns += l->ns;
      measured |= l->pinned_measured;
      if (l->bytes <= 0)
        continue;
      if (l->pinned_gbs > 0)
        pinned_ns += l->bytes / l->pinned_gbs;
      else
        compared = FALSE;
    }
  if (bytes <= 0 || ns <= 0)
    return;
  if (compared && pinned_ns > 0
      && (fraction = pinned_ns / ns) >= _ws_threshold (WS_T_PAGEABLE_RATE))
    return;
  compared = compared && pinned_ns > 0;
  if (!compared)
    fraction = 0;
  /* A traced program's copies without a pinned rate to compare with are worth a finding only
   * where they take long enough to matter; a sweep's run was made to measure its copies. */
  if (k->run == NULL && !compared && ns < _ws_threshold (WS_T_PAGEABLE_MIN_TIME) * 1e6)
    return;
  /* Pinned memory matters most where the copies are the larger part of the run; a sweep's
   * run says so only where it has a pinned rate to compare with. */
  severity = ns >= k->kernel_ns && (k->run == NULL || compared) ? WS_SEVERITY_MEDIUM
                                                                 : WS_SEVERITY_LOW;
  f = finding_new (k, WS_FINDING_PAGEABLE_MEMORY, severity, fraction,
                   _ws_threshold (WS_T_PAGEABLE_RATE));
  _ws_fmt_gbs (x1, bytes / ns);
  if (compared)
    _ws_finding_title (f, _("Pageable memory: copies at %s, pinned memory reaches %s"), x1,
                       _ws_fmt_gbs (x2, bytes / pinned_ns));
  else
    _ws_finding_title (f, _("Pageable memory: copies at %s"), x1);
  if (k->run != NULL)
    pageable_words_of_run (k, f, ns, fraction);
  else
    pageable_words_of_trace (k, f, ns, pinned_ns, compared, measured);
  finding_add (f, k->pageable_spans, out);
}

/* ---- small copies ------------------------------------------------------------------------- */

/* A sweep's run: its copies are alike, and their average is small. */
static WsFinding *
small_copies_of_run (const WsCopyFacts *k)
{
  const WsCopyLeg *s = &k->all;
  double each;
  char x1[WS_FMT_LEN], x2[WS_FMT_LEN], x3[WS_FMT_LEN];
  WsFinding *f;

  if (s->count == 0 || s->bytes / s->count >= _ws_threshold (WS_T_SMALL_COPY_BYTES)
      || s->ns <= 0)
    return NULL;
  each = s->bytes / s->count;
  f = finding_new (k, WS_FINDING_SMALL_COPIES, WS_SEVERITY_LOW, each,
                   _ws_threshold (WS_T_SMALL_COPY_BYTES));
  _ws_finding_title (f, _("Small copies: %s each, so latency dominates"), _ws_fmt_bytes (x1, each));
  _ws_finding_numbers (f, _("Each copy moves %s and takes %s on average: %s."), x1,
                       _ws_fmt_time (x2, s->ns / s->count), _ws_fmt_gbs (x3, s->bytes / s->ns));
  if (k->device != NULL && k->device->h2d_pinned_gbs > 0)
    _ws_finding_numbers (f, _("Large pinned copies reach %s on this GPU."),
                         _ws_fmt_gbs (x1, k->device->h2d_pinned_gbs));
  _ws_finding_cause (f, _("Every copy pays a fixed cost of a microsecond or more to start, "
                       "whatever its size. Below about %s, that cost is most of the copy's time."),
                     _ws_fmt_bytes (x1, _ws_threshold (WS_T_SMALL_COPY_BYTES)));
  _ws_finding_fix (f, _("Copy fewer, larger pieces: pack small arrays into one buffer, or keep the "
                     "data on the GPU between kernels. A problem this small is often faster on "
                     "the CPU."));
  return f;
}

/* A traced program: its copies come in every size, and many of them are small. */
static WsFinding *
small_copies_of_trace (const WsCopyFacts *k)
{
  const WsCopyLeg *s = &k->small;
  char x1[WS_FMT_LEN], x2[WS_FMT_LEN], x3[WS_FMT_LEN], x4[WS_FMT_LEN], x5[WS_FMT_LEN];
  WsFinding *f;

  if ((double) s->count < _ws_threshold (WS_T_MANY_SMALL_COPIES) || s->ns <= 0)
    return NULL;
  f = finding_new (k, WS_FINDING_SMALL_COPIES, WS_SEVERITY_LOW, s->count,
                   _ws_threshold (WS_T_MANY_SMALL_COPIES));
  _ws_finding_title (f, _("Many small copies: %u copies of less than %s each"), s->count,
                     _ws_fmt_bytes (x1, _ws_threshold (WS_T_SMALL_COPY_BYTES)));
  _ws_finding_numbers (f, _("They move %s in %s on the GPU (%s on average, %s), and their calls "
                         "take %s of the host's time."),
                       _ws_fmt_bytes (x1, s->bytes), _ws_fmt_time (x2, s->ns),
                       _ws_fmt_bytes (x3, s->bytes / s->count), _ws_fmt_gbs (x4, s->bytes / s->ns),
                       _ws_fmt_time (x5, k->small_call_ns));
  _ws_finding_cause (f, _("Every copy pays a fixed cost of microseconds on the host and the GPU, "
                       "whatever its size: for small copies that cost is nearly all of it."));
  if (k->numba)
    _ws_finding_fix (f, _("Copy fewer, larger pieces: stack small arrays into one and copy it "
                       "once, keep intermediate results on the device, and read single values "
                       "back only when needed."));
  else
    _ws_finding_fix (f, _("Copy fewer, larger pieces: pack small arrays into one buffer, keep "
                       "intermediate results on the GPU, and read back scalars (.item(), float() "
                       "on a GPU tensor) only when needed."));
  return f;
}

static void
check_small_copies (const WsCopyFacts *k, GPtrArray *out)
{
  WsFinding *f = k->run != NULL ? small_copies_of_run (k) : small_copies_of_trace (k);

  if (f != NULL)
    finding_add (f, k->small_spans, out);
}

/* ---- streams that do not overlap ---------------------------------------------------------- */

static void
check_overlap (const WsCopyFacts *k, GPtrArray *out)
{
  double possible = MIN (k->overlap_copy_ns, k->overlap_kernel_ns), share;
  char x1[WS_FMT_LEN], x2[WS_FMT_LEN], x3[WS_FMT_LEN], x4[WS_FMT_LEN], x5[WS_FMT_LEN];
  WsFinding *f;

  if (!k->streamed || possible <= 0
      || (share = MIN (k->overlap_ns / possible, 1)) >= _ws_threshold (WS_T_OVERLAP_LOW))
    return;
  f = finding_new (k, WS_FINDING_LOW_OVERLAP, WS_SEVERITY_MEDIUM, share,
                   _ws_threshold (WS_T_OVERLAP_LOW));
  _ws_finding_title (f, _("Low overlap: copies and kernels overlap for %s of the possible time"),
                     _ws_fmt_percent (x1, share));
  _ws_fmt_time (x1, k->overlap_copy_ns);
  _ws_fmt_time (x2, k->overlap_kernel_ns);
  _ws_fmt_time (x3, k->overlap_ns);
  if (k->streams == 0)
    _ws_finding_numbers (f, _("Over its sequences, copies take %s and kernels %s; they run at the "
                           "same time for %s, %s of the %s that could overlap."),
                         x1, x2, x3, _ws_fmt_percent (x4, share), _ws_fmt_time (x5, possible));
  else
    _ws_finding_numbers (f, _("Over %u streams, copies take %s and kernels %s; they run at the same "
                           "time for %s."),
                         k->streams, x1, x2, x3);
  _ws_finding_cause (f, _("Streams let a copy run while a kernel works on another chunk, but only "
                       "when copies are asynchronous from pinned memory and each chunk's copies "
                       "and kernel are queued in their own stream."));
  if (k->run != NULL && k->pageable_recorded)
    _ws_finding_cause (f, _("These copies use pageable memory, which makes cudaMemcpyAsync wait "
                         "for the copy: nothing can overlap."));
  if (k->run != NULL)
    _ws_finding_fix (f, _("Use pinned host memory, queue each chunk's copy in, kernel and copy out "
                       "in its own stream, and use at least three or four chunks. The timeline "
                       "shows which spans wait for which."));
  else if (k->numba)
    _ws_finding_fix (f, _("Give each chunk its own cuda.stream(): pinned host arrays, "
                       "cuda.to_device(a, stream=s), kernel[blocks, threads, s](…), "
                       "copy_to_host(stream=s), and one synchronization at the end."));
  else
    _ws_finding_fix (f, _("Use pinned host memory, queue each chunk's copy in, kernel and copy out "
                       "in a stream of its own, and synchronize once at the end."));
  finding_add (f, k->overlap_spans, out);
}

void
_ws_check_copies (const WsCopyFacts *k, GPtrArray *out)
{
  check_transfer_bound (k, out);
  check_pageable (k, out);
  check_small_copies (k, out);
  check_overlap (k, out);
}
