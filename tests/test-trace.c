/* test-trace.c: traced programs in the model, on the recordings libwarpscope-inject made on an
 * NVIDIA H200 (resources/samples/trace-*.jsonl): their processes, spans and events; kernels
 * grouped per configuration and copies per direction and host memory, with counts, bytes and
 * times taken from the files themselves; the occupancy of PyTorch's kernels; short kernel
 * names; a stream as warpscope-runner --trace frames it (program runs of a sweep); writing
 * back; and the findings about the programs: the tutorial's §4 vector add timed Numba's
 * compile and copied from pageable memory, and the program changed as they advise does not.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <glib.h>
#include <glib/gstdio.h>
#include <json-glib/json-glib.h>
#include <string.h>

#include "test-session-util.h"
#include "ws-analysis.h"
#include "ws-trace-command.h"
#include "ws-trace.h"

/* ---- the recordings ------------------------------------------------------------------------ */

/* The file's records, parsed. */
static GPtrArray *
records_of (const char *name)
{
  g_autofree char *path = ws_test_sample (name);
  g_autofree char *text = NULL;
  g_auto (GStrv) lines = NULL;
  GPtrArray *records = g_ptr_array_new_with_free_func ((GDestroyNotify) json_object_unref);

  g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
  lines = g_strsplit (text, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      g_autoptr (JsonParser) parser = json_parser_new ();

      if (*lines[i] == '\0')
        continue;
      g_assert_true (json_parser_load_from_data (parser, lines[i], -1, NULL));
      JsonNode *root = json_parser_get_root (parser);

      g_ptr_array_add (records, json_object_ref (json_node_get_object (root)));
    }
  return records;
}

static gboolean
is_activity (JsonObject *o, const char *kind)
{
  return g_str_equal (json_object_get_string_member (o, "type"), "activity")
         && g_str_equal (json_object_get_string_member (o, "kind"), kind);
}

/* Count, bytes and summed duration of the file's activities of a kind (and a direction and
 * host memory for copies, when given). */
static void
sum_file (GPtrArray *records, const char *kind, const char *direction, const char *memory,
          guint *count, gint64 *bytes, gint64 *ns)
{
  *count = 0, *bytes = 0, *ns = 0;
  for (guint i = 0; i < records->len; i++)
    {
      JsonObject *o = g_ptr_array_index (records, i);

      if (!is_activity (o, kind)
          || (direction
              && g_strcmp0 (json_object_get_string_member_with_default (o, "direction", ""),
                            direction) != 0)
          || (memory
              && g_strcmp0 (json_object_get_string_member_with_default (o, "host_memory", ""),
                            memory) != 0))
        continue;
      (*count)++;
      *bytes += json_object_get_int_member_with_default (o, "bytes", 0);
      *ns += json_object_get_int_member (o, "end") - json_object_get_int_member (o, "start");
    }
}

static const char *const trace_samples[] = {
  "trace-vector-add-h200.jsonl",
  "trace-vector-add-advised-h200.jsonl",
  "trace-matmul-tiled-h200.jsonl",
  "trace-torch-matmul-h200.jsonl",
};

static guint
count_spans (WsTrace *trace, WsActivityKind kind)
{
  guint n, c = 0;
  const WsSpan *s = ws_trace_get_spans (trace, &n);

  for (guint i = 0; i < n; i++)
    c += s[i].kind == kind;
  return c;
}

static guint
count_records (GPtrArray *records, const char *type, const char *kind)
{
  guint c = 0;

  for (guint i = 0; i < records->len; i++)
    {
      JsonObject *o = g_ptr_array_index (records, i);

      c += g_str_equal (json_object_get_string_member (o, "type"), type)
           && (kind == NULL
               || g_strcmp0 (json_object_get_string_member_with_default (o, "kind", ""), kind)
                    == 0);
    }
  return c;
}

/* Every recording reads as one program run of one process, with every record of the file in
 * its place, sorted, on the H200 it names. */
