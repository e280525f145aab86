/* test-inject.c: libwarpscope-inject on a machine without a GPU: it exports its two entry
 * points and nothing else; loaded into a program without the driver (or without CUPTI, or
 * told nowhere to write) it fails cleanly and says why, and the program ends as it would have;
 * its closing record names the exit status or the signal; a forked child writes nothing of
 * its parent's; the trace reaches an inherited descriptor, never a reused one. With stand-ins
 * for CUPTI and the driver (inject-fake-cupti.c, inject-fake-cuda.c) it traces: CUPTI's
 * records become the protocol's, through the writer thread, the periodic flush, and the end
 * of the trace at exit and on a signal.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define _GNU_SOURCE /* gettid */
#include <glib.h>
#include <glib/gstdio.h>
#include <json-glib/json-glib.h>
#include <cupti.h>
#include <dlfcn.h>
#include <fcntl.h>
#include <signal.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

/* ---- the child: a program that loads the library as the driver would --------------------- */

static int caught_int;

static void
own_int_handler (int sig)
{
  caught_int = sig;
}

/* What a small program's trace holds, handed to the stand-in CUPTI as CUPTI's own structs:
 * a context and a module, a launch call and its kernel, a copy, a failing call, NVTX ranges
 * (one whose end comes first, one never ended) and a mark, a synchronization, a JIT compile. */
static void
emit_program (void)
{
  void *fake = dlopen (g_getenv ("WARPSCOPE_LIBCUPTI"), RTLD_NOW | RTLD_LOCAL);
  void (*record) (const void *, size_t);
  void (*resource) (CUpti_CallbackId, guint32, guint32, size_t);
  CUptiResult (*timestamp) (guint64 *);
  guint32 tid = (guint32) gettid ();
  CUpti_ActivityAPI api = { 0 };
  CUpti_ActivityKernel10 k = { 0 };
  CUpti_ActivityMemcpy6 m = { 0 };
  CUpti_ActivityMarker2 mark = { 0 };
  CUpti_ActivitySynchronization2 sync = { 0 };
  CUpti_ActivityJit2 jit = { 0 };
  guint64 t0;

  g_assert_nonnull (fake);
  *(void **) &record = dlsym (fake, "fake_cupti_record");
  *(void **) &resource = dlsym (fake, "fake_cupti_resource");
  *(void **) &timestamp = dlsym (fake, "cuptiGetTimestamp");
  timestamp (&t0);
  resource (CUPTI_CBID_RESOURCE_CONTEXT_CREATED, 1, 0, 0);
  resource (CUPTI_CBID_RESOURCE_MODULE_LOADED, 1, 5, 1234);

  api.kind = CUPTI_ACTIVITY_KIND_RUNTIME;
  api.cbid = CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_v7000;
  api.start = t0 + 1000, api.end = t0 + 8000;
  api.threadId = tid;
  api.correlationId = 10;
  record (&api, sizeof api);
  api.cbid = CUPTI_RUNTIME_TRACE_CBID_cudaMemcpy_v3020;
  api.start = t0 + 9000, api.end = t0 + 9500;
  api.correlationId = 11;
  api.returnValue = 1; /* cudaErrorInvalidValue */
  record (&api, sizeof api);

  k.kind = CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL;
  k.start = t0 + 5000, k.end = t0 + 41500;
  k.contextId = 1, k.streamId = 7, k.correlationId = 10;
  k.gridX = 39063, k.gridY = 1, k.gridZ = 1;
  k.blockX = 256, k.blockY = 1, k.blockZ = 1;
  k.registersPerThread = 16;
  k.name = "_Z10add_kernelPKfS0_Pfi";
  record (&k, sizeof k);
  k.name = "scale"; /* a C kernel: not mangled */
  k.correlationId = 13;
  record (&k, sizeof k);

  m.kind = CUPTI_ACTIVITY_KIND_MEMCPY;
  m.copyKind = CUPTI_ACTIVITY_MEMCPY_KIND_HTOD;
  m.srcKind = CUPTI_ACTIVITY_MEMORY_KIND_PAGEABLE;
  m.dstKind = CUPTI_ACTIVITY_MEMORY_KIND_DEVICE;
  m.bytes = 40000000;
  m.start = t0 + 42000, m.end = t0 + 5142000;
  m.contextId = 1, m.streamId = 7, m.correlationId = 11;
  record (&m, sizeof m);

  mark.kind = CUPTI_ACTIVITY_KIND_MARKER;
  mark.objectKind = CUPTI_ACTIVITY_OBJECT_THREAD;
  mark.objectId.pt.threadId = tid;
  mark.flags = CUPTI_ACTIVITY_FLAG_MARKER_START, mark.id = 1, mark.name = "loop";
  mark.timestamp = t0 + 100;
  record (&mark, sizeof mark);
  mark.flags = CUPTI_ACTIVITY_FLAG_MARKER_END, mark.name = NULL, mark.timestamp = t0 + 50000;
  record (&mark, sizeof mark);
  mark.flags = CUPTI_ACTIVITY_FLAG_MARKER_END, mark.id = 3, mark.timestamp = t0 + 70000;
  record (&mark, sizeof mark);
  mark.flags = CUPTI_ACTIVITY_FLAG_MARKER_START, mark.name = "late start";
  mark.timestamp = t0 + 60000;
  record (&mark, sizeof mark);
  mark.flags = CUPTI_ACTIVITY_FLAG_MARKER_START, mark.id = 2, mark.name = "never ended";
  record (&mark, sizeof mark);
  mark.flags = CUPTI_ACTIVITY_FLAG_MARKER_INSTANTANEOUS, mark.id = 4, mark.name = "done";
  mark.timestamp = t0 + 80000;
  record (&mark, sizeof mark);

  sync.kind = CUPTI_ACTIVITY_KIND_SYNCHRONIZATION;
  sync.type = CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_CONTEXT_SYNCHRONIZE;
  sync.start = t0 + 42000, sync.end = t0 + 43000;
  sync.contextId = 1, sync.correlationId = 12;
  sync.streamId = CUPTI_SYNCHRONIZATION_INVALID_VALUE;
  sync.cudaEventId = CUPTI_SYNCHRONIZATION_INVALID_VALUE;
  record (&sync, sizeof sync);

  jit.kind = CUPTI_ACTIVITY_KIND_JIT;
  jit.jitEntryType = CUPTI_ACTIVITY_JIT_ENTRY_PTX_TO_CUBIN;
  jit.jitOperationType = CUPTI_ACTIVITY_JIT_OPERATION_COMPILE;
  jit.start = t0 + 200, jit.end = t0 + 900;
  jit.cachePath = "/tmp/jit-cache";
  record (&jit, sizeof jit);
}

