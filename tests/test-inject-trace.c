/* test-inject-trace.c: libwarpscope-inject tracing, with stand-ins for CUPTI and the driver
 * (inject-fake-cupti.c, inject-fake-cuda.c): CUPTI's records become the protocol's, through
 * the writer thread, the periodic flush, and the end of the trace at exit and on a signal; a
 * child forked with records on their way writes none of them; NVTX is handed to CUPTI's own.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define _GNU_SOURCE /* gettid, in test-inject-child.h */
#include "test-inject-child.h"

static JsonObject *
find (Child *c, const char *type, const char *kind, const char *name)
{
  for (guint i = 0; i < c->records->len; i++)
    {
      JsonObject *o = record (c, i);

      if (strcmp (type_of (o), type) == 0
          && (kind == NULL
              || g_strcmp0 (json_object_get_string_member_with_default (o, "kind", ""), kind) == 0)
          && (name == NULL
              || g_strcmp0 (json_object_get_string_member_with_default (o, "name", ""), name) == 0))
        return o;
    }
  return NULL;
}

static gint64
span (JsonObject *o)
{
  return json_object_get_int_member (o, "end") - json_object_get_int_member (o, "start");
}

static void
run_traced (Child *c, const char *mode, const char *extra)
{
  g_autofree char *cupti = g_strdup_printf ("WARPSCOPE_LIBCUPTI=%s", g_getenv ("WS_FAKE_CUPTI"));
  g_autofree char *cuda = g_strdup_printf ("WARPSCOPE_LIBCUDA=%s", g_getenv ("WS_FAKE_CUDA"));
  const char *env[] = { cupti, cuda, extra, NULL };

  run_child (c, mode, 0, env, -1, -1);
}

