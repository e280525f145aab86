/* ws-analysis-trace-compile.c: what a traced program's first calls waited for — Numba's
 * compile, a module load, the driver's JIT — as data the timeline draws, and whether a timer
 * of the program's may hold that wait: around a kernel's only call, around a loop of calls,
 * or inside an NVTX range the program marked. Numba's fixes name the kernel's own signature.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "ws-analysis-trace-private.h"
#include "ws-trace-command.h"
#include "ws-units.h"

#include <string.h>

/* ---- first calls -------------------------------------------------------------------------- */

/* Calls that load a kernel's code: what a first launch may wait for. */
static gboolean
is_load_call (const char *name)
{
  static const char *const prefixes[] = { "cuModuleLoad", "cuLibraryLoad", "cuModuleGetFunction",
                                          "cuLibraryGetKernel", "cuLibraryGetModule",
                                          "cuKernelGetFunction", "cuLink", "cudaGetFuncBySymbol" };

  for (guint i = 0; name != NULL && i < G_N_ELEMENTS (prefixes); i++)
    if (g_str_has_prefix (name, prefixes[i]))
      return TRUE;
  return FALSE;
}

/* Calls after which the host has waited for the GPU: synchronizations and blocking copies. */
static gboolean
is_waiting_call (const char *name)
{
  return name != NULL
         && (strstr (name, "Synchronize") != NULL
             || ((g_str_has_prefix (name, "cuMemcpy") || g_str_has_prefix (name, "cudaMemcpy"))
                 && strstr (name, "Async") == NULL));
}

static void
find_window (WsTraceAnalysis *a, WsTraceFirstCall *fc, const WsSpan *launch)
{
  WsTraceProcess *process = g_ptr_array_index (ws_trace_get_processes (a->trace), launch->process);
  gint64 start = process->cuda_start;

  for (guint i = 0; i < a->n_spans; i++)
    {
      const WsSpan *s = &a->spans[i];

      if (s->kind == WS_ACTIVITY_API && s->process == launch->process
          && s->thread == launch->thread && s->end <= launch->start && s != launch
          && !is_load_call (s->name))
        start = MAX (start, s->end);
    }
  fc->window_start = MIN (start, launch->start);
  fc->cost = launch->start - fc->window_start;
  for (guint i = 0; i < a->n_spans; i++)
    {
      const WsSpan *s = &a->spans[i];
      gboolean load = s->kind == WS_ACTIVITY_API && s->thread == launch->thread
                      && is_load_call (s->name);

      if (s->process != launch->process || s->start < fc->window_start || s->end > launch->start
          || !(load || s->kind == WS_ACTIVITY_JIT))
        continue;
      fc->n_loads += load;
      fc->n_jit += s->kind == WS_ACTIVITY_JIT;
      fc->driver_ns += s->end - s->start;
      g_array_append_val (fc->pointers, i);
    }
  {
    guint n;
    const WsTraceEvent *e = ws_trace_get_events (a->trace, &n);

    for (guint i = 0; i < n; i++)
      fc->n_modules += e[i].kind == WS_TRACE_EVENT_MODULE_LOAD && e[i].process == launch->process
                       && e[i].at >= fc->window_start && e[i].at <= launch->end;
  }
}

/* Whether the host waited for the GPU between two launches (on the first one's thread). */
static gboolean
waited_between (WsTraceAnalysis *a, const WsSpan *first, gint64 until)
{
  for (guint i = 0; i < a->n_spans; i++)
    {
      const WsSpan *s = &a->spans[i];

      if (s->process == first->process && s->start >= first->end && s->end <= until
          && ((s->kind == WS_ACTIVITY_API && s->thread == first->thread
               && is_waiting_call (s->name))
              || s->kind == WS_ACTIVITY_SYNC))
        return TRUE;
    }
  return FALSE;
}

