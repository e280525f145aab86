/* test-analysis-trace.c: the findings about traced programs, on the recordings made on an
 * NVIDIA H200: the tutorial's §4 vector add as written timed Numba's compile and copied from
 * pageable memory, and is told so with Numba's own fixes; the same program changed as they
 * advise is quiet about both (and launch-bound, as it is); the §5 matrix multiply; PyTorch's
 * library kernels reported for what they cost; the pinned rate the runner measures once it is
 * in the stream; gaps in the GPU's work; every finding well formed and pointing at spans.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <glib.h>
#include <glib/gstdio.h>
#include <string.h>

#include "test-session-util.h"
#include "ws-analysis.h"
#include "ws-analysis-trace-private.h"
#include "ws-session-analysis.h"
#include "ws-trace.h"

static WsFinding *
find (GPtrArray *findings, WsFindingKind kind)
{
  for (guint i = 0; i < findings->len; i++)
    {
      WsFinding *f = g_ptr_array_index (findings, i);

      if (f->kind == kind)
        return f;
    }
  return NULL;
}

static void
assert_contains (const char *text, const char *part)
{
  if (text == NULL || strstr (text, part) == NULL)
    g_error ("“%s” is not in “%s”", part, text ? text : "(null)");
}

/* Every finding has its words, is about the trace, and points at spans that exist. */
static void
check_well_formed (WsSession *session, GPtrArray *findings)
{
  guint n;

  ws_trace_get_spans (ws_session_get_trace (session), &n);
  for (guint i = 0; i < findings->len; i++)
    {
      WsFinding *f = g_ptr_array_index (findings, i);

      g_assert_true (f->trace);
      g_assert_cmpint (f->run, ==, 0);
      g_assert_nonnull (f->title);
      g_assert_nonnull (f->numbers);
      g_assert_nonnull (f->cause);
      g_assert_nonnull (f->fix);
      g_assert_cmpstr (f->id, ==, ws_finding_kind_to_string (f->kind));
      for (guint j = 0; j < f->activities->len; j++)
        g_assert_cmpuint (g_array_index (f->activities, guint, j), <, n);
      if (i > 0 && ((WsFinding *) g_ptr_array_index (findings, i - 1))->program == f->program)
        g_assert_cmpint (((WsFinding *) g_ptr_array_index (findings, i - 1))->severity, >=,
                         f->severity);
    }
}

