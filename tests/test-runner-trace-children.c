/* test-runner-trace-children.c: warpscope-runner --trace of a program whose CUDA work is done
 * by other processes than the first, on a machine without a GPU: this test program is run
 * again as the traced program (a stand-in, "--stand-in MODE DIR"), and each of its processes
 * that "initializes CUDA" loads libwarpscope-inject from CUDA_INJECTION64_PATH as the driver
 * would, with the stand-in CUPTI. A child started as Python's multiprocessing spawn starts
 * one (every inherited descriptor closed, then exec), a forked child, a program that execs
 * another CUDA program, a process that closes every descriptor: each is traced, apart, with
 * its parent. A process that cannot reach the trace says so, and the runner does not say
 * that the program never initialized CUDA.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define _GNU_SOURCE /* gettid, close_range */
#include "test-inject-child.h"

#include "test-util.h"

/* ---- the stand-in: the traced program ---------------------------------------------------- */

static void
write_pid (const char *dir, const char *name)
{
  g_autofree char *path = g_build_filename (dir, name, NULL);
  g_autofree char *text = g_strdup_printf ("%d\n", (int) getpid ());

  g_assert_true (g_file_set_contents (path, text, -1, NULL));
}

/* What the driver does at a process's first CUDA call, then a small program's records. */
static void
use_cuda (void)
{
  void *lib = dlopen (g_getenv ("CUDA_INJECTION64_PATH"), RTLD_NOW | RTLD_LOCAL);
  int (*init) (void);

  g_assert_nonnull (lib);
  *(void **) &init = dlsym (lib, "InitializeInjection");
  g_assert_true (init () == 1);
  emit_program ();
}

/* Every descriptor but stdin, stdout and stderr closed, as multiprocessing's spawn and
 * daemons do. */
static void
close_inherited (void)
{
  for (int fd = 3; fd < 1024; fd++)
    close (fd);
}

/* This program again, as `mode`, in a child that first closes what it inherited when told. */
static int
run_again (const char *mode, const char *dir, gboolean close_first)
{
  g_autofree char *self = g_file_read_link ("/proc/self/exe", NULL);
  const char *argv[] = { self, "--stand-in", mode, dir, NULL };
  pid_t pid = fork ();
  int status;

  g_assert_cmpint (pid, >=, 0);
  if (pid == 0)
    {
      if (close_first)
        close_inherited ();
      execv (self, (char **) argv);
      _exit (127);
    }
  g_assert_cmpint (waitpid (pid, &status, 0), ==, pid);
  return WIFEXITED (status) ? WEXITSTATUS (status) : 128 + WTERMSIG (status);
}

static int
stand_in (const char *mode, const char *dir)
{
  if (strcmp (mode, "cuda") == 0)
    {
      write_pid (dir, "cuda");
      use_cuda ();
      return 0;
    }
  write_pid (dir, "top");
  if (strcmp (mode, "spawn") == 0)
    return run_again ("cuda", dir, TRUE);
  if (strcmp (mode, "exec") == 0)
    {
      use_cuda ();
      return run_again ("cuda", dir, FALSE);
    }
  if (strcmp (mode, "fork") == 0)
    {
      pid_t pid = fork ();
      int status;

      if (pid == 0)
        {
          write_pid (dir, "cuda");
          use_cuda ();
          exit (0); /* the library's exit handler closes its trace */
        }
      g_assert_cmpint (waitpid (pid, &status, 0), ==, pid);
      return WIFEXITED (status) ? WEXITSTATUS (status) : 99;
    }
  if (strcmp (mode, "closefds") == 0)
    close_inherited ();
  /* A socket that cannot be reached (another user's, a container's): the descriptor is
   * used instead, or, closed too, nothing. */
  if (strcmp (mode, "unreachable") == 0 || strcmp (mode, "fallback") == 0)
    g_setenv ("WARPSCOPE_TRACE_SOCKET", "/nonexistent/warpscope-trace.sock", TRUE);
  if (strcmp (mode, "unreachable") == 0)
    close_inherited ();
  use_cuda ();
  return 0;
}

/* ---- the runner -------------------------------------------------------------------------- */

