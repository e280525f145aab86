/* ws-analysis-trace.c: findings about a traced program, run by run: what its first calls
 * waited for (a compile, a module load) where its timer may be, how long it took to reach its
 * first kernel, and the gaps in which its GPU had nothing to do. Its copies and kernels go
 * through the rules that sweeps' runs go through (ws-analysis-trace-copies.c and
 * ws-analysis-trace-kernels.c fill their facts).
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "ws-analysis-trace-private.h"
#include "ws-trace-private.h"

#include <inttypes.h>
#include <math.h>
#include <string.h>

/* ---- shared ------------------------------------------------------------------------------- */

WsFinding *
_ws_trace_finding_new (WsTraceAnalysis *a, WsFindingKind kind, WsSeverity severity,
                       const char *kernel, double value, double threshold)
{
  WsFinding *f = _ws_finding_new (kind, severity, NULL, value, threshold);

  f->trace = TRUE;
  f->program = a->program->id;
  f->kernel = kernel != NULL ? g_intern_string (kernel) : NULL;
  return f;
}

void
_ws_trace_finding_point (WsFinding *f, const GArray *spans)
{
  if (spans != NULL)
    g_array_append_vals (f->activities, spans->data, spans->len);
}

static char *
launch_key (guint process, guint32 correlation)
{
  return g_strdup_printf ("%u:%u", process, correlation);
}

const WsSpan *
_ws_trace_launch_of (WsTraceAnalysis *a, const WsSpan *span)
{
  g_autofree char *key = NULL;
  guint i;

  if (span->correlation == 0)
    return NULL;
  key = launch_key (span->process, span->correlation);
  i = GPOINTER_TO_UINT (g_hash_table_lookup (a->launch_of, key));
  return i > 0 ? &a->spans[i - 1] : NULL;
}

gboolean
_ws_trace_is_numba (const char *name)
{
  return name != NULL && (strstr (name, "[abi:") != NULL || g_str_has_prefix (name, "cudapy::"));
}

const WsTraceFirstCall *
_ws_trace_first_call (WsTraceAnalysis *a, const char *name)
{
  for (guint i = 0; i < a->first_calls->len; i++)
    {
      const WsTraceFirstCall *fc = &g_array_index (a->first_calls, WsTraceFirstCall, i);

      if (fc->name == name)
        return fc;
    }
  return NULL;
}

gboolean
_ws_trace_is_warm_up (const char *name)
{
  g_autofree char *lower = name != NULL ? g_utf8_strdown (name, -1) : NULL;

  return lower != NULL && (strstr (lower, "warm") != NULL || strstr (lower, "预热") != NULL);
}

gint64
_ws_trace_overlap (gint64 a0, gint64 a1, gint64 b0, gint64 b1)
{
  return MAX (0, MIN (a1, b1) - MAX (a0, b0));
}

gboolean
_ws_trace_in_warm_up (WsTraceAnalysis *a, gint64 start, gint64 end)
{
  for (guint i = 0; i < a->warm_ups->len; i++)
    {
      const WsSpan *s = &a->spans[g_array_index (a->warm_ups, guint, i)];

      if (2 * _ws_trace_overlap (s->start, s->end, start, end) >= end - start)
        return TRUE;
    }
  return FALSE;
}

/* ---- the time before the first kernel ----------------------------------------------------- */

static gint64
context_time (WsTraceAnalysis *a, gint64 before)
{
  gint64 total = 0;

  for (guint i = 0; i < a->n_spans; i++)
    {
      const WsSpan *s = &a->spans[i];

      if (s->kind == WS_ACTIVITY_API && s->run == a->program->id && s->end <= before
          && s->name != NULL
          && (g_str_has_prefix (s->name, "cuDevicePrimaryCtxRetain")
              || g_str_has_prefix (s->name, "cuCtxCreate") || g_str_equal (s->name, "cuInit")))
        total += s->end - s->start;
    }
  return total;
}