/* Counts the kernel records already in the trace file. */
static int
kernels_written (void)
{
  g_autofree char *text = NULL;
  int n = 0;

  if (!g_file_get_contents (g_getenv ("WARPSCOPE_TRACE_FILE"), &text, NULL, NULL))
    return 0;
  for (const char *p = text; (p = strstr (p, "\"kind\":\"kernel\"")) != NULL; p++)
    n++;
  return n;
}


/* A real fault, as a program's bug makes one: a store to a page that allows no access (not
 * to NULL, which the compiler may treat as undefined and UBSan stops at). */
static void
fault (void)
{
  volatile int *nowhere = mmap (NULL, 4096, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

  g_assert (nowhere != MAP_FAILED);
  *nowhere = 1;
}

static int
child_main (const char *mode, const char *lib_path, int code)
{
  void *lib;
  int (*init) (void);
  int (*init_nvtx) (const void *(*) (guint32));

  if (strcmp (mode, "own-int") == 0)
    {
      struct sigaction sa = { 0 };

      sa.sa_handler = own_int_handler;
      sigaction (SIGINT, &sa, NULL);
    }
  if (strcmp (mode, "ignored-term") == 0)
    signal (SIGTERM, SIG_IGN);
  lib = dlopen (lib_path, RTLD_NOW | RTLD_LOCAL);
  if (lib == NULL)
    return 90;
  *(void **) &init = dlsym (lib, "InitializeInjection");
  *(void **) &init_nvtx = dlsym (lib, "InitializeInjectionNvtx2");
  if (strcmp (mode, "nvtx") == 0)
    return init_nvtx (NULL) == 0 ? code : 91;
  if (init () != 1 || init () != 1)
    return 92;
  if (g_str_has_prefix (mode, "trace"))
    {
      emit_program ();
      mode += strlen ("trace-");
    }
  if (strcmp (mode, "periodic") == 0)
    {
      g_usleep (800000); /* several flush periods: the writer writes what CUPTI delivers */
      return 40 + kernels_written ();
    }
  if (strcmp (mode, "term") == 0 || strcmp (mode, "ignored-term") == 0)
    raise (SIGTERM);
  else if (strcmp (mode, "segv") == 0)
    {
      struct rlimit no_core = { 0, 0 };

      setrlimit (RLIMIT_CORE, &no_core);
      fault ();
    }
  else if (strcmp (mode, "own-int") == 0)
    {
      raise (SIGINT);
      return caught_int == SIGINT ? code : 93;
    }
  else if (strcmp (mode, "fork") == 0)
    {
      void *fake = dlopen (g_getenv ("WARPSCOPE_LIBCUPTI"), RTLD_NOW | RTLD_NOLOAD);
      CUptiResult (*flush) (guint32) = NULL;
      pid_t pid;

      /* Records on their way: in the library's queue or its output, not yet written. */
      if (fake != NULL && (*(void **) &flush = dlsym (fake, "cuptiActivityFlushAll")) != NULL)
        flush (0);
      pid = fork ();
      int status;

      if (pid == 0)
        exit (0); /* runs the exit handlers the parent's library registered */
      waitpid (pid, &status, 0);
    }
  return code;
}

/* ---- the tests ---------------------------------------------------------------------------- */

typedef struct
{
  GPtrArray *records; /* JsonObject, one per line of the trace */
  int status;         /* waitpid's */
  char *err;          /* the child's stderr */
} Child;

static void
child_clear (Child *c)
{
  g_clear_pointer (&c->records, g_ptr_array_unref);
  g_clear_pointer (&c->err, g_free);
}

static void
parse_lines (Child *c, const char *text)
{
  g_auto (GStrv) lines = g_strsplit (text, "\n", -1);

  c->records = g_ptr_array_new_with_free_func ((GDestroyNotify) json_object_unref);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      g_autoptr (JsonParser) parser = json_parser_new ();
      g_autoptr (GError) error = NULL;
      JsonNode *root;

      if (lines[i][0] == '\0')
        continue;
      if (!json_parser_load_from_data (parser, lines[i], -1, &error))
        g_error ("line %u of the trace is not JSON (%s): %s", i + 1, error->message, lines[i]);
      root = json_parser_get_root (parser);
      g_assert_true (JSON_NODE_HOLDS_OBJECT (root));
      g_ptr_array_add (c->records, json_object_ref (json_node_get_object (root)));
    }
}