static void
test_samples_read (void)
{
  for (guint f = 0; f < G_N_ELEMENTS (trace_samples); f++)
    {
      g_autoptr (WsSession) session = ws_test_load_sample (trace_samples[f]);
      g_autoptr (GPtrArray) records = records_of (trace_samples[f]);
      WsTrace *trace = ws_session_get_trace (session);
      const WsTraceProgram *program;
      const WsTraceProcess *process;
      const WsSpan *spans;
      guint n, n_events;
      gint64 start, end;

      g_test_message ("%s", trace_samples[f]);
      g_assert_nonnull (trace);
      g_assert_false (ws_trace_is_from_runner (trace));
      g_assert_cmpuint (ws_trace_get_programs (trace)->len, ==, 1);
      program = ws_trace_get_program (trace, 0);
      g_assert_nonnull (program);
      g_assert_cmpuint (program->n_processes, ==, 1);
      g_assert_cmpuint (ws_trace_get_processes (trace)->len, ==, 1);
      process = g_ptr_array_index (ws_trace_get_processes (trace), 0);
      g_assert_true (process->ended);
      g_assert_cmpstr (process->end_reason, ==, "exit");
      g_assert_cmpint (process->exit_status, ==, 0);
      g_assert_true (g_str_has_prefix (process->command[0], "python3"));
      /* Python's imports come before CUDA: the process starts before the axis' 0. */
      g_assert_cmpint (process->start, <, 0);
      g_assert_cmpint (process->cuda_start, ==, 0);
      g_assert_cmpuint (ws_session_get_problems (session)->len, ==, 0);
      g_assert_cmpstr (ws_device_get_name (ws_session_get_device (session)), ==, "NVIDIA H200");
      g_assert_cmpuint (g_list_model_get_n_items (ws_session_get_devices (session)), ==, 1);
      g_assert_nonnull (ws_trace_get_device (trace, 0, 0));
      g_assert_cmpint (ws_trace_get_device (trace, 0, 0)->sm_count, ==, 132);

      g_assert_cmpuint (count_spans (trace, WS_ACTIVITY_KERNEL), ==,
                        count_records (records, "activity", "kernel"));
      g_assert_cmpuint (count_spans (trace, WS_ACTIVITY_MEMCPY), ==,
                        count_records (records, "activity", "memcpy"));
      g_assert_cmpuint (count_spans (trace, WS_ACTIVITY_API), ==,
                        count_records (records, "activity", "api"));
      g_assert_cmpuint (count_spans (trace, WS_ACTIVITY_JIT), ==,
                        count_records (records, "activity", "jit"));
      g_assert_cmpuint (count_spans (trace, WS_ACTIVITY_NVTX), ==,
                        count_records (records, "activity", "nvtx"));
      g_assert_cmpuint (ws_session_get_n_activities (session), ==,
                        count_records (records, "activity", NULL));
      ws_trace_get_events (trace, &n_events);
      g_assert_cmpuint (n_events, ==, count_records (records, "context", NULL)
                                        + count_records (records, "module", NULL));
      spans = ws_trace_get_spans (trace, &n);
      for (guint i = 1; i < n; i++)
        g_assert_cmpint (spans[i - 1].start, <=, spans[i].start);
      g_assert_true (ws_trace_get_program_range (trace, 0, &start, &end));
      g_assert_cmpint (start, ==, process->start);
      g_assert_cmpint (end, >=, spans[n - 1].end);
      /* No runs: the runner's analysis has nothing to say; the trace's has. */
      g_assert_cmpuint (g_list_model_get_n_items (ws_session_get_runs (session)), ==, 0);
      {
        g_autoptr (GPtrArray) runs = ws_analyze_session (session);

        g_assert_cmpuint (runs->len, ==, 0);
      }
    }
}

/* Written back, a trace is the file it was read from, line for line. */
static void
test_round_trip (void)
{
  for (guint f = 0; f < G_N_ELEMENTS (trace_samples); f++)
    {
      g_autoptr (WsSession) session = ws_test_load_sample (trace_samples[f]);
      g_autoptr (GOutputStream) out = g_memory_output_stream_new_resizable ();
      g_autoptr (GError) error = NULL;
      g_autofree char *path = ws_test_sample (trace_samples[f]);
      g_autofree char *original = NULL;
      g_autofree char *written = NULL;

      g_assert_true (ws_session_write (session, out, NULL, &error));
      g_assert_no_error (error);
      g_assert_true (g_output_stream_close (out, NULL, NULL));
      written = g_strndup (g_memory_output_stream_get_data (G_MEMORY_OUTPUT_STREAM (out)),
                           g_memory_output_stream_get_data_size (G_MEMORY_OUTPUT_STREAM (out)));
      g_assert_true (g_file_get_contents (path, &original, NULL, NULL));
      g_assert_cmpstr (written, ==, original);
    }
}

/* ---- tables ----------------------------------------------------------------------------- */

static const WsTraceCopy *
find_copy (GPtrArray *copies, WsCopyDirection direction, WsHostMemory memory)
{
  for (guint i = 0; i < copies->len; i++)
    {
      const WsTraceCopy *c = g_ptr_array_index (copies, i);

      if (c->kind == WS_ACTIVITY_MEMCPY && c->direction == direction && c->host_memory == memory)
        return c;
    }
  return NULL;
}

static void
check_copy (GPtrArray *copies, GPtrArray *records, WsCopyDirection direction,
            WsHostMemory memory)
{
  const WsTraceCopy *c = find_copy (copies, direction, memory);
  guint count;
  gint64 bytes, ns;

  sum_file (records, "memcpy", ws_copy_direction_to_string (direction),
            ws_host_memory_to_string (memory), &count, &bytes, &ns);
  g_assert_cmpuint (count, >, 0);
  g_assert_nonnull (c);
  g_assert_cmpuint (c->count, ==, count);
  g_assert_cmpuint (c->bytes, ==, (guint64) bytes);
  g_assert_cmpfloat_with_epsilon (c->total_ns, (double) ns, 0.5);
  g_assert_cmpfloat_with_epsilon (c->gbs, (double) bytes / (double) ns, 1e-9);
}