void
_ws_trace_collect_first_calls (WsTraceAnalysis *a)
{
  for (guint i = 0; i < a->n_spans; i++)
    {
      const WsSpan *s = &a->spans[i];
      WsTraceFirstCall *fc = NULL;

      if (s->kind != WS_ACTIVITY_KERNEL || s->run != a->program->id || s->name == NULL)
        continue;
      for (guint j = 0; j < a->first_calls->len && fc == NULL; j++)
        if (g_array_index (a->first_calls, WsTraceFirstCall, j).name == s->name)
          fc = &g_array_index (a->first_calls, WsTraceFirstCall, j);
      if (fc == NULL)
        {
          WsTraceFirstCall add = { s->name, i, G_MAXUINT, 0, 0, 0, 0, 0, 0,
                                   g_array_new (FALSE, FALSE, sizeof (guint)), 0, FALSE };

          g_array_append_val (a->first_calls, add);
          fc = &g_array_index (a->first_calls, WsTraceFirstCall, a->first_calls->len - 1);
        }
      else if (fc->launches == 1)
        {
          /* The second launch: did the host wait for the first before it? */
          const WsSpan *first = _ws_trace_launch_of (a, &a->spans[fc->kernel]);
          const WsSpan *second = _ws_trace_launch_of (a, s);

          if (first != NULL)
            fc->synchronized = waited_between (a, first, second ? second->start : s->start);
        }
      fc->launches++;
    }
  for (guint j = 0; j < a->first_calls->len; j++)
    {
      WsTraceFirstCall *fc = &g_array_index (a->first_calls, WsTraceFirstCall, j);
      const WsSpan *launch = _ws_trace_launch_of (a, &a->spans[fc->kernel]);

      if (launch == NULL)
        continue;
      fc->launch = (guint) (launch - a->spans);
      find_window (a, fc, launch);
      g_array_append_val (fc->pointers, fc->launch);
      g_array_append_val (fc->pointers, fc->kernel);
    }
}

/* Whether anything loaded or compiled code in a first call's window: then its wait was for
 * the code, not for the program's own work. */
static gboolean
waited_for_code (const WsTraceFirstCall *fc)
{
  return fc->launch != G_MAXUINT && fc->n_jit + fc->n_modules + fc->n_loads > 0;
}

/* ---- the waits, as data ------------------------------------------------------------------- */

static WsCodeWaitKind
wait_kind (const WsTraceAnalysis *a, const WsTraceFirstCall *fc)
{
  if (a->numba)
    return WS_CODE_WAIT_NUMBA;
  return fc->n_jit > 0 ? WS_CODE_WAIT_DRIVER_JIT : WS_CODE_WAIT_MODULE_LOAD;
}

void
_ws_trace_code_waits (WsTraceAnalysis *a, GArray *out)
{
  for (guint j = 0; j < a->first_calls->len; j++)
    {
      const WsTraceFirstCall *fc = &g_array_index (a->first_calls, WsTraceFirstCall, j);
      WsCodeWait w;

      if (!waited_for_code (fc) || fc->cost <= 0)
        continue;
      w = (WsCodeWait) { a->program->id, fc->name, fc->window_start, a->spans[fc->launch].start,
                         fc->driver_ns, fc->launch, wait_kind (a, fc) };
      g_array_append_val (out, w);
    }
}

const char *
ws_code_wait_name (const WsCodeWait *wait)
{
  switch (wait->kind)
    {
    case WS_CODE_WAIT_NUMBA:
      return _("Numba compile");
    case WS_CODE_WAIT_DRIVER_JIT:
      return _("JIT compile");
    case WS_CODE_WAIT_MODULE_LOAD:
    default:
      return _("Module load");
    }
}

char *
ws_trace_describe_code_wait (WsTrace *trace, const WsCodeWait *wait)
{
  g_autoptr (GString) s = g_string_new (NULL);
  g_autofree char *kernel = ws_trace_kernel_short_name (wait->kernel);
  g_autofree char *length = ws_units_duration ((double) (wait->end - wait->start));
  g_autofree char *driver = ws_units_duration ((double) wait->driver_ns);
  g_autofree char *start = ws_units_duration ((double) wait->start);
  const WsTraceProgram *p = ws_trace_get_program (trace, wait->program);

  g_string_append_printf (s, "%s · %s\n", ws_code_wait_name (wait), length);
  if (wait->kind == WS_CODE_WAIT_NUMBA)
    g_string_append_printf (s, _("The first call of %s waited %s for Numba's compile, %s of it "
                                 "the driver loading the code."),
                            kernel, length, driver);
  else
    g_string_append_printf (s, _("The first call of %s waited %s for its code, %s of it the "
                                 "driver loading it."),
                            kernel, length, driver);
  if (p != NULL && p->of > 1)
    {
      g_autofree char *params = ws_trace_describe_params (p);

      /* TRANSLATORS: the program run of a sweep ("run 2 of 6, TPB=64") */
      g_string_append_printf (s, _("\nrun %u of %u, %s"), p->id, p->of, params);
    }
  /* TRANSLATORS: where the wait starts, counted from the start of tracing. */
  g_string_append_printf (s, _("\nstarts %s after tracing began"), start);
  return g_string_free (g_steal_pointer (&s), FALSE);
}