/* Runs this program as the child in `mode`, the library loaded, with `env` (NAME=VALUE pairs,
 * NULL-terminated) added; the trace goes to a file unless `trace_fd` (a pipe's write end) is
 * given, which the child inherits as descriptor 3. */
static void
run_child (Child *c, const char *mode, int code, const char *const *env, int trace_fd,
           int read_fd)
{
  g_autofree char *self = g_file_read_link ("/proc/self/exe", NULL);
  g_autofree char *dir = g_dir_make_tmp ("ws-inject-XXXXXX", NULL);
  g_autofree char *trace = g_build_filename (dir, "trace.jsonl", NULL);
  g_autofree char *err_path = g_build_filename (dir, "stderr", NULL);
  g_autofree char *code_text = g_strdup_printf ("%d", code);
  g_autofree char *text = NULL;
  g_auto (GStrv) environ = g_get_environ ();
  const char *argv[] = { self, "--child", mode, g_getenv ("WS_INJECT_LIB"), code_text, NULL };
  pid_t pid;

  g_assert_nonnull (self);
  g_assert_nonnull (dir);
  g_assert_nonnull (argv[3]);
  environ = g_environ_unsetenv (environ, "WARPSCOPE_TRACE_FILE");
  environ = g_environ_unsetenv (environ, "WARPSCOPE_TRACE_FD");
  /* A machine without the driver, even where there is one. */
  environ = g_environ_setenv (environ, "WARPSCOPE_LIBCUDA", "/nonexistent/libcuda.so.1", TRUE);
  if (trace_fd < 0)
    environ = g_environ_setenv (environ, "WARPSCOPE_TRACE_FILE", trace, TRUE);
  /* Under AddressSanitizer (./dev test's build-asan) a child that faults dies of its SIGSEGV,
   * as it would without, instead of ASan reporting the fault and aborting. */
  if (g_str_has_suffix (mode, "segv"))
    {
      g_autofree char *asan = g_strdup_printf ("%s:handle_segv=0", g_getenv ("ASAN_OPTIONS") ?: "");

      environ = g_environ_setenv (environ, "ASAN_OPTIONS", asan, TRUE);
    }
  for (guint i = 0; env != NULL && env[i] != NULL; i++)
    {
      g_auto (GStrv) kv = g_strsplit (env[i], "=", 2);

      environ = g_environ_setenv (environ, kv[0], kv[1], TRUE);
    }
  pid = fork ();
  g_assert_cmpint (pid, >=, 0);
  if (pid == 0)
    {
      int err = open (err_path, O_WRONLY | O_CREAT | O_TRUNC, 0600);

      dup2 (err, 2);
      if (trace_fd >= 0)
        {
          close (read_fd); /* first: it may be descriptor 3 */
          if (trace_fd != 3)
            dup2 (trace_fd, 3);
        }
      execve (self, (char **) argv, environ);
      _exit (127);
    }
  if (trace_fd >= 0)
    close (trace_fd);
  g_assert_cmpint (waitpid (pid, &c->status, 0), ==, pid);
  if (trace_fd >= 0)
    {
      GString *s = g_string_new (NULL);
      char buf[4096];
      ssize_t n;

      while ((n = read (read_fd, buf, sizeof buf)) > 0)
        g_string_append_len (s, buf, n);
      close (read_fd);
      text = g_string_free (s, FALSE);
    }
  else if (!g_file_get_contents (trace, &text, NULL, NULL))
    text = g_strdup ("");
  g_file_get_contents (err_path, &c->err, NULL, NULL);
  parse_lines (c, text);
  g_unlink (trace);
  g_unlink (err_path);
  g_rmdir (dir);
}