/* The tutorial's §4 program as written printed a speedup of 0.02×: the findings say why. */
static void
test_vector_add (void)
{
  g_autoptr (WsSession) session = ws_test_load_sample ("trace-vector-add-h200.jsonl");
  g_autoptr (GPtrArray) findings = ws_analyze_trace (session);
  WsFinding *compile, *pageable, *bound;
  guint n;
  const WsSpan *spans = ws_trace_get_spans (ws_session_get_trace (session), &n);
  gboolean points_at_kernel = FALSE, points_at_launch = FALSE;

  check_well_formed (session, findings);
  compile = find (findings, WS_FINDING_TIMED_COMPILE);
  g_assert_nonnull (compile);
  /* It leads: the most severe, and first among the most severe. */
  g_assert_true (compile == g_ptr_array_index (findings, 0));
  g_assert_cmpint (compile->severity, ==, WS_SEVERITY_HIGH);
  g_assert_true (g_str_has_prefix (compile->kernel, "__main__::add_kernel"));
  /* The wait: from the last allocation to the launch, over a second. */
  g_assert_cmpfloat (compile->value, >, 1000);
  g_assert_cmpfloat (compile->value, <, 1100);
  assert_contains (compile->title, "add_kernel waited 1.08 s for Numba's compile");
  assert_contains (compile->title, "37.7 µs");
  assert_contains (compile->numbers, "only call");
  assert_contains (compile->numbers, "time.time()");
  assert_contains (compile->cause, "Numba compiles a @cuda.jit function");
  assert_contains (compile->cause, "compares the CPU with Numba's compiler");
  assert_contains (compile->fix, "cuda.synchronize()");
  assert_contains (compile->fix, "@cuda.jit(\"void(float32[:], float32[:], float32[:])\")");
  for (guint i = 0; i < compile->activities->len; i++)
    {
      const WsSpan *s = &spans[g_array_index (compile->activities, guint, i)];

      points_at_kernel |= s->kind == WS_ACTIVITY_KERNEL;
      points_at_launch |= s->kind == WS_ACTIVITY_API
                          && g_strcmp0 (s->name, "cuLaunchKernelEx") == 0;
    }
  g_assert_true (points_at_kernel && points_at_launch);

  pageable = find (findings, WS_FINDING_PAGEABLE_MEMORY);
  g_assert_nonnull (pageable);
  g_assert_cmpint (pageable->severity, ==, WS_SEVERITY_MEDIUM);
  assert_contains (pageable->numbers, "Host to device: 2 copies, 80.0 MB in 11.7 ms, 6.83 GB/s.");
  assert_contains (pageable->numbers, "Device to host: 1 copy, 40.0 MB in 14.0 ms, 2.86 GB/s.");
  assert_contains (pageable->numbers, "no pinned rate");
  assert_contains (pageable->fix, "cuda.pinned_array");
  g_assert_cmpuint (pageable->activities->len, ==, 3);

  bound = find (findings, WS_FINDING_TRANSFER_BOUND);
  g_assert_nonnull (bound);
  g_assert_cmpint (bound->severity, ==, WS_SEVERITY_HIGH);
  assert_contains (bound->numbers, "The kernels take 37.7 µs on the GPU.");

  g_assert_nonnull (find (findings, WS_FINDING_STARTUP_TIME));
  /* The gap before the kernel is the compile's: not reported twice. */
  g_assert_null (find (findings, WS_FINDING_GPU_IDLE));
  g_assert_null (find (findings, WS_FINDING_LAUNCH_BOUND));
  g_assert_null (find (findings, WS_FINDING_UNDER_OCCUPIED));
}

/* The program changed as the findings advise: pinned memory, a warm-up call. Quiet about both;
 * its 20 timed launches are short enough to be launch-bound from Python. */
static void
test_advised (void)
{
  g_autoptr (WsSession) session = ws_test_load_sample ("trace-vector-add-advised-h200.jsonl");
  g_autoptr (GPtrArray) findings = ws_analyze_trace (session);
  WsFinding *launch;

  check_well_formed (session, findings);
  g_assert_null (find (findings, WS_FINDING_TIMED_COMPILE));
  g_assert_null (find (findings, WS_FINDING_PAGEABLE_MEMORY));
  g_assert_null (find (findings, WS_FINDING_SYNCHRONOUS_COPIES));
  g_assert_null (find (findings, WS_FINDING_GPU_IDLE));
  launch = find (findings, WS_FINDING_LAUNCH_BOUND);
  g_assert_nonnull (launch);
  g_assert_cmpint (launch->severity, ==, WS_SEVERITY_LOW);
  g_assert_cmpfloat (launch->value, <, ws_analysis_threshold ("launch_busy"));
  g_assert_cmpuint (launch->activities->len, ==, 21);
  assert_contains (launch->title, "add_kernel launch-bound");
  assert_contains (launch->fix, "grid-stride loop");
  /* Vector adds move three bytes for every one they compute on: still more copy than kernel. */
  g_assert_cmpint (find (findings, WS_FINDING_TRANSFER_BOUND)->severity, ==, WS_SEVERITY_MEDIUM);
}

static void
test_matmul (void)
{
  g_autoptr (WsSession) session = ws_test_load_sample ("trace-matmul-tiled-h200.jsonl");
  g_autoptr (GPtrArray) findings = ws_analyze_trace (session);
  WsFinding *compile;

  check_well_formed (session, findings);
  compile = find (findings, WS_FINDING_TIMED_COMPILE);
  g_assert_nonnull (compile);
  assert_contains (compile->title, "matmul_shared_mem");
  assert_contains (compile->fix,
                   "@cuda.jit(\"void(float32[:, :], float32[:, :], float32[:, :])\")");
  /* 4 MB of pageable copies in 86 µs, and no pinned rate to hold them against: not worth it. */
  g_assert_null (find (findings, WS_FINDING_PAGEABLE_MEMORY));
}