static void
trace (Child *c, const char *mode, const char *dir)
{
  g_autofree char *self = g_file_read_link ("/proc/self/exe", NULL);
  const char *argv[] = { g_getenv ("WS_RUNNER"), "--trace", "--no-ceilings", "--", self,
                         "--stand-in", mode, dir, NULL };
  g_auto (GStrv) env = g_get_environ ();
  g_autoptr (GError) error = NULL;
  g_autofree char *out = NULL;

  env = g_environ_setenv (env, "WARPSCOPE_LIBCUDA", g_getenv ("WS_FAKE_CUDA"), TRUE);
  env = g_environ_setenv (env, "WARPSCOPE_LIBCUPTI", g_getenv ("WS_FAKE_CUPTI"), TRUE);
  env = g_environ_setenv (env, "WARPSCOPE_INJECT", g_getenv ("WS_INJECT_LIB"), TRUE);
  env = g_environ_unsetenv (env, "WARPSCOPE_TRACE_SOCKET");
  memset (c, 0, sizeof *c);
  g_assert_true (g_spawn_sync (NULL, (char **) argv, env, G_SPAWN_DEFAULT, NULL, NULL, &out,
                               &c->err, &c->status, &error));
  g_assert_no_error (error);
  g_test_message ("%s: runner → %d\n%s", mode, c->status, c->err);
  parse_lines (c, out);
}

static GPtrArray *
of_type (Child *c, const char *type)
{
  GPtrArray *out = g_ptr_array_new ();

  for (guint i = 0; i < c->records->len; i++)
    if (g_str_equal (type_of (record (c, i)), type))
      g_ptr_array_add (out, record (c, i));
  return out;
}

static JsonObject *
first_of (Child *c, const char *type)
{
  g_autoptr (GPtrArray) all = of_type (c, type);

  return all->len > 0 ? g_ptr_array_index (all, 0) : NULL;
}

static JsonObject *
error_with (Child *c, const char *code)
{
  g_autoptr (GPtrArray) errors = of_type (c, "error");

  for (guint i = 0; i < errors->len; i++)
    if (g_str_equal (json_object_get_string_member (g_ptr_array_index (errors, i), "code"), code))
      return g_ptr_array_index (errors, i);
  return NULL;
}

/* The hello of process `pid`, NULL when it did not report. */
static JsonObject *
hello_of (Child *c, gint64 pid)
{
  for (guint i = 0; i < c->records->len; i++)
    if (g_str_equal (type_of (record (c, i)), "hello")
        && json_object_get_int_member_with_default (record (c, i), "pid", -1) == pid)
      return record (c, i);
  return NULL;
}

/* What process `pid` traced: its kernels, and its trace's end; its parent `ppid` (-1: the
 * runner, whose pid is not the test's to know). */
static void
assert_traced (Child *c, gint64 pid, gint64 ppid)
{
  JsonObject *hello = hello_of (c, pid);
  guint kernels = 0, ends = 0;

  g_assert_nonnull (hello);
  if (ppid >= 0)
    g_assert_cmpint (json_object_get_int_member (hello, "ppid"), ==, ppid);
  else
    g_assert_cmpint (json_object_get_int_member (hello, "ppid"), >, 1);
  g_assert_cmpint (json_object_get_int_member (hello, "program_run"), ==, 1);
  for (guint i = 0; i < c->records->len; i++)
    {
      JsonObject *r = record (c, i);

      if (json_object_get_int_member_with_default (r, "pid", -1) != pid)
        continue;
      kernels += g_str_equal (type_of (r), "activity")
                 && g_str_equal (json_object_get_string_member_with_default (r, "kind", ""),
                                 "kernel");
      ends += g_str_equal (type_of (r), "trace_end");
    }
  g_assert_cmpuint (kernels, ==, 2); /* emit_program's two */
  g_assert_cmpuint (ends, ==, 1);
}

/* Each process that used CUDA is traced, apart from the others, with its parent. */
static void
test_children (gconstpointer data)
{
  const char *mode = data;
  g_autofree char *dir = g_dir_make_tmp ("ws-children-XXXXXX", NULL);
  Child c;
  JsonObject *end;
  int top;

  trace (&c, mode, dir);
  g_assert_true (WIFEXITED (c.status));
  g_assert_cmpint (WEXITSTATUS (c.status), ==, 0);
  g_assert_null (error_with (&c, "no_cuda_activity"));
  g_assert_null (error_with (&c, "trace_unreachable"));
  g_assert_null (strstr (c.err, "cannot report"));
  top = ws_test_read_number (dir, "top");
  end = first_of (&c, "program_end");
  if (g_str_equal (mode, "closefds"))
    {
      assert_traced (&c, top, -1);
      g_assert_cmpint (json_object_get_int_member (end, "processes"), ==, 1);
    }
  else
    {
      int cuda = ws_test_read_number (dir, "cuda");

      g_assert_cmpint (cuda, !=, top);
      assert_traced (&c, cuda, top);
      /* Only what used CUDA reports: the first process of spawn and fork did not. */
      if (g_str_equal (mode, "exec"))
        g_assert_nonnull (hello_of (&c, top));
      else
        g_assert_null (hello_of (&c, top));
      g_assert_cmpint (json_object_get_int_member (end, "processes"), ==,
                       g_str_equal (mode, "exec") ? 2 : 1);
    }
  g_assert_cmpint (json_object_get_int_member (end, "ended_processes"), ==,
                   json_object_get_int_member (end, "processes"));
  g_assert_cmpint (json_object_get_int_member (end, "dropped_lines"), ==, 0);
  child_clear (&c);
  ws_test_remove_dir (dir);
}