/* The tutorial's §4 vector add: one kernel configuration and its copies, as the file has them. */
static void
test_tables_vector_add (void)
{
  g_autoptr (WsSession) session = ws_test_load_sample ("trace-vector-add-h200.jsonl");
  g_autoptr (GPtrArray) records = records_of ("trace-vector-add-h200.jsonl");
  WsTrace *trace = ws_session_get_trace (session);
  g_autoptr (GPtrArray) kernels = ws_trace_collect_kernels (trace, WS_TRACE_ALL_PROGRAMS);
  g_autoptr (GPtrArray) copies = ws_trace_collect_copies (trace, 0);
  g_autoptr (GPtrArray) api = ws_trace_collect_api (trace, 0);
  const WsTraceKernel *k;
  guint count;
  gint64 bytes, ns;

  g_assert_cmpuint (kernels->len, ==, 1);
  k = g_ptr_array_index (kernels, 0);
  g_assert_cmpstr (k->short_name, ==, "add_kernel");
  g_assert_true (g_str_has_prefix (k->name, "__main__::add_kernel[abi:v1][abi:cw51"));
  g_assert_true (g_str_has_suffix (k->name, "(Array<float, 1, C, mutable, aligned>, Array<float, "
                                            "1, C, mutable, aligned>, Array<float, 1, C, mutable, "
                                            "aligned>)"));
  g_assert_cmpuint (k->grid[0], ==, 39063);
  g_assert_cmpuint (k->block[0], ==, 256);
  g_assert_cmpuint (ws_trace_kernel_threads (k), ==, 256);
  g_assert_cmpuint (k->registers, ==, 16);
  g_assert_cmpuint (k->static_smem + k->dynamic_smem, ==, 0);
  sum_file (records, "kernel", NULL, NULL, &count, &bytes, &ns);
  g_assert_cmpuint (k->count, ==, count);
  g_assert_cmpuint (k->count, ==, 1);
  g_assert_cmpfloat (k->total_ns, ==, (double) ns);
  g_assert_cmpfloat (k->median_ns, ==, (double) ns);
  g_assert_cmpfloat (k->share, ==, 1.0);
  g_assert_true (k->has_occupancy);
  g_assert_cmpfloat (k->occupancy.occupancy, ==, 1.0);
  g_assert_false (ws_trace_kernel_is_library (k->name));

  check_copy (copies, records, WS_COPY_HTOD, WS_HOST_MEMORY_PAGEABLE);
  check_copy (copies, records, WS_COPY_DTOH, WS_HOST_MEMORY_PAGEABLE);
  g_assert_cmpuint (find_copy (copies, WS_COPY_HTOD, WS_HOST_MEMORY_PAGEABLE)->bytes, ==, 80000000);
  g_assert_cmpuint (find_copy (copies, WS_COPY_HTOD, WS_HOST_MEMORY_PAGEABLE)->n_async, ==, 0);
  g_assert_cmpuint (copies->len, ==, 2);

  /* API calls, longest first: the context's creation leads. */
  g_assert_cmpuint (api->len, >, 3);
  g_assert_cmpstr (((WsTraceApi *) g_ptr_array_index (api, 0))->name, ==,
                   "cuDevicePrimaryCtxRetain");
  for (guint i = 1; i < api->len; i++)
    g_assert_cmpfloat (((WsTraceApi *) g_ptr_array_index (api, i - 1))->total_ns, >=,
                       ((WsTraceApi *) g_ptr_array_index (api, i))->total_ns);
}

/* The advised program: 21 launches of one configuration, pinned copies. */
static void
test_tables_advised (void)
{
  g_autoptr (WsSession) session = ws_test_load_sample ("trace-vector-add-advised-h200.jsonl");
  g_autoptr (GPtrArray) records = records_of ("trace-vector-add-advised-h200.jsonl");
  WsTrace *trace = ws_session_get_trace (session);
  g_autoptr (GPtrArray) kernels = ws_trace_collect_kernels (trace, 0);
  g_autoptr (GPtrArray) copies = ws_trace_collect_copies (trace, 0);
  const WsTraceKernel *k;
  guint count;
  gint64 bytes, ns;

  g_assert_cmpuint (kernels->len, ==, 1);
  k = g_ptr_array_index (kernels, 0);
  sum_file (records, "kernel", NULL, NULL, &count, &bytes, &ns);
  g_assert_cmpuint (k->count, ==, count);
  g_assert_cmpuint (k->count, ==, 21);
  g_assert_cmpfloat (k->total_ns, ==, (double) ns);
  g_assert_cmpfloat (k->min_ns, <=, k->median_ns);
  g_assert_cmpfloat (k->median_ns, <=, k->max_ns);
  g_assert_cmpuint (k->spans->len, ==, 21);
  check_copy (copies, records, WS_COPY_HTOD, WS_HOST_MEMORY_PINNED);
  check_copy (copies, records, WS_COPY_DTOH, WS_HOST_MEMORY_PINNED);
  g_assert_null (find_copy (copies, WS_COPY_HTOD, WS_HOST_MEMORY_PAGEABLE));
}

