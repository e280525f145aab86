/* test-runner-own.c: warpscope-runner with own kernels on a machine without a GPU: the header
 * read before anything (errors as records with file, line and column), --param and the other
 * options checked against it, --check-source compiling with NVRTC (which needs no GPU) with
 * its errors' lines and columns, the compile cache, and --memcheck without compute-sanitizer
 * and through a stand-in for it.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <glib.h>
#include <glib/gstdio.h>
#include <json-glib/json-glib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "test-util.h"

typedef struct
{
  GPtrArray *records; /* JsonObject */
  int exit_code;
  char *err;
} Out;

static void
out_clear (Out *out)
{
  g_clear_pointer (&out->records, g_ptr_array_unref);
  g_clear_pointer (&out->err, g_free);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (Out, out_clear)

/* The runner as on a machine without the driver; `env` adds NAME=VALUE pairs. */
static void
run (Out *out, const char *const *args, const char *const *env)
{
  g_autoptr (GPtrArray) argv = g_ptr_array_new ();
  g_autoptr (GError) error = NULL;
  g_auto (GStrv) envp = g_get_environ ();
  g_autofree char *stdout_buf = NULL;
  g_auto (GStrv) lines = NULL;
  int status = 0;

  g_ptr_array_add (argv, (gpointer) g_getenv ("WS_RUNNER"));
  for (guint i = 0; args[i] != NULL; i++)
    g_ptr_array_add (argv, (gpointer) args[i]);
  g_ptr_array_add (argv, NULL);
  envp = g_environ_setenv (envp, "WARPSCOPE_LIBCUDA", "/nonexistent/libcuda.so.1", TRUE);
  for (guint i = 0; env != NULL && env[i] != NULL; i++)
    {
      g_auto (GStrv) pair = g_strsplit (env[i], "=", 2);

      envp = g_environ_setenv (envp, pair[0], pair[1], TRUE);
    }
  memset (out, 0, sizeof *out);
  g_assert_true (g_spawn_sync (NULL, (char **) argv->pdata, envp, G_SPAWN_DEFAULT, NULL, NULL,
                               &stdout_buf, &out->err, &status, &error));
  g_assert_no_error (error);
  out->exit_code = WIFEXITED (status) ? WEXITSTATUS (status) : -1;
  out->records = g_ptr_array_new_with_free_func ((GDestroyNotify) json_object_unref);
  lines = g_strsplit (stdout_buf, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      g_autoptr (JsonParser) parser = json_parser_new ();

      if (lines[i][0] == '\0')
        continue;
      json_parser_load_from_data (parser, lines[i], -1, &error);
      g_assert_no_error (error);
      g_ptr_array_add (out->records,
                       json_object_ref (json_node_get_object (json_parser_get_root (parser))));
    }
  g_test_message ("runner %s → %d\n%s", args[0], out->exit_code, out->err);
}

static JsonObject *
find (Out *out, const char *type, guint n)
{
  for (guint i = 0; i < out->records->len; i++)
    {
      JsonObject *o = g_ptr_array_index (out->records, i);

      if (g_strcmp0 (json_object_get_string_member_with_default (o, "type", ""), type) == 0
          && n-- == 0)
        return o;
    }
  return NULL;
}

static JsonObject *
find_error (Out *out, const char *code)
{
  for (guint i = 0; find (out, "error", i) != NULL; i++)
    if (g_strcmp0 (json_object_get_string_member (find (out, "error", i), "code"), code) == 0)
      return find (out, "error", i);
  return NULL;
}

static char *
example (const char *name)
{
  return g_build_filename (g_getenv ("G_TEST_SRCDIR"), "..", "examples", "kernels", name, NULL);
}

/* The header is read before the GPU is looked for: its errors come as header_error records
 * with their place, on any machine, and nothing runs (exit 2). */
static void
test_header_errors (void)
{
  g_autofree char *dir = g_dir_make_tmp ("ws-runner-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "bad.cu", NULL);
  const char *args[] = { "--source", path, NULL };
  g_auto (Out) out = { 0 };
  JsonObject *e;

  g_assert_true (g_file_set_contents (path, "/* warpscope\n * kernel: k\n * size: n = 100\n"
                                      " * arg a: float[n] out\n * grid: ceil_div(n, blok.x)\n"
                                      " * verify: none\n */\n", -1, NULL));
  run (&out, args, NULL);
  g_assert_cmpint (out.exit_code, ==, 2);
  e = find_error (&out, "header_error");
  g_assert_nonnull (e);
  g_assert_cmpstr (json_object_get_string_member (e, "file"), ==, path);
  g_assert_cmpint (json_object_get_int_member (e, "line"), ==, 5);
  g_assert_cmpint (json_object_get_int_member (e, "column"), ==, 22);
  g_assert_nonnull (strstr (json_object_get_string_member (e, "message"), "blok.x"));
  /* and a compiler's line on stderr */
  g_assert_nonnull (strstr (out.err, ":5:22: error: grid: unknown name 'blok.x'"));
  g_assert_null (find (&out, "run", 0));
  g_remove (path);
  g_rmdir (dir);
}

/* What a kernel may include: files of its folder and below, the toolkit's headers. Anything
 * else is refused at its line before NVRTC reads it, and none of its text reaches a record. */
static void
test_includes (void)
{
  g_autofree char *top = g_dir_make_tmp ("ws-runner-XXXXXX", NULL);
  g_autofree char *dir = g_build_filename (top, "kernel", NULL);
  g_autofree char *sub = g_build_filename (dir, "sub", NULL);
  g_autofree char *secret = g_build_filename (top, "secret.h", NULL);
  g_autofree char *path = g_build_filename (dir, "k.cu", NULL);
  g_autofree char *helpers = g_build_filename (sub, "helpers.cuh", NULL);
  g_autofree char *ok = g_build_filename (sub, "ok.cuh", NULL);
  g_autofree char *link = g_build_filename (dir, "link.h", NULL);
  g_autofree char *absolute = g_strdup_printf ("#include \"%s\"\n", secret);
  const char header[] = "/* warpscope\n * kernel: k\n * size: n = 100\n"
                        " * arg a: float[n] out\n * verify: none\n */\n";
  const char body[] = "extern \"C\" __global__ void k (float *a) { a[0] = 1; }\n";
  const struct
  {
    const char *includes; /* after the header's 6 lines */
    const char *file;     /* where the refusal is, NULL for none */
    int line, column;
  } cases[] = {
    { "#include \"../secret.h\"\n", path, 7, 1 },
    { absolute, path, 7, 1 },
    { "const char *s = \"/*\";\n  # /* c */ include SECRET\n", path, 8, 3 },
    { "const char *r = R\"x(/*)x\";\n#include \"../secret.h\"\n", path, 8, 1 },
    { "#include \"sub/helpers.cuh\"\n", helpers, 2, 1 },
    { "#include \"link.h\"\n", path, 7, 1 },
    { "#include \"missing.h\"\n", path, 7, 1 },
    /* allowed: the folder and below, the toolkit, and what is not a directive */
    { "// #include \"../secret.h\"\n/*\n#include \"/etc/passwd\"\n*/\n#include \"sub/ok.cuh\"\n"
      "#include <cuda_runtime_api.h>\n",
      NULL, 0, 0 },
  };

  g_assert_cmpint (g_mkdir_with_parents (sub, 0755), ==, 0);
  g_assert_true (g_file_set_contents (secret, "SECRET_TOKEN_42\n", -1, NULL));
  g_assert_true (g_file_set_contents (helpers, "#define H 1\n#include \"../../secret.h\"\n", -1,
                                      NULL));
  g_assert_true (g_file_set_contents (ok, "#define OK 1\n", -1, NULL));
  g_assert_cmpint (symlink ("../secret.h", link), ==, 0);
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *text = g_strconcat (header, cases[i].includes, body, NULL);
      const char *args[] = { "--source", path, NULL };
      g_auto (Out) out = { 0 };
      JsonObject *e;

      g_test_message ("case %u", i);
      g_assert_true (g_file_set_contents (path, text, -1, NULL));
      run (&out, args, NULL);
      e = find_error (&out, "bad_source");
      for (guint r = 0; r < out.records->len; r++)
        {
          g_autoptr (JsonNode) node = json_node_init_object (json_node_alloc (),
                                                             out.records->pdata[r]);
          g_autofree char *json = json_to_string (node, FALSE);

          g_assert_null (strstr (json, "SECRET_TOKEN"));
        }
      if (cases[i].file == NULL)
        {
          g_assert_null (e);
          g_assert_cmpint (out.exit_code, !=, 2);
          continue;
        }
      g_assert_cmpint (out.exit_code, ==, 2);
      g_assert_nonnull (e);
      g_assert_cmpstr (json_object_get_string_member (e, "file"), ==, cases[i].file);
      g_assert_cmpint (json_object_get_int_member (e, "line"), ==, cases[i].line);
      g_assert_cmpint (json_object_get_int_member (e, "column"), ==, cases[i].column);
      g_assert_nonnull (strstr (json_object_get_string_member (e, "message"), "#include"));
      g_assert_null (find (&out, "compile", 0));
    }
  ws_test_remove_dir (top);
}

/* The options an own kernel takes, checked against its header, before any GPU. */
static void
test_options (void)
{
  g_autofree char *matmul = example ("matmul_tiled.cu");
  g_autofree char *vadd = example ("vector_add.cu");
  struct
  {
    const char *args[12];
    const char *code;
    const char *message;
  } cases[] = {
    { { "--source", matmul, "--param", "TILE=64", "--check", NULL }, "bad_argument",
      "'64' is not one of the values the header lists for TILE" },
    { { "--source", matmul, "--param", "TILES=8", "--check", NULL }, "bad_argument",
      "declares no such parameter; it declares TILE" },
    { { "--source", vadd, "--param", "TILE=8", "--check", NULL }, "bad_argument",
      "it declares none" },
    { { "--source", matmul, "--param", "TILE=8", "--param", "TILE=16", NULL }, "bad_argument",
      "given twice" },
    { { "--source", vadd, "--kernel", "vector_add", NULL }, "bad_argument", "cannot be combined" },
    { { "--source", vadd, "--cpu", "1", NULL }, "bad_argument", "no CPU version" },
    { { "--source", vadd, "--transfer", "streams:2", "--check", NULL }, "unknown_transfer",
      "an own kernel is not cut into pieces" },
    { { "--source", vadd, "--blocks", "16x16", "--check", NULL }, "invalid_block",
      "is a 1D kernel" },
    { { "--source", matmul, "--sizes", "4096x1024", "--check", NULL }, "invalid_size",
      "MxNxK" },
    { { "--source", "/nonexistent/k.cu", NULL }, "bad_source", "cannot read the kernel file" },
    { { "--kernel", "vector_add", "--param", "TILE=8", NULL }, "bad_argument",
      "--param belongs to an own kernel" },
    { { "--source", vadd, "--memcheck", "leakcheck", NULL }, "bad_argument",
      "--memcheck takes memcheck" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_auto (Out) out = { 0 };
      JsonObject *e;

      run (&out, cases[i].args, NULL);
      g_assert_cmpint (out.exit_code, ==, 2);
      e = find_error (&out, cases[i].code);
      if (e == NULL)
        g_error ("case %u: no %s error: %s", i, cases[i].code, out.err);
      if (strstr (json_object_get_string_member (e, "message"), cases[i].message) == NULL)
        g_error ("case %u: “%s” does not say “%s”", i, json_object_get_string_member (e, "message"),
                 cases[i].message);
    }
  /* What is right passes --check. */
  {
    const char *args[] = { "--source", matmul, "--param", "TILE=8,16,32", "--sizes", "512,1024",
                           "--blocks", "8x8,16x16,32x32", "--check", NULL };
    g_auto (Out) out = { 0 };

    run (&out, args, NULL);
    g_assert_cmpint (out.exit_code, ==, 0);
    g_assert_null (find (&out, "error", 0));
  }
}

/* --check-source compiles with NVRTC for the newest architecture of the build when there is
 * no GPU; the second time from the cache. */
static void
test_check_source (void)
{
  g_autofree char *dir = g_dir_make_tmp ("ws-runner-XXXXXX", NULL);
  g_autofree char *cache = g_strdup_printf ("WARPSCOPE_NVRTC_CACHE=%s", dir);
  g_autofree char *matmul = example ("matmul_tiled.cu");
  const char *args[] = { "--check-source", matmul, NULL };
  const char *env[] = { cache, NULL };
  g_auto (Out) first = { 0 };
  g_auto (Out) second = { 0 };
  JsonObject *kernel, *source, *c;

  run (&first, args, env);
  if (find_error (&first, "nvrtc_unavailable") != NULL)
    {
      g_test_skip ("NVRTC cannot be loaded here");
      return;
    }
  g_assert_cmpint (first.exit_code, ==, 0);
  g_assert_nonnull (find_error (&first, "no_device"));
  kernel = find (&first, "kernel", 0);
  g_assert_true (json_object_get_boolean_member (kernel, "own"));
  g_assert_cmpstr (json_object_get_string_member (kernel, "name"), ==, "matmul_tiled");
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (kernel, "params")), ==,
                    1);
  source = find (&first, "source", 0);
  g_assert_nonnull (strstr (json_object_get_string_member (source, "text"),
                            "extern \"C\" __global__ void\nmatmul_tiled"));
  g_assert_cmpstr (json_object_get_string_member (source, "sha256"), ==,
                   json_object_get_string_member (kernel, "source_hash"));
  /* Three values of TILE, and the reference. */
  for (guint i = 0; i < 4; i++)
    {
      c = find (&first, "compile", i);
      g_assert_nonnull (c);
      g_assert_true (json_object_get_boolean_member (c, "ok"));
      g_assert_false (json_object_get_boolean_member (c, "cached"));
      g_assert_true (g_str_has_prefix (json_object_get_string_member (c, "arch"), "sm_"));
      g_assert_cmpint (json_object_get_boolean_member (c, "reference"), ==, i == 3);
    }
  c = find (&first, "compile", 1);
  {
    JsonArray *options = json_object_get_array_member (c, "options");
    gboolean tile = FALSE, lineinfo = FALSE;

    for (guint i = 0; i < json_array_get_length (options); i++)
      {
        tile |= g_strcmp0 (json_array_get_string_element (options, i), "-DTILE=8") == 0;
        lineinfo |= g_strcmp0 (json_array_get_string_element (options, i), "-lineinfo") == 0;
      }
    g_assert_true (tile && lineinfo);
  }
  run (&second, args, env);
  g_assert_cmpint (second.exit_code, ==, 0);
  for (guint i = 0; i < 4; i++)
    {
      c = find (&second, "compile", i);
      g_assert_true (json_object_get_boolean_member (c, "cached"));
      g_assert_cmpstr (json_object_get_string_member (c, "key"), ==,
                       json_object_get_string_member (find (&first, "compile", i), "key"));
    }
  /* Another architecture is another entry. */
  {
    const char *args80[] = { "--check-source", matmul, "--arch", "sm_80", NULL };
    g_auto (Out) other = { 0 };

    run (&other, args80, env);
    g_assert_cmpint (other.exit_code, ==, 0);
    c = find (&other, "compile", 0);
    g_assert_cmpstr (json_object_get_string_member (c, "arch"), ==, "sm_80");
    g_assert_false (json_object_get_boolean_member (c, "cached"));
  }
  {
    g_autoptr (GDir) d = g_dir_open (dir, 0, NULL);
    const char *name;

    while ((name = g_dir_read_name (d)) != NULL)
      {
        g_autofree char *p = g_build_filename (dir, name, NULL);

        g_remove (p);
      }
  }
  g_rmdir (dir);
}