/* ---- a compile where the program's timer may be -------------------------------------------- */

static void
compile_words (WsTraceAnalysis *a, WsFinding *f, const WsTraceFirstCall *fc, const char *name)
{
  char x1[WS_FMT_LEN], x2[WS_FMT_LEN];

  if (fc->n_jit > 0 || fc->n_modules > 0 || fc->n_loads > 0)
    _ws_finding_numbers (f, _("Right before the launch the driver spent %s loading the kernel's "
                           "code (its JIT and the module)."),
                         _ws_fmt_time (x1, (double) fc->driver_ns));
  if (a->numba)
    {
      _ws_finding_numbers (f, _("The other %s passed in the program itself, with no CUDA call: "
                             "Numba compiling %s from Python to GPU code."),
                           _ws_fmt_time (x2, (double) MAX (fc->cost - fc->driver_ns, 0)), name);
      _ws_finding_cause (f, _("Numba compiles a @cuda.jit function when it is first called with "
                           "new argument types: Python to LLVM IR to PTX on the CPU, then the "
                           "driver turns the PTX into machine code. That takes the better part "
                           "of a second; the kernel then runs in microseconds."));
      _ws_finding_cause (f, _("A speedup computed from a timer around this call compares the CPU "
                           "with Numba's compiler, not with the GPU."));
    }
  else
    _ws_finding_cause (f, _("The first launch of a kernel waits for its module: the driver "
                         "loads the code, and compiles PTX into machine code when the binary "
                         "holds none for this GPU. Later launches reuse it."));
}

static char *
numba_type (const char *param)
{
  static const struct
  {
    const char *c, *numba;
  } types[] = {
    { "float", "float32" }, { "double", "float64" }, { "int", "int32" },
    { "long long", "int64" }, { "long", "int64" }, { "unsigned int", "uint32" },
    { "unsigned long long", "uint64" }, { "short", "int16" }, { "signed char", "int8" },
    { "unsigned char", "uint8" }, { "bool", "boolean" },
  };
  g_auto (GStrv) parts = NULL;
  g_autofree char *inner = NULL;
  const char *scalar = param;
  int dims = 0;

  while (*scalar == ' ')
    scalar++;
  if (g_str_has_prefix (scalar, "Array<") && g_str_has_suffix (scalar, ">"))
    {
      inner = g_strndup (scalar + 6, strlen (scalar) - 7);
      parts = g_strsplit (inner, ",", 3);
      if (parts[0] == NULL || parts[1] == NULL)
        return NULL;
      dims = (int) g_ascii_strtoll (parts[1], NULL, 10);
      scalar = g_strstrip (parts[0]);
      if (dims < 1 || dims > 8)
        return NULL;
    }
  for (guint i = 0; i < G_N_ELEMENTS (types); i++)
    if (g_str_equal (types[i].c, scalar))
      {
        GString *s = g_string_new (types[i].numba);

        if (dims > 0)
          {
            g_string_append (s, "[:");
            for (int d = 1; d < dims; d++)
              g_string_append (s, ", :");
            g_string_append (s, "]");
          }
        return g_string_free (s, FALSE);
      }
  return NULL;
}

/* "void(float32[:], float32[:], float32[:])" from Numba's demangled parameters; NULL when a
 * parameter is of a type this does not know. */