/* PyTorch: its library's kernels, reported for what they cost, not as the program's fault; it
 * marks its own ranges, and its warm-up is where the loading goes. */
static void
test_torch (void)
{
  g_autoptr (WsSession) session = ws_test_load_sample ("trace-torch-matmul-h200.jsonl");
  g_autoptr (GPtrArray) findings = ws_analyze_trace (session);
  WsFinding *occupancy;

  check_well_formed (session, findings);
  occupancy = find (findings, WS_FINDING_UNDER_OCCUPIED);
  g_assert_nonnull (occupancy);
  g_assert_cmpint (occupancy->severity, ==, WS_SEVERITY_INFO);
  g_assert_cmpfloat (occupancy->value, ==, 0.125);
  assert_contains (occupancy->title, "limited by registers");
  assert_contains (occupancy->cause, "library's kernel");
  for (guint i = 0; i < findings->len; i++)
    g_assert_cmpint (((WsFinding *) g_ptr_array_index (findings, i))->severity, ==,
                     WS_SEVERITY_INFO);
  g_assert_null (find (findings, WS_FINDING_TIMED_COMPILE));
  g_assert_null (find (findings, WS_FINDING_GPU_IDLE));
}

/* What the program can change leads; the library kernels' findings follow, library by library,
 * each group under one heading that counts it. */
static void
test_torch_libraries (void)
{
  g_autoptr (WsSession) session = ws_test_load_sample ("trace-torch-matmul-h200.jsonl");
  g_autoptr (GPtrArray) findings = ws_analyze_trace (session);
  static const char *const libraries[] = { NULL, "CUTLASS", "CUTLASS", "PyTorch" };
  g_autofree char *cutlass = NULL, *torch = NULL;
  guint n;

  g_assert_cmpuint (findings->len, ==, G_N_ELEMENTS (libraries));
  /* The start-up is the program's own: before the library kernels' findings, info as they. */
  g_assert_cmpint (((WsFinding *) g_ptr_array_index (findings, 0))->kind, ==,
                   WS_FINDING_STARTUP_TIME);
  for (guint i = 0; i < findings->len; i++)
    g_assert_cmpstr (((WsFinding *) g_ptr_array_index (findings, i))->library, ==, libraries[i]);
  g_assert_null (ws_findings_library_group (findings, 0, &n));
  g_assert_cmpuint (n, ==, 0);
  cutlass = ws_findings_library_group (findings, 1, &n);
  g_assert_cmpuint (n, ==, 2);
  g_assert_cmpstr (cutlass, ==, "CUTLASS: 2 findings about its own kernels, which the program "
                                "cannot change");
  g_assert_null (ws_findings_library_group (findings, 2, &n));
  torch = ws_findings_library_group (findings, 3, &n);
  g_assert_cmpuint (n, ==, 1);
  g_assert_cmpstr (torch, ==, "PyTorch: 1 finding about its own kernels, which the program "
                              "cannot change");
  /* The owner is the outer name, before the template arguments. */
  g_assert_cmpstr (ws_trace_kernel_library ("void cutlass::Kernel2<x>(x::Params)"), ==,
                   "CUTLASS");
  g_assert_cmpstr (ws_trace_kernel_library ("sm90_xmma_fprop_implicit_gemm_f32"), ==, "cuDNN");
  g_assert_cmpstr (ws_trace_kernel_library ("ampere_sgemm_128x64_nn"), ==, "cuBLAS");
  g_assert_cmpstr (ws_trace_kernel_library ("void at::native::f<thrust::plus<float>>(float*)"),
                   ==, "PyTorch");
  g_assert_cmpstr (ws_trace_kernel_library ("void cub::DeviceReduceKernel<at::native::x>()"),
                   ==, "CUB");
  g_assert_null (ws_trace_kernel_library ("add_kernel(float*)"));
}