void
_ws_trace_check_startup (WsTraceAnalysis *a, GPtrArray *out)
{
  const WsSpan *first = NULL;
  const WsTraceFirstCall *fc;
  const WsTraceProcess *process;
  gint64 before, total = a->end - a->start, pre_cuda, context, compile = 0, rest;
  char x1[WS_FMT_LEN], x2[WS_FMT_LEN], x3[WS_FMT_LEN], x4[WS_FMT_LEN], x5[WS_FMT_LEN];
  char x6[WS_FMT_LEN];
  WsFinding *f;

  for (guint i = 0; i < a->n_spans && first == NULL; i++)
    if (a->spans[i].kind == WS_ACTIVITY_KERNEL && a->spans[i].run == a->program->id)
      first = &a->spans[i];
  if (first == NULL || total <= 0)
    return;
  before = first->start - a->start;
  if ((double) before < _ws_threshold (WS_T_STARTUP_TIME) * 1e6
      || (double) before < _ws_threshold (WS_T_STARTUP_SHARE) * (double) total)
    return;
  process = g_ptr_array_index (ws_trace_get_processes (a->trace), first->process);
  pre_cuda = MAX (process->cuda_start - a->start, 0);
  context = context_time (a, first->start);
  if ((fc = _ws_trace_first_call (a, first->name)) != NULL
      && fc->n_jit + fc->n_modules + fc->n_loads > 0)
    compile = fc->cost;
  rest = MAX (before - pre_cuda - context - compile, 0);
  f = _ws_trace_finding_new (a, WS_FINDING_STARTUP_TIME, WS_SEVERITY_INFO, NULL,
                             (double) before / (double) total, _ws_threshold (WS_T_STARTUP_SHARE));
  _ws_finding_title (f, _("Start-up: %s of the program's %s passed before its first kernel"),
                     _ws_fmt_time (x1, (double) before), _ws_fmt_time (x2, (double) total));
  _ws_finding_numbers (f, _("%s passed before the program initialized CUDA: its imports and its "
                         "own set-up."),
                       _ws_fmt_time (x3, (double) pre_cuda));
  if (context > 0)
    _ws_finding_numbers (f, _("Creating the CUDA context took %s."),
                         _ws_fmt_time (x4, (double) context));
  if (compile > 0)
    _ws_finding_numbers (f, _("The first kernel's first call waited %s for its code."),
                         _ws_fmt_time (x5, (double) compile));
  _ws_finding_numbers (f, _("The other %s went to allocations, copies and the program's own "
                         "work."),
                       _ws_fmt_time (x6, (double) rest));
  _ws_finding_cause (f, _("Starting is costly: loading Python's modules, creating a CUDA "
                       "context (some 100 ms), compiling kernels. A program that computes for "
                       "milliseconds spends nearly all its time getting there."));
  _ws_finding_fix (f, _("Nothing in the kernels to fix: time the work after the start-up, not "
                     "the whole program. For many small computations, keep one process running "
                     "(a notebook, a service) or give each run more work."));
  g_ptr_array_add (out, f);
}

/* ---- gaps in the GPU's work ----------------------------------------------------------------- */

typedef struct
{
  gint64 start, end;
  guint before, after; /* the spans on either side */
} Gap;

static int
compare_by_start (gconstpointer x, gconstpointer y, gpointer data)
{
  const WsSpan *spans = data;
  gint64 a = spans[*(const guint *) x].start, b = spans[*(const guint *) y].start;

  return a < b ? -1 : a > b;
}

static int
compare_gap_length (gconstpointer x, gconstpointer y)
{
  const Gap *a = x, *b = y;
  gint64 la = a->end - a->start, lb = b->end - b->start;

  return la > lb ? -1 : la < lb;
}

