/* ws-trace-tables.c: a trace's tables: kernels per name and configuration (count, total,
 * median, min, max, share of GPU time, occupancy), copies per direction and host memory, API
 * calls per name, a kernel's rows over a sweep; and kernel names made short enough to read.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "ws-trace-private.h"

#include <math.h>
#include <string.h>

/* ---- names -------------------------------------------------------------------------------- */

static gboolean
opens (char c)
{
  return c == '(' || c == '<' || c == '[';
}

static gboolean
closes (char c)
{
  return c == ')' || c == '>' || c == ']';
}

/* The index of the bracket that opens the one at `close`, or -1. */
static gssize
matching_open (const char *s, gssize close)
{
  int depth = 0;

  for (gssize i = close; i >= 0; i--)
    {
      if (closes (s[i]))
        depth++;
      else if (opens (s[i]) && --depth == 0)
        return i;
    }
  return -1;
}

/* Drops a trailing parameter list and the ABI tags before it: "f[abi:v1](int)" → "f". */
static void
strip_tail (GString *s)
{
  for (;;)
    {
      gssize open;

      while (s->len > 0 && s->str[s->len - 1] == ' ')
        g_string_truncate (s, s->len - 1);
      if (s->len == 0 || (s->str[s->len - 1] != ')' && s->str[s->len - 1] != ']'))
        return;
      if ((open = matching_open (s->str, (gssize) s->len - 1)) <= 0)
        return;
      if (s->str[open] == '[' && !g_str_has_prefix (s->str + open, "[abi:"))
        return;
      g_string_truncate (s, (gsize) open);
    }
}

/* The last "::"-separated component at depth 0, after a return type ("void f" → "f"). */
static const char *
last_component (const char *s)
{
  const char *last = s;
  int depth = 0;

  for (const char *p = s; *p != '\0'; p++)
    {
      if (opens (*p))
        depth++;
      else if (closes (*p))
        depth--;
      else if (depth == 0 && p[0] == ':' && p[1] == ':')
        last = p + 2, p++;
      else if (depth == 0 && *p == ' ')
        last = p + 1;
    }
  return last;
}

char *
ws_trace_kernel_short_name (const char *name)
{
  g_autoptr (GString) s = NULL;
  const char *last, *angle;
  GString *out;

  g_return_val_if_fail (name != NULL, NULL);
  s = g_string_new (name);
  strip_tail (s);
  last = last_component (s->str);
  out = g_string_new (*last != '\0' ? last : name);
  /* Long template arguments (a CUTLASS configuration, PyTorch's functors) are cut short. */
  angle = strchr (out->str, '<');
  if (angle != NULL && out->len > 64)
    {
      gsize keep = (gsize) (angle - out->str) + 1;
      const char *p = out->str + keep;
      int n = 0;

      while (*p != '\0' && n < 40)
        p = g_utf8_next_char (p), n++;
      g_string_truncate (out, (gsize) (p - out->str));
      g_string_append (out, "…>");
    }
  return g_string_free (out, FALSE);
}

/* A kernel's owner is named by the first of these marks in its name: the outer name comes
 * before the template arguments ("void at::native::f<thrust::…>" is PyTorch's, "void
 * cub::DeviceReduceKernel<…at::…>" CUB's). At the same place, the first mark listed wins:
 * xmma's convolutions are cuDNN's, its GEMMs cuBLAS's. */
static const struct
{
  const char *mark, *library;
} library_marks[] = {
  { "cutlass", "CUTLASS" },       { "xmma_fprop", "cuDNN" },  { "xmma_dgrad", "cuDNN" },
  { "xmma_wgrad", "cuDNN" },      { "xmma", "cuBLAS" },       { "cublas", "cuBLAS" },
  { "cudnn", "cuDNN" },           { "at::", "PyTorch" },      { "c10::", "PyTorch" },
  { "thrust::", "Thrust" },       { "cub::", "CUB" },         { "nccl", "NCCL" },
  { "cusparse", "cuSPARSE" },     { "cufft", "cuFFT" },       { "curand", "cuRAND" },
  { "triton", "Triton" },         { "flash_fwd", "FlashAttention" },
  { "flash_bwd", "FlashAttention" },
};

const char *
ws_trace_kernel_library (const char *name)
{
  g_autofree char *lower = NULL;
  const char *library = NULL, *first = NULL;

  g_return_val_if_fail (name != NULL, NULL);
  lower = g_ascii_strdown (name, -1);
  for (guint i = 0; i < G_N_ELEMENTS (library_marks); i++)
    {
      const char *at = strstr (lower, library_marks[i].mark);

      if (at != NULL && (first == NULL || at < first))
        first = at, library = library_marks[i].library;
    }
  if (library != NULL)
    return library;
  /* cuBLAS's SGEMM kernels: sm80_xmma_…, sm90_xmma_…, ampere_sgemm_… */
  if ((g_str_has_prefix (lower, "sm") && g_ascii_isdigit (lower[2]) && strchr (lower, '_')
       && strstr (lower, "gemm") != NULL)
      || g_str_has_prefix (lower, "ampere_") || g_str_has_prefix (lower, "volta_")
      || g_str_has_prefix (lower, "turing_"))
    return "cuBLAS";
  return NULL;
}

