/* test-inject-untraced.c: libwarpscope-inject on a machine without a GPU: it exports its two
 * entry points and nothing else; loaded into a program without the driver (or without CUPTI,
 * or told nowhere to write) it fails cleanly and says why, and the program ends as it would
 * have; its closing record names the exit status or the signal; a forked child writes nothing
 * of its parent's; the trace reaches an inherited descriptor, never a reused one; NVTX's entry
 * point declines.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define _GNU_SOURCE /* gettid, in test-inject-child.h */
#include "test-inject-child.h"

/* hello first (protocol 2, from a traced program, with its command line), an error saying
 * why nothing is traced, trace_end last; every record of the child's pid and with its "t". */
static void
assert_untraced (Child *c, const char *const *codes)
{
  JsonObject *hello, *error, *end;
  JsonArray *command;
  gint64 pid;

  g_assert_cmpuint (c->records->len, ==, 3);
  hello = record (c, 0);
  error = record (c, 1);
  end = record (c, 2);
  g_assert_cmpstr (type_of (hello), ==, "hello");
  g_assert_cmpint (json_object_get_int_member (hello, "protocol"), ==, 2);
  g_assert_cmpstr (json_object_get_string_member (hello, "source"), ==, "trace");
  g_assert_false (json_object_get_boolean_member (hello, "driver_found"));
  command = json_object_get_array_member (hello, "command");
  g_assert_cmpuint (json_array_get_length (command), ==, 5);
  g_assert_cmpstr (json_array_get_string_element (command, 1), ==, "--child");
  g_assert_cmpint (json_object_get_int_member (hello, "process_start"), <, 0);
  g_assert_cmpstr (type_of (error), ==, "error");
  g_assert_true (g_strv_contains (codes, json_object_get_string_member (error, "code")));
  g_assert_cmpstr (json_object_get_string_member (error, "severity"), ==, "error");
  g_assert_nonnull (strstr (c->err, json_object_get_string_member (error, "message")));
  g_assert_cmpstr (type_of (end), ==, "trace_end");
  g_assert_false (json_object_get_boolean_member (end, "flushed"));
  g_assert_cmpint (json_object_get_int_member (end, "records"), ==, 3);
  pid = json_object_get_int_member (hello, "pid");
  for (guint i = 0; i < c->records->len; i++)
    {
      g_assert_cmpint (json_object_get_int_member (record (c, i), "pid"), ==, pid);
      g_assert_true (json_object_has_member (record (c, i), "t"));
    }
}

static const char *const either[] = { "no_driver", "cupti_unavailable", NULL };

static void
test_exports (void)
{
  g_autofree char *nm = g_find_program_in_path ("nm");
  g_autofree char *out = NULL;
  g_autoptr (GError) error = NULL;
  g_auto (GStrv) lines = NULL;
  g_autoptr (GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
  const char *argv[] = { nm, "-D", "--defined-only", g_getenv ("WS_INJECT_LIB"), NULL };
  int status;

  if (nm == NULL)
    {
      g_test_skip ("nm (binutils) is not installed");
      return;
    }
  g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_DEFAULT, NULL, NULL, &out, NULL, &status,
                &error);
  g_assert_no_error (error);
  g_assert_true (g_spawn_check_wait_status (status, NULL));
  lines = g_strsplit (out, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      g_auto (GStrv) f = g_strsplit_set (g_strstrip (lines[i]), " \t", -1);
      guint n = g_strv_length (f);

      /* "ADDRESS TYPE NAME"; absolute symbols of the linker (type A) are no code of ours. */
      if (n >= 3 && strcmp (f[n - 2], "A") != 0)
        g_ptr_array_add (names, g_strdup (f[n - 1]));
    }
  g_ptr_array_add (names, NULL);
  g_assert_cmpuint (names->len, ==, 3);
  g_assert_true (g_strv_contains ((const char *const *) names->pdata, "InitializeInjection"));
  g_assert_true (g_strv_contains ((const char *const *) names->pdata, "InitializeInjectionNvtx2"));
}