/* The records the stand-in CUPTI was handed, as the protocol has them. */
static void
assert_program_records (Child *c)
{
  JsonObject *hello = record (c, 0), *o;
  gint64 pid = json_object_get_int_member (hello, "pid");

  g_assert_cmpstr (type_of (hello), ==, "hello");
  g_assert_true (json_object_get_boolean_member (hello, "driver_found"));
  g_assert_cmpstr (json_object_get_string_member (hello, "driver_cuda"), ==, "13.0");
  g_assert_cmpint (json_object_get_int_member (hello, "cupti_version"), ==, 130001);
  g_assert_null (find (c, "error", NULL, NULL));
  /* The device comes before its context, with the driver's figures. */
  g_assert_cmpstr (type_of (record (c, 1)), ==, "device");
  o = record (c, 1);
  g_assert_cmpstr (json_object_get_string_member (o, "name"), ==, "Fake GPU");
  g_assert_cmpint (json_object_get_int_member (o, "sm_count"), ==, 132);
  g_assert_cmpstr (json_object_get_string_member (o, "sm"), ==, "sm_90");
  g_assert_true (json_object_get_null_member (o, "bandwidth_measured_gbs"));
  o = record (c, 2);
  g_assert_cmpstr (type_of (o), ==, "context");
  g_assert_cmpstr (json_object_get_string_member (o, "event"), ==, "create");
  g_assert_cmpint (json_object_get_int_member (o, "context"), ==, 1);
  g_assert_cmpint (json_object_get_int_member (o, "device"), ==, 0);
  o = find (c, "module", NULL, NULL);
  g_assert_nonnull (o);
  g_assert_cmpint (json_object_get_int_member (o, "module"), ==, 5);
  g_assert_cmpint (json_object_get_int_member (o, "cubin_bytes"), ==, 1234);

  o = find (c, "activity", "api", "cudaLaunchKernel");
  g_assert_nonnull (o); /* the runtime's "_v7000" dropped */
  g_assert_cmpstr (json_object_get_string_member (o, "api"), ==, "runtime");
  g_assert_cmpint (json_object_get_int_member (o, "correlation"), ==, 10);
  g_assert_cmpint (json_object_get_int_member (o, "result"), ==, 0);
  g_assert_cmpint (span (o), ==, 7000);
  g_assert_cmpint (json_object_get_int_member (o, "start"), >, 0);
  o = find (c, "activity", "api", "cudaMemcpy");
  g_assert_nonnull (o);
  g_assert_cmpint (json_object_get_int_member (o, "result"), ==, 1);

  o = find (c, "activity", "kernel", "add_kernel(float const*, float const*, float*, int)");
  g_assert_nonnull (o);
  g_assert_cmpstr (json_object_get_string_member (o, "mangled"), ==, "_Z10add_kernelPKfS0_Pfi");
  g_assert_cmpint (json_object_get_int_member (o, "registers"), ==, 16);
  g_assert_cmpint (json_object_get_int_member (o, "stream"), ==, 7);
  g_assert_cmpint (json_object_get_int_member (o, "context"), ==, 1);
  g_assert_cmpint (json_object_get_int_member (o, "correlation"), ==, 10);
  g_assert_cmpint (json_array_get_int_element (json_object_get_array_member (o, "grid"), 0), ==,
                   39063);
  g_assert_cmpint (json_array_get_int_element (json_object_get_array_member (o, "block"), 0), ==,
                   256);
  g_assert_cmpint (span (o), ==, 36500);
  o = find (c, "activity", "kernel", "scale");
  g_assert_nonnull (o);
  g_assert_false (json_object_has_member (o, "mangled"));

  o = find (c, "activity", "memcpy", NULL);
  g_assert_nonnull (o);
  g_assert_cmpstr (json_object_get_string_member (o, "direction"), ==, "htod");
  g_assert_cmpstr (json_object_get_string_member (o, "host_memory"), ==, "pageable");
  g_assert_cmpint (json_object_get_int_member (o, "bytes"), ==, 40000000);
  g_assert_false (json_object_get_boolean_member (o, "async"));

  o = find (c, "activity", "nvtx", "loop");
  g_assert_nonnull (o);
  g_assert_cmpstr (json_object_get_string_member (o, "nvtx"), ==, "range");
  g_assert_cmpint (span (o), ==, 49900);
  g_assert_cmpint (json_object_get_int_member (o, "thread"), >, 0);
  o = find (c, "activity", "nvtx", "late start");
  g_assert_nonnull (o); /* its end came first */
  g_assert_cmpint (span (o), ==, 10000);
  o = find (c, "activity", "nvtx", "done");
  g_assert_cmpstr (json_object_get_string_member (o, "nvtx"), ==, "mark");
  g_assert_cmpint (span (o), ==, 0);
  o = find (c, "activity", "nvtx", "never ended");
  g_assert_nonnull (o);
  g_assert_true (json_object_get_boolean_member (o, "open"));
  g_assert_true (json_object_get_null_member (o, "end"));

  o = find (c, "activity", "sync", NULL);
  g_assert_cmpstr (json_object_get_string_member (o, "sync"), ==, "context_synchronize");
  g_assert_false (json_object_has_member (o, "stream"));
  o = find (c, "activity", "jit", NULL);
  g_assert_cmpstr (json_object_get_string_member (o, "jit"), ==, "ptx_to_cubin");
  g_assert_cmpstr (json_object_get_string_member (o, "operation"), ==, "compile");
  g_assert_cmpstr (json_object_get_string_member (o, "cache_path"), ==, "/tmp/jit-cache");

  for (guint i = 0; i < c->records->len; i++)
    g_assert_cmpint (json_object_get_int_member (record (c, i), "pid"), ==, pid);
}

static JsonObject *
assert_closed (Child *c)
{
  JsonObject *end = record (c, c->records->len - 1);

  g_assert_cmpstr (type_of (end), ==, "trace_end");
  g_assert_true (json_object_get_boolean_member (end, "flushed"));
  g_assert_cmpint (json_object_get_int_member (end, "records"), ==, c->records->len);
  g_assert_cmpint (json_object_get_int_member (end, "dropped_records"), ==, 2);
  g_assert_cmpint (json_object_get_int_member (end, "lost_records"), ==, 0);
  g_assert_cmpint (json_object_get_int_member (end, "api_errors"), ==, 1);
  return end;
}