/* PyTorch's SGEMM loop: library kernels with their occupancy and what limits it. */
static void
test_tables_torch (void)
{
  g_autoptr (WsSession) session = ws_test_load_sample ("trace-torch-matmul-h200.jsonl");
  g_autoptr (GPtrArray) records = records_of ("trace-torch-matmul-h200.jsonl");
  WsTrace *trace = ws_session_get_trace (session);
  g_autoptr (GPtrArray) kernels = ws_trace_collect_kernels (trace, 0);
  g_autoptr (GPtrArray) copies = ws_trace_collect_copies (trace, 0);
  const WsTraceKernel *gemm, *fill;
  guint count;
  gint64 bytes, ns;

  g_assert_cmpuint (kernels->len, ==, 2);
  gemm = g_ptr_array_index (kernels, 0);
  fill = g_ptr_array_index (kernels, 1);
  g_assert_cmpstr (gemm->short_name, ==, "Kernel2<cutlass_80_simt_sgemm_256x128_8x4_nn_align1>");
  g_assert_true (g_str_has_prefix (fill->short_name,
                                   "distribution_elementwise_grid_stride_kernel<"));
  g_assert_true (g_str_has_suffix (fill->short_name, "…>"));
  sum_file (records, "kernel", NULL, NULL, &count, &bytes, &ns);
  g_assert_cmpuint (gemm->count + fill->count, ==, count);
  g_assert_cmpuint (gemm->count, ==, 21);
  g_assert_cmpuint (fill->count, ==, 2);
  g_assert_cmpfloat_with_epsilon (gemm->total_ns + fill->total_ns, (double) ns, 0.5);
  g_assert_cmpfloat_with_epsilon (gemm->share + fill->share, 1.0, 1e-9);
  g_assert_cmpfloat (gemm->share, >, 0.99);
  /* 202 registers × 256 threads: one block per SM, 8 of 64 warps; 44 registers: five blocks. */
  g_assert_true (gemm->has_occupancy);
  g_assert_cmpint (gemm->occupancy.active_blocks, ==, 1);
  g_assert_cmpfloat (gemm->occupancy.occupancy, ==, 0.125);
  g_assert_cmpint (gemm->occupancy.limiter, ==, WS_LIMITER_REGISTERS);
  g_assert_cmpuint (gemm->static_smem + gemm->dynamic_smem, ==, 49152);
  g_assert_cmpint (fill->occupancy.active_blocks, ==, 5);
  g_assert_cmpfloat (fill->occupancy.occupancy, ==, 0.625);
  g_assert_cmpint (fill->occupancy.limiter, ==, WS_LIMITER_REGISTERS);
  g_assert_true (ws_trace_kernel_is_library (gemm->name));
  g_assert_true (ws_trace_kernel_is_library (fill->name));
  check_copy (copies, records, WS_COPY_DTOH, WS_HOST_MEMORY_PINNED);
  g_assert_cmpuint (find_copy (copies, WS_COPY_DTOH, WS_HOST_MEMORY_PINNED)->n_async, ==, 1);
}