gboolean
ws_trace_kernel_is_library (const char *name)
{
  g_return_val_if_fail (name != NULL, FALSE);
  return ws_trace_kernel_library (name) != NULL;
}

/* ---- statistics ----------------------------------------------------------------------------- */

static int
compare_double (gconstpointer a, gconstpointer b)
{
  double x = *(const double *) a, y = *(const double *) b;

  return x < y ? -1 : x > y;
}

static void
stats_of (GArray *durations, double *total, double *median, double *min, double *max)
{
  guint n = durations->len;

  *total = *median = *min = *max = 0;
  if (n == 0)
    return;
  g_array_sort (durations, compare_double);
  for (guint i = 0; i < n; i++)
    *total += g_array_index (durations, double, i);
  *min = g_array_index (durations, double, 0);
  *max = g_array_index (durations, double, n - 1);
  *median = n % 2 ? g_array_index (durations, double, n / 2)
                  : (g_array_index (durations, double, n / 2 - 1)
                     + g_array_index (durations, double, n / 2))
                      / 2;
}

/* The statistics of the durations of the spans at `indices` (guint) of `spans`. */
static void
span_stats (const WsSpan *spans, GArray *indices, double *total, double *median,
            double *min, double *max)
{
  g_autoptr (GArray) d = g_array_sized_new (FALSE, FALSE, sizeof (double), indices->len);

  for (guint j = 0; j < indices->len; j++)
    {
      const WsSpan *s = &spans[g_array_index (indices, guint, j)];
      double ns = (double) (s->end - s->start);

      g_array_append_val (d, ns);
    }
  stats_of (d, total, median, min, max);
}

/* Tables list each program run's rows together, in program order, the longest in total
 * first. */
static int
compare_program_total (guint program_a, double total_a, guint program_b, double total_b)
{
  if (program_a != program_b)
    return program_a < program_b ? -1 : 1;
  return total_a > total_b ? -1 : total_a < total_b;
}

static gboolean
wanted (const WsSpan *s, WsActivityKind kind, guint program)
{
  return s->kind == kind && (program == WS_TRACE_ALL_PROGRAMS || s->run == program);
}

/* ---- kernels ------------------------------------------------------------------------------ */

void
ws_trace_kernel_free (WsTraceKernel *k)
{
  if (k == NULL)
    return;
  g_free (k->short_name);
  g_array_unref (k->spans);
  g_free (k);
}

guint
ws_trace_kernel_threads (const WsTraceKernel *k)
{
  return k->block[0] * k->block[1] * k->block[2];
}

guint64
ws_trace_kernel_blocks (const WsTraceKernel *k)
{
  return (guint64) k->grid[0] * k->grid[1] * k->grid[2];
}

static char *
kernel_key (const WsSpan *s)
{
  return g_strdup_printf ("%u|%p|%u,%u,%u|%u,%u,%u|%u|%u|%u|%u", s->run, (void *) s->name,
                          s->grid[0], s->grid[1], s->grid[2], s->block[0], s->block[1],
                          s->block[2], s->registers, s->static_smem, s->dynamic_smem, s->device);
}

static void
kernel_occupancy (WsTraceKernel *k)
{
  const WsArchLimits *arch = k->device_info && k->device_info->sm
                               ? ws_arch_limits_lookup (k->device_info->sm)
                               : NULL;
  WsOccupancyInput in = { (int) ws_trace_kernel_threads (k), (int) k->registers,
                          (int) (k->static_smem + k->dynamic_smem) };

  if (arch == NULL || in.threads_per_block == 0
      || !ws_occupancy_compute (arch, &in, &k->occupancy, NULL))
    return;
  k->has_occupancy = TRUE;
  if (k->occupancy.active_blocks > 0 && k->device_info->sm_count > 0)
    k->waves = (double) ws_trace_kernel_blocks (k)
               / ((double) k->occupancy.active_blocks * k->device_info->sm_count);
}

static int
compare_kernels (gconstpointer a, gconstpointer b)
{
  const WsTraceKernel *x = *(WsTraceKernel *const *) a, *y = *(WsTraceKernel *const *) b;

  return compare_program_total (x->program, x->total_ns, y->program, y->total_ns);
}