/* Gaps are explained by a first call's compile that covers most of them. */
static gboolean
explained_by_compile (WsTraceAnalysis *a, const Gap *g)
{
  const WsSpan *next = &a->spans[g->after];
  const WsTraceFirstCall *fc;

  if (next->kind != WS_ACTIVITY_KERNEL || (fc = _ws_trace_first_call (a, next->name)) == NULL
      || fc->kernel != g->after || fc->launch == G_MAXUINT)
    return FALSE;
  return 2 * _ws_trace_overlap (fc->window_start, a->spans[fc->launch].start, g->start, g->end)
         >= g->end - g->start;
}

static void
describe_gap (WsTraceAnalysis *a, WsFinding *f, const Gap *g)
{
  gint64 api = 0, last = g->start;
  guint calls = 0;
  g_autofree char *after = NULL;
  const WsSpan *next = &a->spans[g->after];
  char x1[WS_FMT_LEN], x2[WS_FMT_LEN], x3[WS_FMT_LEN], x4[WS_FMT_LEN];

  /* The host's CUDA calls in the gap, their union. */
  for (guint i = 0; i < a->n_spans; i++)
    {
      const WsSpan *s = &a->spans[i];
      gint64 s0 = MAX (s->start, last), s1 = MIN (s->end, g->end);

      if (s->kind != WS_ACTIVITY_API || s->run != a->program->id || s->end <= g->start
          || s->start >= g->end)
        continue;
      calls++;
      if (s1 > s0)
        api += s1 - s0, last = s1;
    }
  after = next->kind == WS_ACTIVITY_KERNEL ? ws_trace_kernel_short_name (next->name ?: "")
          : next->kind == WS_ACTIVITY_MEMCPY ? g_strdup (_("a copy"))
                                               : g_strdup (_("a memset"));
  _ws_fmt_time (x1, (double) (g->end - g->start));
  _ws_fmt_time (x2, (double) g->start);
  if (calls == 0)
    /* Translators: the gap's length, when it began (on the trace's time axis), what came
     * next. */
    _ws_finding_numbers (f, _("%s from %s, before %s: the host made no CUDA call in it."), x1, x2,
                         after);
  else
    _ws_finding_numbers (f, g_dngettext (GETTEXT_PACKAGE,
                                         "%s from %s, before %s: the host made %u CUDA call in "
                                         "it (%s), and no call for the other %s.",
                                         "%s from %s, before %s: the host made %u CUDA calls in "
                                         "it (%s), and no call for the other %s.",
                                         calls),
                         x1, x2, after, calls, _ws_fmt_time (x3, (double) api),
                         _ws_fmt_time (x4, (double) (g->end - g->start - api)));
}