/* A compile error comes back with its line and column as NVRTC gives them, and a name in the
 * header that the file does not define is the header's error. */
static void
test_compile_errors (void)
{
  g_autofree char *dir = g_dir_make_tmp ("ws-runner-XXXXXX", NULL);
  g_autofree char *cache = g_strdup_printf ("WARPSCOPE_NVRTC_CACHE=%s", dir);
  g_autofree char *vadd = example ("vector_add.cu");
  g_autofree char *text = NULL;
  g_autofree char *typo = g_build_filename (dir, "typo.cu", NULL);
  g_autofree char *wrong = g_build_filename (dir, "wrong.cu", NULL);
  const char *env[] = { cache, NULL };
  g_autoptr (GString) t = NULL;

  g_assert_true (g_file_get_contents (vadd, &text, NULL, NULL));
  t = g_string_new (text);
  g_assert_cmpuint (g_string_replace (t, "c[idx] = a[idx] + b[idx];", "c[idx] = a[idx] + bb[idx];",
                                      1), ==, 1);
  g_assert_true (g_file_set_contents (typo, t->str, -1, NULL));
  g_string_assign (t, text);
  g_assert_cmpuint (g_string_replace (t, " * kernel:      vector_add\n",
                                      " * kernel:      vector_sum\n", 1), ==, 1);
  g_assert_true (g_file_set_contents (wrong, t->str, -1, NULL));
  {
    const char *args[] = { "--check-source", typo, NULL };
    g_auto (Out) out = { 0 };
    JsonObject *e;

    run (&out, args, env);
    if (find_error (&out, "nvrtc_unavailable") != NULL)
      {
        g_test_skip ("NVRTC cannot be loaded here");
        return;
      }
    g_assert_cmpint (out.exit_code, ==, 2);
    e = find_error (&out, "compile_error");
    g_assert_nonnull (e);
    g_assert_cmpstr (json_object_get_string_member (e, "file"), ==, typo);
    g_assert_cmpint (json_object_get_int_member (e, "line"), ==, 26);
    g_assert_cmpint (json_object_get_int_member (e, "column"), ==, 23);
    g_assert_cmpstr (json_object_get_string_member (e, "message"), ==,
                     "identifier \"bb\" is undefined");
    g_assert_false (json_object_get_boolean_member (find (&out, "compile", 0), "ok"));
    g_assert_nonnull (strstr (json_object_get_string_member (find (&out, "compile", 0), "log"),
                              "is undefined"));
  }
  {
    const char *args[] = { "--check-source", wrong, NULL };
    g_auto (Out) out = { 0 };
    JsonObject *e;

    run (&out, args, env);
    g_assert_cmpint (out.exit_code, ==, 2);
    e = find_error (&out, "header_error");
    g_assert_nonnull (e);
    g_assert_cmpint (json_object_get_int_member (e, "line"), ==, 4);
    g_assert_nonnull (strstr (json_object_get_string_member (e, "message"),
                              "'vector_sum' is not a __global__ function of this file"));
  }
  g_remove (typo);
  g_remove (wrong);
  {
    g_autoptr (GDir) d = g_dir_open (dir, 0, NULL);
    const char *name;

    while ((name = g_dir_read_name (d)) != NULL)
      {
        g_autofree char *p = g_build_filename (dir, name, NULL);

        g_remove (p);
      }
  }
  g_rmdir (dir);
}