GPtrArray *
ws_trace_collect_kernels (WsTrace *trace, guint program)
{
  GPtrArray *out = g_ptr_array_new_with_free_func ((GDestroyNotify) ws_trace_kernel_free);
  g_autoptr (GHashTable) by_key = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_autoptr (GHashTable) program_total = g_hash_table_new_full (NULL, NULL, NULL, g_free);
  const WsSpan *spans;
  guint n;

  g_return_val_if_fail (trace != NULL, out);
  spans = ws_trace_get_spans (trace, &n);
  for (guint i = 0; i < n; i++)
    {
      const WsSpan *s = &spans[i];
      g_autofree char *key = NULL;
      WsTraceKernel *k;
      double *total;

      if (!wanted (s, WS_ACTIVITY_KERNEL, program) || s->name == NULL)
        continue;
      key = kernel_key (s);
      if ((k = g_hash_table_lookup (by_key, key)) == NULL)
        {
          k = g_new0 (WsTraceKernel, 1);
          k->program = s->run;
          k->name = s->name;
          k->short_name = ws_trace_kernel_short_name (s->name);
          memcpy (k->grid, s->grid, sizeof k->grid);
          memcpy (k->block, s->block, sizeof k->block);
          k->registers = s->registers;
          k->static_smem = s->static_smem;
          k->dynamic_smem = s->dynamic_smem;
          k->process = s->process;
          k->device = s->device;
          k->device_info = ws_trace_get_device (trace, s->process, s->device);
          k->spans = g_array_new (FALSE, FALSE, sizeof (guint));
          g_hash_table_insert (by_key, g_steal_pointer (&key), k);
          g_ptr_array_add (out, k);
        }
      g_array_append_val (k->spans, i);
      if ((total = g_hash_table_lookup (program_total, GUINT_TO_POINTER (s->run))) == NULL)
        g_hash_table_insert (program_total, GUINT_TO_POINTER (s->run),
                             total = g_new0 (double, 1));
      *total += (double) (s->end - s->start);
    }
  for (guint i = 0; i < out->len; i++)
    {
      WsTraceKernel *k = g_ptr_array_index (out, i);
      double *total = g_hash_table_lookup (program_total, GUINT_TO_POINTER (k->program));

      k->count = k->spans->len;
      span_stats (spans, k->spans, &k->total_ns, &k->median_ns, &k->min_ns, &k->max_ns);
      k->share = total != NULL && *total > 0 ? k->total_ns / *total : 0;
      kernel_occupancy (k);
    }
  g_ptr_array_sort (out, compare_kernels);
  return out;
}

/* ---- copies ------------------------------------------------------------------------------- */

void
ws_trace_copy_free (WsTraceCopy *c)
{
  if (c == NULL)
    return;
  g_array_unref (c->spans);
  g_free (c);
}

static int
compare_copies (gconstpointer a, gconstpointer b)
{
  const WsTraceCopy *x = *(WsTraceCopy *const *) a, *y = *(WsTraceCopy *const *) b;

  if (x->program != y->program)
    return x->program < y->program ? -1 : 1;
  if (x->kind != y->kind)
    return x->kind < y->kind ? -1 : 1;
  if (x->direction != y->direction)
    return x->direction < y->direction ? -1 : 1;
  return x->host_memory < y->host_memory ? -1 : x->host_memory > y->host_memory;
}

GPtrArray *
ws_trace_collect_copies (WsTrace *trace, guint program)
{
  GPtrArray *out = g_ptr_array_new_with_free_func ((GDestroyNotify) ws_trace_copy_free);
  const WsSpan *spans;
  guint n;

  g_return_val_if_fail (trace != NULL, out);
  spans = ws_trace_get_spans (trace, &n);
  for (guint i = 0; i < n; i++)
    {
      const WsSpan *s = &spans[i];
      WsTraceCopy *c = NULL;

      if (!wanted (s, WS_ACTIVITY_MEMCPY, program) && !wanted (s, WS_ACTIVITY_MEMSET, program))
        continue;
      for (guint j = 0; j < out->len && c == NULL; j++)
        {
          WsTraceCopy *o = g_ptr_array_index (out, j);

          if (o->program == s->run && o->kind == s->kind && o->direction == s->direction
              && o->host_memory == s->host_memory)
            c = o;
        }
      if (c == NULL)
        {
          c = g_new0 (WsTraceCopy, 1);
          c->program = s->run;
          c->kind = s->kind;
          c->direction = s->direction;
          c->host_memory = s->host_memory;
          c->spans = g_array_new (FALSE, FALSE, sizeof (guint));
          g_ptr_array_add (out, c);
        }
      g_array_append_val (c->spans, i);
      c->bytes += s->bytes;
      c->n_async += (s->flags & WS_SPAN_ASYNC) != 0;
    }
  for (guint i = 0; i < out->len; i++)
    {
      WsTraceCopy *c = g_ptr_array_index (out, i);

      c->count = c->spans->len;
      span_stats (spans, c->spans, &c->total_ns, &c->median_ns, &c->min_ns, &c->max_ns);
      c->gbs = c->total_ns > 0 ? (double) c->bytes / c->total_ns : 0;
    }
  g_ptr_array_sort (out, compare_copies);
  return out;
}