/* The socket out of reach, the inherited descriptor kept: the process is traced through the
 * descriptor, and its trace says why. */
static void
test_fallback (void)
{
  g_autofree char *dir = g_dir_make_tmp ("ws-children-XXXXXX", NULL);
  Child c;
  JsonObject *e;
  int top;

  trace (&c, "fallback", dir);
  g_assert_cmpint (WEXITSTATUS (c.status), ==, 0);
  top = ws_test_read_number (dir, "top");
  g_assert_nonnull (hello_of (&c, top));
  e = error_with (&c, "trace_unreachable");
  g_assert_nonnull (e);
  g_assert_cmpint (json_object_get_int_member (e, "pid"), ==, top);
  g_assert_cmpstr (json_object_get_string_member (e, "severity"), ==, "warning");
  g_assert_nonnull (strstr (json_object_get_string_member (e, "message"),
                            "cannot connect to WARPSCOPE_TRACE_SOCKET"));
  g_assert_null (error_with (&c, "no_cuda_activity"));
  child_clear (&c);
  ws_test_remove_dir (dir);
}

/* Neither the socket nor a descriptor: the process says on stderr that it initialized CUDA
 * and could not report, and the runner does not claim that it never initialized CUDA. */
static void
test_unreachable (void)
{
  g_autofree char *dir = g_dir_make_tmp ("ws-children-XXXXXX", NULL);
  g_autofree char *said = NULL;
  Child c;
  JsonObject *e;
  const char *message;

  trace (&c, "unreachable", dir);
  g_assert_cmpint (WEXITSTATUS (c.status), ==, 1);
  said = g_strdup_printf ("process %d initialized CUDA but cannot report to the trace",
                          ws_test_read_number (dir, "top"));
  g_assert_nonnull (strstr (c.err, said));
  e = error_with (&c, "no_cuda_activity");
  g_assert_nonnull (e);
  message = json_object_get_string_member (e, "message");
  g_assert_null (strstr (message, "never initialized CUDA"));
  g_assert_nonnull (strstr (message, "no process of it reported to the trace"));
  g_assert_nonnull (strstr (message, "could not reach the trace"));
  child_clear (&c);
  ws_test_remove_dir (dir);
}

/* The socket and its folder are gone once the run ends. */
static void
test_socket_removed (void)
{
  g_autofree char *dir = g_dir_make_tmp ("ws-children-XXXXXX", NULL);
  Child c;

  g_setenv ("TMPDIR", dir, TRUE);
  trace (&c, "spawn", dir);
  g_unsetenv ("TMPDIR");
  g_assert_cmpint (WEXITSTATUS (c.status), ==, 0);
  {
    g_autoptr (GPtrArray) left = ws_test_list_dir (dir, "");

    for (guint i = 0; i < left->len; i++)
      g_assert_false (g_str_has_prefix (g_ptr_array_index (left, i), "warpscope-trace-"));
  }
  child_clear (&c);
  ws_test_remove_dir (dir);
}

int
main (int argc, char **argv)
{
  if (argc == 4 && strcmp (argv[1], "--stand-in") == 0)
    return stand_in (argv[2], argv[3]);
  g_test_init (&argc, &argv, NULL);
  if (g_getenv ("WS_RUNNER") == NULL || g_getenv ("WS_FAKE_CUPTI") == NULL)
    g_error ("WS_RUNNER, WS_FAKE_CUDA, WS_FAKE_CUPTI and WS_INJECT_LIB must be set");
  g_test_add_data_func ("/runner-trace-children/spawn", "spawn", test_children);
  g_test_add_data_func ("/runner-trace-children/fork", "fork", test_children);
  g_test_add_data_func ("/runner-trace-children/exec", "exec", test_children);
  g_test_add_data_func ("/runner-trace-children/closefds", "closefds", test_children);
  g_test_add_func ("/runner-trace-children/fallback", test_fallback);
  g_test_add_func ("/runner-trace-children/unreachable", test_unreachable);
  g_test_add_func ("/runner-trace-children/socket-removed", test_socket_removed);
  return g_test_run ();
}