static void
check_device_gaps (WsTraceAnalysis *a, guint device, GPtrArray *out)
{
  g_autoptr (GArray) gpu = g_array_new (FALSE, FALSE, sizeof (guint));
  g_autoptr (GArray) gaps = g_array_new (FALSE, FALSE, sizeof (Gap));
  g_autoptr (GArray) pointers = g_array_new (FALSE, FALSE, sizeof (guint));
  gint64 first = 0, busy_end = 0, span, reported = 0;
  double threshold;
  guint last = 0;
  char x1[WS_FMT_LEN], x2[WS_FMT_LEN], x3[WS_FMT_LEN], x4[WS_FMT_LEN], x5[WS_FMT_LEN];
  char x6[WS_FMT_LEN];
  WsFinding *f;

  for (guint i = 0; i < a->n_spans; i++)
    {
      const WsSpan *s = &a->spans[i];

      if (s->run == a->program->id && s->device == device
          && (s->kind == WS_ACTIVITY_KERNEL || s->kind == WS_ACTIVITY_MEMCPY
              || s->kind == WS_ACTIVITY_MEMSET))
        g_array_append_val (gpu, i);
    }
  if (gpu->len < 2)
    return;
  g_array_sort_with_data (gpu, compare_by_start, (gpointer) a->spans);
  for (guint j = 0; j < gpu->len; j++)
    {
      guint i = g_array_index (gpu, guint, j);
      const WsSpan *s = &a->spans[i];

      if (j == 0)
        first = s->start, busy_end = s->end;
      else if (s->start > busy_end)
        {
          Gap g = { busy_end, s->start, last, i };

          g_array_append_val (gaps, g);
        }
      if (s->end >= busy_end)
        busy_end = s->end, last = i;
    }
  /* Gaps another finding explains (a first call's compile) or the program meant (its warm-up)
   * are left out, and out of the span the threshold scales with. */
  span = busy_end - first;
  for (guint j = gaps->len; j-- > 0;)
    {
      Gap *g = &g_array_index (gaps, Gap, j);

      if (explained_by_compile (a, g) || _ws_trace_in_warm_up (a, g->start, g->end))
        {
          span -= g->end - g->start;
          g_array_remove_index (gaps, j);
        }
    }
  threshold = MAX (_ws_threshold (WS_T_GPU_IDLE) * 1e6, _ws_threshold (WS_T_GPU_IDLE_SHARE) * span);
  for (guint j = gaps->len; j-- > 0;)
    if ((double) (g_array_index (gaps, Gap, j).end - g_array_index (gaps, Gap, j).start)
        < threshold)
      g_array_remove_index (gaps, j);
  if (gaps->len == 0 || span <= 0)
    return;
  g_array_sort (gaps, compare_gap_length);
  for (guint j = 0; j < gaps->len; j++)
    reported += g_array_index (gaps, Gap, j).end - g_array_index (gaps, Gap, j).start;
  f = _ws_trace_finding_new (a, WS_FINDING_GPU_IDLE,
                             (double) reported >= _ws_threshold (WS_T_GPU_IDLE_MEDIUM) * span
                                 ? WS_SEVERITY_MEDIUM
                                 : WS_SEVERITY_LOW,
                             NULL, (double) reported / span, _ws_threshold (WS_T_GPU_IDLE_SHARE));
  _ws_finding_title (f, g_dngettext (GETTEXT_PACKAGE,
                                     "GPU idle: %u gap of %s, %s of the time from its first work "
                                     "to its last",
                                     "GPU idle: %u gaps of %s in all, %s of the time from its "
                                     "first work to its last",
                                     gaps->len),
                     gaps->len, _ws_fmt_time (x1, (double) reported),
                     _ws_fmt_percent (x2, (double) reported / span));
  /* Translators: the span of the GPU's work, its start and end on the trace's clock, then the
   * shortest gap counted, which is a share of that span but at least a fixed time. */
  _ws_finding_numbers (f, _("The GPU's work spans %s, from %s to %s (without the waits other "
                         "findings explain); gaps of %s or more are counted (%s of that span, and "
                         "at least %s)."),
                       _ws_fmt_time (x1, (double) span), _ws_fmt_time (x2, (double) first),
                       _ws_fmt_time (x3, (double) busy_end), _ws_fmt_time (x4, threshold),
                       _ws_fmt_percent (x5, _ws_threshold (WS_T_GPU_IDLE_SHARE)),
                       _ws_fmt_time (x6, _ws_threshold (WS_T_GPU_IDLE) * 1e6));
  for (guint j = 0; j < MIN (gaps->len, 3u); j++)
    {
      const Gap *g = &g_array_index (gaps, Gap, j);

      describe_gap (a, f, g);
      g_array_append_val (pointers, g->before);
      g_array_append_val (pointers, g->after);
    }
  _ws_finding_cause (f, _("The GPU only runs what the host has queued. While the host computes, "
                       "prepares data or waits for a result, nothing is queued and the GPU "
                       "idles."));
  if (a->numba)
    _ws_finding_fix (f, _("Queue the GPU's work back to back: keep the arrays on the device "
                       "between kernels, move the CPU's work between them into kernels, and "
                       "call cuda.synchronize() or copy_to_host() only when the result is "
                       "needed, not inside the loop."));
  else
    _ws_finding_fix (f, _("Queue the GPU's work back to back: launch kernels and asynchronous "
                       "copies without waiting in between, synchronize only when a result is "
                       "needed, and move the CPU's work between them to the GPU or overlap it "
                       "with GPU work."));
  _ws_trace_finding_point (f, pointers);
  g_ptr_array_add (out, f);
}