static void
test_no_driver (void)
{
  Child c = { 0 };

  run_child (&c, "exit", 7, NULL, -1, -1);
  g_assert_true (WIFEXITED (c.status));
  g_assert_cmpint (WEXITSTATUS (c.status), ==, 7);
  assert_untraced (&c, either);
  g_assert_cmpstr (json_object_get_string_member (record (&c, 2), "reason"), ==, "exit");
  g_assert_cmpint (json_object_get_int_member (record (&c, 2), "exit_status"), ==, 7);
  child_clear (&c);
}

static void
test_no_cupti (void)
{
  const char *env[] = { "WARPSCOPE_LIBCUPTI=/nonexistent/libcupti.so", NULL };
  const char *const codes[] = { "cupti_unavailable", NULL };
  Child c = { 0 };

  run_child (&c, "exit", 0, env, -1, -1);
  g_assert_true (WIFEXITED (c.status) && WEXITSTATUS (c.status) == 0);
  assert_untraced (&c, codes);
  g_assert_true (json_object_get_null_member (record (&c, 0), "cupti_version"));
  g_assert_nonnull (strstr (c.err, "WARPSCOPE_LIBCUPTI"));
  child_clear (&c);
}

/* A library that opens but is not CUPTI: the message names what it lacks. */
static void
test_cupti_lacks (void)
{
  const char *env[] = { "WARPSCOPE_LIBCUPTI=libm.so.6", NULL };
  const char *const codes[] = { "cupti_unavailable", NULL };
  Child c = { 0 };

  run_child (&c, "exit", 0, env, -1, -1);
  g_assert_true (WIFEXITED (c.status) && WEXITSTATUS (c.status) == 0);
  assert_untraced (&c, codes);
  g_assert_true (json_object_get_null_member (record (&c, 0), "cupti_version"));
  g_assert_nonnull (strstr (json_object_get_string_member (record (&c, 1), "message"),
                            "cuptiActivityRegisterCallbacks in libm.so.6"));
  child_clear (&c);
}

static void
test_nowhere (void)
{
  const char *env[] = { "WARPSCOPE_TRACE_FILE=", NULL };
  Child c = { 0 };

  run_child (&c, "exit", 4, env, -1, -1);
  g_assert_true (WIFEXITED (c.status) && WEXITSTATUS (c.status) == 4);
  g_assert_cmpuint (c.records->len, ==, 0);
  g_assert_nonnull (strstr (c.err, "WARPSCOPE_TRACE_FILE"));
  child_clear (&c);
}

/* Killed by a signal with its default action: the closing record names it, and the program
 * still dies of it, as untraced. */
static void
test_signal (gconstpointer data)
{
  const char *mode = data;
  int sig = strcmp (mode, "term") == 0 ? SIGTERM : SIGSEGV;
  Child c = { 0 };

  run_child (&c, mode, 0, NULL, -1, -1);
  g_assert_true (WIFSIGNALED (c.status));
  g_assert_cmpint (WTERMSIG (c.status), ==, sig);
  assert_untraced (&c, either);
  g_assert_cmpstr (json_object_get_string_member (record (&c, 2), "reason"), ==, "signal");
  g_assert_cmpint (json_object_get_int_member (record (&c, 2), "signal"), ==, sig);
  g_assert_cmpstr (json_object_get_string_member (record (&c, 2), "signal_name"), ==,
                   sig == SIGTERM ? "SIGTERM" : "SIGSEGV");
  child_clear (&c);
}

/* A signal the program handles (as Python handles SIGINT) or ignores is still its own. */
static void
test_program_signals (void)
{
  Child c = { 0 };

  run_child (&c, "own-int", 6, NULL, -1, -1);
  g_assert_true (WIFEXITED (c.status));
  g_assert_cmpint (WEXITSTATUS (c.status), ==, 6);
  assert_untraced (&c, either);
  g_assert_cmpint (json_object_get_int_member (record (&c, 2), "exit_status"), ==, 6);
  child_clear (&c);

  run_child (&c, "ignored-term", 8, NULL, -1, -1);
  g_assert_true (WIFEXITED (c.status));
  g_assert_cmpint (WEXITSTATUS (c.status), ==, 8);
  assert_untraced (&c, either);
  child_clear (&c);
}

