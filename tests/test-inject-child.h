/* test-inject-child.h: the tests of libwarpscope-inject run their own program again as the
 * child that loads the library as the driver would (child_main, given "--child MODE LIBRARY
 * CODE"), and read the trace it leaves into JSON objects. The including file defines
 * _GNU_SOURCE (gettid) before any header. Header only: each test is one program.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>
#include <glib/gstdio.h>
#include <json-glib/json-glib.h>
#include <cupti.h>
#include <dlfcn.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

/* ---- the child: a program that loads the library as the driver would --------------------- */

static int caught_int;

static inline void
own_int_handler (int sig)
{
  caught_int = sig;
}

/* What a small program's trace holds, handed to the stand-in CUPTI as CUPTI's own structs:
 * a context and a module, a launch call and its kernel, a copy, a failing call, NVTX ranges
 * (one whose end comes first, one never ended) and a mark, a synchronization, a JIT compile. */
static inline void
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
static inline int
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
static inline void
fault (void)
{
  volatile int *nowhere = mmap (NULL, 4096, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

  g_assert (nowhere != MAP_FAILED);
  *nowhere = 1;
}

static inline int
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

/* ---- running it ------------------------------------------------------------------------- */

typedef struct
{
  GPtrArray *records; /* JsonObject, one per line of the trace */
  int status;         /* waitpid's */
  char *err;          /* the child's stderr */
} Child;

static inline void
child_clear (Child *c)
{
  g_clear_pointer (&c->records, g_ptr_array_unref);
  g_clear_pointer (&c->err, g_free);
}

static inline void
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
static inline void
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

static inline JsonObject *
record (Child *c, guint i)
{
  return g_ptr_array_index (c->records, i);
}

static inline const char *
type_of (JsonObject *o)
{
  return json_object_get_string_member_with_default (o, "type", "");
}

/* The start of each program: run as the child ("--child MODE LIBRARY CODE"), it is the child
 * and exits with its status; else GLib's tests are set up. */
static inline void
inject_init (int *argc, char ***argv)
{
  if (*argc == 5 && strcmp ((*argv)[1], "--child") == 0)
    exit (child_main ((*argv)[2], (*argv)[3], atoi ((*argv)[4])));
  g_test_init (argc, argv, NULL);
}