void
_ws_trace_check_idle (WsTraceAnalysis *a, GPtrArray *out)
{
  guint32 seen = 0;

  for (guint i = 0; i < a->n_spans; i++)
    {
      const WsSpan *s = &a->spans[i];

      if (s->run != a->program->id || s->device >= 32 || (seen & (1u << s->device))
          || !(s->kind == WS_ACTIVITY_KERNEL || s->kind == WS_ACTIVITY_MEMCPY))
        continue;
      seen |= 1u << s->device;
      check_device_gaps (a, s->device, out);
    }
}

/* ---- the analysis ------------------------------------------------------------------------- */

/* Its launch calls are indexed by process and correlation over its own spans: a launch and
 * what it caused are in one process, and so in one program run. */
void
_ws_trace_analysis_init (WsTraceAnalysis *a, WsTrace *trace, const WsTraceProgram *program)
{
  memset (a, 0, sizeof *a);
  a->trace = trace;
  a->spans = ws_trace_get_spans (trace, &a->n_spans);
  a->program = program;
  a->launch_of = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  for (guint i = 0; i < a->n_spans; i++)
    {
      const WsSpan *s = &a->spans[i];

      if (s->run == program->id && s->kind == WS_ACTIVITY_API && s->correlation != 0)
        g_hash_table_insert (a->launch_of, launch_key (s->process, s->correlation),
                             GUINT_TO_POINTER (i + 1));
    }
  a->kernels = ws_trace_collect_kernels (trace, program->id);
  a->copies = ws_trace_collect_copies (trace, program->id);
  a->first_calls = g_array_new (FALSE, FALSE, sizeof (WsTraceFirstCall));
  if (!ws_trace_get_program_range (trace, program->id, &a->start, &a->end))
    a->start = a->end = 0;
  for (guint i = 0; i < a->kernels->len; i++)
    {
      WsTraceKernel *k = g_ptr_array_index (a->kernels, i);

      a->kernel_ns += k->total_ns;
      a->numba |= _ws_trace_is_numba (k->name);
    }
  for (guint i = 0; i < a->copies->len; i++)
    {
      WsTraceCopy *c = g_ptr_array_index (a->copies, i);

      if (c->kind == WS_ACTIVITY_MEMCPY)
        a->copy_ns += c->total_ns;
    }
  a->warm_ups = g_array_new (FALSE, FALSE, sizeof (guint));
  for (guint i = 0; i < a->n_spans; i++)
    if (a->spans[i].run == program->id && ws_span_is_nvtx_range (&a->spans[i]))
      {
        a->has_nvtx = TRUE;
        if (_ws_trace_is_warm_up (a->spans[i].name))
          g_array_append_val (a->warm_ups, i);
      }
  _ws_trace_collect_first_calls (a);
}

void
_ws_trace_analysis_clear (WsTraceAnalysis *a)
{
  g_hash_table_unref (a->launch_of);
  for (guint i = 0; i < a->first_calls->len; i++)
    g_array_unref (g_array_index (a->first_calls, WsTraceFirstCall, i).pointers);
  g_array_unref (a->first_calls);
  g_array_unref (a->warm_ups);
  g_ptr_array_unref (a->kernels);
  g_ptr_array_unref (a->copies);
}

/* One program run's findings, most severe first (owned), and, when `waits` is not NULL, what
 * its first launches waited for their code. */