/* The forked child's exit runs the exit handlers it inherited; it must write nothing: what
 * the library holds is its parent's. */
static void
test_fork (void)
{
  Child c = { 0 };

  run_child (&c, "fork", 3, NULL, -1, -1);
  g_assert_true (WIFEXITED (c.status) && WEXITSTATUS (c.status) == 3);
  assert_untraced (&c, either);
  g_assert_cmpint (json_object_get_int_member (record (&c, 2), "exit_status"), ==, 3);
  child_clear (&c);
}

static void
test_descriptor (void)
{
  const char *env[] = { "WARPSCOPE_TRACE_FD=3", NULL };
  Child c = { 0 };
  int p[2];

  g_assert_cmpint (pipe (p), ==, 0);
  run_child (&c, "exit", 5, env, p[1], p[0]);
  g_assert_true (WIFEXITED (c.status) && WEXITSTATUS (c.status) == 5);
  assert_untraced (&c, either);
  child_clear (&c);
}

/* WARPSCOPE_TRACE_FD_INODE names another file than descriptor 3 is: the number was reused,
 * and nothing may be written into it. */
static void
test_reused_descriptor (void)
{
  const char *env[] = { "WARPSCOPE_TRACE_FD=3", "WARPSCOPE_TRACE_FD_INODE=1:1", NULL };
  Child c = { 0 };
  int p[2];

  g_assert_cmpint (pipe (p), ==, 0);
  run_child (&c, "exit", 5, env, p[1], p[0]);
  g_assert_true (WIFEXITED (c.status) && WEXITSTATUS (c.status) == 5);
  g_assert_cmpuint (c.records->len, ==, 0);
  g_assert_nonnull (strstr (c.err, "reused"));
  child_clear (&c);

  env[0] = "WARPSCOPE_TRACE_FD=17";
  env[1] = "WARPSCOPE_TRACE_FILE="; /* the descriptor alone names the output */
  run_child (&c, "exit", 5, env, -1, -1);
  g_assert_cmpuint (c.records->len, ==, 0);
  g_assert_nonnull (strstr (c.err, "not an open descriptor"));
  child_clear (&c);
}

/* NVTX's entry point declines (NVTX stays a no-op) when told to or without CUPTI. */
static void
test_nvtx_declines (void)
{
  const char *off[] = { "WARPSCOPE_TRACE_NVTX=0", NULL };
  const char *no_cupti[] = { "WARPSCOPE_LIBCUPTI=/nonexistent/libcupti.so", NULL };
  Child c = { 0 };

  run_child (&c, "nvtx", 0, off, -1, -1);
  g_assert_true (WIFEXITED (c.status) && WEXITSTATUS (c.status) == 0);
  g_assert_cmpuint (c.records->len, ==, 0);
  child_clear (&c);
  run_child (&c, "nvtx", 0, no_cupti, -1, -1);
  g_assert_true (WIFEXITED (c.status) && WEXITSTATUS (c.status) == 0);
  child_clear (&c);
}

int
main (int argc, char **argv)
{
  inject_init (&argc, &argv);
  g_test_add_func ("/inject/exports", test_exports);
  g_test_add_func ("/inject/no-driver", test_no_driver);
  g_test_add_func ("/inject/no-cupti", test_no_cupti);
  g_test_add_func ("/inject/cupti-lacks", test_cupti_lacks);
  g_test_add_func ("/inject/nowhere", test_nowhere);
  g_test_add_data_func ("/inject/signal/term", "term", test_signal);
  g_test_add_data_func ("/inject/signal/segv", "segv", test_signal);
  g_test_add_func ("/inject/signal/program", test_program_signals);
  g_test_add_func ("/inject/fork", test_fork);
  g_test_add_func ("/inject/descriptor", test_descriptor);
  g_test_add_func ("/inject/descriptor/reused", test_reused_descriptor);
  g_test_add_func ("/inject/nvtx-declines", test_nvtx_declines);
  return g_test_run ();
}