/* The §4 trace as warpscope-runner --trace delivers it: with the copy rates of the GPU the
 * runner measured after the program (a device record without pid). The rates here are those
 * the runner measured on an H200 for vector-add-sizes-h200.jsonl; the record is given the
 * trace's UUID, as the runner writes it for the GPU the program used. */
static char *
with_ceilings (const char *trace_name)
{
  g_autofree char *trace_path = ws_test_sample (trace_name);
  g_autofree char *runner_path = ws_test_sample ("vector-add-sizes-h200.jsonl");
  g_autofree char *trace = NULL, *runner = NULL;
  g_auto (GStrv) lines = NULL;
  g_autoptr (GString) out = g_string_new (NULL);
  const char *uuid, *device = NULL;

  g_assert_true (g_file_get_contents (trace_path, &trace, NULL, NULL));
  g_assert_true (g_file_get_contents (runner_path, &runner, NULL, NULL));
  uuid = strstr (trace, "\"uuid\":\"");
  g_assert_nonnull (uuid);
  lines = g_strsplit (runner, "\n", -1);
  for (guint i = 0; lines[i] != NULL && device == NULL; i++)
    if (g_str_has_prefix (lines[i], "{\"type\":\"device\""))
      device = lines[i];
  g_assert_nonnull (device);
  g_string_append (out, trace);
  {
    const char *old = strstr (device, "\"uuid\":\"");
    const char *old_end = strchr (old + 8, '"');

    g_string_append_len (out, device, old - device);
    g_string_append_len (out, uuid, strchr (uuid + 8, '"') + 1 - uuid);
    g_string_append (out, old_end + 1);
    g_string_append_c (out, '\n');
  }
  return g_string_free (g_steal_pointer (&out), FALSE);
}

static void
test_pinned_rate (void)
{
  g_autofree char *text = with_ceilings ("trace-vector-add-h200.jsonl");
  g_autoptr (WsSession) session = ws_test_load_text (text);
  g_autoptr (GPtrArray) findings = ws_analyze_trace (session);
  const WsDeviceInfo *device = ws_trace_get_device (ws_session_get_trace (session), 0, 0);
  WsFinding *pageable;

  g_assert_cmpfloat (device->h2d_pinned_gbs, >, 50);
  g_assert_cmpfloat (device->d2h_pinned_gbs, >, 50);
  /* The session lists the GPU once, as the runner measured it. */
  g_assert_cmpuint (g_list_model_get_n_items (ws_session_get_devices (session)), ==, 1);
  g_assert_cmpfloat (ws_device_get_info (ws_session_get_device (session))->h2d_pinned_gbs, >, 50);
  pageable = find (findings, WS_FINDING_PAGEABLE_MEMORY);
  g_assert_nonnull (pageable);
  assert_contains (pageable->title, "Pageable memory: copies at 4.67 GB/s, pinned memory reaches");
  assert_contains (pageable->numbers, "From pinned memory the same bytes take");
  assert_contains (pageable->numbers, "instead of 25.7 ms");
  g_assert_cmpfloat (pageable->value, >, 0);
  g_assert_cmpfloat (pageable->value, <, 0.15);

  /* The advised program's pinned copies reach that rate: nothing to say. */
  {
    g_autofree char *advised = with_ceilings ("trace-vector-add-advised-h200.jsonl");
    g_autoptr (WsSession) s2 = ws_test_load_text (advised);
    g_autoptr (GPtrArray) f2 = ws_analyze_trace (s2);

    g_assert_null (find (f2, WS_FINDING_PAGEABLE_MEMORY));
  }
}

/* A program that leaves the GPU idle between its kernels while it works on the CPU, built from
 * the advised trace: its timed loop, with host work inserted after the 11th kernel (every
 * activity that starts after that kernel's end moved later by `gap_ns`). */
static int
compare_gint64 (gconstpointer a, gconstpointer b)
{
  gint64 x = *(const gint64 *) a, y = *(const gint64 *) b;

  return x < y ? -1 : x > y;
}