static GPtrArray *
analyze_program (WsTrace *trace, const WsTraceProgram *program, GArray *waits)
{
  GPtrArray *found = g_ptr_array_new_with_free_func ((GDestroyNotify) ws_finding_free);
  WsTraceAnalysis a;

  _ws_trace_analysis_init (&a, trace, program);
  _ws_trace_check_compile (&a, found);
  _ws_trace_check_copies (&a, found);
  _ws_trace_check_kernels (&a, found);
  _ws_trace_check_idle (&a, found);
  _ws_trace_check_startup (&a, found);
  _ws_sort_findings (found);
  if (waits != NULL)
    _ws_trace_code_waits (&a, waits);
  _ws_trace_analysis_clear (&a);
  return found;
}

/* ---- kept up to date, program run by program run ------------------------------------------ */

/* What a program run's findings were found from: when none of it has changed, neither have
 * they. Span indices move when the stream ends (the spans are sorted then): the trace's end
 * is part of every run's. */
typedef struct
{
  guint id;
  guint n_spans, n_events, n_errors, n_processes;
  gboolean ended, trace_ended;
  guint n_devices;
  GPtrArray *findings; /* WsFinding, owned */
  GArray *waits;       /* WsCodeWait */
} Found;

struct _WsTraceFindings
{
  GArray *programs; /* Found, in program order */
  GPtrArray *all;   /* WsFinding, borrowed from programs, in their order */
  GArray *waits;    /* WsCodeWait, every program's, in their order */
  guint n_analysed; /* program runs analysed, for the tests */
};

static void
found_clear (Found *f)
{
  g_clear_pointer (&f->findings, g_ptr_array_unref);
  g_clear_pointer (&f->waits, g_array_unref);
}

WsTraceFindings *
_ws_trace_findings_new (void)
{
  WsTraceFindings *tf = g_new0 (WsTraceFindings, 1);

  tf->programs = g_array_new (FALSE, TRUE, sizeof (Found));
  g_array_set_clear_func (tf->programs, (GDestroyNotify) found_clear);
  tf->all = g_ptr_array_new ();
  tf->waits = g_array_new (FALSE, FALSE, sizeof (WsCodeWait));
  return tf;
}

void
_ws_trace_findings_free (WsTraceFindings *tf)
{
  if (tf == NULL)
    return;
  g_array_unref (tf->programs);
  g_ptr_array_unref (tf->all);
  g_array_unref (tf->waits);
  g_free (tf);
}

/* Counts what each program run holds now, into `now` (one Found per program, no findings). */
static void
count (WsTrace *trace, GArray *now)
{
  GPtrArray *programs = ws_trace_get_programs (trace);
  g_autoptr (GHashTable) index = g_hash_table_new (NULL, NULL);
  guint n;
  const WsSpan *spans = ws_trace_get_spans (trace, &n);
  const WsTraceEvent *events;
  GPtrArray *processes = ws_trace_get_processes (trace);
  gboolean ended = trace->ended;

  g_array_set_size (now, programs->len);
  for (guint i = 0; i < programs->len; i++)
    {
      const WsTraceProgram *p = g_ptr_array_index (programs, i);
      Found *f = &g_array_index (now, Found, i);

      f->id = p->id;
      f->ended = p->ended;
      f->trace_ended = ended;
      f->n_errors = p->errors != NULL ? p->errors->len : 0;
      f->n_processes = p->n_processes;
      /* The runner's copy ceilings serve every run; a process's devices, its own run. */
      f->n_devices = trace->ceilings->len;
      g_hash_table_insert (index, GUINT_TO_POINTER (p->id + 1), f);
    }
  for (guint i = 0; i < processes->len; i++)
    {
      const WsTraceProcess *p = g_ptr_array_index (processes, i);
      Found *f = g_hash_table_lookup (index, GUINT_TO_POINTER (p->program + 1));

      if (f != NULL && p->devices != NULL)
        f->n_devices += p->devices->len;
    }
  for (guint i = 0; i < n; i++)
    {
      Found *f = g_hash_table_lookup (index, GUINT_TO_POINTER (spans[i].run + 1));

      if (f != NULL)
        f->n_spans++;
    }
  events = ws_trace_get_events (trace, &n);
  for (guint i = 0; i < n; i++)
    {
      Found *f = g_hash_table_lookup (index, GUINT_TO_POINTER (events[i].program + 1));

      if (f != NULL)
        f->n_events++;
    }
}