static void
test_short_names (void)
{
  static const struct
  {
    const char *name, *short_name;
  } cases[] = {
    { "add_kernel(float const*, float const*, float*, int)", "add_kernel" },
    { "scale", "scale" },
    { "__main__::add_kernel[abi:v1][abi:cw51cX](Array<float, 1, C, mutable, aligned>)",
      "add_kernel" },
    { "void cutlass::Kernel2<cutlass_80_simt_sgemm_256x128_8x4_nn_align1>(cutlass_80_simt_sgemm_"
      "256x128_8x4_nn_align1::Params)",
      "Kernel2<cutlass_80_simt_sgemm_256x128_8x4_nn_align1>" },
    { "void ns::(anonymous namespace)::k<int>(int)", "k<int>" },
    { "sm90_xmma_gemm_f32f32_f32f32_f32_nn_n_tilesize128x128x8",
      "sm90_xmma_gemm_f32f32_f32f32_f32_nn_n_tilesize128x128x8" },
    { "f[", "f[" },
    { "", "" },
    { ")(", ")(" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *s = ws_trace_kernel_short_name (cases[i].name);

      g_assert_cmpstr (s, ==, cases[i].short_name);
    }
  g_assert_false (ws_trace_kernel_is_library ("add_kernel(float*)"));
  g_assert_true (ws_trace_kernel_is_library ("sm90_xmma_gemm_f32f32_f32f32_f32_nn_n_tilesize128"));
}

/* ---- a stream framed by the runner ---------------------------------------------------------- */

/* What warpscope-runner --trace writes around the library's lines for a sweep of two points:
 * its hello, then for each run a program record, the lines with program_run, program_end;
 * done. Built here from the recording as the runner relays it (tests/test-runner-trace.c
 * checks the runner itself). */
static char *
runner_stream (const char *sample, int points)
{
  g_autofree char *path = ws_test_sample (sample);
  g_autofree char *text = NULL;
  g_auto (GStrv) lines = NULL;
  GString *s = g_string_new ("{\"type\":\"hello\",\"t\":0,\"protocol\":2,\"source\":\"trace\","
                             "\"runner\":\"0.1.0\",\"time\":\"2026-12-01T10:00:00Z\","
                             "\"argv\":[\"--trace\"]}\n");

  g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
  lines = g_strsplit (text, "\n", -1);
  for (int p = 1; p <= points; p++)
    {
      g_string_append_printf (s, "{\"type\":\"program\",\"t\":1,\"program_run\":%d,\"of\":%d,"
                                 "\"params\":[{\"name\":\"TPB\",\"value\":\"%d\"}],"
                                 "\"argv\":[\"python3\",\"vadd.py\",\"--tpb\",\"%d\"],"
                                 "\"env\":{\"X\":\"%d\"},\"cwd\":\"/tmp\","
                                 "\"path\":\"/usr/bin/python3\","
                                 "\"monotonic_ns\":0}\n",
                              p, points, 32 << p, 32 << p, p);
      for (guint i = 0; lines[i] != NULL; i++)
        if (g_str_has_prefix (lines[i], "{\"type\":\""))
          {
            const char *q = strchr (lines[i] + 9, '"');

            g_string_append_len (s, lines[i], q + 1 - lines[i]);
            g_string_append_printf (s, ",\"program_run\":%d%s\n", p, q + 1);
          }
      g_string_append_printf (s, "{\"type\":\"program_end\",\"t\":2,\"program_run\":%d,"
                                 "\"reason\":\"exit\",\"exit_status\":%d,\"wall_ns\":5000000,"
                                 "\"monotonic_ns\":0,\"processes\":1,\"records\":44}\n",
                              p, p - 1);
    }
  g_string_append (s, "{\"type\":\"done\",\"t\":3,\"runs\":2,\"failed\":1,\"dropped_records\":0,"
                      "\"exit_code\":1}\n");
  return g_string_free (s, FALSE);
}

static void
test_runner_stream (void)
{
  g_autofree char *text = runner_stream ("trace-vector-add-h200.jsonl", 2);
  g_autoptr (WsSession) session = ws_test_load_text (text);
  WsTrace *trace = ws_session_get_trace (session);
  g_autoptr (GPtrArray) kernels = NULL;
  g_autoptr (GPtrArray) series = NULL;
  g_autoptr (GPtrArray) findings = NULL;
  const WsTraceProgram *p1, *p2;
  WsTraceSeries *s;
  int exit_code = -1;

  g_assert_nonnull (trace);
  g_assert_true (ws_trace_is_from_runner (trace));
  g_assert_true (ws_session_is_done (session, &exit_code, NULL));
  g_assert_cmpint (exit_code, ==, 1);
  g_assert_cmpuint (ws_session_get_problems (session)->len, ==, 0);
  g_assert_cmpuint (ws_trace_get_programs (trace)->len, ==, 2);
  p1 = ws_trace_get_program (trace, 1);
  p2 = ws_trace_get_program (trace, 2);
  g_assert_nonnull (p1);
  g_assert_nonnull (p2);
  g_assert_null (ws_trace_get_program (trace, 0));
  g_assert_cmpuint (p1->of, ==, 2);
  g_assert_cmpuint (p1->n_params, ==, 1);
  g_assert_cmpstr (p1->params[0].name, ==, "TPB");
  g_assert_cmpstr (p1->params[0].value, ==, "64");
  g_assert_cmpstr (p2->params[0].value, ==, "128");
  g_assert_cmpstr (p2->argv[3], ==, "128");
  g_assert_cmpstr (p2->env[0], ==, "X=2");
  g_assert_cmpstr (p2->path, ==, "/usr/bin/python3");
  g_assert_true (p1->ended && p2->ended);
  g_assert_cmpint (p1->exit_status, ==, 0);
  g_assert_cmpint (p2->exit_status, ==, 1);
  g_assert_cmpstr (p2->end_reason, ==, "exit");
  g_assert_cmpuint (p1->n_processes, ==, 1);
  g_assert_cmpuint (ws_trace_get_processes (trace)->len, ==, 2);
  /* The same pid in two runs is two processes, each its run's. */
  {
    WsTraceProcess *second = g_ptr_array_index (ws_trace_get_processes (trace), 1);

    g_assert_cmpuint (second->program, ==, 2);
  }
  /* One device for the session, however many processes describe it. */
  g_assert_cmpuint (g_list_model_get_n_items (ws_session_get_devices (session)), ==, 1);

  kernels = ws_trace_collect_kernels (trace, WS_TRACE_ALL_PROGRAMS);
  g_assert_cmpuint (kernels->len, ==, 2);
  g_assert_cmpuint (((WsTraceKernel *) g_ptr_array_index (kernels, 0))->program, ==, 1);
  g_assert_cmpuint (((WsTraceKernel *) g_ptr_array_index (kernels, 1))->program, ==, 2);
  g_assert_cmpfloat (((WsTraceKernel *) g_ptr_array_index (kernels, 1))->share, ==, 1.0);
  g_clear_pointer (&kernels, g_ptr_array_unref);
  kernels = ws_trace_collect_kernels (trace, 2);
  g_assert_cmpuint (kernels->len, ==, 1);

  series = ws_trace_collect_series (trace);
  g_assert_cmpuint (series->len, ==, 1);
  s = g_ptr_array_index (series, 0);
  g_assert_cmpstr (s->short_name, ==, "add_kernel");
  g_assert_cmpuint (s->points->len, ==, 2);
  g_assert_cmpuint (((WsTraceKernel *) g_ptr_array_index (s->points, 0))->program, ==, 1);

  /* Each run is judged on its own. */
  findings = ws_analyze_trace (session);
  for (guint run = 1; run <= 2; run++)
    {
      gboolean compile = FALSE;

      for (guint i = 0; i < findings->len; i++)
        {
          WsFinding *f = g_ptr_array_index (findings, i);

          g_assert_true (f->trace);
          compile |= f->program == run && f->kind == WS_FINDING_TIMED_COMPILE;
        }
      g_assert_true (compile);
    }
}

/* Lines fed one at a time, as they arrive from a live runner: the counts grow, unknown kinds
 * and records of a later protocol are kept, a process that never closed its records is named. */
static void
test_live_and_odd (void)
{
  g_autoptr (WsSession) session = ws_session_new (WS_SESSION_SOURCE_LIVE);
  g_autoptr (GError) error = NULL;
  const char *lines[] = {
    "{\"type\":\"hello\",\"t\":0,\"pid\":7,\"protocol\":2,\"source\":\"trace\",\"command\":[\"a\"],"
    "\"clock_origin_ns\":1000,\"process_start\":-500}",
    "{\"type\":\"activity\",\"t\":1,\"pid\":7,\"kind\":\"kernel\",\"start\":10,\"end\":20,"
    "\"name\":\"k\",\"grid\":[1,1,1],\"block\":[33,1,1],\"correlation\":3}",
    "{\"type\":\"activity\",\"t\":1,\"pid\":7,\"kind\":\"memcpy\",\"start\":30,\"end\":40,"
    "\"direction\":\"htod\",\"bytes\":8,\"host_memory\":\"pageable\"}",
    "{\"type\":\"activity\",\"t\":1,\"pid\":7,\"kind\":\"nvtx\",\"nvtx\":\"range\",\"start\":5,"
    "\"end\":null,\"open\":true,\"name\":\"loop\"}",
    "{\"type\":\"activity\",\"t\":1,\"pid\":7,\"kind\":\"kernel\",\"start\":null,\"end\":null,"
    "\"name\":\"k\"}",
    "{\"type\":\"activity\",\"t\":1,\"pid\":7,\"kind\":\"a_later_kind\",\"start\":50,\"end\":60}",
    "{\"type\":\"activity\",\"t\":1,\"pid\":9,\"kind\":\"kernel\",\"start\":70,\"end\":80,"
    "\"name\":\"orphan\"}",
    "{\"type\":\"a_later_record\",\"t\":2}",
  };
  guint kernels = 0, copies = 0, n;
  const WsSpan *spans;
  WsTrace *trace;

  for (guint i = 0; i < G_N_ELEMENTS (lines); i++)
    {
      g_assert_true (ws_session_feed_line (session, lines[i], -1, &error));
      g_assert_no_error (error);
      trace = ws_session_get_trace (session);
      g_assert_nonnull (trace);
      ws_trace_count (trace, &kernels, &copies);
      if (i == 1)
        g_assert_cmpuint (kernels, ==, 1);
    }
  g_assert_cmpuint (kernels, ==, 2); /* the untimed one has no place on the axis */
  g_assert_cmpuint (copies, ==, 1);
  ws_session_end (session);
  trace = ws_session_get_trace (session);
  spans = ws_trace_get_spans (trace, &n);
  g_assert_cmpuint (n, ==, 5);
  /* The open range closes where its process's records end. */
  g_assert_true (ws_span_is_nvtx_range (&spans[0]));
  g_assert_true (spans[0].flags & WS_SPAN_OPEN);
  g_assert_cmpint (spans[0].end, ==, 60);
  g_assert_cmpint (spans[3].kind, ==, WS_ACTIVITY_OTHER);
  /* Two processes: the second's hello never came. Neither closed its records. */
  g_assert_cmpuint (ws_trace_get_processes (trace)->len, ==, 2);
  g_assert_cmpuint (ws_session_get_n_activities (session), ==, 6);
  g_assert_cmpuint (ws_session_get_problems (session)->len, ==, 2);
  g_assert_nonnull (strstr (((WsProblem *) g_ptr_array_index (ws_session_get_problems (session), 0))
                              ->message,
                            "process 7 (a) ended without its closing record"));
  {
    g_autoptr (GPtrArray) findings = ws_analyze_trace (session);
    gboolean partial = FALSE;

    /* A block of 33 threads wastes most of its second warp. */
    for (guint i = 0; i < findings->len; i++)
      partial |= ((WsFinding *) g_ptr_array_index (findings, i))->kind == WS_FINDING_PARTIAL_WARP;
    g_assert_true (partial);
  }
}

/* The trace command, as the app's dialog and the CLI make it: the runner's options first, then
 * -- and the program's words exactly as given; what a person typed wrong is refused with what
 * to change. */
/* One activity record is one span whoever wrote it: the runner's sweep (the fast path and the
 * general one) and a traced program read a kernel and a copy into the same fields; only the
 * times (each source's own axis), the group (run) and the process differ. */
static const WsSpan *
first_span_of_run (WsSession *session, const char *line)
{
  g_autoptr (GError) error = NULL;
  guint n;

  g_assert_true (ws_session_feed_line (session, line, -1, &error));
  g_assert_no_error (error);
  return ws_run_get_activities (ws_session_find_run (session, 1), &n) + n - 1;
}

static void
assert_same_span (const WsSpan *a, const WsSpan *b)
{
  g_assert_cmpint (a->kind, ==, b->kind);
  g_assert_true (a->name == b->name);
  g_assert_true (a->detail == b->detail);
  g_assert_cmpuint (a->bytes, ==, b->bytes);
  g_assert_cmpuint (a->correlation, ==, b->correlation);
  g_assert_cmpuint (a->stream, ==, b->stream);
  g_assert_cmpmem (a->grid, sizeof a->grid, b->grid, sizeof b->grid);
  g_assert_cmpmem (a->block, sizeof a->block, b->block, sizeof b->block);
  g_assert_cmpuint (a->registers, ==, b->registers);
  g_assert_cmpuint (a->static_smem, ==, b->static_smem);
  g_assert_cmpuint (a->dynamic_smem, ==, b->dynamic_smem);
  g_assert_cmpint (a->direction, ==, b->direction);
  g_assert_cmpint (a->host_memory, ==, b->host_memory);
  g_assert_cmpint (a->flags, ==, b->flags);
  g_assert_cmpint (a->end - a->start, ==, b->end - b->start);
}

static void
test_one_reader (void)
{
  const char *records[] = {
    "\"kind\":\"kernel\",\"name\":\"vector_add\",\"grid\":[40,2,1],\"block\":[256,1,1],"
    "\"registers\":16,\"static_smem\":1024,\"dynamic_smem\":64,\"stream\":7,"
    "\"correlation\":12,\"start\":1000,\"end\":1500}",
    "\"kind\":\"memcpy\",\"direction\":\"htod\",\"host_memory\":\"pinned\",\"bytes\":4096,"
    "\"async\":true,\"stream\":7,\"correlation\":13,\"start\":2000,\"end\":2600}",
  };

  for (guint i = 0; i < G_N_ELEMENTS (records); i++)
    {
      g_autoptr (WsSession) fast = ws_session_new (WS_SESSION_SOURCE_LIVE);
      g_autoptr (WsSession) general = ws_session_new (WS_SESSION_SOURCE_LIVE);
      g_autoptr (WsSession) traced = ws_session_new (WS_SESSION_SOURCE_LIVE);
      g_autoptr (GError) error = NULL;
      g_autofree char *runner_line
        = g_strconcat ("{\"type\":\"activity\",\"run\":1,", records[i], NULL);
      /* The same members after one the fast path does not expect: the general path. */
      g_autofree char *general_line
        = g_strconcat ("{\"a_later_member\":0,\"type\":\"activity\",\"run\":1,", records[i],
                       NULL);
      g_autofree char *trace_line
        = g_strconcat ("{\"type\":\"activity\",\"t\":1,\"pid\":7,", records[i], NULL);
      const WsSpan *a, *b, *c;
      guint n;

      for (WsSession **s = (WsSession *[]) { fast, general, NULL }; *s != NULL; s++)
        {
          g_assert_true (ws_session_feed_line (*s, "{\"type\":\"hello\",\"protocol\":1}", -1,
                                               &error));
          g_assert_true (ws_session_feed_line (*s, "{\"type\":\"run\",\"id\":1}", -1, &error));
          g_assert_no_error (error);
        }
      a = first_span_of_run (fast, runner_line);
      b = first_span_of_run (general, general_line);
      g_assert_true (ws_session_feed_line (
        traced,
        "{\"type\":\"hello\",\"t\":0,\"pid\":7,\"protocol\":2,\"source\":\"trace\","
        "\"command\":[\"a\"],\"clock_origin_ns\":500,\"process_start\":0}",
        -1, &error));
      g_assert_true (ws_session_feed_line (traced, trace_line, -1, &error));
      g_assert_no_error (error);
      c = ws_trace_get_spans (ws_session_get_trace (traced), &n);
      g_assert_cmpuint (n, ==, 1);
      assert_same_span (a, b);
      assert_same_span (a, c);
      g_assert_cmpuint (a->run, ==, 1);
      g_assert_cmpuint (b->run, ==, 1);
      g_assert_cmpint (a->start, ==, b->start);
      g_assert_cmpuint (c->run, ==, 0); /* the library's own trace: program run 0 */
    }
}

static void
test_command (void)
{
  g_auto (WsTraceCommand) c = { 0 };
  g_autoptr (GError) error = NULL;
  g_auto (GStrv) argv = NULL;
  g_auto (GStrv) items = ws_trace_command_split_items ("  A=1\tB=2  ");
  const char *const expected[] = { "/r", "--trace", "--sweep", "TPB=32,64", "--env", "X=1",
                                   "--cwd", "/tmp", "--timeout", "60", "--no-ceilings", "--",
                                   "python3", "v.py", "--tpb", "{TPB}", "--", "two words",
                                   NULL };

  g_assert_cmpuint (g_strv_length (items), ==, 2);
  g_assert_cmpstr (items[1], ==, "B=2");
  c.program = ws_trace_command_split ("python3 v.py --tpb {TPB} -- 'two words'", &error);
  g_assert_no_error (error);
  c.sweeps = g_strsplit ("TPB=32,64", " ", -1);
  c.env = g_strsplit ("X=1", " ", -1);
  c.cwd = g_strdup ("/tmp");
  c.timeout = g_strdup ("60");
  c.no_ceilings = TRUE;
  argv = ws_trace_command_build_argv (&c, "/r", &error);
  g_assert_no_error (error);
  g_assert_cmpstrv (argv, expected);

  /* What is refused, and the words that say why. */
  {
    struct
    {
      const char *program, *env, *sweep, *words;
    } cases[] = {
      { "", NULL, NULL, "Which program?" },
      { "true", "1X=2", NULL, "is not NAME=VALUE" },
      { "true", "X", NULL, "is not NAME=VALUE" },
      { "true", NULL, "TPB", "is not NAME=V1,V2" },
      { "true", NULL, "TPB=32,,64", "has an empty value" },
      { "true", NULL, "TPB=", "has an empty value" },
      { "true --n {N}", NULL, "TPB=32", "The sweep over TPB changes nothing" },
    };

    for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
      {
        g_auto (WsTraceCommand) bad = { 0 };
        g_autoptr (GError) e = NULL;

        bad.program = g_strsplit (cases[i].program, " ", -1);
        bad.env = cases[i].env ? g_strsplit (cases[i].env, " ", -1) : NULL;
        bad.sweeps = cases[i].sweep ? g_strsplit (cases[i].sweep, " ", -1) : NULL;
        g_assert_null (ws_trace_command_build_argv (&bad, "/r", &e));
        g_assert_nonnull (e);
        if (strstr (e->message, cases[i].words) == NULL)
          g_error ("“%s” is not in “%s”", cases[i].words, e->message);
      }
  }
  g_assert_null (ws_trace_command_split ("python3 'open", &error));
  g_assert_nonnull (strstr (error->message, "check its quotes"));
}

/* The words for what became of a program: its error codes in plain words, the runner's
 * sentence kept; a warning is no failure. */
static void
test_command_words (void)
{
  WsRunnerError e = { .severity = WS_ERROR_SEVERITY_ERROR, .code = WS_ERROR_CUPTI_IN_USE,
                      .code_name = (char *) "cupti_in_use", .message = (char *) "held" };
  WsRunnerError other = { .severity = WS_ERROR_SEVERITY_ERROR, .code = WS_ERROR_BAD_ARGUMENT,
                          .code_name = (char *) "bad_argument", .message = (char *) "bad" };
  g_autofree char *a = ws_trace_describe_error (&e);
  g_autofree char *b = ws_trace_describe_error (&other);
  const guint32 grid[3] = { 39063, 1, 1 }, block[3] = { 16, 16, 1 };
  g_autofree char *g = ws_trace_format_dims (grid), *bl = ws_trace_format_dims (block);

  g_assert_true (g_str_has_prefix (a, "Another profiler (Nsight Systems or Nsight Compute)"));
  g_assert_true (g_str_has_suffix (a, "(held)"));
  g_assert_cmpstr (b, ==, "bad");
  g_assert_cmpstr (g, ==, "39063");
  g_assert_cmpstr (bl, ==, "16×16");
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/trace/samples/read", test_samples_read);
  g_test_add_func ("/trace/samples/round-trip", test_round_trip);
  g_test_add_func ("/trace/tables/vector-add", test_tables_vector_add);
  g_test_add_func ("/trace/tables/advised", test_tables_advised);
  g_test_add_func ("/trace/tables/torch", test_tables_torch);
  g_test_add_func ("/trace/short-names", test_short_names);
  g_test_add_func ("/trace/runner-stream", test_runner_stream);
  g_test_add_func ("/trace/live-and-odd", test_live_and_odd);
  g_test_add_func ("/trace/one-reader", test_one_reader);
  g_test_add_func ("/trace/command", test_command);
  g_test_add_func ("/trace/command-words", test_command_words);
  return g_test_run ();
}