static char *
with_gap (gint64 gap_ns)
{
  g_autofree char *path = ws_test_sample ("trace-vector-add-advised-h200.jsonl");
  g_autofree char *text = NULL;
  g_auto (GStrv) lines = NULL;
  g_autoptr (GArray) ends = g_array_new (FALSE, FALSE, sizeof (gint64));
  GString *out = g_string_new (NULL);
  gint64 after_11th;

  g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
  lines = g_strsplit (text, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    if (strstr (lines[i], "\"kind\":\"kernel\"") != NULL)
      {
        gint64 end = g_ascii_strtoll (strstr (lines[i], "\"end\":") + 6, NULL, 10);

        g_array_append_val (ends, end);
      }
  g_array_sort (ends, compare_gint64);
  g_assert_cmpuint (ends->len, ==, 21);
  after_11th = g_array_index (ends, gint64, 10);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      const char *l = lines[i];
      const char *s = strstr (l, "\"start\":"), *e = strstr (l, "\"end\":");
      gint64 start = s != NULL ? g_ascii_strtoll (s + 8, NULL, 10) : 0;

      if (*l == '\0')
        continue;
      if (g_str_has_prefix (l, "{\"type\":\"activity\"") && s != NULL && e != NULL
          && start >= after_11th)
        {
          gint64 end = g_ascii_strtoll (e + 6, NULL, 10);
          const char *rest = strchr (e + 6, ',');

          g_string_append_len (out, l, s - l);
          g_string_append_printf (out, "\"start\":%" G_GINT64_FORMAT ",\"end\":%" G_GINT64_FORMAT,
                                  start + gap_ns, end + gap_ns);
          g_string_append (out, rest != NULL ? rest : "}");
        }
      else
        g_string_append (out, l);
      g_string_append_c (out, '\n');
    }
  return g_string_free (out, FALSE);
}

static void
test_gpu_idle (void)
{
  g_autofree char *text = with_gap (50000000);
  g_autoptr (WsSession) session = ws_test_load_text (text);
  g_autoptr (GPtrArray) findings = ws_analyze_trace (session);
  WsFinding *idle = find (findings, WS_FINDING_GPU_IDLE);

  check_well_formed (session, findings);
  g_assert_nonnull (idle);
  assert_contains (idle->title, "GPU idle: 1 gap of 50.");
  assert_contains (idle->numbers, "before add_kernel");
  assert_contains (idle->numbers, "no call for the other 50.0 ms");
  assert_contains (idle->fix, "copy_to_host()");
  g_assert_cmpuint (idle->activities->len, ==, 2);
  /* A gap of a millisecond is below the threshold the program's length sets. */
  {
    g_autofree char *small = with_gap (1000000);
    g_autoptr (WsSession) s2 = ws_test_load_text (small);
    g_autoptr (GPtrArray) f2 = ws_analyze_trace (s2);

    g_assert_null (find (f2, WS_FINDING_GPU_IDLE));
  }
}

/* A session of the runner's kernels has no trace and no trace findings. */
static void
test_no_trace (void)
{
  g_autoptr (WsSession) session = ws_test_load_sample ("vector-add-sizes-h200.jsonl");
  g_autoptr (GPtrArray) findings = ws_analyze_trace (session);

  g_assert_null (ws_session_get_trace (session));
  g_assert_cmpuint (findings->len, ==, 0);
}

/* The launch rules are written once: the tutorial's kernel traced with 32 threads per block
 * and the runner's vector add swept over blocks of 32, both on the H200, get the same finding
 * in the same words; only the title names the traced kernel, and Numba's launch syntax is
 * added to its fix. */