static gboolean
same_counts (const Found *a, const Found *b)
{
  return a->id == b->id && a->n_spans == b->n_spans && a->n_events == b->n_events
         && a->n_errors == b->n_errors && a->n_processes == b->n_processes
         && a->ended == b->ended && a->trace_ended == b->trace_ended
         && a->n_devices == b->n_devices;
}

gboolean
_ws_trace_findings_update (WsTraceFindings *tf, WsTrace *trace)
{
  g_autoptr (GArray) now = g_array_new (FALSE, TRUE, sizeof (Found));
  GPtrArray *programs = ws_trace_get_programs (trace);
  gboolean changed = FALSE;

  count (trace, now);
  for (guint i = 0; i < now->len; i++)
    {
      Found *f = &g_array_index (now, Found, i);
      Found *was = i < tf->programs->len ? &g_array_index (tf->programs, Found, i) : NULL;

      if (was != NULL && same_counts (was, f))
        {
          f->findings = g_steal_pointer (&was->findings);
          f->waits = g_steal_pointer (&was->waits);
          continue;
        }
      f->waits = g_array_new (FALSE, FALSE, sizeof (WsCodeWait));
      f->findings = analyze_program (trace, g_ptr_array_index (programs, i), f->waits);
      tf->n_analysed++;
      changed = TRUE;
    }
  changed |= now->len != tf->programs->len;
  g_array_set_size (tf->programs, 0);
  g_array_append_vals (tf->programs, now->data, now->len);
  g_array_set_size (now, 0);
  g_ptr_array_set_size (tf->all, 0);
  g_array_set_size (tf->waits, 0);
  for (guint i = 0; i < tf->programs->len; i++)
    {
      const Found *f = &g_array_index (tf->programs, Found, i);

      for (guint k = 0; k < f->findings->len; k++)
        g_ptr_array_add (tf->all, g_ptr_array_index (f->findings, k));
      g_array_append_vals (tf->waits, f->waits->data, f->waits->len);
    }
  return changed;
}

GPtrArray *
_ws_trace_findings_get (WsTraceFindings *tf)
{
  return tf->all;
}

GPtrArray *
_ws_trace_findings_dup (WsTraceFindings *tf)
{
  GPtrArray *all = g_ptr_array_new ();

  if (tf != NULL)
    g_ptr_array_extend (all, tf->all, NULL, NULL);
  return all;
}

GArray *
_ws_trace_findings_dup_code_waits (WsTraceFindings *tf)
{
  GArray *all = g_array_new (FALSE, FALSE, sizeof (WsCodeWait));

  if (tf != NULL)
    g_array_append_vals (all, tf->waits->data, tf->waits->len);
  return all;
}

guint
_ws_trace_findings_n_analysed (WsTraceFindings *tf)
{
  return tf->n_analysed;
}

GPtrArray *
ws_analyze_trace (WsSession *session)
{
  GPtrArray *out = g_ptr_array_new_with_free_func ((GDestroyNotify) ws_finding_free);
  WsTrace *trace;
  GPtrArray *programs;

  g_return_val_if_fail (WS_IS_SESSION (session), out);
  if ((trace = ws_session_get_trace (session)) == NULL)
    return out;
  programs = ws_trace_get_programs (trace);
  for (guint p = 0; p < programs->len; p++)
    {
      g_ptr_array_extend_and_steal (out,
                                    analyze_program (trace, g_ptr_array_index (programs, p), NULL));
    }
  return out;
}