static char *
numba_signature (const char *name)
{
  const char *open = strrchr (name, '(');
  g_autoptr (GString) sig = g_string_new ("void(");
  g_autoptr (GString) param = g_string_new (NULL);
  int depth = 0;

  if (open == NULL || !g_str_has_suffix (name, ")"))
    return NULL;
  /* The parameter list starts at the '(' that matches the last ')'. */
  for (const char *p = name + strlen (name) - 1; p >= name; p--)
    {
      depth += *p == ')' || *p == '>' ? 1 : *p == '(' || *p == '<' ? -1 : 0;
      if (depth == 0)
        {
          open = p;
          break;
        }
    }
  depth = 0;
  for (const char *p = open + 1; *p != '\0'; p++)
    {
      if (*p == '<')
        depth++;
      else if (*p == '>')
        depth--;
      if ((*p == ',' && depth == 0) || (*p == ')' && depth == 0 && p[1] == '\0'))
        {
          g_autofree char *t = numba_type (param->str);

          if (t == NULL)
            return param->len == 0 && *p == ')' && sig->len == 5 ? g_strdup ("void()") : NULL;
          if (sig->len > 5)
            g_string_append (sig, ", ");
          g_string_append (sig, t);
          g_string_truncate (param, 0);
          continue;
        }
      g_string_append_c (param, *p);
    }
  g_string_append (sig, ")");
  return g_string_free (g_steal_pointer (&sig), FALSE);
}

static void
compile_fix (WsTraceAnalysis *a, WsFinding *f, const char *name, const char *short_name)
{
  if (a->numba)
    {
      g_autofree char *sig = numba_signature (name);

      _ws_finding_fix (f, _("Call the kernel once before starting the timer, with arguments of "
                         "the same types, and wait for it: %s[blocks, threads](…) then "
                         "cuda.synchronize(). Then time several calls and take their mean or "
                         "median."),
                       short_name);
      if (sig != NULL)
        _ws_finding_fix (f, _("Or have Numba compile it when it is defined, by giving its "
                           "signature: @cuda.jit(\"%s\")."),
                         sig);
    }
  else
    _ws_finding_fix (f, _("Run the code once before timing it (a warm-up), then time repeated "
                       "calls. Code compiled for this GPU's architecture (here %s) needs no JIT; "
                       "CUDA_MODULE_LOADING=EAGER loads every module at start instead of at "
                       "first use."),
                     a->kernels->len > 0
                         && ((WsTraceKernel *) g_ptr_array_index (a->kernels, 0))->device_info
                         ? ((WsTraceKernel *) g_ptr_array_index (a->kernels, 0))->device_info->sm
                         : "sm_XX");
}

static double
kernel_time (WsTraceAnalysis *a, const WsTraceFirstCall *fc)
{
  const WsSpan *k = &a->spans[fc->kernel];

  return MAX ((double) (k->end - k->start), 1.0);
}

static void
report_first_call (WsTraceAnalysis *a, const WsTraceFirstCall *fc, GPtrArray *out)
{
  g_autofree char *short_name = ws_trace_kernel_short_name (fc->name);
  double kernel = kernel_time (a, fc), ratio = (double) fc->cost / kernel;
  char x1[WS_FMT_LEN], x2[WS_FMT_LEN], x3[WS_FMT_LEN];
  WsFinding *f;

  f = _ws_trace_finding_new (a, WS_FINDING_TIMED_COMPILE,
                             ratio >= _ws_threshold (WS_T_TIMED_COMPILE_HIGH) ? WS_SEVERITY_HIGH
                                                                              : WS_SEVERITY_MEDIUM,
                             fc->name, (double) fc->cost / 1e6, _ws_threshold (WS_T_TIMED_COMPILE));
  _ws_fmt_time (x1, (double) fc->cost);
  if (a->numba)
    _ws_finding_title (f, _("Compile timed: the first call of %s waited %s for Numba's compile, "
                         "for a kernel of %s"),
                       short_name, x1, _ws_fmt_time (x2, kernel));
  else
    _ws_finding_title (f, _("Load timed: the first call of %s waited %s for its code, for a "
                         "kernel of %s"),
                       short_name, x1, _ws_fmt_time (x2, kernel));
  _ws_finding_numbers (f, _("%s ran %s on the GPU, but its launch came %s after the program's "
                         "previous CUDA call."),
                       short_name, x2, x1);
  compile_words (a, f, fc, short_name);
  if (fc->launches == 1)
    _ws_finding_numbers (f, _("It was the kernel's only call: any timer around it — time.time() "
                           "before the launch and after the synchronization — reads about %s, "
                           "%s the kernel's time."),
                         x1, _ws_fmt_ratio (x3, ratio));
  else
    _ws_finding_numbers (f, _("Its next calls followed without waiting for the GPU in between: a "
                           "timer around the loop includes the %s, %s the kernel's time."),
                         x1, _ws_fmt_ratio (x3, ratio));
  compile_fix (a, f, fc->name, short_name);
  _ws_trace_finding_point (f, fc->pointers);
  g_ptr_array_add (out, f);
}