static void
test_launch_rules_once (void)
{
  g_autoptr (WsSession) traced = ws_test_load_sample ("trace-vector-add-tpb-sweep-h200.jsonl");
  g_autoptr (WsSession) swept = ws_test_load_sample ("vector-add-blocks-h200.jsonl");
  g_autoptr (GPtrArray) trace_findings = ws_analyze_trace (traced);
  g_autoptr (GPtrArray) run_findings = ws_analyze_session (swept);
  WsFinding *t = NULL, *r = NULL;

  for (guint i = 0; i < trace_findings->len && t == NULL; i++)
    {
      WsFinding *f = g_ptr_array_index (trace_findings, i);

      if (f->kind == WS_FINDING_UNDER_OCCUPIED && strstr (f->numbers, "of 32 threads") != NULL)
        t = f;
    }
  for (guint i = 0; i < run_findings->len && r == NULL; i++)
    {
      WsFinding *f = g_ptr_array_index (run_findings, i);

      if (f->kind == WS_FINDING_UNDER_OCCUPIED && strstr (f->numbers, "of 32 threads") != NULL)
        r = f;
    }
  g_assert_nonnull (t);
  g_assert_nonnull (r);
  g_assert_true (t->trace);
  g_assert_cmpint (r->run, >, 0);
  g_assert_cmpint (t->severity, ==, r->severity);
  g_assert_cmpfloat_with_epsilon (t->value, r->value, 1e-9);
  g_assert_cmpstr (t->numbers, ==, r->numbers);
  g_assert_cmpstr (t->cause, ==, r->cause);
  g_assert_true (g_str_has_prefix (t->fix, r->fix));
  assert_contains (t->fix, "kernel[blocks, 256]");
  assert_contains (t->title, "add_kernel under-occupied");
  g_assert_true (g_str_has_prefix (r->title, "Under-occupied"));
  g_assert_cmpuint (t->activities->len, >, 0);
  g_assert_cmpuint (r->activities->len, >, 0);
}

/* One block per SM is one block: the ladder's 1024-thread rung. */
static void
test_launch_words_singular (void)
{
  g_autoptr (WsSession) swept = ws_test_load_sample ("vector-add-ladder-h200.jsonl");
  g_autoptr (GPtrArray) findings = ws_analyze_session (swept);
  gboolean seen = FALSE;

  for (guint i = 0; i < findings->len; i++)
    {
      WsFinding *f = g_ptr_array_index (findings, i);

      g_assert_null (strstr (f->numbers ? f->numbers : "", " 1 blocks "));
      g_assert_null (strstr (f->cause ? f->cause : "", " 1 blocks "));
      seen |= f->numbers != NULL && strstr (f->numbers, "Each SM holds 1 block of 1024") != NULL;
    }
  g_assert_true (seen);
}

/* A live traced sweep, as the session's analysis follows it: each time the session says it
 * changed, only the program runs whose records changed are analysed again (a finished one is
 * left alone), and at the end the findings are those of the whole recording. */