static JsonObject *
record (Child *c, guint i)
{
  return g_ptr_array_index (c->records, i);
}

static const char *
type_of (JsonObject *o)
{
  return json_object_get_string_member_with_default (o, "type", "");
}

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

/* ---- tracing, with stand-ins for CUPTI and the driver ------------------------------------- */

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
  if (argc == 5 && strcmp (argv[1], "--child") == 0)
    return child_main (argv[2], argv[3], atoi (argv[4]));
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/inject/exports", test_exports);
  g_test_add_func ("/inject/no-driver", test_no_driver);
  g_test_add_func ("/inject/no-cupti", test_no_cupti);
  g_test_add_func ("/inject/nowhere", test_nowhere);
  g_test_add_data_func ("/inject/signal/term", "term", test_signal);
  g_test_add_data_func ("/inject/signal/segv", "segv", test_signal);
  g_test_add_func ("/inject/signal/program", test_program_signals);
  g_test_add_func ("/inject/fork", test_fork);
  g_test_add_func ("/inject/descriptor", test_descriptor);
  g_test_add_func ("/inject/descriptor/reused", test_reused_descriptor);
  g_test_add_func ("/inject/nvtx-declines", test_nvtx_declines);
  g_test_add_func ("/inject/nvtx-forwards", test_nvtx_forwards);
  g_test_add_func ("/inject/trace/exit", test_trace_exit);
  g_test_add_data_func ("/inject/trace/term", "trace-term", test_trace_signal);
  g_test_add_data_func ("/inject/trace/segv", "trace-segv", test_trace_signal);
  g_test_add_func ("/inject/trace/periodic", test_trace_periodic);
  g_test_add_func ("/inject/trace/fork", test_trace_fork);
  return g_test_run ();
}