/* Without compute-sanitizer the memory check says so, plainly. */
static void
test_memcheck_unavailable (void)
{
  g_autofree char *oob = example ("vector_add_oob.cu");
  const char *args[] = { "--source", oob, "--memcheck", "memcheck", NULL };
  const char *env[] = { "PATH=/nonexistent", "WARPSCOPE_COMPUTE_SANITIZER=/nonexistent/cs",
                        NULL };
  g_auto (Out) out = { 0 };
  JsonObject *e;

  run (&out, args, env);
  g_assert_cmpint (out.exit_code, ==, 3);
  e = find_error (&out, "sanitizer_unavailable");
  g_assert_nonnull (e);
  g_assert_nonnull (strstr (json_object_get_string_member (e, "message"),
                            "compute-sanitizer is not installed (looked in PATH and "
                            "/usr/local/cuda/bin)"));
  g_assert_nonnull (find (&out, "source", 0));
}

/* A memory check's recording names the GPU it ran on: the checked run's device record is
 * kept, as a sweep's recording has it. A stand-in compute-sanitizer writes what the checked
 * runner would (its device record on stdout, a clean report in --log-file). */
static void
test_memcheck_device (void)
{
  g_autofree char *dir = g_dir_make_tmp ("ws-memcheck-XXXXXX", NULL);
  g_autofree char *cs = g_build_filename (dir, "compute-sanitizer", NULL);
  g_autofree char *cs_env = g_strdup_printf ("WARPSCOPE_COMPUTE_SANITIZER=%s", cs);
  g_autofree char *oob = example ("vector_add_oob.cu");
  const char *args[] = { "--source", oob, "--memcheck", "memcheck", NULL };
  const char *env[] = { cs_env, NULL };
  g_auto (Out) out = { 0 };
  JsonObject *device, *summary;

  g_assert_true (g_file_set_contents (
    cs, "#!/bin/sh\n"
        "while [ $# -gt 0 ]; do [ \"$1\" = --log-file ] && log=$2; shift; done\n"
        "echo '========= ERROR SUMMARY: 0 errors' > \"$log\"\n"
        "echo '{\"type\":\"hello\",\"t\":0,\"protocol\":1}'\n"
        "echo '{\"type\":\"device\",\"t\":1,\"index\":0,\"name\":\"NVIDIA H200\"}'\n"
        "echo '{\"type\":\"done\",\"t\":2,\"runs\":1,\"failed\":0,\"exit_code\":0}'\n",
    -1, NULL));
  g_assert_cmpint (g_chmod (cs, 0755), ==, 0);
  run (&out, args, env);
  device = find (&out, "device", 0);
  summary = find (&out, "memcheck_summary", 0);
  g_assert_nonnull (device);
  g_assert_cmpstr (json_object_get_string_member (device, "name"), ==, "NVIDIA H200");
  g_assert_null (find (&out, "device", 1));
  g_assert_nonnull (summary);
  g_assert_cmpint (json_object_get_int_member (summary, "findings"), ==, 0);
  g_assert_cmpint (out.exit_code, ==, 0);
  g_unlink (cs);
  g_rmdir (dir);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/runner-own/header-errors", test_header_errors);
  g_test_add_func ("/runner-own/options", test_options);
  g_test_add_func ("/runner-own/includes", test_includes);
  g_test_add_func ("/runner-own/check-source", test_check_source);
  g_test_add_func ("/runner-own/compile-errors", test_compile_errors);
  g_test_add_func ("/runner-own/memcheck-unavailable", test_memcheck_unavailable);
  g_test_add_func ("/runner-own/memcheck-device", test_memcheck_device);
  return g_test_run ();
}