static void
test_live_sweep (void)
{
  g_autofree char *path = g_build_filename (g_getenv ("WS_SAMPLES_DIR"),
                                            "trace-vector-add-tpb-sweep-h200.jsonl", NULL);
  g_autofree char *text = NULL;
  g_auto (GStrv) lines = NULL;
  g_autoptr (WsSession) live = ws_session_new (WS_SESSION_SOURCE_LIVE);
  g_autoptr (WsSession) loaded = ws_test_load_sample ("trace-vector-add-tpb-sweep-h200.jsonl");
  g_autoptr (GPtrArray) whole = ws_analyze_trace (loaded);
  g_autoptr (GPtrArray) found = NULL;
  WsSessionAnalysis *analysis = ws_session_get_analysis (live);
  WsTraceFindings *tf = _ws_trace_findings_new ();
  guint programs_seen = 0, analysed_at_program = 0;

  g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
  lines = g_strsplit (text, "\n", -1);
  ws_session_analysis_ensure (analysis);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      g_autoptr (GError) error = NULL;
      WsTrace *trace;

      if (*lines[i] == '\0')
        continue;
      g_assert_true (ws_session_feed_line (live, lines[i], -1, &error));
      g_assert_no_error (error);
      trace = ws_session_get_trace (live);
      /* A new program run begins: the runs before it are finished; from now on, updates
       * analyse the new one alone. */
      if (ws_trace_get_programs (trace)->len != programs_seen)
        {
          programs_seen = ws_trace_get_programs (trace)->len;
          _ws_trace_findings_update (tf, trace);
          analysed_at_program = _ws_trace_findings_n_analysed (tf);
          continue;
        }
      _ws_trace_findings_update (tf, trace);
      /* The runner's measurement of the GPU's copies serves every run, and its done ends the
       * stream (the spans are sorted then, so every run is looked at again once); any other
       * record changes one run at most. */
      if ((strstr (lines[i], "\"type\":\"device\"") != NULL
           || strstr (lines[i], "\"type\":\"done\"") != NULL)
          && _ws_trace_findings_n_analysed (tf) == analysed_at_program + programs_seen)
        analysed_at_program += programs_seen;
      else
        g_assert_cmpuint (_ws_trace_findings_n_analysed (tf) - analysed_at_program, <=, 1);
      analysed_at_program = _ws_trace_findings_n_analysed (tf);
    }
  ws_session_end (live);
  g_assert_false (_ws_trace_findings_update (tf, ws_session_get_trace (live)));
  g_assert_cmpuint (_ws_trace_findings_get (tf)->len, ==, whole->len);
  for (guint i = 0; i < whole->len; i++)
    g_assert_cmpstr (((WsFinding *) g_ptr_array_index (_ws_trace_findings_get (tf), i))->title,
                     ==, ((WsFinding *) g_ptr_array_index (whole, i))->title);
  /* The session's own analysis heard the same through its "changed" signals. */
  g_signal_emit_by_name (live, "changed");
  found = ws_session_analysis_dup_trace_findings (analysis);
  g_assert_cmpuint (found->len, ==, whole->len);
  for (guint i = 0; i < whole->len; i++)
    g_assert_cmpstr (((WsFinding *) g_ptr_array_index (found, i))->title, ==,
                     ((WsFinding *) g_ptr_array_index (whole, i))->title);
  _ws_trace_findings_free (tf);
}

/* A line of the recording with its start and end moved by `shift_ns`, and its correlation set
 * when `correlation` is not 0. */
static void
append_moved (GString *out, const char *line, gint64 shift_ns, guint correlation)
{
  const char *s = strstr (line, "\"start\":"), *e = strstr (line, "\"end\":");
  const char *c = strstr (line, "\"correlation\":");
  gint64 start = g_ascii_strtoll (s + 8, NULL, 10), end = g_ascii_strtoll (e + 6, NULL, 10);
  const char *rest = strchr (e + 6, ',');

  g_string_append_len (out, line, s - line);
  g_string_append_printf (out, "\"start\":%" G_GINT64_FORMAT ",\"end\":%" G_GINT64_FORMAT,
                          start + shift_ns, end + shift_ns);
  if (correlation != 0 && c != NULL)
    {
      g_string_append_len (out, rest, c - rest);
      g_string_append_printf (out, "\"correlation\":%u}", correlation);
    }
  else
    g_string_append (out, rest);
  g_string_append_c (out, '\n');
}

/* The tutorial's vector add made a stencil: its arrays copied to the GPU once, its kernel run
 * 50 times on them, the result copied back once; with `inside`, one more copy in the middle of
 * the loop, as a program that copies every step would. */