/* ---- API calls ---------------------------------------------------------------------------- */

void
ws_trace_api_free (WsTraceApi *a)
{
  g_free (a);
}

static int
compare_api (gconstpointer a, gconstpointer b)
{
  const WsTraceApi *x = *(WsTraceApi *const *) a, *y = *(WsTraceApi *const *) b;

  return compare_program_total (x->program, x->total_ns, y->program, y->total_ns);
}

GPtrArray *
ws_trace_collect_api (WsTrace *trace, guint program)
{
  GPtrArray *out = g_ptr_array_new_with_free_func ((GDestroyNotify) ws_trace_api_free);
  g_autoptr (GHashTable) by_key = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
                                                          (GDestroyNotify) g_array_unref);
  g_autoptr (GHashTable) rows = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  const WsSpan *spans;
  guint n;

  g_return_val_if_fail (trace != NULL, out);
  spans = ws_trace_get_spans (trace, &n);
  for (guint i = 0; i < n; i++)
    {
      const WsSpan *s = &spans[i];
      g_autofree char *key = NULL;
      GArray *d;
      WsTraceApi *a;
      double ns = (double) (s->end - s->start);

      if (!wanted (s, WS_ACTIVITY_API, program) || s->name == NULL)
        continue;
      key = g_strdup_printf ("%u|%s", s->run, s->name);
      if ((a = g_hash_table_lookup (rows, key)) == NULL)
        {
          a = g_new0 (WsTraceApi, 1);
          a->program = s->run;
          a->name = s->name;
          g_ptr_array_add (out, a);
          g_hash_table_insert (rows, g_strdup (key), a);
          g_hash_table_insert (by_key, g_strdup (key), g_array_new (FALSE, FALSE, sizeof (double)));
        }
      d = g_hash_table_lookup (by_key, key);
      g_array_append_val (d, ns);
      a->n_failed += (s->flags & WS_SPAN_FAILED) != 0;
    }
  for (guint i = 0; i < out->len; i++)
    {
      WsTraceApi *a = g_ptr_array_index (out, i);
      g_autofree char *key = g_strdup_printf ("%u|%s", a->program, a->name);
      GArray *d = g_hash_table_lookup (by_key, key);

      a->count = d->len;
      stats_of (d, &a->total_ns, &a->median_ns, &a->min_ns, &a->max_ns);
    }
  g_ptr_array_sort (out, compare_api);
  return out;
}

/* ---- a kernel over a sweep ---------------------------------------------------------------- */

void
ws_trace_series_free (WsTraceSeries *series)
{
  if (series == NULL)
    return;
  g_free (series->short_name);
  g_ptr_array_unref (series->points);
  g_free (series);
}

GPtrArray *
ws_trace_collect_series (WsTrace *trace)
{
  GPtrArray *out = g_ptr_array_new_with_free_func ((GDestroyNotify) ws_trace_series_free);
  g_autoptr (GPtrArray) kernels = NULL;

  g_return_val_if_fail (trace != NULL, out);
  if (trace->programs->len < 2)
    return out;
  kernels = ws_trace_collect_kernels (trace, WS_TRACE_ALL_PROGRAMS);
  /* Rows come in program order, each run's longest first: the first row of a name in a run
   * is its point. */
  for (guint i = 0; i < kernels->len; i++)
    {
      WsTraceKernel *k = g_ptr_array_index (kernels, i);
      WsTraceSeries *series = NULL;
      gboolean have_run = FALSE;

      for (guint j = 0; j < out->len && series == NULL; j++)
        if (g_str_equal (((WsTraceSeries *) g_ptr_array_index (out, j))->short_name, k->short_name))
          series = g_ptr_array_index (out, j);
      if (series == NULL)
        {
          series = g_new0 (WsTraceSeries, 1);
          series->short_name = g_strdup (k->short_name);
          series->points = g_ptr_array_new_with_free_func ((GDestroyNotify) ws_trace_kernel_free);
          g_ptr_array_add (out, series);
        }
      for (guint j = 0; j < series->points->len; j++)
        have_run |= ((WsTraceKernel *) g_ptr_array_index (series->points, j))->program
                    == k->program;
      if (!have_run)
        g_ptr_array_add (series->points, g_ptr_array_steal_index (kernels, i--));
    }
  for (guint j = out->len; j-- > 0;)
    if (((WsTraceSeries *) g_ptr_array_index (out, j))->points->len < 2)
      g_ptr_array_remove_index (out, j);
  return out;
}