/* An NVTX range is a region the program times, by its own account. */
static void
check_ranges (WsTraceAnalysis *a, GPtrArray *out)
{
  for (guint i = 0; i < a->n_spans; i++)
    {
      const WsSpan *r = &a->spans[i];
      gint64 length = r->end - r->start, inside = 0;
      g_autoptr (GArray) pointers = g_array_new (FALSE, FALSE, sizeof (guint));
      char x1[WS_FMT_LEN], x2[WS_FMT_LEN], x3[WS_FMT_LEN];
      WsFinding *f;

      if (!ws_span_is_nvtx_range (r) || r->run != a->program->id
          || _ws_trace_is_warm_up (r->name) || length <= 0)
        continue;
      for (guint j = 0; j < a->first_calls->len; j++)
        {
          const WsTraceFirstCall *fc = &g_array_index (a->first_calls, WsTraceFirstCall, j);
          gint64 in;

          if (!waited_for_code (fc))
            continue;
          in = _ws_trace_overlap (fc->window_start, a->spans[fc->launch].start, r->start, r->end);
          if (in > 0)
            {
              inside += in;
              g_array_append_vals (pointers, fc->pointers->data, fc->pointers->len);
            }
        }
      if ((double) inside < _ws_threshold (WS_T_TIMED_COMPILE) * 1e6 || inside * 10 < length)
        continue;
      f = _ws_trace_finding_new (a, WS_FINDING_TIMED_COMPILE,
                                 2 * inside >= length ? WS_SEVERITY_HIGH : WS_SEVERITY_MEDIUM,
                                 NULL, (double) inside / 1e6, _ws_threshold (WS_T_TIMED_COMPILE));
      _ws_finding_title (f, _("Compile timed: the range “%s” spends %s of its %s waiting for "
                           "kernels' first calls"),
                         r->name ?: "", _ws_fmt_time (x1, (double) inside),
                         _ws_fmt_time (x2, (double) length));
      _ws_finding_numbers (f, _("%s of the range (NVTX, the program's own mark) passed loading or "
                             "compiling kernels before their first launch: a timer around it "
                             "measures that, not the kernels."),
                           _ws_fmt_percent (x3, (double) inside / (double) length));
      _ws_finding_cause (f, _("The first launch of a kernel waits for its module: the driver "
                           "loads the code, and compiles it when the binary holds none for this "
                           "GPU."));
      _ws_finding_fix (f, _("Launch each kernel once before the timed range (a warm-up, as the "
                         "range “warm-up” of such programs does), then time repeated calls."));
      g_array_append_val (pointers, i);
      _ws_trace_finding_point (f, pointers);
      g_ptr_array_add (out, f);
    }
}

void
_ws_trace_check_compile (WsTraceAnalysis *a, GPtrArray *out)
{
  if (a->has_nvtx)
    {
      check_ranges (a, out);
      return;
    }
  /* Without marks of its own, the program's timer is where the tutorial puts it: around a
   * call, or around a loop of calls. A first call followed by a wait for the GPU before the
   * next is a warm-up. */
  for (guint j = 0; j < a->first_calls->len; j++)
    {
      const WsTraceFirstCall *fc = &g_array_index (a->first_calls, WsTraceFirstCall, j);

      if (!waited_for_code (fc) || (double) fc->cost < _ws_threshold (WS_T_TIMED_COMPILE) * 1e6
          || (fc->launches > 1 && fc->synchronized))
        continue;
      report_first_call (a, fc, out);
    }
}