static char *
stencil (gboolean inside)
{
  g_autofree char *path = ws_test_sample ("trace-vector-add-h200.jsonl");
  g_autofree char *text = NULL;
  g_auto (GStrv) lines = NULL;
  GString *out = g_string_new (NULL);
  const char *kernel = NULL, *copy_in = NULL;
  gint64 kernel_start = 0, step = 40000, loop = 50 * 40000;

  g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
  lines = g_strsplit (text, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    if (strstr (lines[i], "\"kind\":\"kernel\"") != NULL)
      {
        kernel = lines[i];
        kernel_start = g_ascii_strtoll (strstr (kernel, "\"start\":") + 8, NULL, 10);
      }
    else if (copy_in == NULL && strstr (lines[i], "\"direction\":\"htod\"") != NULL)
      copy_in = lines[i];
  g_assert_nonnull (kernel);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      const char *l = lines[i];
      const char *s = strstr (l, "\"start\":");

      if (*l == '\0')
        continue;
      if (l == kernel)
        {
          for (guint k = 0; k < 50; k++)
            append_moved (out, l, k * step, k == 0 ? 0 : 900000 + k);
          if (inside)
            append_moved (out, copy_in, kernel_start + 25 * step + 38000
                                          - g_ascii_strtoll (strstr (copy_in, "\"start\":") + 8,
                                                             NULL, 10),
                          899999);
        }
      else if (g_str_has_prefix (l, "{\"type\":\"activity\"") && s != NULL
               && g_ascii_strtoll (s + 8, NULL, 10) > kernel_start)
        append_moved (out, l, loop, 0);
      else
        {
          g_string_append (out, l);
          g_string_append_c (out, '\n');
        }
    }
  return g_string_free (out, FALSE);
}

/* Copies made once around a loop that keeps the data on the GPU are not told to keep the data
 * on the GPU: they are amortized or accepted. Copies inside the loop are. The tutorial's one
 * launch has no loop at all. */
static void
test_copies_once (void)
{
  g_autofree char *once = stencil (FALSE), *every = stencil (TRUE);
  g_autoptr (WsSession) s1 = ws_test_load_text (once);
  g_autoptr (WsSession) s2 = ws_test_load_text (every);
  g_autoptr (WsSession) s3 = ws_test_load_sample ("trace-vector-add-h200.jsonl");
  g_autoptr (GPtrArray) f1 = ws_analyze_trace (s1);
  g_autoptr (GPtrArray) f2 = ws_analyze_trace (s2);
  g_autoptr (GPtrArray) f3 = ws_analyze_trace (s3);
  WsFinding *b1 = find (f1, WS_FINDING_TRANSFER_BOUND), *b2 = find (f2, WS_FINDING_TRANSFER_BOUND);
  WsFinding *b3 = find (f3, WS_FINDING_TRANSFER_BOUND);

  check_well_formed (s1, f1);
  check_well_formed (s2, f2);
  g_assert_nonnull (b1);
  assert_contains (b1->numbers, "The copies come once, before the first of 50 kernel launches and "
                                "after the last");
  assert_contains (b1->fix, "The program already keeps its data on the GPU. Amortize");
  assert_contains (b1->fix, "cuda.pinned_array");
  g_assert_null (strstr (b1->fix, "Keep the data on the GPU"));

  g_assert_nonnull (b2);
  assert_contains (b2->numbers, "1 copy comes between kernel launches: inside the program's loop.");
  assert_contains (b2->fix, "Keep the data on the GPU: create the arrays there");

  g_assert_nonnull (b3);
  assert_contains (b3->numbers, "The copies come once, before and after the one kernel launch.");
  assert_contains (b3->fix, "There is no loop to keep the data on the GPU across");
  g_assert_null (strstr (b3->fix, "Keep the data on the GPU:"));
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/analysis-trace/vector-add", test_vector_add);
  g_test_add_func ("/analysis-trace/advised", test_advised);
  g_test_add_func ("/analysis-trace/matmul", test_matmul);
  g_test_add_func ("/analysis-trace/torch", test_torch);
  g_test_add_func ("/analysis-trace/torch-libraries", test_torch_libraries);
  g_test_add_func ("/analysis-trace/pinned-rate", test_pinned_rate);
  g_test_add_func ("/analysis-trace/gpu-idle", test_gpu_idle);
  g_test_add_func ("/analysis-trace/copies-once", test_copies_once);
  g_test_add_func ("/analysis-trace/no-trace", test_no_trace);
  g_test_add_func ("/analysis-trace/launch-rules-once", test_launch_rules_once);
  g_test_add_func ("/analysis-trace/launch-words-singular", test_launch_words_singular);
  g_test_add_func ("/analysis-trace/live-sweep", test_live_sweep);
  return g_test_run ();
}