static void
test_trace_exit (void)
{
  Child c = { 0 };
  JsonObject *end;

  run_traced (&c, "trace-exit", NULL);
  g_assert_true (WIFEXITED (c.status) && WEXITSTATUS (c.status) == 0);
  assert_program_records (&c);
  end = assert_closed (&c);
  g_assert_cmpstr (json_object_get_string_member (end, "reason"), ==, "exit");
  g_assert_cmpint (json_object_get_int_member (end, "exit_status"), ==, 0);
  child_clear (&c);
}

/* Killed: what CUPTI held is flushed into the trace before the closing record. */
static void
test_trace_signal (gconstpointer data)
{
  const char *mode = data;
  int sig = strcmp (mode, "trace-term") == 0 ? SIGTERM : SIGSEGV;
  Child c = { 0 };
  JsonObject *end;

  run_traced (&c, mode, NULL);
  g_assert_true (WIFSIGNALED (c.status));
  g_assert_cmpint (WTERMSIG (c.status), ==, sig);
  assert_program_records (&c);
  end = assert_closed (&c);
  g_assert_cmpstr (json_object_get_string_member (end, "reason"), ==, "signal");
  g_assert_cmpint (json_object_get_int_member (end, "signal"), ==, sig);
  child_clear (&c);
}

/* The periodic flush: records reach the file while the program still runs. */
static void
test_trace_periodic (void)
{
  Child c = { 0 };

  run_traced (&c, "trace-periodic", "WARPSCOPE_TRACE_FLUSH_MS=100");
  g_assert_true (WIFEXITED (c.status));
  g_assert_cmpint (WEXITSTATUS (c.status), ==, 42);
  assert_program_records (&c);
  assert_closed (&c);
  child_clear (&c);
}

/* A child forked after CUDA with records still in the library's memory writes none of them:
 * each record is in the trace once, and there is one closing record. */
static void
test_trace_fork (void)
{
  Child c = { 0 };
  guint kernels = 0, ends = 0;

  run_traced (&c, "trace-fork", NULL);
  g_assert_true (WIFEXITED (c.status) && WEXITSTATUS (c.status) == 0);
  for (guint i = 0; i < c.records->len; i++)
    {
      kernels += g_strcmp0 (json_object_get_string_member_with_default (record (&c, i), "kind", ""),
                            "kernel") == 0;
      ends += strcmp (type_of (record (&c, i)), "trace_end") == 0;
    }
  g_assert_cmpuint (kernels, ==, 2);
  g_assert_cmpuint (ends, ==, 1);
  assert_program_records (&c);
  assert_closed (&c);
  child_clear (&c);
}

/* NVTX's entry point hands NVTX to CUPTI's own. */
static void
test_nvtx_forwards (void)
{
  Child c = { 0 };

  run_traced (&c, "nvtx", NULL);
  g_assert_true (WIFEXITED (c.status));
  g_assert_cmpint (WEXITSTATUS (c.status), ==, 91); /* the stand-in's answer, 1, came back */
  child_clear (&c);
}

int
main (int argc, char **argv)
{
  inject_init (&argc, &argv);
  g_test_add_func ("/inject/nvtx-forwards", test_nvtx_forwards);
  g_test_add_func ("/inject/trace/exit", test_trace_exit);
  g_test_add_data_func ("/inject/trace/term", "trace-term", test_trace_signal);
  g_test_add_data_func ("/inject/trace/segv", "trace-segv", test_trace_signal);
  g_test_add_func ("/inject/trace/periodic", test_trace_periodic);
  g_test_add_func ("/inject/trace/fork", test_trace_fork);
  return g_test_run ();
}
